//! EC2 collectors: one async function per resource type, each a paginated Describe call
//! in one region converted field by field following `schema.rs` (compute types in
//! `compute.rs`, networking in `network.rs`, in the same order as the schema sections).

mod compute;
mod network;

use aws_sdk_ec2::types::Tag;
use aws_sdk_ec2::Client;
use serde_json::Value as Json;

use super::ctx::Ctx;
use super::Collected;
use cloudspec_model::CollectionPlan;

/// Collects every resource of `type_name` in `region`.
pub(crate) async fn collect(
    ctx: &Ctx,
    client: &Client,
    type_name: &str,
    region: &str,
    plan: &CollectionPlan,
) -> Result<Vec<Collected>, String> {
    match type_name {
        "aws:ec2:instance" => compute::instances(ctx, client, region).await,
        "aws:ec2:volume" => compute::volumes(ctx, client, region).await,
        "aws:ec2:snapshot" => compute::snapshots(ctx, client, region, plan).await,
        "aws:ec2:image" => compute::images(ctx, client, region).await,
        "aws:ec2:region" => compute::region(ctx, client, region).await,
        "aws:ec2:security_group" => network::security_groups(ctx, client, region).await,
        "aws:ec2:vpc" => network::vpcs(ctx, client, region).await,
        "aws:ec2:subnet" => network::subnets(ctx, client, region).await,
        "aws:ec2:network_interface" => network::network_interfaces(ctx, client, region).await,
        "aws:ec2:network_acl" => network::network_acls(ctx, client, region).await,
        "aws:ec2:route_table" => network::route_tables(ctx, client, region).await,
        "aws:ec2:internet_gateway" => network::internet_gateways(ctx, client, region).await,
        "aws:ec2:nat_gateway" => network::nat_gateways(ctx, client, region).await,
        "aws:ec2:flow_log" => network::flow_logs(ctx, client, region).await,
        "aws:ec2:address" => network::addresses(ctx, client, region).await,
        "aws:ec2:vpc_endpoint" => network::vpc_endpoints(ctx, client, region).await,
        other => Err(format!("{other}: not an EC2 resource type")),
    }
}

/// The names of the regions enabled in the account (DescribeRegions).
pub(crate) async fn enabled_regions(ctx: &Ctx, client: &Client) -> Result<Vec<String>, String> {
    let out = super::ctx::call!(ctx, None, "DescribeRegions", client.describe_regions())
        .map_err(|e| super::ctx::api_error("DescribeRegions", &e))?;
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

/// A resource of `type_name` in `region` with the id read from its properties.
pub(crate) fn resource(
    type_name: &'static str,
    id: Option<&str>,
    owner: Option<&str>,
    region: &str,
    props: Json,
) -> Option<Collected> {
    let Json::Object(props) = props else {
        return None;
    };
    Some(Collected {
        type_name,
        id: id?.to_string(),
        region: Some(region.to_string()),
        account: owner.map(str::to_string),
        props,
    })
}
