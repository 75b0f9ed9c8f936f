//! CloudWatch: `aws:cloudwatch:alarm`, the metric alarms of every page of DescribeAlarms in
//! the task's region (id = the alarm's ARN). `alarm_actions` keeps every action ARN; the
//! SNS topics among them are the association `alarm_action_topics`. Member `tags`
//! (ListTagsForResource) is made only when a rule reads it.

use aws_sdk_cloudwatch::types::MetricAlarm;
use aws_sdk_cloudwatch::Client;
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{en, list, refs, strs, tag_map, ts};
use super::fetch::{arn_account, listing, one_call, per_resource, Fetched, Task};

const TOPIC: &str = "aws:sns:topic";

/// `aws:cloudwatch:alarm`.
pub(crate) async fn alarms(t: &Task) -> Fetched {
    let client = client::cloudwatch(&t.config, &t.region, &t.ctx.attempts);
    // MaxRecords: at most 100; without AlarmTypes, metric alarms only.
    let pages = client
        .describe_alarms()
        .max_records(t.page(100))
        .into_paginator()
        .send();
    let mut found = listing(
        t,
        pages,
        |p| {
            p.metric_alarms()
                .iter()
                .map(|a| (a, arn_account(a.alarm_arn())))
                .collect()
        },
        MetricAlarm::alarm_arn,
        alarm,
    )
    .await?;
    let errors = per_resource(t, &mut found, &client, Some(&t.region)).await;
    Ok((found, errors))
}

one_call! {
    /// ListTagsForResource of the alarm, as a key-value object.
    tags(o: Client) = o.client.list_tags_for_resource().resource_arn(o.id)
        => |out| tag_map(out.tags().iter().map(|t| (t.key(), t.value())))
}

/// Whether an action ARN is an SNS topic's (`arn:aws:sns:REGION:ACCOUNT:NAME`).
pub(crate) fn is_topic(arn: &str) -> bool {
    arn.split(':').nth(2) == Some("sns")
}

fn alarm(a: &MetricAlarm) -> Json {
    json!({
        "alarm_name": a.alarm_name(),
        "alarm_arn": a.alarm_arn(),
        "alarm_description": a.alarm_description(),
        "actions_enabled": a.actions_enabled(),
        "alarm_actions": strs(a.alarm_actions().iter().map(String::as_str)),
        "alarm_action_topics": refs(TOPIC, a.alarm_actions().iter().map(String::as_str).filter(|arn| is_topic(arn))),
        "ok_actions": strs(a.ok_actions().iter().map(String::as_str)),
        "insufficient_data_actions": strs(a.insufficient_data_actions().iter().map(String::as_str)),
        "state_value": en(a.state_value()),
        "state_reason": a.state_reason(),
        "state_updated_timestamp": ts(a.state_updated_timestamp()),
        "alarm_configuration_updated_timestamp": ts(a.alarm_configuration_updated_timestamp()),
        "metric_name": a.metric_name(),
        "namespace": a.namespace(),
        "statistic": en(a.statistic()),
        "extended_statistic": a.extended_statistic(),
        "dimensions": list(a.dimensions(), |d| json!({"name": d.name(), "value": d.value()})),
        "period": a.period(),
        "unit": en(a.unit()),
        "evaluation_periods": a.evaluation_periods(),
        "datapoints_to_alarm": a.datapoints_to_alarm(),
        "threshold": a.threshold(),
        "comparison_operator": en(a.comparison_operator()),
        "treat_missing_data": a.treat_missing_data(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sns_actions_are_topics() {
        assert!(is_topic("arn:aws:sns:us-east-1:123456789012:alarms"));
        assert!(!is_topic("arn:aws:automate:us-east-1:ec2:stop"));
        assert!(!is_topic("not an arn"));
    }
}
