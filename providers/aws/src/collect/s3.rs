//! S3 buckets. S3 is global: ListBuckets once, each bucket's region from the listing (or
//! GetBucketLocation), then one call per bucket for each setting a rule reads, sent to the
//! bucket's region, all concurrently under the shared limit. A setting that is not
//! configured (NoSuchBucketPolicy, ...) is null; any other failure is a collection error.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use aws_config::SdkConfig;
use aws_sdk_s3::error::ProvideErrorMetadata;
use aws_sdk_s3::types::{Grant, Grantee};
use aws_sdk_s3::Client;
use cloudspec_model::{CollectionError, CollectionPlan};
use serde_json::{json, Map, Value as Json};
use tokio::task::JoinSet;

use super::client;
use super::convert::{document, en, list, opt, tag_map, ts};
use super::ctx::{api_error, call, pages, Ctx};
use super::Collected;
use crate::catalog::needed_members;

const BUCKET: &str = "aws:s3:bucket";

/// Error codes that mean "this setting is not configured": the member is null.
const NOT_CONFIGURED: &[&str] = &[
    "NoSuchBucketPolicy",
    "ServerSideEncryptionConfigurationNotFoundError",
    "NoSuchPublicAccessBlockConfiguration",
    "OwnershipControlsNotFoundError",
    "NoSuchTagSet",
];

/// A bucket being collected.
struct Bucket {
    name: String,
    region: String,
    props: Map<String, Json>,
}

/// Every bucket with the settings the plan needs, plus the errors met on the way.
pub(crate) async fn collect(
    ctx: Arc<Ctx>,
    config: &SdkConfig,
    home_region: &str,
    plan: &CollectionPlan,
) -> (Vec<Collected>, Vec<CollectionError>) {
    let attempts = ctx.attempts.clone();
    let home = client::s3(config, home_region, &attempts);
    let mut errors = Vec::new();
    let mut buckets = match list_buckets(&ctx, &home).await {
        Ok(b) => b,
        Err(message) => return (Vec::new(), vec![error(None, message)]),
    };
    locate(&ctx, &home, &mut buckets, &mut errors).await;
    let clients = regional_clients(config, &buckets, &attempts);
    let settings: Vec<_> = needed_members(plan, BUCKET).collect();
    let mut tasks = JoinSet::new();
    for (index, bucket) in buckets.iter().enumerate() {
        let Some(client) = clients.get(&bucket.region) else {
            continue;
        };
        for setting in &settings {
            let (ctx, client, name, member) = (
                ctx.clone(),
                client.clone(),
                bucket.name.clone(),
                setting.member,
            );
            tasks.spawn(async move { (index, member, fetch(&ctx, &client, &name, member).await) });
        }
    }
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((index, member, Ok(value))) => {
                if let Some(b) = buckets.get_mut(index) {
                    b.props.insert(member.to_string(), value);
                }
            }
            Ok((index, _, Err(message))) => {
                let region = buckets.get(index).map(|b| b.region.clone());
                errors.push(error(region, message));
            }
            Err(e) => errors.push(error(None, format!("internal error: {e}"))),
        }
    }
    let found = buckets
        .into_iter()
        .map(|b| Collected {
            type_name: BUCKET,
            id: b.name,
            region: Some(b.region),
            account: None,
            props: b.props,
        })
        .collect();
    (found, errors)
}

fn error(region: Option<String>, message: String) -> CollectionError {
    CollectionError {
        type_name: BUCKET.to_string(),
        region,
        message,
    }
}

/// ListBuckets, every page.
async fn list_buckets(ctx: &Ctx, client: &Client) -> Result<Vec<Bucket>, String> {
    let mut out = Vec::new();
    pages!(
        ctx,
        None,
        "ListBuckets",
        client.list_buckets().into_paginator().send(),
        |page| {
            for b in page.buckets() {
                let Some(name) = b.name() else { continue };
                let mut props = Map::new();
                props.insert("name".into(), json!(name));
                props.insert("creation_date".into(), ts(b.creation_date()));
                let region = b.bucket_region().unwrap_or_default().to_string();
                out.push(Bucket {
                    name: name.to_string(),
                    region,
                    props,
                });
            }
        }
    )?;
    Ok(out)
}

/// Sets each bucket's region and `location`: from the listing when it says, else
/// GetBucketLocation. A bucket whose location fails is dropped with an error.
async fn locate(
    ctx: &Arc<Ctx>,
    home: &Client,
    buckets: &mut Vec<Bucket>,
    errors: &mut Vec<CollectionError>,
) {
    let mut tasks = JoinSet::new();
    for (index, b) in buckets
        .iter()
        .enumerate()
        .filter(|(_, b)| b.region.is_empty())
    {
        let (ctx, client, name) = (ctx.clone(), home.clone(), b.name.clone());
        tasks.spawn(async move { (index, location(&ctx, &client, &name).await) });
    }
    let mut failed = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((index, Ok(region))) => {
                if let Some(b) = buckets.get_mut(index) {
                    b.region = region;
                }
            }
            Ok((index, Err(message))) => {
                failed.push(index);
                errors.push(error(None, message));
            }
            Err(e) => errors.push(error(None, format!("internal error: {e}"))),
        }
    }
    let mut index = 0;
    buckets.retain(|_| {
        index += 1;
        !failed.contains(&(index - 1))
    });
    for b in buckets.iter_mut() {
        b.props.insert("location".into(), json!(b.region));
    }
}

/// GetBucketLocation, normalised to a region name.
async fn location(ctx: &Ctx, client: &Client, bucket: &str) -> Result<String, String> {
    let out = call!(
        ctx,
        None,
        "GetBucketLocation",
        client.get_bucket_location().bucket(bucket)
    )
    .map_err(|e| format!("{} (bucket {bucket})", api_error("GetBucketLocation", &e)))?;
    Ok(normalise_location(
        out.location_constraint().map(|c| c.as_str()),
    ))
}

/// `null`/empty means us-east-1 and `EU` means eu-west-1 (legacy constraints).
fn normalise_location(constraint: Option<&str>) -> String {
    match constraint {
        None | Some("") => "us-east-1".to_string(),
        Some("EU") => "eu-west-1".to_string(),
        Some(other) => other.to_string(),
    }
}

/// One S3 client per region the buckets live in.
fn regional_clients(
    config: &SdkConfig,
    buckets: &[Bucket],
    attempts: &Arc<AtomicU64>,
) -> BTreeMap<String, Client> {
    let mut clients = BTreeMap::new();
    for b in buckets {
        if !clients.contains_key(&b.region) {
            clients.insert(b.region.clone(), client::s3(config, &b.region, attempts));
        }
    }
    clients
}

/// Maps a settings call's error: "not configured" codes become `Ok(null)`.
fn settle<T, E, R>(
    op: &str,
    bucket: &str,
    result: Result<T, aws_smithy_runtime_api::client::result::SdkError<E, R>>,
    f: impl FnOnce(T) -> Json,
) -> Result<Json, String>
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    match result {
        Ok(out) => Ok(f(out)),
        Err(e) if e.code().is_some_and(|c| NOT_CONFIGURED.contains(&c)) => Ok(Json::Null),
        Err(e) => Err(format!("{} (bucket {bucket})", api_error(op, &e))),
    }
}

/// The value of one per-bucket setting (a member of `crate::catalog::MEMBERS`).
async fn fetch(ctx: &Ctx, client: &Client, bucket: &str, member: &str) -> Result<Json, String> {
    match member {
        "versioning" => settle(
            "GetBucketVersioning",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketVersioning",
                client.get_bucket_versioning().bucket(bucket)
            ),
            |o| json!({"status": en(o.status()), "mfa_delete": en(o.mfa_delete())}),
        ),
        "encryption" => settle(
            "GetBucketEncryption",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketEncryption",
                client.get_bucket_encryption().bucket(bucket)
            ),
            |o| {
                opt(o.server_side_encryption_configuration(), |c| {
                    json!({"rules": list(c.rules(), |r| json!({
                        "apply_server_side_encryption_by_default": opt(r.apply_server_side_encryption_by_default(), |d| json!({
                            "sse_algorithm": d.sse_algorithm().as_str(),
                            "kms_master_key_id": d.kms_master_key_id(),
                        })),
                        "bucket_key_enabled": r.bucket_key_enabled(),
                    }))})
                })
            },
        ),
        "logging" => settle(
            "GetBucketLogging",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketLogging",
                client.get_bucket_logging().bucket(bucket)
            ),
            |o| {
                opt(o.logging_enabled(), |l| {
                    json!({
                        "target_bucket": l.target_bucket(),
                        "target_prefix": l.target_prefix(),
                        "target_grants": list(l.target_grants(), |g| json!({"grantee": opt(g.grantee(), grantee), "permission": en(g.permission())})),
                    })
                })
            },
        ),
        "public_access_block" => settle(
            "GetPublicAccessBlock",
            bucket,
            call!(
                ctx,
                None,
                "GetPublicAccessBlock",
                client.get_public_access_block().bucket(bucket)
            ),
            |o| {
                opt(o.public_access_block_configuration(), |c| {
                    json!({
                        "block_public_acls": c.block_public_acls(),
                        "ignore_public_acls": c.ignore_public_acls(),
                        "block_public_policy": c.block_public_policy(),
                        "restrict_public_buckets": c.restrict_public_buckets(),
                    })
                })
            },
        ),
        "policy" => settle(
            "GetBucketPolicy",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketPolicy",
                client.get_bucket_policy().bucket(bucket)
            ),
            |o| document(o.policy()),
        ),
        "policy_status" => settle(
            "GetBucketPolicyStatus",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketPolicyStatus",
                client.get_bucket_policy_status().bucket(bucket)
            ),
            |o| opt(o.policy_status(), |s| json!({"is_public": s.is_public()})),
        ),
        "acl" => settle(
            "GetBucketAcl",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketAcl",
                client.get_bucket_acl().bucket(bucket)
            ),
            |o| {
                json!({
                    "owner": opt(o.owner(), |w| json!({"display_name": w.display_name(), "id": w.id()})),
                    "grants": list(o.grants(), grant),
                })
            },
        ),
        "ownership_controls" => settle(
            "GetBucketOwnershipControls",
            bucket,
            call!(
                ctx,
                None,
                "GetBucketOwnershipControls",
                client.get_bucket_ownership_controls().bucket(bucket)
            ),
            |o| {
                opt(
                    o.ownership_controls(),
                    |c| json!({"rules": list(c.rules(), |r| json!({"object_ownership": r.object_ownership().as_str()}))}),
                )
            },
        ),
        "tags" => {
            let result = call!(
                ctx,
                None,
                "GetBucketTagging",
                client.get_bucket_tagging().bucket(bucket)
            );
            settle("GetBucketTagging", bucket, result, |o| {
                tag_map(o.tag_set().iter().map(|t| (Some(t.key()), Some(t.value()))))
            })
            .map(|v| if v.is_null() { json!({}) } else { v })
        }
        other => Err(format!("{other}: not a per-bucket setting")),
    }
}

fn grant(g: &Grant) -> Json {
    json!({"grantee": opt(g.grantee(), grantee), "permission": en(g.permission())})
}

fn grantee(g: &Grantee) -> Json {
    json!({
        "type": g.r#type().as_str(),
        "id": g.id(),
        "uri": g.uri(),
        "display_name": g.display_name(),
        "email_address": g.email_address(),
    })
}

#[cfg(test)]
mod tests {
    use super::normalise_location;

    #[test]
    fn legacy_locations_are_normalised() {
        assert_eq!(normalise_location(None), "us-east-1");
        assert_eq!(normalise_location(Some("EU")), "eu-west-1");
        assert_eq!(normalise_location(Some("ap-south-1")), "ap-south-1");
    }
}
