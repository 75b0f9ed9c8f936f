//! Adding an AWS type: one row here plus its converter (+ its schema in schema.rs).
//!
//! Every AWS resource type is one row of [`TYPES`]: its name, whether it is listed per
//! region or once per account, the API calls that collect it (each operation written once
//! with its IAM action: `cloudspec permissions` derives its policy from them and the
//! collector counts and names its requests by them), its schema, its reverse links and,
//! with the `collect` feature, how it is fetched. A list type of EC2 is the generic
//! paginated Describe of [`crate::collect::fetch::describe`] given the request, the page's
//! items (each with its owner account), the id and the converter (`collect/ec2/*.rs`).
//! Members that cost one more call per resource (S3 bucket settings, snapshot sharing, VPC
//! DNS attributes) are rows of [`MEMBERS`], made only when a rule reads them.

use cloudspec_model::schema::ResourceSchema;
use serde_json::{Map, Value as Json};

use crate::schema;

#[cfg(feature = "collect")]
use crate::collect::{
    account, cloudtrail, config,
    ec2::{compute, network},
    fetch::{describe, owned, unowned, Fetch, Once, PerResource, PerResource::*},
    iam, posture, s3,
};
#[cfg(feature = "collect")]
use crate::collect::{cloudwatch, efs, kms, logs, rds, sns};
#[cfg(feature = "collect")]
use aws_sdk_ec2::types as ec2;

/// An API operation and the IAM action that allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// `DescribeVolumes`: what the collector counts and names in its errors.
    pub operation: &'static str,
    /// `ec2:DescribeVolumes`: what the IAM policy lists.
    pub action: &'static str,
}

const fn call(operation: &'static str, action: &'static str) -> Call {
    Call { operation, action }
}

/// DescribeRegions: the `aws:ec2:region` listing, and `--all-regions` for any regional type.
pub const DESCRIBE_REGIONS: Call = call("DescribeRegions", "ec2:DescribeRegions");

/// GetPolicyVersion: a policy's default version, part of its `document`.
pub const GET_POLICY_VERSION: Call = call("GetPolicyVersion", "iam:GetPolicyVersion");

/// GetAccessKeyLastUsed: one call per access key, part of a user's `access_keys`.
pub const GET_ACCESS_KEY_LAST_USED: Call = call("GetAccessKeyLastUsed", "iam:GetAccessKeyLastUsed");

/// DescribeVpcAttribute: one VPC attribute per call (`enable_dns_support`,
/// `enable_dns_hostnames`).
const DESCRIBE_VPC_ATTRIBUTE: Call = call("DescribeVpcAttribute", "ec2:DescribeVpcAttribute");

/// GetKeyRotationStatus: one call per KMS key, for both members that read it
/// (`key_rotation_enabled`, `rotation_period_in_days`).
const GET_KEY_ROTATION_STATUS: Call = call("GetKeyRotationStatus", "kms:GetKeyRotationStatus");

/// One resource type.
#[derive(Debug, Clone, Copy)]
pub struct AwsType {
    /// `aws:ec2:volume`.
    pub name: &'static str,
    /// Listed once per region (EC2) or once per account (S3).
    pub regional: bool,
    /// The calls always made to collect it, the listing first.
    pub calls: &'static [Call],
    /// Its schema (`schema.rs`).
    pub schema: fn() -> ResourceSchema,
    /// Its reverse links, set once everything is collected.
    pub links: &'static [Link],
    /// Collects every resource of the type in the task's region.
    #[cfg(feature = "collect")]
    pub(crate) fetch: Fetch,
}

/// A member whose value costs an extra call per resource.
#[derive(Debug, Clone, Copy)]
pub struct AwsMember {
    pub type_name: &'static str,
    /// The top-level member (`versioning`).
    pub member: &'static str,
    /// `GetBucketVersioning`, `s3:GetBucketVersioning`.
    pub call: Call,
    /// Further calls the member's value needs (per element: an access key's last use).
    pub also: &'static [Call],
    /// The member's value for one resource.
    #[cfg(feature = "collect")]
    pub(crate) fetch: PerResource,
}

/// A reverse link (aws.md): the row's `member` lists the `source` resources whose
/// properties name the row's resource (per `owners`, read from the source's properties and
/// region; [`EVERY_OWNER`] links the source to every resource of the row).
#[derive(Debug, Clone, Copy)]
pub struct Link {
    pub member: &'static str,
    pub source: &'static str,
    pub owners: Owners,
}

/// The ids of the resources a source resource belongs to, from its properties and region.
pub type Owners = fn(&Map<String, Json>, Option<&str>) -> Vec<String>;

/// An owner id that stands for every resource of the owning type (a multi-region trail
/// belongs to every region).
pub const EVERY_OWNER: &str = "*";

const fn link(member: &'static str, source: &'static str, owners: Owners) -> Link {
    Link {
        member,
        source,
        owners,
    }
}

/// Every AWS resource type.
pub const TYPES: &[AwsType] = &[
    AwsType {
        name: "aws:ec2:instance",
        regional: true,
        calls: &[call("DescribeInstances", "ec2:DescribeInstances")],
        schema: schema::instance,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_instances()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| {
                    p.reservations()
                        .iter()
                        .flat_map(|r| r.instances().iter().map(|i| (i, r.owner_id())))
                        .collect()
                },
                ec2::Instance::instance_id,
                compute::instance,
            )
        },
    },
    AwsType {
        name: "aws:ec2:volume",
        regional: true,
        calls: &[call("DescribeVolumes", "ec2:DescribeVolumes")],
        schema: schema::volume,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_volumes()
                    .max_results(t.page(500))
                    .into_paginator()
                    .send(),
                |p| owned(p.volumes(), ec2::Volume::owner_id),
                ec2::Volume::volume_id,
                compute::volume,
            )
        },
    },
    AwsType {
        name: "aws:ec2:snapshot",
        regional: true,
        calls: &[call("DescribeSnapshots", "ec2:DescribeSnapshots")],
        schema: schema::snapshot,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_snapshots()
                    .owner_ids("self")
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.snapshots(), ec2::Snapshot::owner_id),
                ec2::Snapshot::snapshot_id,
                compute::snapshot,
            )
        },
    },
    AwsType {
        name: "aws:ec2:image",
        regional: true,
        calls: &[call("DescribeImages", "ec2:DescribeImages")],
        schema: schema::image,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_images()
                    .owners("self")
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.images(), ec2::Image::owner_id),
                ec2::Image::image_id,
                compute::image,
            )
        },
    },
    AwsType {
        name: "aws:ec2:security_group",
        regional: true,
        calls: &[call("DescribeSecurityGroups", "ec2:DescribeSecurityGroups")],
        schema: schema::security_group,
        links: &[link(
            "network_interfaces",
            "aws:ec2:network_interface",
            |p, _| strings(p, "security_group_ids"),
        )],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_security_groups()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.security_groups(), ec2::SecurityGroup::owner_id),
                ec2::SecurityGroup::group_id,
                network::security_group,
            )
        },
    },
    AwsType {
        name: "aws:ec2:vpc",
        regional: true,
        calls: &[call("DescribeVpcs", "ec2:DescribeVpcs")],
        schema: schema::vpc,
        links: &[
            link("flow_logs", "aws:ec2:flow_log", |p, _| {
                flow_log_target(p, "vpc-")
            }),
            link("subnets", "aws:ec2:subnet", |p, _| field(p, "vpc_id")),
            link("security_groups", "aws:ec2:security_group", |p, _| {
                field(p, "vpc_id")
            }),
            link("network_acls", "aws:ec2:network_acl", |p, _| {
                field(p, "vpc_id")
            }),
            link("route_tables", "aws:ec2:route_table", |p, _| {
                field(p, "vpc_id")
            }),
            link("internet_gateways", "aws:ec2:internet_gateway", |p, _| {
                nested(p, "attachments", "vpc_id")
            }),
            link("instances", "aws:ec2:instance", |p, _| field(p, "vpc_id")),
        ],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_vpcs()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.vpcs(), ec2::Vpc::owner_id),
                ec2::Vpc::vpc_id,
                network::vpc,
            )
        },
    },
    AwsType {
        name: "aws:ec2:subnet",
        regional: true,
        calls: &[call("DescribeSubnets", "ec2:DescribeSubnets")],
        schema: schema::subnet,
        links: &[
            link("instances", "aws:ec2:instance", |p, _| {
                field(p, "subnet_id")
            }),
            link("network_interfaces", "aws:ec2:network_interface", |p, _| {
                field(p, "subnet_id")
            }),
            link("route_tables", "aws:ec2:route_table", |p, _| {
                nested(p, "associations", "subnet_id")
            }),
            link("flow_logs", "aws:ec2:flow_log", |p, _| {
                flow_log_target(p, "subnet-")
            }),
        ],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_subnets()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.subnets(), ec2::Subnet::owner_id),
                ec2::Subnet::subnet_id,
                network::subnet,
            )
        },
    },
    AwsType {
        name: "aws:ec2:network_interface",
        regional: true,
        calls: &[call(
            "DescribeNetworkInterfaces",
            "ec2:DescribeNetworkInterfaces",
        )],
        schema: schema::network_interface,
        links: &[link("flow_logs", "aws:ec2:flow_log", |p, _| {
            flow_log_target(p, "eni-")
        })],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_network_interfaces()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.network_interfaces(), ec2::NetworkInterface::owner_id),
                ec2::NetworkInterface::network_interface_id,
                network::network_interface,
            )
        },
    },
    AwsType {
        name: "aws:ec2:network_acl",
        regional: true,
        calls: &[call("DescribeNetworkAcls", "ec2:DescribeNetworkAcls")],
        schema: schema::network_acl,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_network_acls()
                    .max_results(t.page(100))
                    .into_paginator()
                    .send(),
                |p| owned(p.network_acls(), ec2::NetworkAcl::owner_id),
                ec2::NetworkAcl::network_acl_id,
                network::network_acl,
            )
        },
    },
    AwsType {
        name: "aws:ec2:route_table",
        regional: true,
        calls: &[call("DescribeRouteTables", "ec2:DescribeRouteTables")],
        schema: schema::route_table,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_route_tables()
                    .max_results(t.page(100))
                    .into_paginator()
                    .send(),
                |p| owned(p.route_tables(), ec2::RouteTable::owner_id),
                ec2::RouteTable::route_table_id,
                network::route_table,
            )
        },
    },
    AwsType {
        name: "aws:ec2:internet_gateway",
        regional: true,
        calls: &[call(
            "DescribeInternetGateways",
            "ec2:DescribeInternetGateways",
        )],
        schema: schema::internet_gateway,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_internet_gateways()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.internet_gateways(), ec2::InternetGateway::owner_id),
                ec2::InternetGateway::internet_gateway_id,
                network::internet_gateway,
            )
        },
    },
    AwsType {
        name: "aws:ec2:nat_gateway",
        regional: true,
        calls: &[call("DescribeNatGateways", "ec2:DescribeNatGateways")],
        schema: schema::nat_gateway,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_nat_gateways()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| unowned(p.nat_gateways()),
                ec2::NatGateway::nat_gateway_id,
                network::nat_gateway,
            )
        },
    },
    AwsType {
        name: "aws:ec2:flow_log",
        regional: true,
        calls: &[call("DescribeFlowLogs", "ec2:DescribeFlowLogs")],
        schema: schema::flow_log,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_flow_logs()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| unowned(p.flow_logs()),
                ec2::FlowLog::flow_log_id,
                network::flow_log,
            )
        },
    },
    AwsType {
        name: "aws:ec2:address",
        regional: true,
        calls: &[call("DescribeAddresses", "ec2:DescribeAddresses")],
        schema: schema::address,
        links: &[],
        // DescribeAddresses has no pagination: one call answers every address.
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                Once::new(t.client.describe_addresses().send()),
                |p| unowned(p.addresses()),
                |a| a.allocation_id().or(a.public_ip()),
                network::address,
            )
        },
    },
    AwsType {
        name: "aws:ec2:vpc_endpoint",
        regional: true,
        calls: &[call("DescribeVpcEndpoints", "ec2:DescribeVpcEndpoints")],
        schema: schema::vpc_endpoint,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| {
            describe(
                t,
                t.client
                    .describe_vpc_endpoints()
                    .max_results(t.page(1000))
                    .into_paginator()
                    .send(),
                |p| owned(p.vpc_endpoints(), ec2::VpcEndpoint::owner_id),
                ec2::VpcEndpoint::vpc_endpoint_id,
                network::vpc_endpoint,
            )
        },
    },
    // The region's entry in DescribeRegions; its EBS defaults are MEMBERS.
    AwsType {
        name: "aws:ec2:region",
        regional: true,
        calls: &[DESCRIBE_REGIONS],
        schema: schema::region,
        links: &[
            link("trails", "aws:cloudtrail:trail", |p, _| trail_regions(p)),
            link(
                "configuration_recorders",
                "aws:config:configuration_recorder",
                |_, region| region.map(str::to_string).into_iter().collect(),
            ),
            link(
                "delivery_channels",
                "aws:config:delivery_channel",
                |_, region| region.map(str::to_string).into_iter().collect(),
            ),
            link("hubs", "aws:securityhub:hub", |_, region| {
                region.map(str::to_string).into_iter().collect()
            }),
            link("analyzers", "aws:accessanalyzer:analyzer", |_, region| {
                region.map(str::to_string).into_iter().collect()
            }),
        ],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(compute::region(t)),
    },
    AwsType {
        name: "aws:s3:bucket",
        regional: false,
        calls: &[
            call("ListBuckets", "s3:ListAllMyBuckets"),
            call("GetBucketLocation", "s3:GetBucketLocation"),
        ],
        schema: schema::bucket,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(s3::buckets(t)),
    },
    // The services of the CIS benchmark beyond EC2, S3 and IAM (collect/rds.rs, efs.rs,
    // kms.rs, logs.rs, cloudwatch.rs, sns.rs), each listed per region.
    AwsType {
        name: "aws:rds:db_instance",
        regional: true,
        calls: &[call("DescribeDBInstances", "rds:DescribeDBInstances")],
        schema: schema::rds_db_instance,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(rds::db_instances(t)),
    },
    AwsType {
        name: "aws:efs:file_system",
        regional: true,
        calls: &[call(
            "DescribeFileSystems",
            "elasticfilesystem:DescribeFileSystems",
        )],
        schema: schema::efs_file_system,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(efs::file_systems(t)),
    },
    // ListKeys, and DescribeKey of every key (who manages it, its spec and state).
    AwsType {
        name: "aws:kms:key",
        regional: true,
        calls: &[
            call("ListKeys", "kms:ListKeys"),
            call("DescribeKey", "kms:DescribeKey"),
        ],
        schema: schema::kms_key,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(kms::keys(t)),
    },
    AwsType {
        name: "aws:logs:log_group",
        regional: true,
        calls: &[call("DescribeLogGroups", "logs:DescribeLogGroups")],
        schema: schema::logs_log_group,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(logs::log_groups(t)),
    },
    AwsType {
        name: "aws:cloudwatch:alarm",
        regional: true,
        calls: &[call("DescribeAlarms", "cloudwatch:DescribeAlarms")],
        schema: schema::cloudwatch_alarm,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(cloudwatch::alarms(t)),
    },
    AwsType {
        name: "aws:sns:topic",
        regional: true,
        calls: &[call("ListTopics", "sns:ListTopics")],
        schema: schema::sns_topic,
        links: &[link("alarms", "aws:cloudwatch:alarm", |p, _| {
            strings(p, "alarm_actions")
        })],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(sns::topics(t)),
    },
    // IAM is global: listed once per account, from the home region.
    AwsType {
        name: "aws:iam:user",
        regional: false,
        calls: &[call("ListUsers", "iam:ListUsers")],
        schema: schema::iam_user,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::users(t)),
    },
    // Customer-managed policies, and the AWS-managed ones attached to something.
    AwsType {
        name: "aws:iam:policy",
        regional: false,
        calls: &[call("ListPolicies", "iam:ListPolicies")],
        schema: schema::iam_policy,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::policies(t)),
    },
    // The account's IAM settings (members), for the account STS names.
    AwsType {
        name: "aws:iam:account",
        regional: false,
        calls: &[call("GetCallerIdentity", "sts:GetCallerIdentity")],
        schema: schema::iam_account,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::account(t)),
    },
    // The account-level public access block (S3 Control), for the account STS names.
    AwsType {
        name: "aws:s3:account",
        regional: false,
        calls: &[
            call("GetCallerIdentity", "sts:GetCallerIdentity"),
            call("GetPublicAccessBlock", "s3:GetAccountPublicAccessBlock"),
        ],
        schema: schema::account,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(account::collect(t)),
    },
    // IAM roles, groups and server certificates (global, as users).
    AwsType {
        name: "aws:iam:role",
        regional: false,
        calls: &[call("ListRoles", "iam:ListRoles")],
        schema: schema::iam_role,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::roles(t)),
    },
    AwsType {
        name: "aws:iam:group",
        regional: false,
        calls: &[call("ListGroups", "iam:ListGroups")],
        schema: schema::iam_group,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::groups_of_account(t)),
    },
    AwsType {
        name: "aws:iam:server_certificate",
        regional: false,
        calls: &[call("ListServerCertificates", "iam:ListServerCertificates")],
        schema: schema::iam_server_certificate,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(iam::server_certificates(t)),
    },
    // Trails, listed in every region with shadow trails, each kept once (cloudtrail.rs).
    AwsType {
        name: "aws:cloudtrail:trail",
        regional: true,
        calls: &[call("DescribeTrails", "cloudtrail:DescribeTrails")],
        schema: schema::trail,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(cloudtrail::trails(t)),
    },
    AwsType {
        name: "aws:config:configuration_recorder",
        regional: true,
        calls: &[
            call(
                "DescribeConfigurationRecorders",
                "config:DescribeConfigurationRecorders",
            ),
            call(
                "DescribeConfigurationRecorderStatus",
                "config:DescribeConfigurationRecorderStatus",
            ),
        ],
        schema: schema::configuration_recorder,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(config::recorders(t)),
    },
    AwsType {
        name: "aws:config:delivery_channel",
        regional: true,
        calls: &[call(
            "DescribeDeliveryChannels",
            "config:DescribeDeliveryChannels",
        )],
        schema: schema::delivery_channel,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(config::delivery_channels(t)),
    },
    AwsType {
        name: "aws:securityhub:hub",
        regional: true,
        calls: &[call("DescribeHub", "securityhub:DescribeHub")],
        schema: schema::securityhub_hub,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(posture::hub(t)),
    },
    AwsType {
        name: "aws:accessanalyzer:analyzer",
        regional: true,
        calls: &[call("ListAnalyzers", "access-analyzer:ListAnalyzers")],
        schema: schema::analyzer,
        links: &[],
        #[cfg(feature = "collect")]
        fetch: |t| Box::pin(posture::analyzers(t)),
    },
];

/// Members that cost a call per resource, made only when a rule reads them. A failed call
/// is an error of its member only (`CollectionError::members`).
pub const MEMBERS: &[AwsMember] = &[
    // KMS keys, log groups and SNS topics (the CIS services beyond EC2, S3 and IAM).
    AwsMember {
        type_name: "aws:kms:key",
        member: "key_rotation_enabled",
        call: GET_KEY_ROTATION_STATUS,
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Kms(kms::key_rotation_enabled),
    },
    AwsMember {
        type_name: "aws:kms:key",
        member: "rotation_period_in_days",
        call: GET_KEY_ROTATION_STATUS,
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Kms(kms::rotation_period_in_days),
    },
    AwsMember {
        type_name: "aws:kms:key",
        member: "policy",
        call: call("GetKeyPolicy", "kms:GetKeyPolicy"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Kms(kms::policy),
    },
    AwsMember {
        type_name: "aws:kms:key",
        member: "tags",
        call: call("ListResourceTags", "kms:ListResourceTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Kms(kms::tags),
    },
    AwsMember {
        type_name: "aws:logs:log_group",
        member: "metric_filters",
        call: call("DescribeMetricFilters", "logs:DescribeMetricFilters"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Logs(logs::metric_filters),
    },
    AwsMember {
        type_name: "aws:logs:log_group",
        member: "tags",
        call: call("ListTagsForResource", "logs:ListTagsForResource"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Logs(logs::tags),
    },
    AwsMember {
        type_name: "aws:cloudwatch:alarm",
        member: "tags",
        call: call("ListTagsForResource", "cloudwatch:ListTagsForResource"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: CloudWatch(cloudwatch::tags),
    },
    AwsMember {
        type_name: "aws:sns:topic",
        member: "tags",
        call: call("ListTagsForResource", "sns:ListTagsForResource"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Sns(sns::tags),
    },
    AwsMember {
        type_name: "aws:sns:topic",
        member: "subscriptions",
        call: call("ListSubscriptionsByTopic", "sns:ListSubscriptionsByTopic"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Sns(sns::subscriptions),
    },
    AwsMember {
        type_name: "aws:sns:topic",
        member: "attributes",
        call: call("GetTopicAttributes", "sns:GetTopicAttributes"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Sns(sns::attributes),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "access_keys",
        call: call("ListAccessKeys", "iam:ListAccessKeys"),
        also: &[GET_ACCESS_KEY_LAST_USED],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::access_keys),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "mfa_devices",
        call: call("ListMFADevices", "iam:ListMFADevices"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::mfa_devices),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "login_profile",
        call: call("GetLoginProfile", "iam:GetLoginProfile"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::login_profile),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "attached_policies",
        call: call("ListAttachedUserPolicies", "iam:ListAttachedUserPolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::attached_policies),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "policy_names",
        call: call("ListUserPolicies", "iam:ListUserPolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::policy_names),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "groups",
        call: call("ListGroupsForUser", "iam:ListGroupsForUser"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::groups),
    },
    AwsMember {
        type_name: "aws:iam:user",
        member: "tags",
        call: call("ListUserTags", "iam:ListUserTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::user_tags),
    },
    AwsMember {
        type_name: "aws:iam:policy",
        member: "document",
        call: call("GetPolicy", "iam:GetPolicy"),
        also: &[GET_POLICY_VERSION],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::policy_document),
    },
    AwsMember {
        type_name: "aws:iam:policy",
        member: "tags",
        call: call("ListPolicyTags", "iam:ListPolicyTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::policy_tags),
    },
    AwsMember {
        type_name: "aws:iam:policy",
        member: "entities",
        call: call("ListEntitiesForPolicy", "iam:ListEntitiesForPolicy"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::entities),
    },
    AwsMember {
        type_name: "aws:iam:account",
        member: "password_policy",
        call: call("GetAccountPasswordPolicy", "iam:GetAccountPasswordPolicy"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::password_policy),
    },
    AwsMember {
        type_name: "aws:iam:account",
        member: "summary",
        call: call("GetAccountSummary", "iam:GetAccountSummary"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::summary),
    },
    AwsMember {
        type_name: "aws:iam:account",
        member: "virtual_mfa_devices",
        call: call("ListVirtualMFADevices", "iam:ListVirtualMFADevices"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::virtual_mfa_devices),
    },
    AwsMember {
        type_name: "aws:iam:account",
        member: "support_access",
        call: call("ListEntitiesForPolicy", "iam:ListEntitiesForPolicy"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::support_access),
    },
    AwsMember {
        type_name: "aws:iam:role",
        member: "attached_policies",
        call: call("ListAttachedRolePolicies", "iam:ListAttachedRolePolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::role_attached_policies),
    },
    AwsMember {
        type_name: "aws:iam:role",
        member: "policy_names",
        call: call("ListRolePolicies", "iam:ListRolePolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::role_policy_names),
    },
    AwsMember {
        type_name: "aws:iam:role",
        member: "tags",
        call: call("ListRoleTags", "iam:ListRoleTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::role_tags),
    },
    AwsMember {
        type_name: "aws:iam:group",
        member: "attached_policies",
        call: call("ListAttachedGroupPolicies", "iam:ListAttachedGroupPolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::group_attached_policies),
    },
    AwsMember {
        type_name: "aws:iam:group",
        member: "policy_names",
        call: call("ListGroupPolicies", "iam:ListGroupPolicies"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::group_policy_names),
    },
    AwsMember {
        type_name: "aws:iam:server_certificate",
        member: "tags",
        call: call("ListServerCertificateTags", "iam:ListServerCertificateTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Iam(iam::server_certificate_tags),
    },
    AwsMember {
        type_name: "aws:cloudtrail:trail",
        member: "tags",
        call: call("ListTags", "cloudtrail:ListTags"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: CloudTrail(cloudtrail::tags),
    },
    AwsMember {
        type_name: "aws:cloudtrail:trail",
        member: "status",
        call: call("GetTrailStatus", "cloudtrail:GetTrailStatus"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: CloudTrail(cloudtrail::status),
    },
    AwsMember {
        type_name: "aws:cloudtrail:trail",
        member: "event_selectors",
        call: call("GetEventSelectors", "cloudtrail:GetEventSelectors"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: CloudTrail(cloudtrail::event_selectors),
    },
    AwsMember {
        type_name: "aws:ec2:region",
        member: "ebs_encryption_by_default",
        call: call("GetEbsEncryptionByDefault", "ec2:GetEbsEncryptionByDefault"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Ec2(|o| Box::pin(compute::ebs_encryption_by_default(o))),
    },
    AwsMember {
        type_name: "aws:ec2:region",
        member: "ebs_default_kms_key_id",
        call: call("GetEbsDefaultKmsKeyId", "ec2:GetEbsDefaultKmsKeyId"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Ec2(|o| Box::pin(compute::ebs_default_kms_key_id(o))),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "versioning",
        call: call("GetBucketVersioning", "s3:GetBucketVersioning"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_versioning().bucket(o.id).send(),
                s3::versioning,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "encryption",
        call: call("GetBucketEncryption", "s3:GetEncryptionConfiguration"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_encryption().bucket(o.id).send(),
                s3::encryption,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "logging",
        call: call("GetBucketLogging", "s3:GetBucketLogging"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_logging().bucket(o.id).send(),
                s3::logging,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "public_access_block",
        call: call("GetPublicAccessBlock", "s3:GetBucketPublicAccessBlock"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_public_access_block().bucket(o.id).send(),
                s3::public_access_block,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "policy",
        call: call("GetBucketPolicy", "s3:GetBucketPolicy"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_policy().bucket(o.id).send(),
                s3::policy,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "policy_status",
        call: call("GetBucketPolicyStatus", "s3:GetBucketPolicyStatus"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_policy_status().bucket(o.id).send(),
                s3::policy_status,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "acl",
        call: call("GetBucketAcl", "s3:GetBucketAcl"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| s3::setting(o, o.client.get_bucket_acl().bucket(o.id).send(), s3::acl)),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "ownership_controls",
        call: call(
            "GetBucketOwnershipControls",
            "s3:GetBucketOwnershipControls",
        ),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            s3::setting(
                o,
                o.client.get_bucket_ownership_controls().bucket(o.id).send(),
                s3::ownership_controls,
            )
        }),
    },
    AwsMember {
        type_name: "aws:s3:bucket",
        member: "tags",
        call: call("GetBucketTagging", "s3:GetBucketTagging"),
        also: &[],
        // No tag set is an empty map, not null.
        #[cfg(feature = "collect")]
        fetch: S3(|o| {
            Box::pin(async move {
                let tags = o.client.get_bucket_tagging().bucket(o.id).send();
                let v = s3::setting(o, tags, s3::tags).await?;
                Ok(if v.is_null() {
                    Json::Object(Map::new())
                } else {
                    v
                })
            })
        }),
    },
    AwsMember {
        type_name: "aws:ec2:snapshot",
        member: "create_volume_permissions",
        call: call("DescribeSnapshotAttribute", "ec2:DescribeSnapshotAttribute"),
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Ec2(|o| Box::pin(compute::create_volume_permissions(o))),
    },
    AwsMember {
        type_name: "aws:ec2:vpc",
        member: "enable_dns_support",
        call: DESCRIBE_VPC_ATTRIBUTE,
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Ec2(|o| {
            Box::pin(network::vpc_attribute(
                o,
                ec2::VpcAttributeName::EnableDnsSupport,
                network::enable_dns_support,
            ))
        }),
    },
    AwsMember {
        type_name: "aws:ec2:vpc",
        member: "enable_dns_hostnames",
        call: DESCRIBE_VPC_ATTRIBUTE,
        also: &[],
        #[cfg(feature = "collect")]
        fetch: Ec2(|o| {
            Box::pin(network::vpc_attribute(
                o,
                ec2::VpcAttributeName::EnableDnsHostnames,
                network::enable_dns_hostnames,
            ))
        }),
    },
];

// Reading the owner ids of a reverse link from the other side's properties.

/// The regions a trail logs: every region for a multi-region trail, else its home region.
fn trail_regions(p: &Map<String, Json>) -> Vec<String> {
    if p.get("is_multi_region_trail") == Some(&Json::Bool(true)) {
        return vec![EVERY_OWNER.to_string()];
    }
    field(p, "home_region")
}

/// A string property.
fn field(p: &Map<String, Json>, name: &str) -> Vec<String> {
    p.get(name)
        .and_then(Json::as_str)
        .map(str::to_string)
        .into_iter()
        .collect()
}

/// A list of strings.
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

/// A string property of each object of a list.
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

/// A flow log's `resource_id` when it is of the kind `prefix` names.
fn flow_log_target(p: &Map<String, Json>, prefix: &str) -> Vec<String> {
    field(p, "resource_id")
        .into_iter()
        .filter(|id| id.starts_with(prefix))
        .collect()
}
