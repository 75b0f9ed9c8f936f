//! EC2 converters, field by field following `schema.rs` (compute types in `compute.rs`,
//! networking in `network.rs`, in the same order as the schema sections). The calls are
//! rows of [`crate::types::TYPES`].

pub(crate) mod compute;
pub(crate) mod network;

use aws_sdk_ec2::types::Tag;
use aws_sdk_ec2::Client;
use serde_json::Value as Json;

use super::ctx::Ctx;
use crate::types::DESCRIBE_REGIONS;

/// The names of the regions enabled in the account (DescribeRegions).
pub(crate) async fn enabled_regions(ctx: &Ctx, client: &Client) -> Result<Vec<String>, String> {
    let out = ctx
        .request(None, &DESCRIBE_REGIONS, client.describe_regions().send())
        .await?;
    let mut names: Vec<String> = out
        .regions()
        .iter()
        .filter_map(|r| r.region_name().map(str::to_string))
        .collect();
    names.sort();
    Ok(names)
}

/// EC2 `Tags` as a key-value map.
pub(crate) fn tags(tags: &[Tag]) -> Json {
    super::convert::tag_map(tags.iter().map(|t| (t.key(), t.value())))
}
