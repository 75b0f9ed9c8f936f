//! What collecting a plan costs, read from the table of types ([`crate::types`]): the IAM
//! actions of the calls it makes, and the least-privilege policy `cloudspec permissions`
//! prints. The collector counts its requests by the same rows, so the two cannot drift.

use std::collections::BTreeSet;

use cloudspec_model::CollectionPlan;
use serde_json::{json, Value};

pub use crate::types::{AwsMember, AwsType, Call, Link, DESCRIBE_REGIONS, MEMBERS, TYPES};

/// The row of a type.
pub fn type_catalog(type_name: &str) -> Option<&'static AwsType> {
    TYPES.iter().find(|t| t.name == type_name)
}

/// The per-resource members of `type_name` the plan needs.
pub fn needed_members<'a>(
    plan: &'a CollectionPlan,
    type_name: &'a str,
) -> impl Iterator<Item = &'static AwsMember> + 'a {
    MEMBERS
        .iter()
        .filter(move |m| m.type_name == type_name && plan.needs_member(type_name, m.member))
}

/// The IAM actions collecting `plan` needs, sorted. `ec2:DescribeRegions` is included
/// whenever a regional type is needed, since `--all-regions` calls it.
pub fn actions(plan: &CollectionPlan) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    for t in TYPES.iter().filter(|t| plan.needs_type(t.name)) {
        out.extend(t.calls.iter().map(|c| c.action));
        for m in needed_members(plan, t.name) {
            out.insert(m.call.action);
            out.extend(m.also.iter().map(|c| c.action));
        }
        if t.regional {
            out.insert(DESCRIBE_REGIONS.action);
        }
    }
    out
}

/// The least-privilege read-only IAM policy document for collecting `plan`.
pub fn iam_policy(plan: &CollectionPlan) -> Value {
    let actions: Vec<&str> = actions(plan).into_iter().collect();
    json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "CloudspecReadOnly",
            "Effect": "Allow",
            "Action": actions,
            "Resource": "*",
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_declares_its_own_schema_once() {
        for t in TYPES {
            assert_eq!((t.schema)().type_name, t.name);
            assert_eq!(TYPES.iter().filter(|o| o.name == t.name).count(), 1);
            assert!(!t.calls.is_empty(), "{} makes no call", t.name);
        }
        assert_eq!(crate::schemas().types.len(), TYPES.len());
    }

    #[test]
    fn reverse_links_are_declared_by_both_sides() {
        let schemas = crate::schemas();
        for t in TYPES {
            for l in t.links {
                let member = schemas.get(t.name).and_then(|s| s.member(l.member));
                assert!(member.is_some(), "{}.{}", t.name, l.member);
                assert!(type_catalog(l.source).is_some(), "{}", l.source);
            }
        }
    }

    #[test]
    fn per_resource_members_exist_in_the_schema() {
        let schemas = crate::schemas();
        for m in MEMBERS {
            let schema = schemas.get(m.type_name).expect("declared type");
            assert!(
                schema.member(m.member).is_some(),
                "{}.{}",
                m.type_name,
                m.member
            );
        }
    }

    #[test]
    fn operations_are_read_only() {
        let all = TYPES
            .iter()
            .flat_map(|t| t.calls.iter())
            .chain(MEMBERS.iter().map(|m| &m.call))
            .map(|c| c.operation);
        for operation in all {
            assert!(
                ["Describe", "List", "Get"]
                    .iter()
                    .any(|p| operation.starts_with(p)),
                "{operation} is not a read operation"
            );
        }
    }

    #[test]
    fn actions_are_read_only() {
        let all = TYPES
            .iter()
            .flat_map(|t| t.calls.iter())
            .chain(MEMBERS.iter().map(|m| &m.call))
            .map(|c| c.action);
        for action in all {
            let verb = action.split(':').nth(1).unwrap_or("");
            assert!(
                ["Describe", "List", "Get"]
                    .iter()
                    .any(|p| verb.starts_with(p)),
                "{action} is not a read action"
            );
        }
    }

    #[test]
    fn the_policy_lists_only_what_the_plan_needs() {
        let mut plan = CollectionPlan::new();
        plan.add_member("aws:s3:bucket", "versioning");
        plan.add_type("aws:ec2:volume");
        let policy = iam_policy(&plan);
        assert_eq!(
            policy["Statement"][0]["Action"],
            json!([
                "ec2:DescribeRegions",
                "ec2:DescribeVolumes",
                "s3:GetBucketLocation",
                "s3:GetBucketVersioning",
                "s3:ListAllMyBuckets"
            ])
        );
    }

    #[test]
    fn vpc_dns_attributes_need_describe_vpc_attribute_only_when_read() {
        let mut plan = CollectionPlan::new();
        plan.add_type("aws:ec2:vpc");
        assert!(!actions(&plan).contains("ec2:DescribeVpcAttribute"));
        plan.add_member("aws:ec2:vpc", "enable_dns_hostnames");
        plan.add_member("aws:ec2:vpc", "enable_dns_support");
        assert_eq!(
            actions(&plan).into_iter().collect::<Vec<_>>(),
            [
                "ec2:DescribeRegions",
                "ec2:DescribeVpcAttribute",
                "ec2:DescribeVpcs"
            ]
        );
        let members: Vec<&str> = needed_members(&plan, "aws:ec2:vpc")
            .map(|m| m.member)
            .collect();
        assert_eq!(members, ["enable_dns_support", "enable_dns_hostnames"]);
    }
}
