//! CloudTrail. `aws:cloudtrail:trail` is DescribeTrails in every region, shadow trails
//! included (a multi-region trail is listed in every region it covers, and an
//! organization's trails in member accounts), each trail kept once: in its home region when
//! that region is collected, else in the first collected region that lists it. A trail's
//! region is its home region. Its `status` (GetTrailStatus) and `event_selectors`
//! (GetEventSelectors) are members, each called only when a rule reads it, with the trail's
//! ARN (which CloudTrail answers for shadow trails too).

use aws_sdk_cloudtrail::types as ct;
use aws_sdk_cloudtrail::Client;
use cloudspec_model::from_json::JsonResource;
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{en, list, r, tag_map, ts};
use super::fetch::{arn_account, each_page, one_call, per_resource, Fetched, Once, Task};

/// `aws:cloudtrail:trail` in the task's region.
pub(crate) async fn trails(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::cloudtrail(&t.config, &t.region, &t.ctx.attempts);
    let request = client.describe_trails().include_shadow_trails(true).send();
    let mut found = Vec::new();
    each_page(
        &t.ctx,
        Some(&t.region),
        listing,
        Once::new(request),
        |page| {
            for trail in page.trail_list() {
                let home = trail.home_region().unwrap_or(&t.region);
                if keeps(t, home) {
                    found.extend(resource(t, trail, home));
                }
            }
        },
    )
    .await?;
    let errors = per_resource(t, &mut found, &client, Some(&t.region)).await;
    Ok((found, errors))
}

/// Whether the task's region keeps a trail whose home is `home`: its home region does, and
/// when the home region is not collected, the first collected region.
fn keeps(t: &Task, home: &str) -> bool {
    if home == t.region {
        return true;
    }
    !t.regions.iter().any(|r| r == home) && t.regions.first() == Some(&t.region)
}

fn resource(t: &Task, trail: &ct::Trail, home: &str) -> Option<JsonResource> {
    let arn = trail.trail_arn()?;
    let props = json!({
        "name": trail.name(),
        "trail_arn": arn,
        "home_region": home,
        "s3_bucket_name": trail.s3_bucket_name(),
        "s3_key_prefix": trail.s3_key_prefix(),
        "sns_topic_arn": trail.sns_topic_arn(),
        "include_global_service_events": trail.include_global_service_events(),
        "is_multi_region_trail": trail.is_multi_region_trail(),
        "is_organization_trail": trail.is_organization_trail(),
        "log_file_validation_enabled": trail.log_file_validation_enabled(),
        "cloud_watch_logs_log_group_arn": trail.cloud_watch_logs_log_group_arn(),
        "cloud_watch_logs_log_group": r("aws:logs:log_group", trail.cloud_watch_logs_log_group_arn()),
        "cloud_watch_logs_role_arn": trail.cloud_watch_logs_role_arn(),
        "kms_key_id": trail.kms_key_id(),
        "has_custom_event_selectors": trail.has_custom_event_selectors(),
        "has_insight_selectors": trail.has_insight_selectors(),
    });
    let Json::Object(properties) = props else {
        return None;
    };
    Some(JsonResource {
        type_name: t.ty.name.to_string(),
        id: arn.to_string(),
        region: Some(home.to_string()),
        account: arn_account(Some(arn)).map(str::to_string),
        properties,
    })
}

one_call! {
    /// GetTrailStatus.
    status(o: Client) = o.client.get_trail_status().name(o.id)
        => |s| json!({
            "is_logging": s.is_logging(),
            "latest_delivery_error": s.latest_delivery_error(),
            "latest_delivery_time": ts(s.latest_delivery_time()),
            "latest_cloud_watch_logs_delivery_error": s.latest_cloud_watch_logs_delivery_error(),
            "latest_cloud_watch_logs_delivery_time": ts(s.latest_cloud_watch_logs_delivery_time()),
            "start_logging_time": ts(s.start_logging_time()),
            "stop_logging_time": ts(s.stop_logging_time()),
        })
}

one_call! {
    /// GetEventSelectors: the basic and the advanced event selectors (a trail has one kind).
    event_selectors(o: Client) = o.client.get_event_selectors().trail_name(o.id)
        => |out| json!({
            "event_selectors": list(out.event_selectors(), |e| json!({
                "read_write_type": en(e.read_write_type()),
                "include_management_events": e.include_management_events(),
                "exclude_management_event_sources": e.exclude_management_event_sources(),
                "data_resources": list(e.data_resources(), |d| json!({
                    "type": d.r#type(),
                    "values": d.values(),
                })),
            })),
            "advanced_event_selectors": list(out.advanced_event_selectors(), |a| json!({
                "name": a.name(),
                "field_selectors": list(a.field_selectors(), |f| json!({
                    "field": f.field(),
                    "equals": f.equals(),
                    "starts_with": f.starts_with(),
                    "ends_with": f.ends_with(),
                    "not_equals": f.not_equals(),
                    "not_starts_with": f.not_starts_with(),
                    "not_ends_with": f.not_ends_with(),
                })),
            })),
        })
}

one_call! {
    /// ListTags of one trail as a key-value object.
    tags(o: Client) = o.client.list_tags().resource_id_list(o.id)
        => |out| tag_map(
            out.resource_tag_list()
                .iter()
                .flat_map(|r| r.tags_list())
                .map(|t| (Some(t.key()), t.value())),
        )
}
