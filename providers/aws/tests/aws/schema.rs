//! The AWS schemas follow the naming contract (`shared/design/aws.md`) and are internally
//! consistent: association targets exist, names are snake_case and unique, docs are present.

use cloudspec_aws::schemas;
use cloudspec_model::schema::{Member, MemberType, ResourceSchema, SchemaSet};

/// Every member of every type, at any depth, with its dotted path and its siblings.
fn walk<'a>(members: &'a [Member], path: &str, f: &mut dyn FnMut(&str, &'a Member, &'a [Member])) {
    for m in members {
        let here = if path.is_empty() {
            m.name.clone()
        } else {
            format!("{path}.{}", m.name)
        };
        f(&here, m, members);
        if let Some(inner) = object_members(&m.ty) {
            walk(inner, &here, f);
        }
    }
}

/// The members of an object, or of the objects of a list or map.
fn object_members(ty: &MemberType) -> Option<&[Member]> {
    match ty {
        MemberType::Object(members) => Some(members),
        MemberType::List(inner) | MemberType::Map(inner) => object_members(inner),
        _ => None,
    }
}

/// The association target of a member or of the elements of a list member.
fn target(ty: &MemberType) -> Option<&str> {
    match ty {
        MemberType::Association { target } => Some(target),
        MemberType::List(inner) => target(inner),
        _ => None,
    }
}

fn each_member(set: &SchemaSet, mut f: impl FnMut(&ResourceSchema, &str, &Member, &[Member])) {
    for schema in set.types.values() {
        walk(&schema.members, "", &mut |path, m, siblings| {
            f(schema, path, m, siblings)
        });
    }
}

/// The type of the member at a dotted path (`ip_permissions.ip_ranges.cidr_ip`).
fn member_at<'a>(set: &'a SchemaSet, type_name: &str, path: &str) -> &'a MemberType {
    let schema = set
        .get(type_name)
        .unwrap_or_else(|| panic!("{type_name} is not declared"));
    let mut members: &[Member] = &schema.members;
    let mut ty = None;
    for part in path.split('.') {
        let m = members
            .iter()
            .find(|m| m.name == part)
            .unwrap_or_else(|| panic!("{type_name} has no member {path} (at {part})"));
        ty = Some(&m.ty);
        members = object_members(&m.ty).unwrap_or(&[]);
    }
    ty.expect("a non-empty path")
}

fn is_snake_case(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && !s.ends_with('_')
        && !s.contains("__")
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn assoc_to(target: &str) -> MemberType {
    MemberType::Association {
        target: target.into(),
    }
}

fn list(inner: MemberType) -> MemberType {
    MemberType::List(Box::new(inner))
}

#[test]
fn declares_every_type_of_the_contract() {
    let set = schemas();
    assert_eq!(set.provider, "aws");
    let names: Vec<&str> = set.types.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "aws:accessanalyzer:analyzer",
            "aws:cloudtrail:trail",
            "aws:cloudwatch:alarm",
            "aws:config:configuration_recorder",
            "aws:config:delivery_channel",
            "aws:ec2:address",
            "aws:ec2:flow_log",
            "aws:ec2:image",
            "aws:ec2:instance",
            "aws:ec2:internet_gateway",
            "aws:ec2:nat_gateway",
            "aws:ec2:network_acl",
            "aws:ec2:network_interface",
            "aws:ec2:region",
            "aws:ec2:route_table",
            "aws:ec2:security_group",
            "aws:ec2:snapshot",
            "aws:ec2:subnet",
            "aws:ec2:volume",
            "aws:ec2:vpc",
            "aws:ec2:vpc_endpoint",
            "aws:efs:file_system",
            "aws:iam:account",
            "aws:iam:group",
            "aws:iam:policy",
            "aws:iam:role",
            "aws:iam:server_certificate",
            "aws:iam:user",
            "aws:kms:key",
            "aws:logs:log_group",
            "aws:rds:db_instance",
            "aws:s3:account",
            "aws:s3:bucket",
            "aws:securityhub:hub",
            "aws:sns:topic",
        ]
    );
}

#[test]
fn type_names_are_aws_service_snake_case() {
    for (key, schema) in &schemas().types {
        assert_eq!(key, &schema.type_name);
        let parts: Vec<&str> = schema.type_name.split(':').collect();
        assert_eq!(
            parts.len(),
            3,
            "{} is not aws:<service>:<resource>",
            schema.type_name
        );
        assert_eq!(parts[0], "aws", "{}", schema.type_name);
        assert!(
            !parts[1].is_empty()
                && parts[1]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
            "service of {} is not lowercase",
            schema.type_name
        );
        assert!(
            is_snake_case(parts[2]),
            "resource of {} is not snake_case",
            schema.type_name
        );
    }
}

#[test]
fn every_type_has_a_doc_line_and_members() {
    for schema in schemas().types.values() {
        assert!(
            !schema.doc.trim().is_empty(),
            "{} has no doc",
            schema.type_name
        );
        assert!(
            !schema.doc.contains('\n'),
            "{} doc is more than one line",
            schema.type_name
        );
        assert!(
            !schema.members.is_empty(),
            "{} has no members",
            schema.type_name
        );
    }
}

#[test]
fn member_names_are_snake_case() {
    each_member(&schemas(), |schema, path, m, _| {
        assert!(
            is_snake_case(&m.name),
            "{} {path} is not snake_case",
            schema.type_name
        );
    });
}

#[test]
fn member_names_are_unique_within_each_object() {
    let set = schemas();
    let check = |owner: &str, members: &[Member]| {
        let mut names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        names.sort_unstable();
        for pair in names.windows(2) {
            assert_ne!(pair[0], pair[1], "{owner} declares {} twice", pair[0]);
        }
    };
    for schema in set.types.values() {
        check(&schema.type_name, &schema.members);
        walk(&schema.members, "", &mut |path, m, _| {
            if let Some(inner) = object_members(&m.ty) {
                check(&format!("{} {path}", schema.type_name), inner);
            }
        });
    }
}

/// Structures the API itself defines without members: present as `{}` (set) or null.
const EMPTY_IN_THE_API: &[&str] = &[
    // LoggingEnabled.TargetObjectKeyFormat.SimplePrefix
    "aws:s3:bucket logging.target_object_key_format.simple_prefix",
];

#[test]
fn nested_objects_are_not_empty() {
    each_member(&schemas(), |schema, path, m, _| {
        if let Some(inner) = object_members(&m.ty) {
            let at = format!("{} {path}", schema.type_name);
            assert!(
                !inner.is_empty() || EMPTY_IN_THE_API.contains(&at.as_str()),
                "{at} is an empty object"
            );
        }
    });
}

#[test]
fn every_association_target_is_a_declared_type() {
    let set = schemas();
    let mut count = 0;
    each_member(&set, |schema, path, m, _| {
        if let Some(t) = target(&m.ty) {
            count += 1;
            assert!(
                set.get(t).is_some(),
                "{} {path} targets undeclared {t}",
                schema.type_name
            );
        }
    });
    assert!(count > 40, "only {count} associations");
}

/// A forward association sits next to its raw id field (`subnet` next to `subnet_id`,
/// `subnets` next to `subnet_ids`, `security_groups` next to `security_group_ids`); every
/// other association is a reverse link and says so.
#[test]
fn associations_keep_their_raw_id_or_are_documented_reverse_links() {
    each_member(&schemas(), |schema, path, m, siblings| {
        if target(&m.ty).is_none() {
            return;
        }
        assert!(
            !m.doc.trim().is_empty(),
            "{} {path} association has no doc",
            schema.type_name
        );
        let raw = match &m.ty {
            MemberType::List(_) => format!("{}_ids", m.name.strip_suffix('s').unwrap_or(&m.name)),
            _ => format!("{}_id", m.name),
        };
        let reverse = m.doc.starts_with("Reverse link");
        // IAM names other resources by ARN (`policy_arn` -> `> policy`).
        let arn = format!("{}_arn", m.name);
        // A list of ARNs of several kinds of resources keeps its name; the association is
        // "the <targets> among <raw>" (`alarm_action_topics` among `alarm_actions`).
        let among = m
            .doc
            .split_once(" among ")
            .and_then(|(_, rest)| rest.split(' ').next())
            .filter(|raw| siblings.iter().any(|s| s.name == *raw))
            .map(str::to_string);
        let raw = if siblings.iter().any(|s| s.name == arn) {
            arn
        } else {
            among.unwrap_or(raw)
        };
        match siblings.iter().find(|s| s.name == raw) {
            Some(raw_member) => {
                assert!(
                    !reverse,
                    "{} {path} has raw {raw} but says reverse link",
                    schema.type_name
                );
                let raw_ty = match &m.ty {
                    MemberType::List(_) => list(MemberType::String),
                    _ => MemberType::String,
                };
                assert_eq!(
                    raw_member.ty, raw_ty,
                    "{} {path}: {raw} is not a string id",
                    schema.type_name
                );
            }
            None => assert!(
                reverse,
                "{} {path} has no raw {raw} and is not a reverse link",
                schema.type_name
            ),
        }
    });
}

#[test]
fn timestamps_are_strings() {
    each_member(&schemas(), |schema, path, m, _| {
        let name = m.name.as_str();
        if name.ends_with("_time") || name.ends_with("_date") || name.ends_with("_timestamp") {
            assert_eq!(
                m.ty,
                MemberType::String,
                "{} {path} is a timestamp",
                schema.type_name
            );
        }
    });
}

#[test]
fn tags_are_string_maps() {
    let set = schemas();
    each_member(&set, |schema, path, m, _| {
        if m.name == "tags" {
            assert_eq!(
                m.ty,
                MemberType::Map(Box::new(MemberType::String)),
                "{} {path}",
                schema.type_name
            );
        }
    });
    for schema in set.types.values() {
        // Settings, and types whose API has no tags (IAM groups, Config recorders and
        // delivery channels) or whose tags are not collected (the Security Hub hub).
        let settings = [
            "aws:ec2:region",
            "aws:s3:account",
            "aws:iam:account",
            "aws:iam:group",
            "aws:config:configuration_recorder",
            "aws:config:delivery_channel",
            "aws:securityhub:hub",
        ];
        if !settings.contains(&schema.type_name.as_str()) {
            assert!(
                schema.member("tags").is_some(),
                "{} has no tags",
                schema.type_name
            );
        }
    }
}

#[test]
fn instance_links_to_its_subnet_vpc_image_and_volumes() {
    let set = schemas();
    let i = "aws:ec2:instance";
    assert_eq!(member_at(&set, i, "subnet"), &assoc_to("aws:ec2:subnet"));
    assert_eq!(member_at(&set, i, "subnet_id"), &MemberType::String);
    assert_eq!(member_at(&set, i, "vpc"), &assoc_to("aws:ec2:vpc"));
    assert_eq!(member_at(&set, i, "image"), &assoc_to("aws:ec2:image"));
    assert_eq!(
        member_at(&set, i, "block_device_mappings.ebs.volume"),
        &assoc_to("aws:ec2:volume")
    );
    assert_eq!(
        member_at(&set, i, "block_device_mappings.ebs.volume_id"),
        &MemberType::String
    );
    assert_eq!(member_at(&set, i, "state.code"), &MemberType::Integer);
    assert_eq!(
        member_at(&set, i, "metadata_options.http_tokens"),
        &MemberType::String
    );
    assert_eq!(
        member_at(&set, i, "metadata_options.http_put_response_hop_limit"),
        &MemberType::Integer
    );
    assert_eq!(
        member_at(&set, i, "network_interfaces.network_interface"),
        &assoc_to("aws:ec2:network_interface")
    );
    assert_eq!(
        member_at(&set, i, "network_interfaces.association.public_ip"),
        &MemberType::String
    );
}

#[test]
fn security_groups_is_the_association_and_raw_ids_stay_readable() {
    let set = schemas();
    for t in [
        "aws:ec2:instance",
        "aws:ec2:network_interface",
        "aws:ec2:vpc_endpoint",
    ] {
        assert_eq!(
            member_at(&set, t, "security_groups"),
            &list(assoc_to("aws:ec2:security_group")),
            "{t}"
        );
        assert_eq!(
            member_at(&set, t, "security_group_ids"),
            &list(MemberType::String),
            "{t}"
        );
    }
    let i = "aws:ec2:instance";
    assert_eq!(
        member_at(&set, i, "security_group_names"),
        &list(MemberType::String)
    );
    assert_eq!(
        member_at(&set, "aws:ec2:network_interface", "groups.group_id"),
        &MemberType::String
    );
}

#[test]
fn security_group_rules_nest_as_in_the_api() {
    let set = schemas();
    let sg = "aws:ec2:security_group";
    for rules in ["ip_permissions", "ip_permissions_egress"] {
        assert_eq!(
            member_at(&set, sg, &format!("{rules}.ip_ranges.cidr_ip")),
            &MemberType::String
        );
        assert_eq!(
            member_at(&set, sg, &format!("{rules}.ipv6_ranges.cidr_ipv6")),
            &MemberType::String
        );
        assert_eq!(
            member_at(&set, sg, &format!("{rules}.from_port")),
            &MemberType::Integer
        );
        assert_eq!(
            member_at(&set, sg, &format!("{rules}.to_port")),
            &MemberType::Integer
        );
        assert_eq!(
            member_at(&set, sg, &format!("{rules}.ip_protocol")),
            &MemberType::String
        );
    }
    assert_eq!(
        member_at(&set, sg, "network_interfaces"),
        &list(assoc_to("aws:ec2:network_interface"))
    );
}

#[test]
fn vpc_has_reverse_links() {
    let set = schemas();
    let vpc = set.get("aws:ec2:vpc").expect("vpc");
    for (name, target) in [
        ("flow_logs", "aws:ec2:flow_log"),
        ("subnets", "aws:ec2:subnet"),
        ("security_groups", "aws:ec2:security_group"),
        ("network_acls", "aws:ec2:network_acl"),
        ("route_tables", "aws:ec2:route_table"),
        ("internet_gateways", "aws:ec2:internet_gateway"),
        ("instances", "aws:ec2:instance"),
    ] {
        let m = vpc
            .member(name)
            .unwrap_or_else(|| panic!("vpc has no {name}"));
        assert_eq!(m.ty, list(assoc_to(target)), "vpc {name}");
        assert!(
            m.doc.starts_with("Reverse link"),
            "vpc {name} doc: {}",
            m.doc
        );
    }
}

#[test]
fn vpc_dns_attributes_are_booleans() {
    let set = schemas();
    for attribute in ["enable_dns_support", "enable_dns_hostnames"] {
        assert_eq!(
            member_at(&set, "aws:ec2:vpc", attribute),
            &MemberType::Bool,
            "{attribute}"
        );
    }
}

#[test]
fn flow_log_resource_id_is_a_plain_string() {
    let set = schemas();
    let flow_log = set.get("aws:ec2:flow_log").expect("flow_log");
    assert_eq!(
        member_at(&set, "aws:ec2:flow_log", "resource_id"),
        &MemberType::String
    );
    assert!(flow_log.member("resource").is_none());
}

#[test]
fn snapshot_sharing_and_volume_attachments_are_expressible() {
    let set = schemas();
    assert_eq!(
        member_at(&set, "aws:ec2:snapshot", "create_volume_permissions.group"),
        &MemberType::String
    );
    assert_eq!(
        member_at(&set, "aws:ec2:snapshot", "volume"),
        &assoc_to("aws:ec2:volume")
    );
    assert_eq!(
        member_at(&set, "aws:ec2:volume", "attachments.instance"),
        &assoc_to("aws:ec2:instance")
    );
    assert_eq!(
        member_at(&set, "aws:ec2:volume", "size"),
        &MemberType::Integer
    );
    assert_eq!(
        member_at(&set, "aws:ec2:image", "public"),
        &MemberType::Bool
    );
    assert_eq!(
        member_at(&set, "aws:ec2:image", "block_device_mappings.ebs.snapshot"),
        &assoc_to("aws:ec2:snapshot")
    );
}

#[test]
fn bucket_settings_are_unwrapped_and_policies_are_documents() {
    let set = schemas();
    let b = "aws:s3:bucket";
    assert_eq!(member_at(&set, b, "policy"), &MemberType::Any);
    assert_eq!(
        member_at(&set, "aws:ec2:vpc_endpoint", "policy_document"),
        &MemberType::Any
    );
    assert_eq!(member_at(&set, b, "location"), &MemberType::String);
    assert_eq!(member_at(&set, b, "versioning.status"), &MemberType::String);
    assert_eq!(
        member_at(
            &set,
            b,
            "encryption.rules.apply_server_side_encryption_by_default.sse_algorithm"
        ),
        &MemberType::String
    );
    assert_eq!(
        member_at(&set, b, "logging.target_bucket"),
        &MemberType::String
    );
    assert_eq!(
        member_at(
            &set,
            b,
            "logging.target_object_key_format.partitioned_prefix.partition_date_source"
        ),
        &MemberType::String
    );
    assert_eq!(
        member_at(&set, b, "logging.target_object_key_format.simple_prefix"),
        &MemberType::Object(Vec::new())
    );
    assert_eq!(
        member_at(&set, b, "policy_status.is_public"),
        &MemberType::Bool
    );
    assert_eq!(
        member_at(&set, b, "acl.grants.grantee.uri"),
        &MemberType::String
    );
    assert_eq!(
        member_at(&set, b, "ownership_controls.rules.object_ownership"),
        &MemberType::String
    );
    for t in [b, "aws:s3:account"] {
        for flag in [
            "block_public_acls",
            "ignore_public_acls",
            "block_public_policy",
            "restrict_public_buckets",
        ] {
            assert_eq!(
                member_at(&set, t, &format!("public_access_block.{flag}")),
                &MemberType::Bool,
                "{t}"
            );
        }
    }
    assert_eq!(
        member_at(&set, "aws:ec2:region", "ebs_encryption_by_default"),
        &MemberType::Bool
    );
}
