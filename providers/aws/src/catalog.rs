//! What collecting each resource type costs: the API operations it calls and the IAM
//! actions they need. `cloudspec permissions` derives its policy from this table, and the
//! collector ([`crate::collect`]) calls exactly these operations, so the two cannot drift.

use std::collections::BTreeSet;

use cloudspec_model::CollectionPlan;
use serde_json::{json, Value};

/// How one resource type is collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeCatalog {
    /// `aws:ec2:volume`.
    pub type_name: &'static str,
    /// IAM actions always needed to collect the type.
    pub actions: &'static [&'static str],
    /// Whether the type is listed once per region (EC2) or once per account (S3).
    pub regional: bool,
    /// Whether this build collects the type at all.
    pub collected: bool,
}

/// A member whose value costs an extra call per resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberCatalog {
    pub type_name: &'static str,
    /// The top-level member (`versioning`).
    pub member: &'static str,
    /// The API operation (`GetBucketVersioning`).
    pub operation: &'static str,
    /// Its IAM action (`s3:GetBucketVersioning`).
    pub action: &'static str,
}

const fn regional(type_name: &'static str, actions: &'static [&'static str]) -> TypeCatalog {
    TypeCatalog {
        type_name,
        actions,
        regional: true,
        collected: true,
    }
}

/// Every AWS resource type.
pub const TYPES: &[TypeCatalog] = &[
    regional("aws:ec2:instance", &["ec2:DescribeInstances"]),
    regional("aws:ec2:volume", &["ec2:DescribeVolumes"]),
    regional("aws:ec2:snapshot", &["ec2:DescribeSnapshots"]),
    regional("aws:ec2:image", &["ec2:DescribeImages"]),
    regional("aws:ec2:security_group", &["ec2:DescribeSecurityGroups"]),
    regional("aws:ec2:vpc", &["ec2:DescribeVpcs"]),
    regional("aws:ec2:subnet", &["ec2:DescribeSubnets"]),
    regional(
        "aws:ec2:network_interface",
        &["ec2:DescribeNetworkInterfaces"],
    ),
    regional("aws:ec2:network_acl", &["ec2:DescribeNetworkAcls"]),
    regional("aws:ec2:route_table", &["ec2:DescribeRouteTables"]),
    regional(
        "aws:ec2:internet_gateway",
        &["ec2:DescribeInternetGateways"],
    ),
    regional("aws:ec2:nat_gateway", &["ec2:DescribeNatGateways"]),
    regional("aws:ec2:flow_log", &["ec2:DescribeFlowLogs"]),
    regional("aws:ec2:address", &["ec2:DescribeAddresses"]),
    regional("aws:ec2:vpc_endpoint", &["ec2:DescribeVpcEndpoints"]),
    regional(
        "aws:ec2:region",
        &[
            "ec2:DescribeRegions",
            "ec2:GetEbsEncryptionByDefault",
            "ec2:GetEbsDefaultKmsKeyId",
        ],
    ),
    TypeCatalog {
        type_name: "aws:s3:bucket",
        actions: &["s3:ListAllMyBuckets", "s3:GetBucketLocation"],
        regional: false,
        collected: true,
    },
    // The account-level public access block (S3 Control), for the account STS names.
    TypeCatalog {
        type_name: "aws:s3:account",
        actions: &["s3:GetAccountPublicAccessBlock", "sts:GetCallerIdentity"],
        regional: false,
        collected: true,
    },
];

const fn bucket(
    member: &'static str,
    operation: &'static str,
    action: &'static str,
) -> MemberCatalog {
    MemberCatalog {
        type_name: "aws:s3:bucket",
        member,
        operation,
        action,
    }
}

/// Members that cost a call per resource, made only when a rule reads them.
pub const MEMBERS: &[MemberCatalog] = &[
    bucket(
        "versioning",
        "GetBucketVersioning",
        "s3:GetBucketVersioning",
    ),
    bucket(
        "encryption",
        "GetBucketEncryption",
        "s3:GetEncryptionConfiguration",
    ),
    bucket("logging", "GetBucketLogging", "s3:GetBucketLogging"),
    bucket(
        "public_access_block",
        "GetPublicAccessBlock",
        "s3:GetBucketPublicAccessBlock",
    ),
    bucket("policy", "GetBucketPolicy", "s3:GetBucketPolicy"),
    bucket(
        "policy_status",
        "GetBucketPolicyStatus",
        "s3:GetBucketPolicyStatus",
    ),
    bucket("acl", "GetBucketAcl", "s3:GetBucketAcl"),
    bucket(
        "ownership_controls",
        "GetBucketOwnershipControls",
        "s3:GetBucketOwnershipControls",
    ),
    bucket("tags", "GetBucketTagging", "s3:GetBucketTagging"),
    MemberCatalog {
        type_name: "aws:ec2:snapshot",
        member: "create_volume_permissions",
        operation: "DescribeSnapshotAttribute",
        action: "ec2:DescribeSnapshotAttribute",
    },
];

/// The catalog entry of a type.
pub fn type_catalog(type_name: &str) -> Option<&'static TypeCatalog> {
    TYPES.iter().find(|t| t.type_name == type_name)
}

/// The per-resource members of `type_name` the plan needs.
pub fn needed_members<'a>(
    plan: &'a CollectionPlan,
    type_name: &'a str,
) -> impl Iterator<Item = &'static MemberCatalog> + 'a {
    MEMBERS
        .iter()
        .filter(move |m| m.type_name == type_name && plan.needs_member(type_name, m.member))
}

/// The IAM actions collecting `plan` needs, sorted. `ec2:DescribeRegions` is included
/// whenever a regional type is needed, since `--all-regions` calls it.
pub fn actions(plan: &CollectionPlan) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    for t in TYPES.iter().filter(|t| plan.needs_type(t.type_name)) {
        out.extend(t.actions.iter().copied());
        out.extend(needed_members(plan, t.type_name).map(|m| m.action));
        if t.regional {
            out.insert("ec2:DescribeRegions");
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
    fn every_schema_type_has_a_catalog_entry() {
        let schemas = crate::schemas();
        for name in schemas.types.keys() {
            assert!(type_catalog(name).is_some(), "{name} has no catalog entry");
        }
        assert_eq!(TYPES.len(), schemas.types.len());
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
    fn actions_are_read_only() {
        let all = TYPES
            .iter()
            .flat_map(|t| t.actions.iter())
            .chain(MEMBERS.iter().map(|m| &m.action));
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
}
