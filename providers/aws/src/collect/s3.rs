//! S3 buckets. S3 is global: ListBuckets once, each bucket's region from the listing (or
//! GetBucketLocation), then one call per bucket for each setting a rule reads, sent to the
//! bucket's region, all concurrently under the shared limit. A setting that is not
//! configured (NoSuchBucketPolicy, ...) is null; any other failure is a collection error.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use aws_config::SdkConfig;
use aws_sdk_s3::error::ProvideErrorMetadata;
use aws_sdk_s3::operation::{
    get_bucket_acl::GetBucketAclOutput, get_bucket_encryption::GetBucketEncryptionOutput,
    get_bucket_logging::GetBucketLoggingOutput,
    get_bucket_ownership_controls::GetBucketOwnershipControlsOutput,
    get_bucket_policy::GetBucketPolicyOutput,
    get_bucket_policy_status::GetBucketPolicyStatusOutput,
    get_bucket_tagging::GetBucketTaggingOutput, get_bucket_versioning::GetBucketVersioningOutput,
    get_public_access_block::GetPublicAccessBlockOutput,
};
use aws_sdk_s3::types::{Grant, Grantee, TargetObjectKeyFormat};
use aws_sdk_s3::Client;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use cloudspec_model::from_json::JsonResource;
use cloudspec_model::CollectionError;
use serde_json::{json, Map, Value as Json};
use tokio::task::JoinSet;

use super::client;
use super::convert::{document, en, list, opt, tag_map, ts};
use super::ctx::{api_error, Ctx};
use super::fetch::{each_page, BoxFuture, Fetched, On, PerResource, Task};
use super::type_error;
use crate::catalog::needed_members;
use crate::types::{AwsMember, Call};

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

/// Every bucket with the settings the plan needs; a bucket whose location or a setting
/// failed is an error of its own.
pub(crate) async fn buckets(t: &Task) -> Fetched {
    let [listing, locating] = t.ty.calls else {
        return Err(format!("{}: expected two calls", t.ty.name));
    };
    let attempts = t.ctx.attempts.clone();
    let home = client::s3(&t.config, &t.region, &attempts);
    let mut errors = Vec::new();
    let mut buckets = list_buckets(&t.ctx, &home, listing).await?;
    locate(&t.ctx, &home, locating, &mut buckets, &mut errors).await;
    let clients = regional_clients(&t.config, &buckets, &attempts);
    let settings: Vec<&'static AwsMember> = needed_members(&t.plan, BUCKET).collect();
    let mut tasks = JoinSet::new();
    for (index, bucket) in buckets.iter().enumerate() {
        let Some(client) = clients.get(&bucket.region) else {
            continue;
        };
        for setting in settings.iter().copied() {
            let PerResource::S3(fetch) = setting.fetch else {
                continue;
            };
            let (ctx, client, name) = (t.ctx.clone(), client.clone(), bucket.name.clone());
            tasks.spawn(async move {
                let on = On {
                    ctx: &ctx,
                    client: &client,
                    region: None,
                    id: &name,
                    call: &setting.call,
                };
                (index, setting.member, fetch(&on).await)
            });
        }
    }
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((index, member, Ok(value))) => {
                if let Some(b) = buckets.get_mut(index) {
                    b.props.insert(member.to_string(), value);
                }
            }
            Ok((index, member, Err(message))) => {
                let region = buckets.get(index).map(|b| b.region.clone());
                errors.push(error(region, message).of_members(&[member]));
            }
            Err(e) => errors.push(error(None, format!("internal error: {e}"))),
        }
    }
    let found = buckets
        .into_iter()
        .map(|b| JsonResource {
            type_name: BUCKET.to_string(),
            id: b.name,
            region: Some(b.region),
            account: None,
            properties: b.props,
        })
        .collect();
    Ok((found, errors))
}

fn error(region: Option<String>, message: String) -> CollectionError {
    type_error(BUCKET, region, message)
}

/// ListBuckets, every page.
async fn list_buckets(ctx: &Ctx, client: &Client, list: &Call) -> Result<Vec<Bucket>, String> {
    let mut out = Vec::new();
    each_page(
        ctx,
        None,
        list,
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
        },
    )
    .await?;
    Ok(out)
}

/// Sets each bucket's region and `location`: from the listing when it says, else
/// GetBucketLocation. A bucket whose location fails is dropped with an error.
async fn locate(
    ctx: &Arc<Ctx>,
    home: &Client,
    call: &'static Call,
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
        tasks.spawn(async move { (index, location(&ctx, &client, call, &name).await) });
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
async fn location(ctx: &Ctx, client: &Client, call: &Call, bucket: &str) -> Result<String, String> {
    let out = ctx
        .request(
            None,
            call,
            client.get_bucket_location().bucket(bucket).send(),
        )
        .await
        .map_err(|e| format!("{e} (bucket {bucket})"))?;
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

/// One per-bucket setting (a row of [`crate::types::MEMBERS`]): the member's call on the
/// bucket, converted; a "not configured" answer is null.
pub(crate) fn setting<'a, T, E>(
    o: &'a On<'a, Client>,
    request: impl Future<Output = Result<T, SdkError<E, HttpResponse>>> + Send + 'a,
    convert: fn(&T) -> Json,
) -> BoxFuture<'a, Result<Json, String>>
where
    T: Send + 'a,
    E: ProvideErrorMetadata + std::error::Error + Send + 'static,
{
    Box::pin(async move {
        match o.ctx.send(o.region, o.call, request).await {
            Ok(out) => Ok(convert(&out)),
            Err(e) if e.code().is_some_and(|c| NOT_CONFIGURED.contains(&c)) => Ok(Json::Null),
            Err(e) => Err(format!(
                "{} (bucket {})",
                api_error(o.call.operation, &e),
                o.id
            )),
        }
    })
}

/// Null for a bucket that was never versioned: GetBucketVersioning then answers no
/// `Status` (and no `MFADelete`, which can only be set together with a status).
pub(crate) fn versioning(o: &GetBucketVersioningOutput) -> Json {
    if o.status().is_none() {
        return Json::Null;
    }
    json!({"status": en(o.status()), "mfa_delete": en(o.mfa_delete())})
}

pub(crate) fn encryption(o: &GetBucketEncryptionOutput) -> Json {
    opt(o.server_side_encryption_configuration(), |c| {
        json!({"rules": list(c.rules(), |r| json!({
            "apply_server_side_encryption_by_default": opt(r.apply_server_side_encryption_by_default(), |d| json!({
                "sse_algorithm": d.sse_algorithm().as_str(),
                "kms_master_key_id": d.kms_master_key_id(),
            })),
            "bucket_key_enabled": r.bucket_key_enabled(),
        }))})
    })
}

pub(crate) fn logging(o: &GetBucketLoggingOutput) -> Json {
    opt(o.logging_enabled(), |l| {
        json!({
            "target_bucket": l.target_bucket(),
            "target_prefix": l.target_prefix(),
            "target_grants": list(l.target_grants(), |g| json!({"grantee": opt(g.grantee(), grantee), "permission": en(g.permission())})),
            "target_object_key_format": opt(l.target_object_key_format(), target_object_key_format),
        })
    })
}

/// `SimplePrefix` is an empty structure: `{}` when present.
fn target_object_key_format(f: &TargetObjectKeyFormat) -> Json {
    json!({
        "simple_prefix": opt(f.simple_prefix(), |_| json!({})),
        "partitioned_prefix": opt(f.partitioned_prefix(), |p| json!({
            "partition_date_source": en(p.partition_date_source()),
        })),
    })
}

pub(crate) fn public_access_block(o: &GetPublicAccessBlockOutput) -> Json {
    opt(o.public_access_block_configuration(), |c| {
        json!({
            "block_public_acls": c.block_public_acls(),
            "ignore_public_acls": c.ignore_public_acls(),
            "block_public_policy": c.block_public_policy(),
            "restrict_public_buckets": c.restrict_public_buckets(),
        })
    })
}

pub(crate) fn policy(o: &GetBucketPolicyOutput) -> Json {
    document(o.policy())
}

pub(crate) fn policy_status(o: &GetBucketPolicyStatusOutput) -> Json {
    opt(o.policy_status(), |s| json!({"is_public": s.is_public()}))
}

pub(crate) fn acl(o: &GetBucketAclOutput) -> Json {
    json!({
        "owner": opt(o.owner(), |w| json!({"display_name": w.display_name(), "id": w.id()})),
        "grants": list(o.grants(), grant),
    })
}

pub(crate) fn ownership_controls(o: &GetBucketOwnershipControlsOutput) -> Json {
    opt(
        o.ownership_controls(),
        |c| json!({"rules": list(c.rules(), |r| json!({"object_ownership": r.object_ownership().as_str()}))}),
    )
}

pub(crate) fn tags(o: &GetBucketTaggingOutput) -> Json {
    tag_map(o.tag_set().iter().map(|t| (Some(t.key()), Some(t.value()))))
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
    use aws_sdk_s3::types::{
        BucketVersioningStatus, LoggingEnabled, MfaDeleteStatus, PartitionDateSource,
        PartitionedPrefix, SimplePrefix,
    };

    use super::*;

    #[test]
    fn a_never_versioned_bucket_has_null_versioning() {
        let never = GetBucketVersioningOutput::builder().build();
        assert_eq!(versioning(&never), Json::Null);
        let suspended = GetBucketVersioningOutput::builder()
            .status(BucketVersioningStatus::Suspended)
            .build();
        assert_eq!(
            versioning(&suspended),
            json!({"status": "Suspended", "mfa_delete": null})
        );
        let enabled = GetBucketVersioningOutput::builder()
            .status(BucketVersioningStatus::Enabled)
            .mfa_delete(MfaDeleteStatus::Disabled)
            .build();
        assert_eq!(
            versioning(&enabled),
            json!({"status": "Enabled", "mfa_delete": "Disabled"})
        );
    }

    fn logging_with(format: Option<TargetObjectKeyFormat>) -> Json {
        let enabled = LoggingEnabled::builder()
            .target_bucket("logs")
            .target_prefix("app/")
            .set_target_object_key_format(format)
            .build()
            .expect("bucket and prefix are set");
        logging(
            &GetBucketLoggingOutput::builder()
                .logging_enabled(enabled)
                .build(),
        )
    }

    #[test]
    fn logging_keeps_the_target_object_key_format_as_the_api_gives_it() {
        assert_eq!(
            logging(&GetBucketLoggingOutput::builder().build()),
            Json::Null
        );
        assert_eq!(
            logging_with(None),
            json!({
                "target_bucket": "logs",
                "target_prefix": "app/",
                "target_grants": [],
                "target_object_key_format": null,
            })
        );
        let simple = TargetObjectKeyFormat::builder()
            .simple_prefix(SimplePrefix::builder().build())
            .build();
        assert_eq!(
            logging_with(Some(simple))["target_object_key_format"],
            json!({"simple_prefix": {}, "partitioned_prefix": null})
        );
        let partitioned = TargetObjectKeyFormat::builder()
            .partitioned_prefix(
                PartitionedPrefix::builder()
                    .partition_date_source(PartitionDateSource::EventTime)
                    .build(),
            )
            .build();
        assert_eq!(
            logging_with(Some(partitioned))["target_object_key_format"],
            json!({
                "simple_prefix": null,
                "partitioned_prefix": {"partition_date_source": "EventTime"},
            })
        );
    }

    #[test]
    fn legacy_locations_are_normalised() {
        assert_eq!(normalise_location(None), "us-east-1");
        assert_eq!(normalise_location(Some("EU")), "eu-west-1");
        assert_eq!(normalise_location(Some("ap-south-1")), "ap-south-1");
    }
}
