//! AWS Config, per region: `aws:config:configuration_recorder` is
//! DescribeConfigurationRecorders with each recorder's DescribeConfigurationRecorderStatus
//! (one call per region for all of them) as its `status`, and
//! `aws:config:delivery_channel` is DescribeDeliveryChannels. A recorder or channel without
//! an ARN (every delivery channel, and recorders before service-linked ones) is named
//! `REGION/NAME`: names are unique per region only.

use std::collections::BTreeMap;

use aws_sdk_config::types as cfg;
use cloudspec_model::from_json::JsonResource;
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{en, list, opt, ts};
use super::fetch::{arn_account, each_page, Fetched, Once, Task};

/// `aws:config:configuration_recorder` in the task's region, each with its status.
pub(crate) async fn recorders(t: &Task) -> Fetched {
    let [listing, statuses] = t.ty.calls else {
        return Err(format!("{}: expected two calls", t.ty.name));
    };
    let client = client::config(&t.config, &t.region, &t.ctx.attempts);
    let mut recorders = Vec::new();
    let request = client.describe_configuration_recorders().send();
    each_page(
        &t.ctx,
        Some(&t.region),
        listing,
        Once::new(request),
        |page| {
            recorders.extend(page.configuration_recorders().iter().cloned());
        },
    )
    .await?;
    let mut by_name: BTreeMap<String, Json> = BTreeMap::new();
    if !recorders.is_empty() {
        let request = client.describe_configuration_recorder_status().send();
        each_page(
            &t.ctx,
            Some(&t.region),
            statuses,
            Once::new(request),
            |page| {
                for s in page.configuration_recorders_status() {
                    by_name.insert(s.name().unwrap_or_default().to_string(), status(s));
                }
            },
        )
        .await?;
    }
    let found = recorders
        .iter()
        .filter_map(|r| {
            let name = r.name()?;
            let props = json!({
                "name": name,
                "arn": r.arn(),
                "role_arn": r.role_arn(),
                "recording_group": opt(r.recording_group(), recording_group),
                "recording_mode": opt(r.recording_mode(), |m| json!({
                    "recording_frequency": m.recording_frequency().as_str(),
                })),
                "status": by_name.get(name).cloned().unwrap_or(Json::Null),
            });
            resource(t, r.arn(), name, props)
        })
        .collect();
    Ok((found, Vec::new()))
}

fn recording_group(g: &cfg::RecordingGroup) -> Json {
    json!({
        "all_supported": g.all_supported(),
        "include_global_resource_types": g.include_global_resource_types(),
        "resource_types": list(g.resource_types(), |t| json!(t.as_str())),
        "exclusion_by_resource_types": opt(g.exclusion_by_resource_types(), |e| json!({
            "resource_types": list(e.resource_types(), |t| json!(t.as_str())),
        })),
        "recording_strategy": opt(g.recording_strategy(), |s| json!({
            "use_only": en(s.use_only()),
        })),
    })
}

fn status(s: &cfg::ConfigurationRecorderStatus) -> Json {
    json!({
        "recording": s.recording(),
        "last_status": en(s.last_status()),
        "last_start_time": ts(s.last_start_time()),
        "last_stop_time": ts(s.last_stop_time()),
        "last_status_change_time": ts(s.last_status_change_time()),
        "last_error_code": s.last_error_code(),
        "last_error_message": s.last_error_message(),
    })
}

/// `aws:config:delivery_channel` in the task's region.
pub(crate) async fn delivery_channels(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::config(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    let request = client.describe_delivery_channels().send();
    each_page(&t.ctx, Some(&t.region), listing, Once::new(request), |page| {
        for c in page.delivery_channels() {
            let Some(name) = c.name() else { continue };
            let props = json!({
                "name": name,
                "s3_bucket_name": c.s3_bucket_name(),
                "s3_key_prefix": c.s3_key_prefix(),
                "s3_kms_key_arn": c.s3_kms_key_arn(),
                "sns_topic_arn": c.sns_topic_arn(),
                "config_snapshot_delivery_properties": opt(c.config_snapshot_delivery_properties(), |p| json!({
                    "delivery_frequency": en(p.delivery_frequency()),
                })),
            });
            found.extend(resource(t, None, name, props));
        }
    })
    .await?;
    Ok((found, Vec::new()))
}

/// A resource of the task's type in its region ([`Task::resource`]): id its ARN, else
/// `REGION/NAME`.
fn resource(t: &Task, arn: Option<&str>, name: &str, props: Json) -> Option<JsonResource> {
    let id = arn.map_or_else(|| format!("{}/{name}", t.region), str::to_string);
    t.resource(Some(&id), arn_account(arn), props)
}
