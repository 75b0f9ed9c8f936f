//! SNS: `aws:sns:topic`, every page of ListTopics in the task's region (id = the topic's
//! ARN). Members, each made only when a rule reads it: `subscriptions`
//! (ListSubscriptionsByTopic, every page), `attributes` (GetTopicAttributes, the
//! attribute map in snake_case with typed values, policies parsed) and `tags`
//! (ListTagsForResource).

use std::collections::HashMap;

use aws_sdk_sns::Client;
use serde_json::{json, Map, Value as Json};

use super::client;
use super::convert::{document, tag_map};
use super::fetch::{
    arn_account, each_page, listing, one_call, per_resource, BoxFuture, Fetched, On, Task,
};

/// `aws:sns:topic`.
pub(crate) async fn topics(t: &Task) -> Fetched {
    let client = client::sns(&t.config, &t.region, &t.ctx.attempts);
    // ListTopics pages hold 100 topics; it has no page size.
    let pages = client.list_topics().into_paginator().send();
    let mut found = listing(
        t,
        pages,
        |p| {
            p.topics()
                .iter()
                .map(|topic| (topic, arn_account(topic.topic_arn())))
                .collect()
        },
        aws_sdk_sns::types::Topic::topic_arn,
        |topic| json!({ "topic_arn": topic.topic_arn() }),
    )
    .await?;
    let errors = per_resource(t, &mut found, &client, Some(&t.region)).await;
    Ok((found, errors))
}

/// ListSubscriptionsByTopic, every page.
pub(crate) fn subscriptions<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let mut subscriptions = Vec::new();
        let pages = o
            .client
            .list_subscriptions_by_topic()
            .topic_arn(o.id)
            .into_paginator()
            .send();
        each_page(o.ctx, o.region, o.call, pages, |page| {
            for s in page.subscriptions() {
                subscriptions.push(json!({
                    "subscription_arn": s.subscription_arn(),
                    "protocol": s.protocol(),
                    "endpoint": s.endpoint(),
                    "owner": s.owner(),
                }));
            }
        })
        .await?;
        Ok(Json::Array(subscriptions))
    })
}

one_call! {
    /// ListTagsForResource of the topic, as a key-value object.
    tags(o: Client) = o.client.list_tags_for_resource().resource_arn(o.id)
        => |out| tag_map(out.tags().iter().map(|t| (Some(t.key()), Some(t.value()))))
}

/// How a topic attribute's string is read.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Integer,
    Boolean,
    Document,
}

/// The attributes `attributes` holds: GetTopicAttributes' key, its member, its kind.
const ATTRIBUTES: &[(&str, &str, Kind)] = &[
    ("TopicArn", "topic_arn", Kind::Text),
    ("Owner", "owner", Kind::Text),
    ("DisplayName", "display_name", Kind::Text),
    ("KmsMasterKeyId", "kms_master_key_id", Kind::Text),
    ("SignatureVersion", "signature_version", Kind::Text),
    ("TracingConfig", "tracing_config", Kind::Text),
    ("FifoTopic", "fifo_topic", Kind::Boolean),
    (
        "ContentBasedDeduplication",
        "content_based_deduplication",
        Kind::Boolean,
    ),
    (
        "SubscriptionsConfirmed",
        "subscriptions_confirmed",
        Kind::Integer,
    ),
    (
        "SubscriptionsPending",
        "subscriptions_pending",
        Kind::Integer,
    ),
    (
        "SubscriptionsDeleted",
        "subscriptions_deleted",
        Kind::Integer,
    ),
    ("Policy", "policy", Kind::Document),
    ("DeliveryPolicy", "delivery_policy", Kind::Document),
    (
        "EffectiveDeliveryPolicy",
        "effective_delivery_policy",
        Kind::Document,
    ),
];

one_call! {
    /// GetTopicAttributes: the attributes of [`ATTRIBUTES`], null where the topic has none
    /// (an attribute set to the empty string, as SNS answers an unset `DeliveryPolicy`, too).
    attributes(o: Client) = o.client.get_topic_attributes().topic_arn(o.id)
        => |out| typed_attributes(out.attributes())
}

fn typed_attributes(map: Option<&HashMap<String, String>>) -> Json {
    let mut out = Map::new();
    for (key, name, kind) in ATTRIBUTES {
        let raw = map
            .and_then(|m| m.get(*key))
            .map(String::as_str)
            .filter(|v| !v.is_empty());
        let value = match (raw, kind) {
            (None, _) => Json::Null,
            (Some(v), Kind::Text) => json!(v),
            (Some(v), Kind::Integer) => v.parse::<i64>().map_or(json!(v), |n| json!(n)),
            (Some(v), Kind::Boolean) => match v {
                "true" => json!(true),
                "false" => json!(false),
                other => json!(other),
            },
            (Some(v), Kind::Document) => document(Some(v)),
        };
        out.insert((*name).to_string(), value);
    }
    Json::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_attributes_are_typed() {
        let map: HashMap<String, String> = [
            ("SubscriptionsConfirmed", "2"),
            ("FifoTopic", "false"),
            ("DeliveryPolicy", ""),
            ("Policy", r#"{"Version":"2008-10-17"}"#),
            ("Unknown", "x"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let a = typed_attributes(Some(&map));
        assert_eq!(a["subscriptions_confirmed"], 2);
        assert_eq!(a["fifo_topic"], false);
        assert_eq!(a["delivery_policy"], Json::Null);
        assert_eq!(a["kms_master_key_id"], Json::Null);
        assert_eq!(a["policy"]["Version"], "2008-10-17");
        assert!(a.get("unknown").is_none());
    }
}
