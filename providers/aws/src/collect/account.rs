//! `aws:s3:account`: the account's S3 public access block (S3 Control
//! GetPublicAccessBlock), with the account id from STS GetCallerIdentity. A block that is
//! not configured is null, as for buckets.

use aws_sdk_s3control::error::ProvideErrorMetadata;
use cloudspec_model::from_json::JsonResource;
use serde_json::{json, Map, Value as Json};

use super::client;
use super::ctx::api_error;
use super::fetch::{Fetched, Task};

/// Collects the one `aws:s3:account` resource.
pub(crate) async fn collect(t: &Task) -> Fetched {
    let [identity, access_block] = t.ty.calls else {
        return Err(format!("{}: expected two calls", t.ty.name));
    };
    let (ctx, home) = (&t.ctx, t.region.as_str());
    let account_id = ctx.account_id(&t.config, home, identity).await?;
    let client = client::s3control(&t.config, home, &ctx.attempts);
    let request = client.get_public_access_block().account_id(&account_id);
    let block = match ctx.send(None, access_block, request.send()).await {
        Ok(out) => out
            .public_access_block_configuration()
            .map_or(Json::Null, |c| {
                json!({
                    "block_public_acls": c.block_public_acls(),
                    "ignore_public_acls": c.ignore_public_acls(),
                    "block_public_policy": c.block_public_policy(),
                    "restrict_public_buckets": c.restrict_public_buckets(),
                })
            }),
        Err(e) if e.code() == Some("NoSuchPublicAccessBlockConfiguration") => Json::Null,
        Err(e) => return Err(api_error(access_block.operation, &e)),
    };
    let mut props = Map::new();
    props.insert("account_id".into(), Json::String(account_id.clone()));
    props.insert("public_access_block".into(), block);
    let account = JsonResource {
        type_name: t.ty.name.to_string(),
        id: account_id.clone(),
        region: None,
        account: Some(account_id),
        properties: props,
    };
    Ok((vec![account], Vec::new()))
}
