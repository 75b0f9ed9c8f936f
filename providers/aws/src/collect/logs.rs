//! CloudWatch Logs: `aws:logs:log_group`, every page of DescribeLogGroups in the task's
//! region. The id is the log group's `arn` as DescribeLogGroups answers it, ending in `:*`
//! (`arn:aws:logs:REGION:ACCOUNT:log-group:NAME:*`): the same string CloudTrail names its
//! log group by (`CloudWatchLogsLogGroupArn`). Members `metric_filters`
//! (DescribeMetricFilters of the group, every page) and `tags` (ListTagsForResource) are
//! made only when a rule reads them.

use aws_sdk_cloudwatchlogs::types::{LogGroup, MetricFilter};
use aws_sdk_cloudwatchlogs::Client;
use aws_smithy_types::DateTime;
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{en, list, r, tag_map, ts};
use super::fetch::{arn_account, each_page, listing, per_resource, BoxFuture, Fetched, On, Task};

const KMS_KEY: &str = "aws:kms:key";

/// `aws:logs:log_group`.
pub(crate) async fn log_groups(t: &Task) -> Fetched {
    let client = client::logs(&t.config, &t.region, &t.ctx.attempts);
    // limit: at most 50.
    let pages = client
        .describe_log_groups()
        .limit(t.page(50))
        .into_paginator()
        .send();
    let mut found = listing(
        t,
        pages,
        |p| {
            p.log_groups()
                .iter()
                .map(|g| (g, arn_account(g.arn())))
                .collect()
        },
        LogGroup::arn,
        log_group,
    )
    .await?;
    let errors = per_resource(t, &mut found, &client, Some(&t.region)).await;
    Ok((found, errors))
}

/// Milliseconds since the epoch as an RFC 3339 timestamp.
fn millis(v: Option<i64>) -> Json {
    ts(v.map(DateTime::from_millis).as_ref())
}

fn log_group(g: &LogGroup) -> Json {
    json!({
        "log_group_name": g.log_group_name(),
        "arn": g.arn(),
        "log_group_arn": g.log_group_arn(),
        "creation_time": millis(g.creation_time()),
        "retention_in_days": g.retention_in_days(),
        "metric_filter_count": g.metric_filter_count(),
        "stored_bytes": g.stored_bytes(),
        "kms_key_id": g.kms_key_id(),
        "kms_key": r(KMS_KEY, g.kms_key_id()),
        "data_protection_status": en(g.data_protection_status()),
        "log_group_class": en(g.log_group_class()),
        "deletion_protection_enabled": g.deletion_protection_enabled(),
    })
}

/// The log group name of its id (`arn:aws:logs:REGION:ACCOUNT:log-group:NAME:*`); names
/// cannot contain `:`.
fn group_name(arn: &str) -> &str {
    let rest = arn.split_once(":log-group:").map_or(arn, |(_, rest)| rest);
    rest.strip_suffix(":*").unwrap_or(rest)
}

/// DescribeMetricFilters of the group, every page.
pub(crate) fn metric_filters<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let mut filters = Vec::new();
        let pages = o
            .client
            .describe_metric_filters()
            .log_group_name(group_name(o.id))
            .limit(50)
            .into_paginator()
            .send();
        each_page(o.ctx, o.region, o.call, pages, |page| {
            filters.extend(page.metric_filters().iter().map(metric_filter));
        })
        .await?;
        Ok(Json::Array(filters))
    })
}

fn metric_filter(f: &MetricFilter) -> Json {
    json!({
        "filter_name": f.filter_name(),
        "filter_pattern": f.filter_pattern(),
        "creation_time": millis(f.creation_time()),
        "metric_transformations": list(f.metric_transformations(), |m| json!({
            "metric_name": m.metric_name(),
            "metric_namespace": m.metric_namespace(),
            "metric_value": m.metric_value(),
            "default_value": m.default_value(),
            "unit": en(m.unit()),
        })),
    })
}

/// ListTagsForResource of the group (its ARN without the trailing `:*`), as a key-value
/// object.
pub(crate) fn tags<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let arn = o.id.strip_suffix(":*").unwrap_or(o.id);
        let request = o.client.list_tags_for_resource().resource_arn(arn);
        let out = o.ctx.request(o.region, o.call, request.send()).await?;
        let tags = out.tags().into_iter().flatten();
        Ok(tag_map(
            tags.map(|(k, v)| (Some(k.as_str()), Some(v.as_str()))),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_group_names_are_read_from_their_arns() {
        assert_eq!(
            group_name("arn:aws:logs:us-east-1:123456789012:log-group:/aws/trail/x:*"),
            "/aws/trail/x"
        );
        assert_eq!(
            group_name("arn:aws:logs:us-east-1:123456789012:log-group:plain"),
            "plain"
        );
    }
}
