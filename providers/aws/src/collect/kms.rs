//! KMS: `aws:kms:key`, every page of ListKeys in the task's region, each key with its
//! DescribeKey (one call per key, part of the listing: who manages the key, its spec,
//! usage and state are what almost every rule filters on; id = the key's ARN). Per-key
//! members, each made only when a rule reads it: `key_rotation_enabled` and
//! `rotation_period_in_days` (one GetKeyRotationStatus per key for both), `policy`
//! (GetKeyPolicy `default`), `tags` (ListResourceTags).
//!
//! A key whose DescribeKey fails stays in the inventory with its id and ARN; the failure
//! is an error of the members DescribeKey fills ([`DESCRIBED`]) only. GetKeyRotationStatus
//! answers `UnsupportedOperationException` for keys that cannot rotate automatically
//! (asymmetric and HMAC keys, imported key material, custom key stores) and
//! `KMSInvalidStateException` for keys pending deletion or import: for those the rotation
//! members are null (rotation does not apply), not an error, so a rule on the keys that can
//! rotate is not voided by keys it filters out. Any other failure (access denied) is an
//! error of the member.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use aws_sdk_kms::error::ProvideErrorMetadata;
use aws_sdk_kms::operation::get_key_rotation_status::GetKeyRotationStatusOutput;
use aws_sdk_kms::types::KeyMetadata;
use cloudspec_model::from_json::JsonResource;
use cloudspec_model::CollectionError;
use serde_json::{json, Value as Json};
use tokio::sync::OnceCell;
use tokio::task::JoinSet;

use super::client;
use super::convert::{document, en, tag_map, ts};
use super::ctx::api_error;
use super::fetch::{
    arn_account, each_page, one_call, per_resource, BoxFuture, Failures, Fetched, On, Task,
};

/// The members DescribeKey fills (besides `key_id` and `arn`, which ListKeys gives).
pub(crate) const DESCRIBED: &[&str] = &[
    "aws_account_id",
    "creation_date",
    "enabled",
    "description",
    "key_usage",
    "key_state",
    "deletion_date",
    "valid_to",
    "origin",
    "custom_key_store_id",
    "expiration_model",
    "key_manager",
    "key_spec",
    "encryption_algorithms",
    "signing_algorithms",
    "mac_algorithms",
    "multi_region",
    "pending_deletion_window_in_days",
];

/// The KMS client the per-key members are read with: the SDK's, and each key's
/// GetKeyRotationStatus answer, asked once for both members that read it.
#[derive(Clone)]
pub(crate) struct Client {
    sdk: aws_sdk_kms::Client,
    rotation: Arc<Mutex<HashMap<String, Arc<OnceCell<Rotation>>>>>,
}

/// A key's GetKeyRotationStatus answer: `None` where rotation does not apply, or the
/// failure's message.
type Rotation = Result<Option<GetKeyRotationStatusOutput>, String>;

impl Client {
    fn new(sdk: aws_sdk_kms::Client) -> Self {
        Client {
            sdk,
            rotation: Arc::default(),
        }
    }
}

/// `aws:kms:key`: ListKeys, then DescribeKey for every key at once (each waits for a slot
/// under `--concurrency`), then the members the plan needs.
pub(crate) async fn keys(t: &Task) -> Fetched {
    let [list_keys, describe_key] = t.ty.calls else {
        return Err(format!("{}: expected two calls", t.ty.name));
    };
    let client = Client::new(client::kms(&t.config, &t.region, &t.ctx.attempts));
    let mut listed = Vec::new();
    let pages = client
        .sdk
        .list_keys()
        .limit(t.page(1000))
        .into_paginator()
        .send();
    each_page(&t.ctx, Some(&t.region), list_keys, pages, |page| {
        for k in page.keys() {
            if let (Some(id), Some(arn)) = (k.key_id(), k.key_arn()) {
                listed.push((id.to_string(), arn.to_string()));
            }
        }
    })
    .await?;
    let mut calls = JoinSet::new();
    for (index, (id, _)) in listed.iter().enumerate() {
        let (ctx, client, id) = (t.ctx.clone(), client.sdk.clone(), id.clone());
        let region = t.region.clone();
        calls.spawn(async move {
            let request = client.describe_key().key_id(id).send();
            let out = ctx.request(Some(&region), describe_key, request).await;
            (index, out.map(|o| o.key_metadata().map(described)))
        });
    }
    let mut metadata: Vec<Option<Json>> = vec![None; listed.len()];
    let mut failed = Failures::default();
    while let Some(joined) = calls.join_next().await {
        match joined {
            Ok((index, Ok(m))) => {
                if let Some(slot) = metadata.get_mut(index) {
                    *slot = m;
                }
            }
            Ok((_, Err(message))) => failed.add(message),
            Err(e) => failed.add(format!("internal error: {e}")),
        }
    }
    let mut found = Vec::new();
    for ((id, arn), m) in listed.iter().zip(metadata) {
        let mut props = match m {
            Some(Json::Object(props)) => props,
            _ => serde_json::Map::new(),
        };
        props.insert("key_id".into(), json!(id));
        props.insert("arn".into(), json!(arn));
        found.push(JsonResource {
            type_name: t.ty.name.to_string(),
            id: arn.clone(),
            region: Some(t.region.clone()),
            account: arn_account(Some(arn)).map(str::to_string),
            properties: props,
        });
    }
    let mut errors = Vec::new();
    if let Some(message) = failed.message("keys") {
        errors.push(
            CollectionError::new(t.ty.name, Some(t.region.clone()), message).of_members(DESCRIBED),
        );
    }
    errors.extend(per_resource(t, &mut found, &client, Some(&t.region)).await);
    Ok((found, errors))
}

/// DescribeKey's KeyMetadata (the members of [`DESCRIBED`]).
fn described(k: &KeyMetadata) -> Json {
    json!({
        "aws_account_id": k.aws_account_id(),
        "creation_date": ts(k.creation_date()),
        "enabled": k.enabled(),
        "description": k.description(),
        "key_usage": en(k.key_usage()),
        "key_state": en(k.key_state()),
        "deletion_date": ts(k.deletion_date()),
        "valid_to": ts(k.valid_to()),
        "origin": en(k.origin()),
        "custom_key_store_id": k.custom_key_store_id(),
        "expiration_model": en(k.expiration_model()),
        "key_manager": en(k.key_manager()),
        "key_spec": en(k.key_spec()),
        "encryption_algorithms": k.encryption_algorithms().iter().map(|a| a.as_str()).collect::<Vec<_>>(),
        "signing_algorithms": k.signing_algorithms().iter().map(|a| a.as_str()).collect::<Vec<_>>(),
        "mac_algorithms": k.mac_algorithms().iter().map(|a| a.as_str()).collect::<Vec<_>>(),
        "multi_region": k.multi_region(),
        "pending_deletion_window_in_days": k.pending_deletion_window_in_days(),
    })
}

/// GetKeyRotationStatus's answer read by `pick`; null where rotation does not apply. The
/// key's first member to ask sends the call; the other waits for its answer.
fn rotation_status<'a>(
    o: &'a On<'a, Client>,
    pick: fn(&GetKeyRotationStatusOutput) -> Json,
) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let cell = match o.client.rotation.lock() {
            Ok(mut answers) => answers.entry(o.id.to_string()).or_default().clone(),
            Err(_) => Arc::default(),
        };
        let answer = cell
            .get_or_init(|| async {
                let request = o.client.sdk.get_key_rotation_status().key_id(o.id).send();
                match o.ctx.send(o.region, o.call, request).await {
                    Ok(out) => Ok(Some(out)),
                    Err(e) if rotation_does_not_apply(e.code()) => Ok(None),
                    Err(e) => Err(api_error(o.call.operation, &e)),
                }
            })
            .await;
        match answer {
            Ok(Some(out)) => Ok(pick(out)),
            Ok(None) => Ok(Json::Null),
            Err(message) => Err(message.clone()),
        }
    })
}

/// Whether GetKeyRotationStatus's error code says the key cannot rotate automatically (its
/// spec, origin or key store), or not in its state (pending deletion or import).
fn rotation_does_not_apply(code: Option<&str>) -> bool {
    matches!(
        code,
        Some("UnsupportedOperationException" | "KMSInvalidStateException")
    )
}

/// GetKeyRotationStatus: whether automatic rotation is on.
pub(crate) fn key_rotation_enabled<'a>(
    o: &'a On<'a, Client>,
) -> BoxFuture<'a, Result<Json, String>> {
    rotation_status(o, |out| json!(out.key_rotation_enabled()))
}

/// GetKeyRotationStatus: the days between automatic rotations.
pub(crate) fn rotation_period_in_days<'a>(
    o: &'a On<'a, Client>,
) -> BoxFuture<'a, Result<Json, String>> {
    rotation_status(o, |out| json!(out.rotation_period_in_days()))
}

one_call! {
    /// GetKeyPolicy of the `default` policy (the only name KMS knows), parsed.
    policy(o: Client) = o.client.sdk.get_key_policy().key_id(o.id).policy_name("default")
        => |out| document(out.policy())
}

one_call! {
    /// ListResourceTags as a key-value object.
    tags(o: Client) = o.client.sdk.list_resource_tags().key_id(o.id).limit(50)
        => |out| tag_map(out.tags().iter().map(|t| (Some(t.tag_key()), Some(t.tag_value()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_cannot_rotate_are_told_from_failures() {
        assert!(rotation_does_not_apply(Some(
            "UnsupportedOperationException"
        )));
        assert!(rotation_does_not_apply(Some("KMSInvalidStateException")));
        assert!(!rotation_does_not_apply(Some("AccessDeniedException")));
        assert!(!rotation_does_not_apply(None));
    }
}
