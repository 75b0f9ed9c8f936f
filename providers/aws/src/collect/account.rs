//! `aws:s3:account`: the account's S3 public access block (S3 Control
//! GetPublicAccessBlock), with the account id from STS GetCallerIdentity. A block that is
//! not configured is null, as for buckets.

use aws_config::SdkConfig;
use aws_sdk_s3control::error::ProvideErrorMetadata;
use cloudspec_model::CollectionError;
use serde_json::{json, Map, Value as Json};

use super::client;
use super::ctx::{api_error, call, Ctx};
use super::{type_error, Collected};

const ACCOUNT: &str = "aws:s3:account";

/// Collects the one `aws:s3:account` resource.
pub(crate) async fn collect(
    ctx: &Ctx,
    config: &SdkConfig,
    home: &str,
) -> (Vec<Collected>, Vec<CollectionError>) {
    match account(ctx, config, home).await {
        Ok(found) => (vec![found], Vec::new()),
        Err(message) => (Vec::new(), vec![type_error(ACCOUNT, None, message)]),
    }
}

async fn account(ctx: &Ctx, config: &SdkConfig, home: &str) -> Result<Collected, String> {
    let sts = client::sts(config, home, &ctx.attempts);
    let identity = call!(ctx, None, "GetCallerIdentity", sts.get_caller_identity())
        .map_err(|e| api_error("GetCallerIdentity", &e))?;
    let account_id = identity
        .account()
        .ok_or("GetCallerIdentity: the answer names no account")?
        .to_string();
    let control = client::s3control(config, home, &ctx.attempts);
    let block = match call!(
        ctx,
        None,
        "GetPublicAccessBlock",
        control.get_public_access_block().account_id(&account_id)
    ) {
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
        Err(e) => return Err(api_error("GetPublicAccessBlock", &e)),
    };
    let mut props = Map::new();
    props.insert("account_id".into(), Json::String(account_id.clone()));
    props.insert("public_access_block".into(), block);
    Ok(Collected {
        type_name: ACCOUNT,
        id: account_id.clone(),
        region: None,
        account: Some(account_id),
        props,
    })
}
