//! Per-region security services whose being on is the setting: `aws:securityhub:hub`
//! (DescribeHub; a region where Security Hub is not enabled has no hub, which AWS answers
//! with `InvalidAccessException`) and `aws:accessanalyzer:analyzer` (ListAnalyzers).

use aws_sdk_securityhub::error::ProvideErrorMetadata;
use serde_json::json;

use super::client;
use super::convert::{en, tag_map, ts};
use super::ctx::api_error;
use super::fetch::{arn_account, each_page, Fetched, Task};

/// Error codes with which DescribeHub says Security Hub is not enabled in the region.
const NOT_ENABLED: &[&str] = &["InvalidAccessException", "ResourceNotFoundException"];

/// `aws:securityhub:hub` in the task's region: one resource when Security Hub is enabled,
/// none when it is not.
pub(crate) async fn hub(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::securityhub(&t.config, &t.region, &t.ctx.attempts);
    let out = match t
        .ctx
        .send(Some(&t.region), listing, client.describe_hub().send())
        .await
    {
        Ok(out) => out,
        Err(e) if e.code().is_some_and(|c| NOT_ENABLED.contains(&c)) => {
            return Ok((Vec::new(), Vec::new()))
        }
        Err(e) => return Err(api_error(listing.operation, &e)),
    };
    let Some(arn) = out.hub_arn() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let props = json!({
        "hub_arn": arn,
        "subscribed_at": out.subscribed_at(),
        "auto_enable_controls": out.auto_enable_controls(),
        "control_finding_generator": en(out.control_finding_generator()),
    });
    let hub = t.resource(Some(arn), arn_account(Some(arn)), props);
    Ok((hub.into_iter().collect(), Vec::new()))
}

/// `aws:accessanalyzer:analyzer` in the task's region.
pub(crate) async fn analyzers(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::accessanalyzer(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    let pages = client
        .list_analyzers()
        .max_results(t.page(1000))
        .into_paginator()
        .send();
    each_page(&t.ctx, Some(&t.region), listing, pages, |page| {
        for a in page.analyzers() {
            let props = json!({
                "arn": a.arn(),
                "name": a.name(),
                "type": a.r#type().as_str(),
                "status": a.status().as_str(),
                "created_at": ts(Some(a.created_at())),
                "last_resource_analyzed": a.last_resource_analyzed(),
                "last_resource_analyzed_at": ts(a.last_resource_analyzed_at()),
                "tags": tag_map(a.tags().into_iter().flatten().map(|(k, v)| (Some(k.as_str()), Some(v.as_str())))),
            });
            found.extend(t.resource(Some(a.arn()), arn_account(Some(a.arn())), props));
        }
    })
    .await?;
    Ok((found, Vec::new()))
}
