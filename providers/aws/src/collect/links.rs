//! Reverse links (aws.md): associations from a resource to the resources that point at it,
//! filled in once everything is collected. Each entry reads the owner ids from the other
//! side's properties; a link is set only when the other side was collected.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as Json};

use super::convert::refs;
use super::Collected;

/// One reverse link: `owner.member` lists the `source` resources whose properties name
/// the owner (per `owners`).
struct Link {
    owner: &'static str,
    member: &'static str,
    source: &'static str,
    owners: fn(&Map<String, Json>) -> Vec<String>,
}

const LINKS: &[Link] = &[
    link("aws:ec2:vpc", "flow_logs", "aws:ec2:flow_log", |p| {
        flow_log_target(p, "vpc-")
    }),
    link("aws:ec2:vpc", "subnets", "aws:ec2:subnet", |p| {
        field(p, "vpc_id")
    }),
    link(
        "aws:ec2:vpc",
        "security_groups",
        "aws:ec2:security_group",
        |p| field(p, "vpc_id"),
    ),
    link("aws:ec2:vpc", "network_acls", "aws:ec2:network_acl", |p| {
        field(p, "vpc_id")
    }),
    link("aws:ec2:vpc", "route_tables", "aws:ec2:route_table", |p| {
        field(p, "vpc_id")
    }),
    link(
        "aws:ec2:vpc",
        "internet_gateways",
        "aws:ec2:internet_gateway",
        |p| nested(p, "attachments", "vpc_id"),
    ),
    link("aws:ec2:vpc", "instances", "aws:ec2:instance", |p| {
        field(p, "vpc_id")
    }),
    link("aws:ec2:subnet", "instances", "aws:ec2:instance", |p| {
        field(p, "subnet_id")
    }),
    link(
        "aws:ec2:subnet",
        "network_interfaces",
        "aws:ec2:network_interface",
        |p| field(p, "subnet_id"),
    ),
    link(
        "aws:ec2:subnet",
        "route_tables",
        "aws:ec2:route_table",
        |p| nested(p, "associations", "subnet_id"),
    ),
    link("aws:ec2:subnet", "flow_logs", "aws:ec2:flow_log", |p| {
        flow_log_target(p, "subnet-")
    }),
    link(
        "aws:ec2:network_interface",
        "flow_logs",
        "aws:ec2:flow_log",
        |p| flow_log_target(p, "eni-"),
    ),
    link(
        "aws:ec2:security_group",
        "network_interfaces",
        "aws:ec2:network_interface",
        |p| strings(p, "security_group_ids"),
    ),
];

const fn link(
    owner: &'static str,
    member: &'static str,
    source: &'static str,
    owners: fn(&Map<String, Json>) -> Vec<String>,
) -> Link {
    Link {
        owner,
        member,
        source,
        owners,
    }
}

fn field(p: &Map<String, Json>, name: &str) -> Vec<String> {
    p.get(name)
        .and_then(Json::as_str)
        .map(str::to_string)
        .into_iter()
        .collect()
}

fn strings(p: &Map<String, Json>, name: &str) -> Vec<String> {
    p.get(name)
        .and_then(Json::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn nested(p: &Map<String, Json>, list: &str, name: &str) -> Vec<String> {
    p.get(list)
        .and_then(Json::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.get(name).and_then(Json::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn flow_log_target(p: &Map<String, Json>, prefix: &str) -> Vec<String> {
    field(p, "resource_id")
        .into_iter()
        .filter(|id| id.starts_with(prefix))
        .collect()
}

/// Sets every reverse link whose both sides were collected (`collected` lists the types
/// collected without error in at least one region).
pub(crate) fn add_reverse_links(resources: &mut [Collected], collected: &BTreeSet<&str>) {
    for l in LINKS
        .iter()
        .filter(|l| collected.contains(l.source) && collected.contains(l.owner))
    {
        let mut by_owner: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for r in resources.iter().filter(|r| r.type_name == l.source) {
            for owner in (l.owners)(&r.props) {
                by_owner.entry(owner).or_default().insert(r.id.clone());
            }
        }
        for r in resources.iter_mut().filter(|r| r.type_name == l.owner) {
            let ids = by_owner
                .get(&r.id)
                .map(|s| s.iter().map(String::as_str).collect::<Vec<_>>());
            r.props.insert(
                l.member.to_string(),
                refs(l.source, ids.unwrap_or_default()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn res(type_name: &'static str, id: &str, props: Json) -> Collected {
        let Json::Object(props) = props else {
            panic!("object")
        };
        Collected {
            type_name,
            id: id.into(),
            region: None,
            account: None,
            props,
        }
    }

    #[test]
    fn vpcs_link_back_to_their_flow_logs_and_subnets() {
        let mut all = vec![
            res("aws:ec2:vpc", "vpc-1", json!({})),
            res("aws:ec2:vpc", "vpc-2", json!({})),
            res("aws:ec2:flow_log", "fl-1", json!({"resource_id": "vpc-1"})),
            res("aws:ec2:subnet", "subnet-1", json!({"vpc_id": "vpc-1"})),
        ];
        let collected: BTreeSet<&str> = ["aws:ec2:vpc", "aws:ec2:flow_log"].into();
        add_reverse_links(&mut all, &collected);
        assert_eq!(
            all[0].props["flow_logs"],
            json!([{"$ref": "aws:ec2:flow_log/fl-1"}])
        );
        assert_eq!(all[1].props["flow_logs"], json!([]));
        assert!(
            !all[0].props.contains_key("subnets"),
            "subnets were not collected"
        );
    }
}
