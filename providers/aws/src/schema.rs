//! Resource schemas of the AWS provider: every resource type of the AWS naming contract
//! (`shared/design/aws.md`) with its members, their types and associations.
//!
//! Members are the AWS API response fields in snake_case, nested as in the response
//! (`BlockDeviceMappings[].Ebs.VolumeId` -> `block_device_mappings ( ebs ( volume_id ) )`).
//! Timestamps are RFC 3339 strings, counts, sizes and ports integers. `Tags` / `TagSet`
//! lists become the key-value map `tags`. A field holding the id of another collected
//! resource keeps its raw string and gains an association named after the field without
//! `_id` / `_ids` (`subnet_id` + `> subnet`, `route_table_ids` + `> route_tables`).
//! Reverse links (the other side of such a field) are associations named in the plural of
//! the other type, and their doc starts with "Reverse link".
//!
//! Decisions where the contract alone does not settle a name:
//!
//! - **Security groups.** The contract maps `SecurityGroups[].GroupId` to
//!   `> security_groups`, so on every type that references security groups,
//!   `security_groups` is the association list (to `aws:ec2:security_group`) and the raw
//!   ids are `security_group_ids`. On `aws:ec2:instance` the API's own `SecurityGroups`
//!   list of `{GroupId, GroupName}` therefore cannot keep its name: its data is
//!   `security_group_ids` and `security_group_names` (same order). Where the API calls the
//!   list `Groups` (network interfaces, VPC endpoints) it stays as `groups ( group_id,
//!   group_name )` next to `security_group_ids` and `> security_groups`.
//! - **Targets that vary by value get no typed association.** `aws:ec2:flow_log`
//!   `resource_id` (a VPC, subnet or network interface) and route `gateway_id` (`local`,
//!   `igw-`, `vgw-`, `vpce-`...) stay strings. Flow logs are reached through the reverse
//!   links `flow_logs` of `aws:ec2:vpc`, `aws:ec2:subnet` and `aws:ec2:network_interface`.
//! - **Ids of types that are not collected** (KMS keys, IAM instance profiles, DHCP options,
//!   peering connections, transit gateways, elastic IP `allocation_id`) stay plain strings.
//!   Cross-account references (`user_id_group_pairs ( > group )`) may dangle.
//! - **Documents are not API responses.** A parsed JSON policy (`aws:s3:bucket` `policy`,
//!   `aws:ec2:vpc_endpoint` `policy_document`) is `Any`, with its keys exactly as in the
//!   document (`Statement`, `Effect`), not snake_cased.
//! - **Per-call S3 settings** are nested properties named after the call with the single
//!   configuration wrapper unwrapped; a setting that is not configured is null, and so is
//!   `versioning` for a bucket never versioned (GetBucketVersioning answers no `Status`).
//!   `logging ( target_object_key_format ( simple_prefix ) )` is the API's `SimplePrefix`,
//!   a structure without members: an object without members, `{}` when set, else null.
//! - **Per-call VPC attributes** (DescribeVpcAttribute answers one attribute per call) are
//!   top-level members named after the attribute, the `{Value}` wrapper unwrapped as S3's
//!   configuration wrappers are: `enableDnsSupport` -> `enable_dns_support` (a boolean).
//!   `location` is normalised to a region name (`GetBucketLocation` answers null for
//!   `us-east-1` and `EU` for `eu-west-1`).
//! - **Action lists name several kinds of resources.** A CloudWatch alarm's `alarm_actions`
//!   are ARNs of SNS topics, Auto Scaling policies, EC2 and Systems Manager actions; the raw
//!   list stays, and the ARNs of SNS topics (`arn:aws:sns:...`) are the association
//!   `alarm_action_topics` ("the SNS topics among alarm_actions"), an association whose raw
//!   sibling is not `<name>_ids`.
//! - **Region and account settings** are resources of their own: `aws:ec2:region` (id = the
//!   region name) and `aws:s3:account` (id = the account id).

use cloudspec_model::schema::dsl::*;
use cloudspec_model::schema::{Member, ResourceSchema, SchemaSet};

const INSTANCE: &str = "aws:ec2:instance";
const VOLUME: &str = "aws:ec2:volume";
const SNAPSHOT: &str = "aws:ec2:snapshot";
const IMAGE: &str = "aws:ec2:image";
const SECURITY_GROUP: &str = "aws:ec2:security_group";
const VPC: &str = "aws:ec2:vpc";
const SUBNET: &str = "aws:ec2:subnet";
const NETWORK_INTERFACE: &str = "aws:ec2:network_interface";
const NETWORK_ACL: &str = "aws:ec2:network_acl";
const ROUTE_TABLE: &str = "aws:ec2:route_table";
const INTERNET_GATEWAY: &str = "aws:ec2:internet_gateway";
const NAT_GATEWAY: &str = "aws:ec2:nat_gateway";
const FLOW_LOG: &str = "aws:ec2:flow_log";
const ADDRESS: &str = "aws:ec2:address";
const VPC_ENDPOINT: &str = "aws:ec2:vpc_endpoint";
const REGION: &str = "aws:ec2:region";
const BUCKET: &str = "aws:s3:bucket";
const ACCOUNT: &str = "aws:s3:account";
const IAM_USER: &str = "aws:iam:user";
const IAM_ACCOUNT: &str = "aws:iam:account";
const IAM_POLICY: &str = "aws:iam:policy";
const IAM_ROLE: &str = "aws:iam:role";
const IAM_GROUP: &str = "aws:iam:group";
const IAM_SERVER_CERTIFICATE: &str = "aws:iam:server_certificate";
const TRAIL: &str = "aws:cloudtrail:trail";
const CONFIGURATION_RECORDER: &str = "aws:config:configuration_recorder";
const DELIVERY_CHANNEL: &str = "aws:config:delivery_channel";
const SECURITYHUB_HUB: &str = "aws:securityhub:hub";
const ANALYZER: &str = "aws:accessanalyzer:analyzer";

/// Every AWS resource type with its members: the schema of each row of
/// [`crate::types::TYPES`].
pub fn schemas() -> SchemaSet {
    let mut set = SchemaSet::new("aws");
    for t in crate::types::TYPES {
        set.add((t.schema)());
    }
    set
}

fn resource(type_name: &str, doc: &str, members: Vec<Member>) -> ResourceSchema {
    ResourceSchema {
        type_name: type_name.into(),
        doc: doc.into(),
        members,
    }
}

// ---------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------

/// `Tags` / `TagSet` as a key-value map.
fn tag_map() -> Member {
    tags("tags").doc("Tags as a key-value map: tags[\"environment\"]")
}

/// A reverse link: the resources of `target` that point at this one.
fn reverse(name: &str, target: &str, doc: &str) -> Member {
    assocs(name, target).doc(format!("Reverse link: {doc}"))
}

/// `security_group_ids` + `> security_groups`, for types whose API lists security groups.
fn security_group_links() -> [Member; 2] {
    [
        strings("security_group_ids").doc("Ids of the security groups (raw)"),
        assocs("security_groups", SECURITY_GROUP)
            .doc("The security groups (from security_group_ids)"),
    ]
}

/// `Groups[]` as the API returns it: `{GroupId, GroupName}`.
fn groups() -> Member {
    list_of("groups", vec![string("group_id"), string("group_name")])
        .doc("Security groups as the API lists them; follow > security_groups to reach them")
}

fn state_reason() -> Member {
    object("state_reason", vec![string("code"), string("message")])
        .doc("Why the resource is in its state, when AWS says")
}

/// `{State, StatusMessage}`: a CIDR block or route table association state.
fn state_and_message(name: &str) -> Member {
    object(name, vec![string("state"), string("status_message")])
}

fn ipv6_cidr_block_association_set() -> Member {
    list_of(
        "ipv6_cidr_block_association_set",
        vec![
            string("association_id"),
            string("ipv6_cidr_block"),
            state_and_message("ipv6_cidr_block_state"),
            string("network_border_group"),
            string("ipv6_pool"),
        ],
    )
    .doc("IPv6 CIDR blocks associated with the resource")
}

/// The public IP association of a network interface or one of its private addresses.
fn ip_association() -> Member {
    object(
        "association",
        vec![
            string("public_ip").doc("The public (elastic or auto-assigned) IPv4 address"),
            string("public_dns_name"),
            string("ip_owner_id")
                .doc("\"amazon\" for an auto-assigned address, else an account id"),
            string("allocation_id").doc("Elastic IP allocation, when the address is one"),
            string("association_id"),
            string("carrier_ip"),
            string("customer_owned_ip"),
        ],
    )
    .doc("Public IPv4 address association; null when there is none")
}

fn private_ip_addresses() -> Member {
    list_of(
        "private_ip_addresses",
        vec![
            string("private_ip_address"),
            string("private_dns_name"),
            boolean("primary").doc("Whether this is the primary private address"),
            ip_association(),
        ],
    )
}

fn ipv6_addresses() -> Member {
    list_of(
        "ipv6_addresses",
        vec![string("ipv6_address"), boolean("is_primary_ipv6")],
    )
}

fn private_dns_name_options(name: &str) -> Member {
    object(
        name,
        vec![
            string("hostname_type").doc("\"ip-name\" or \"resource-name\""),
            boolean("enable_resource_name_dns_a_record"),
            boolean("enable_resource_name_dns_aaaa_record"),
        ],
    )
}

/// The four settings of an S3 public access block (bucket or account).
fn public_access_block() -> Member {
    object(
        "public_access_block",
        vec![
            boolean("block_public_acls"),
            boolean("ignore_public_acls"),
            boolean("block_public_policy"),
            boolean("restrict_public_buckets"),
        ],
    )
    .doc("GetPublicAccessBlock (PublicAccessBlockConfiguration unwrapped); null when none is set")
}

/// An S3 ACL grantee.
fn grantee() -> Member {
    object(
        "grantee",
        vec![
            string("type").doc("\"CanonicalUser\", \"AmazonCustomerByEmail\" or \"Group\""),
            string("id").doc("Canonical user id"),
            string("uri").doc("Group URI, e.g. http://acs.amazonaws.com/groups/global/AllUsers"),
            string("display_name"),
            string("email_address"),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// EC2 compute
// ---------------------------------------------------------------------------------------

pub(crate) fn instance() -> ResourceSchema {
    let mut members = vec![
        string("instance_id"),
        string("instance_type").doc("e.g. \"t3.micro\""),
        string("image_id").doc("The AMI the instance was launched from (raw)"),
        assoc("image", IMAGE)
            .doc("The AMI (from image_id); dangling when not owned by the account"),
        object(
            "state",
            vec![
                integer("code").doc("16 running, 80 stopped, ..."),
                string("name").doc("\"pending\", \"running\", \"stopped\", ..."),
            ],
        ),
        string("state_transition_reason"),
        state_reason(),
        string("private_ip_address"),
        string("public_ip_address").doc("Public IPv4 address; null when the instance has none"),
        string("ipv6_address"),
        string("private_dns_name"),
        string("public_dns_name"),
        private_dns_name_options("private_dns_name_options"),
        string("subnet_id").doc("Id of the subnet (raw)"),
        assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
        string("vpc_id").doc("Id of the VPC (raw)"),
        assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
        string("key_name").doc("Name of the key pair; null when launched without one"),
        string("launch_time"),
        integer("ami_launch_index"),
        string("architecture").doc("\"x86_64\", \"arm64\", ..."),
        string("platform").doc("\"windows\", or null for Linux/UNIX"),
        string("platform_details"),
        string("instance_lifecycle").doc("\"spot\", \"scheduled\", \"capacity-block\", or null"),
        string("spot_instance_request_id"),
        string("capacity_reservation_id"),
        object("iam_instance_profile", vec![string("arn"), string("id")])
            .doc("The instance profile; null when none is attached"),
        object(
            "monitoring",
            vec![string("state").doc("\"disabled\" or \"enabled\" (detailed)")],
        ),
        object(
            "placement",
            vec![
                string("availability_zone"),
                string("availability_zone_id"),
                string("tenancy").doc("\"default\", \"dedicated\" or \"host\""),
                string("group_name").doc("Placement group name"),
                string("group_id"),
                integer("partition_number"),
                string("host_id"),
                string("affinity"),
            ],
        ),
        object(
            "metadata_options",
            vec![
                string("state").doc("\"pending\" or \"applied\""),
                string("http_tokens").doc("\"required\" means IMDSv2 only"),
                integer("http_put_response_hop_limit"),
                string("http_endpoint").doc("\"enabled\" or \"disabled\""),
                string("http_protocol_ipv6"),
                string("instance_metadata_tags"),
            ],
        )
        .doc("Instance metadata service (IMDS) settings"),
        list_of(
            "block_device_mappings",
            vec![
                string("device_name").doc("e.g. \"/dev/xvda\""),
                object(
                    "ebs",
                    vec![
                        string("volume_id").doc("Id of the volume (raw)"),
                        assoc("volume", VOLUME).doc("The EBS volume (from volume_id)"),
                        string("status").doc("\"attaching\", \"attached\", ..."),
                        string("attach_time"),
                        boolean("delete_on_termination"),
                        string("volume_owner_id"),
                    ],
                ),
            ],
        )
        .doc("Attached block devices"),
        strings("security_group_names").doc(
            "Names of the security groups, in the order of security_group_ids \
             (the API's SecurityGroups[].GroupName)",
        ),
    ];
    members.extend(security_group_links());
    members.extend([
        list_of("network_interfaces", instance_network_interface())
            .doc("Network interfaces as DescribeInstances lists them"),
        boolean("ebs_optimized"),
        boolean("ena_support"),
        string("sriov_net_support"),
        boolean("source_dest_check").doc("false when the instance can route traffic (NAT)"),
        string("root_device_name"),
        string("root_device_type").doc("\"ebs\" or \"instance-store\""),
        string("virtualization_type").doc("\"hvm\" or \"paravirtual\""),
        string("hypervisor"),
        string("boot_mode").doc("\"legacy-bios\", \"uefi\" or \"uefi-preferred\""),
        string("current_instance_boot_mode"),
        string("tpm_support"),
        object(
            "cpu_options",
            vec![
                integer("core_count"),
                integer("threads_per_core"),
                string("amd_sev_snp"),
            ],
        ),
        object("hibernation_options", vec![boolean("configured")]),
        object("enclave_options", vec![boolean("enabled")]).doc("AWS Nitro Enclaves"),
        object("maintenance_options", vec![string("auto_recovery")]),
        list_of(
            "product_codes",
            vec![string("product_code_id"), string("product_code_type")],
        ),
        tag_map(),
    ]);
    resource(INSTANCE, "An EC2 instance (DescribeInstances)", members)
}

/// One element of an instance's `network_interfaces`.
fn instance_network_interface() -> Vec<Member> {
    let mut members = vec![
        string("network_interface_id").doc("Id of the network interface (raw)"),
        assoc("network_interface", NETWORK_INTERFACE)
            .doc("The network interface (from network_interface_id)"),
        string("description"),
        string("interface_type"),
        string("status"),
        string("mac_address"),
        string("owner_id"),
        string("private_ip_address"),
        string("private_dns_name"),
        private_ip_addresses(),
        ipv6_addresses(),
        ip_association(),
        object(
            "attachment",
            vec![
                string("attachment_id"),
                string("attach_time"),
                integer("device_index"),
                integer("network_card_index"),
                string("status"),
                boolean("delete_on_termination"),
            ],
        ),
        string("subnet_id").doc("Id of the subnet (raw)"),
        assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
        string("vpc_id").doc("Id of the VPC (raw)"),
        assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
        boolean("source_dest_check"),
        groups(),
    ];
    members.extend(security_group_links());
    members
}

pub(crate) fn volume() -> ResourceSchema {
    resource(
        VOLUME,
        "An EBS volume (DescribeVolumes)",
        vec![
            string("volume_id"),
            string("volume_type")
                .doc("\"gp2\", \"gp3\", \"io1\", \"io2\", \"st1\", \"sc1\", \"standard\""),
            integer("size").doc("Size in GiB"),
            integer("iops"),
            integer("throughput").doc("MiB/s (gp3)"),
            boolean("encrypted"),
            string("kms_key_id").doc("ARN of the KMS key; null when not encrypted"),
            string("sse_type"),
            string("snapshot_id")
                .doc("The snapshot the volume was created from (raw); empty if none"),
            assoc("snapshot", SNAPSHOT).doc("The source snapshot (from snapshot_id)"),
            string("availability_zone"),
            string("availability_zone_id"),
            string("state").doc("\"creating\", \"available\", \"in-use\", ..."),
            string("create_time"),
            boolean("multi_attach_enabled"),
            boolean("fast_restored"),
            string("outpost_arn"),
            list_of(
                "attachments",
                vec![
                    string("instance_id").doc("Id of the instance (raw)"),
                    assoc("instance", INSTANCE).doc("The instance (from instance_id)"),
                    string("device"),
                    string("state").doc("\"attaching\", \"attached\", ..."),
                    string("attach_time"),
                    boolean("delete_on_termination"),
                    string("associated_resource"),
                    string("instance_owning_service"),
                ],
            )
            .doc("Attachments to instances; empty when the volume is unattached"),
            tag_map(),
        ],
    )
}

pub(crate) fn snapshot() -> ResourceSchema {
    resource(
        SNAPSHOT,
        "An EBS snapshot owned by the account (DescribeSnapshots, OwnerIds=self)",
        vec![
            string("snapshot_id"),
            string("volume_id").doc("The volume the snapshot was taken from (raw)"),
            assoc("volume", VOLUME).doc("The source volume (from volume_id); dangles once deleted"),
            integer("volume_size").doc("Size in GiB"),
            boolean("encrypted"),
            string("kms_key_id"),
            string("data_encryption_key_id"),
            string("state").doc("\"pending\", \"completed\", \"error\", ..."),
            string("state_message"),
            string("progress"),
            string("start_time"),
            string("completion_time"),
            string("owner_id"),
            string("owner_alias"),
            string("description"),
            string("storage_tier").doc("\"standard\" or \"archive\""),
            string("restore_expiry_time"),
            string("sse_type"),
            string("outpost_arn"),
            list_of(
                "create_volume_permissions",
                vec![
                    string("group").doc("\"all\" when the snapshot is public"),
                    string("user_id").doc("Account the snapshot is shared with"),
                ],
            )
            .doc(
                "DescribeSnapshotAttribute createVolumePermission: who may create volumes from it",
            ),
            tag_map(),
        ],
    )
}

pub(crate) fn image() -> ResourceSchema {
    resource(
        IMAGE,
        "An AMI owned by the account (DescribeImages, Owners=self)",
        vec![
            string("image_id"),
            string("name"),
            string("description"),
            string("state").doc("\"available\", \"pending\", \"deregistered\", ..."),
            state_reason(),
            boolean("public").doc("Whether the AMI has public launch permissions"),
            string("owner_id"),
            string("image_owner_alias"),
            string("image_location"),
            string("creation_date"),
            string("deprecation_time"),
            string("last_launched_time"),
            string("architecture"),
            string("image_type").doc("\"machine\", \"kernel\" or \"ramdisk\""),
            string("platform"),
            string("platform_details"),
            string("usage_operation"),
            string("hypervisor"),
            string("kernel_id"),
            string("ramdisk_id"),
            string("root_device_name"),
            string("root_device_type"),
            string("virtualization_type"),
            boolean("ena_support"),
            string("sriov_net_support"),
            string("boot_mode"),
            string("tpm_support"),
            string("imds_support").doc("\"v2.0\" when instances launched from it require IMDSv2"),
            string("deregistration_protection"),
            list_of(
                "block_device_mappings",
                vec![
                    string("device_name"),
                    string("virtual_name"),
                    string("no_device"),
                    object(
                        "ebs",
                        vec![
                            string("snapshot_id").doc("Id of the snapshot (raw)"),
                            assoc("snapshot", SNAPSHOT).doc("The snapshot (from snapshot_id)"),
                            integer("volume_size").doc("Size in GiB"),
                            string("volume_type"),
                            integer("iops"),
                            integer("throughput"),
                            boolean("encrypted"),
                            string("kms_key_id"),
                            boolean("delete_on_termination"),
                        ],
                    ),
                ],
            ),
            list_of(
                "product_codes",
                vec![string("product_code_id"), string("product_code_type")],
            ),
            tag_map(),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// EC2 networking
// ---------------------------------------------------------------------------------------

pub(crate) fn security_group() -> ResourceSchema {
    resource(
        SECURITY_GROUP,
        "A VPC security group (DescribeSecurityGroups)",
        vec![
            string("group_id"),
            string("group_name"),
            string("security_group_arn"),
            string("description"),
            string("owner_id"),
            string("vpc_id").doc("Id of the VPC (raw)"),
            assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
            ip_permissions("ip_permissions").doc("Inbound rules"),
            ip_permissions("ip_permissions_egress").doc("Outbound rules"),
            tag_map(),
            reverse(
                "network_interfaces",
                NETWORK_INTERFACE,
                "network interfaces using this group (empty when the group is unused)",
            ),
        ],
    )
}

/// `IpPermissions` / `IpPermissionsEgress`.
fn ip_permissions(name: &str) -> Member {
    list_of(
        name,
        vec![
            string("ip_protocol").doc("\"tcp\", \"udp\", \"icmp\", a protocol number, or \"-1\" (all)"),
            integer("from_port").doc("Start of the port range (ICMP type); -1 for all"),
            integer("to_port").doc("End of the port range (ICMP code); -1 for all"),
            list_of(
                "ip_ranges",
                vec![string("cidr_ip").doc("IPv4 CIDR, e.g. \"0.0.0.0/0\""), string("description")],
            ),
            list_of(
                "ipv6_ranges",
                vec![string("cidr_ipv6").doc("IPv6 CIDR, e.g. \"::/0\""), string("description")],
            ),
            list_of(
                "prefix_list_ids",
                vec![string("prefix_list_id"), string("description")],
            ),
            list_of(
                "user_id_group_pairs",
                vec![
                    string("group_id").doc("Id of the referenced security group (raw)"),
                    assoc("group", SECURITY_GROUP).doc(
                        "The referenced security group (from group_id); dangles when in another account",
                    ),
                    string("group_name"),
                    string("user_id"),
                    string("vpc_id"),
                    string("vpc_peering_connection_id"),
                    string("peering_status"),
                    string("description"),
                ],
            )
            .doc("Security groups allowed by this rule"),
        ],
    )
}

pub(crate) fn vpc() -> ResourceSchema {
    resource(
        VPC,
        "A VPC (DescribeVpcs)",
        vec![
            string("vpc_id"),
            string("cidr_block").doc("Primary IPv4 CIDR block"),
            list_of(
                "cidr_block_association_set",
                vec![
                    string("association_id"),
                    string("cidr_block"),
                    state_and_message("cidr_block_state"),
                ],
            )
            .doc("IPv4 CIDR blocks associated with the VPC"),
            ipv6_cidr_block_association_set(),
            string("state").doc("\"pending\" or \"available\""),
            boolean("is_default").doc("Whether this is the region's default VPC"),
            string("instance_tenancy").doc("\"default\", \"dedicated\" or \"host\""),
            boolean("enable_dns_support").doc(
                "DescribeVpcAttribute enableDnsSupport: whether the Amazon DNS server \
                 resolves names for the VPC",
            ),
            boolean("enable_dns_hostnames").doc(
                "DescribeVpcAttribute enableDnsHostnames: whether instances with a public \
                 IP address get public DNS host names",
            ),
            string("dhcp_options_id"),
            string("owner_id"),
            tag_map(),
            reverse(
                "flow_logs",
                FLOW_LOG,
                "flow logs of this VPC (not of its subnets or interfaces)",
            ),
            reverse("subnets", SUBNET, "subnets of this VPC"),
            reverse(
                "security_groups",
                SECURITY_GROUP,
                "security groups of this VPC",
            ),
            reverse("network_acls", NETWORK_ACL, "network ACLs of this VPC"),
            reverse("route_tables", ROUTE_TABLE, "route tables of this VPC"),
            reverse(
                "internet_gateways",
                INTERNET_GATEWAY,
                "internet gateways attached to this VPC",
            ),
            reverse("instances", INSTANCE, "instances in this VPC"),
        ],
    )
}

pub(crate) fn subnet() -> ResourceSchema {
    resource(
        SUBNET,
        "A VPC subnet (DescribeSubnets)",
        vec![
            string("subnet_id"),
            string("subnet_arn"),
            string("vpc_id").doc("Id of the VPC (raw)"),
            assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
            string("cidr_block"),
            ipv6_cidr_block_association_set(),
            string("availability_zone"),
            string("availability_zone_id"),
            integer("available_ip_address_count"),
            boolean("default_for_az"),
            boolean("map_public_ip_on_launch")
                .doc("Whether instances get a public IPv4 address by default"),
            boolean("assign_ipv6_address_on_creation"),
            boolean("map_customer_owned_ip_on_launch"),
            string("customer_owned_ipv4_pool"),
            boolean("enable_dns64"),
            boolean("ipv6_native"),
            private_dns_name_options("private_dns_name_options_on_launch"),
            string("state").doc("\"pending\" or \"available\""),
            string("outpost_arn"),
            string("owner_id"),
            tag_map(),
            reverse("instances", INSTANCE, "instances in this subnet"),
            reverse(
                "network_interfaces",
                NETWORK_INTERFACE,
                "network interfaces in this subnet",
            ),
            reverse(
                "route_tables",
                ROUTE_TABLE,
                "route tables explicitly associated with this subnet; empty when the subnet \
                 uses its VPC's main route table",
            ),
            reverse(
                "flow_logs",
                FLOW_LOG,
                "flow logs of this subnet (not of its VPC)",
            ),
        ],
    )
}

pub(crate) fn network_interface() -> ResourceSchema {
    let mut members = vec![
        string("network_interface_id"),
        string("interface_type").doc("\"interface\", \"nat_gateway\", \"vpc_endpoint\", ..."),
        string("status").doc("\"available\", \"in-use\", ..."),
        string("description"),
        string("subnet_id").doc("Id of the subnet (raw)"),
        assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
        string("vpc_id").doc("Id of the VPC (raw)"),
        assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
        string("availability_zone"),
        string("private_ip_address"),
        string("private_dns_name"),
        private_ip_addresses(),
        ipv6_addresses(),
        ip_association(),
        object(
            "attachment",
            vec![
                string("attachment_id"),
                string("instance_id")
                    .doc("Id of the instance (raw); null when not attached to one"),
                assoc("instance", INSTANCE).doc("The instance (from instance_id)"),
                string("instance_owner_id"),
                integer("device_index"),
                integer("network_card_index"),
                string("status"),
                string("attach_time"),
                boolean("delete_on_termination"),
            ],
        )
        .doc("Attachment; null when the interface is detached"),
        groups(),
    ];
    members.extend(security_group_links());
    members.extend([
        string("mac_address"),
        boolean("source_dest_check"),
        boolean("requester_managed").doc("Whether an AWS service manages the interface"),
        string("requester_id"),
        string("owner_id"),
        string("outpost_arn"),
        tags("tags").doc("Tags (the API's TagSet) as a key-value map"),
        reverse("flow_logs", FLOW_LOG, "flow logs of this network interface"),
    ]);
    resource(
        NETWORK_INTERFACE,
        "An elastic network interface (DescribeNetworkInterfaces)",
        members,
    )
}

pub(crate) fn network_acl() -> ResourceSchema {
    resource(
        NETWORK_ACL,
        "A network ACL (DescribeNetworkAcls)",
        vec![
            string("network_acl_id"),
            string("vpc_id").doc("Id of the VPC (raw)"),
            assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
            boolean("is_default"),
            list_of(
                "entries",
                vec![
                    integer("rule_number").doc("32767 is the default deny rule"),
                    string("protocol").doc("A protocol number as a string; \"-1\" for all"),
                    string("rule_action").doc("\"allow\" or \"deny\""),
                    boolean("egress").doc("true for outbound rules"),
                    string("cidr_block"),
                    string("ipv6_cidr_block"),
                    object("port_range", vec![integer("from"), integer("to")])
                        .doc("TCP/UDP port range; null for other protocols"),
                    object("icmp_type_code", vec![integer("code"), integer("type")]),
                ],
            ),
            list_of(
                "associations",
                vec![
                    string("network_acl_association_id"),
                    string("network_acl_id"),
                    string("subnet_id").doc("Id of the subnet (raw)"),
                    assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
                ],
            )
            .doc("Subnets using this ACL"),
            string("owner_id"),
            tag_map(),
        ],
    )
}

pub(crate) fn route_table() -> ResourceSchema {
    resource(
        ROUTE_TABLE,
        "A route table (DescribeRouteTables)",
        vec![
            string("route_table_id"),
            string("vpc_id").doc("Id of the VPC (raw)"),
            assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
            list_of(
                "routes",
                vec![
                    string("destination_cidr_block"),
                    string("destination_ipv6_cidr_block"),
                    string("destination_prefix_list_id"),
                    string("gateway_id").doc(
                        "\"local\", or an internet (igw-), virtual private (vgw-) or endpoint \
                         (vpce-) gateway id; no association since the target type varies",
                    ),
                    string("egress_only_internet_gateway_id"),
                    string("nat_gateway_id").doc("Id of the NAT gateway (raw)"),
                    assoc("nat_gateway", NAT_GATEWAY).doc("The NAT gateway (from nat_gateway_id)"),
                    string("instance_id").doc("Id of the instance (raw)"),
                    assoc("instance", INSTANCE).doc("The instance (from instance_id)"),
                    string("instance_owner_id"),
                    string("network_interface_id").doc("Id of the network interface (raw)"),
                    assoc("network_interface", NETWORK_INTERFACE)
                        .doc("The network interface (from network_interface_id)"),
                    string("vpc_peering_connection_id"),
                    string("transit_gateway_id"),
                    string("local_gateway_id"),
                    string("carrier_gateway_id"),
                    string("core_network_arn"),
                    string("state").doc("\"active\" or \"blackhole\""),
                    string("origin").doc(
                        "\"CreateRouteTable\", \"CreateRoute\" or \"EnableVgwRoutePropagation\"",
                    ),
                ],
            ),
            list_of(
                "associations",
                vec![
                    string("route_table_association_id"),
                    string("route_table_id"),
                    boolean("main").doc("Whether this is the VPC's main route table"),
                    string("subnet_id")
                        .doc("Id of the subnet (raw); null for the main association"),
                    assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
                    string("gateway_id").doc("Edge-associated gateway"),
                    state_and_message("association_state"),
                ],
            ),
            list_of("propagating_vgws", vec![string("gateway_id")]),
            string("owner_id"),
            tag_map(),
        ],
    )
}

pub(crate) fn internet_gateway() -> ResourceSchema {
    resource(
        INTERNET_GATEWAY,
        "An internet gateway (DescribeInternetGateways)",
        vec![
            string("internet_gateway_id"),
            list_of(
                "attachments",
                vec![
                    string("vpc_id").doc("Id of the VPC (raw)"),
                    assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
                    string("state").doc("\"available\" when attached"),
                ],
            )
            .doc("VPC attachments; empty when detached"),
            string("owner_id"),
            tag_map(),
        ],
    )
}

pub(crate) fn nat_gateway() -> ResourceSchema {
    resource(
        NAT_GATEWAY,
        "A NAT gateway (DescribeNatGateways)",
        vec![
            string("nat_gateway_id"),
            string("vpc_id").doc("Id of the VPC (raw)"),
            assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
            string("subnet_id").doc("Id of the subnet (raw)"),
            assoc("subnet", SUBNET).doc("The subnet (from subnet_id)"),
            string("state").doc("\"pending\", \"available\", \"deleted\", ..."),
            string("connectivity_type").doc("\"public\" or \"private\""),
            list_of(
                "nat_gateway_addresses",
                vec![
                    string("allocation_id"),
                    string("network_interface_id").doc("Id of the network interface (raw)"),
                    assoc("network_interface", NETWORK_INTERFACE)
                        .doc("The network interface (from network_interface_id)"),
                    string("private_ip"),
                    string("public_ip"),
                    string("association_id"),
                    boolean("is_primary"),
                    string("status"),
                    string("failure_message"),
                ],
            ),
            string("create_time"),
            string("delete_time"),
            string("failure_code"),
            string("failure_message"),
            tag_map(),
        ],
    )
}

pub(crate) fn flow_log() -> ResourceSchema {
    resource(
        FLOW_LOG,
        "A VPC flow log (DescribeFlowLogs); reach it from > flow_logs of a VPC, subnet or network interface",
        vec![
            string("flow_log_id"),
            string("flow_log_status").doc("\"ACTIVE\""),
            string("resource_id").doc(
                "Id of the VPC, subnet or network interface logged; no association since the \
                 target type varies",
            ),
            string("traffic_type").doc("\"ACCEPT\", \"REJECT\" or \"ALL\""),
            string("log_destination_type").doc("\"cloud-watch-logs\", \"s3\" or \"kinesis-data-firehose\""),
            string("log_destination").doc("ARN of the destination"),
            string("log_group_name"),
            string("deliver_logs_status").doc("\"SUCCESS\" or \"FAILED\""),
            string("deliver_logs_error_message"),
            string("deliver_logs_permission_arn"),
            string("deliver_cross_account_role"),
            string("log_format"),
            integer("max_aggregation_interval").doc("Seconds: 60 or 600"),
            object(
                "destination_options",
                vec![
                    string("file_format"),
                    boolean("hive_compatible_partitions"),
                    boolean("per_hour_partition"),
                ],
            ),
            string("creation_time"),
            tag_map(),
        ],
    )
}

pub(crate) fn address() -> ResourceSchema {
    resource(
        ADDRESS,
        "An elastic IP address (DescribeAddresses)",
        vec![
            string("allocation_id"),
            string("public_ip"),
            string("association_id").doc("null when the address is not associated"),
            string("domain").doc("\"vpc\" or \"standard\""),
            string("instance_id").doc("Id of the instance (raw)"),
            assoc("instance", INSTANCE).doc("The instance (from instance_id)"),
            string("network_interface_id").doc("Id of the network interface (raw)"),
            assoc("network_interface", NETWORK_INTERFACE)
                .doc("The network interface (from network_interface_id)"),
            string("network_interface_owner_id"),
            string("private_ip_address"),
            string("network_border_group"),
            string("public_ipv4_pool"),
            string("customer_owned_ip"),
            string("customer_owned_ipv4_pool"),
            string("carrier_ip"),
            tag_map(),
        ],
    )
}

pub(crate) fn vpc_endpoint() -> ResourceSchema {
    let mut members = vec![
        string("vpc_endpoint_id"),
        string("vpc_endpoint_type").doc("\"Interface\", \"Gateway\", \"GatewayLoadBalancer\", ..."),
        string("vpc_id").doc("Id of the VPC (raw)"),
        assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
        string("service_name").doc("e.g. \"com.amazonaws.eu-west-1.s3\""),
        string("state").doc("\"available\", \"pending\", ..."),
        any("policy_document")
            .doc("The endpoint policy, parsed from JSON, keys as in the document"),
        strings("route_table_ids").doc("Ids of the route tables (raw; gateway endpoints)"),
        assocs("route_tables", ROUTE_TABLE).doc("The route tables (from route_table_ids)"),
        strings("subnet_ids").doc("Ids of the subnets (raw; interface endpoints)"),
        assocs("subnets", SUBNET).doc("The subnets (from subnet_ids)"),
        groups(),
    ];
    members.extend(security_group_links());
    members.extend([
        boolean("private_dns_enabled"),
        boolean("requester_managed"),
        strings("network_interface_ids").doc("Ids of the network interfaces (raw)"),
        assocs("network_interfaces", NETWORK_INTERFACE)
            .doc("The network interfaces (from network_interface_ids)"),
        list_of(
            "dns_entries",
            vec![string("dns_name"), string("hosted_zone_id")],
        ),
        object(
            "dns_options",
            vec![
                string("dns_record_ip_type"),
                boolean("private_dns_only_for_inbound_resolver_endpoint"),
            ],
        ),
        string("ip_address_type"),
        object("last_error", vec![string("code"), string("message")]),
        string("creation_timestamp"),
        string("owner_id"),
        tag_map(),
    ]);
    resource(
        VPC_ENDPOINT,
        "A VPC endpoint (DescribeVpcEndpoints)",
        members,
    )
}

pub(crate) fn region() -> ResourceSchema {
    resource(
        REGION,
        "A region's EC2 settings (DescribeRegions, GetEbsEncryptionByDefault, GetEbsDefaultKmsKeyId); id = region name",
        vec![
            string("region_name").doc("e.g. \"eu-west-1\"; also the resource id"),
            string("endpoint"),
            string("opt_in_status").doc("\"opt-in-not-required\", \"opted-in\" or \"not-opted-in\""),
            boolean("ebs_encryption_by_default").doc("Whether new EBS volumes are encrypted by default"),
            string("ebs_default_kms_key_id").doc("KMS key used for default EBS encryption"),
            reverse(
                "trails",
                TRAIL,
                "CloudTrail trails that log this region: its own and every multi-region trail",
            ),
            reverse(
                "configuration_recorders",
                CONFIGURATION_RECORDER,
                "AWS Config recorders of this region",
            ),
            reverse(
                "delivery_channels",
                DELIVERY_CHANNEL,
                "AWS Config delivery channels of this region",
            ),
            reverse(
                "hubs",
                SECURITYHUB_HUB,
                "Security Hub in this region: one hub when enabled, none when not",
            ),
            reverse(
                "analyzers",
                ANALYZER,
                "IAM Access Analyzer analyzers of this region",
            ),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// S3
// ---------------------------------------------------------------------------------------

pub(crate) fn bucket() -> ResourceSchema {
    resource(
        BUCKET,
        "An S3 bucket (ListBuckets, with one nested property per Get* settings call)",
        vec![
            string("name").doc("Bucket name; also the resource id"),
            string("creation_date"),
            string("location").doc(
                "GetBucketLocation, normalised to the region name (\"us-east-1\" where the API \
                 answers null, \"eu-west-1\" for \"EU\")",
            ),
            object(
                "versioning",
                vec![
                    string("status").doc("\"Enabled\" or \"Suspended\""),
                    string("mfa_delete").doc("\"Enabled\" or \"Disabled\"; null when never set"),
                ],
            )
            .doc("GetBucketVersioning; null when the bucket was never versioned (no Status)"),
            object(
                "encryption",
                vec![list_of(
                    "rules",
                    vec![
                        object(
                            "apply_server_side_encryption_by_default",
                            vec![
                                string("sse_algorithm").doc("\"AES256\", \"aws:kms\" or \"aws:kms:dsse\""),
                                string("kms_master_key_id"),
                            ],
                        ),
                        boolean("bucket_key_enabled"),
                    ],
                )],
            )
            .doc("GetBucketEncryption (ServerSideEncryptionConfiguration unwrapped); null when not configured"),
            object(
                "logging",
                vec![
                    string("target_bucket"),
                    string("target_prefix"),
                    list_of("target_grants", vec![grantee(), string("permission")]),
                    object(
                        "target_object_key_format",
                        vec![
                            object("simple_prefix", vec![]).doc(
                                "An empty object when set: keys are \
                                 [DestinationPrefix][YYYY]-[MM]-[DD]-[hh]-[mm]-[ss]-[UniqueString]; \
                                 else null",
                            ),
                            object(
                                "partitioned_prefix",
                                vec![string("partition_date_source")
                                    .doc("\"EventTime\" or \"DeliveryTime\"")],
                            )
                            .doc("Set when log object keys are partitioned by date; else null"),
                        ],
                    )
                    .doc(
                        "TargetObjectKeyFormat: how log object keys are formed; null when not set \
                         (keys then have the simple prefix form)",
                    ),
                ],
            )
            .doc("GetBucketLogging (LoggingEnabled unwrapped); null when access logging is off"),
            public_access_block(),
            any("policy").doc(
                "GetBucketPolicy: the policy document parsed from JSON, keys as in the document \
                 (Statement, Effect, Principal); null when the bucket has no policy",
            ),
            object(
                "policy_status",
                vec![boolean("is_public").doc("Whether the policy makes the bucket public")],
            )
            .doc("GetBucketPolicyStatus; null when the bucket has no policy"),
            object(
                "acl",
                vec![
                    object("owner", vec![string("display_name"), string("id")]),
                    list_of(
                        "grants",
                        vec![
                            grantee(),
                            string("permission").doc(
                                "\"FULL_CONTROL\", \"WRITE\", \"WRITE_ACP\", \"READ\" or \"READ_ACP\"",
                            ),
                        ],
                    ),
                ],
            )
            .doc("GetBucketAcl"),
            object(
                "ownership_controls",
                vec![list_of(
                    "rules",
                    vec![string("object_ownership").doc(
                        "\"BucketOwnerEnforced\", \"BucketOwnerPreferred\" or \"ObjectWriter\"",
                    )],
                )],
            )
            .doc("GetBucketOwnershipControls (OwnershipControls unwrapped); null when not set"),
            tags("tags").doc("GetBucketTagging as a key-value map"),
        ],
    )
}

pub(crate) fn account() -> ResourceSchema {
    resource(
        ACCOUNT,
        "The account's S3 settings (s3control GetPublicAccessBlock); id = account id",
        vec![
            string("account_id").doc("Also the resource id"),
            public_access_block(),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// IAM (global)
// ---------------------------------------------------------------------------------------

/// The keys of GetAccountSummary's SummaryMap, in snake_case, as `summary` holds them.
pub(crate) const SUMMARY_KEYS: &[(&str, &str)] = &[
    ("AccountAccessKeysPresent", "account_access_keys_present"),
    ("AccountMFAEnabled", "account_mfa_enabled"),
    ("AccountPasswordPresent", "account_password_present"),
    (
        "AccountSigningCertificatesPresent",
        "account_signing_certificates_present",
    ),
    ("Users", "users"),
    ("Groups", "groups"),
    ("Roles", "roles"),
    ("Policies", "policies"),
    ("MFADevices", "mfa_devices"),
    ("MFADevicesInUse", "mfa_devices_in_use"),
    ("ServerCertificates", "server_certificates"),
];

pub(crate) fn iam_user() -> ResourceSchema {
    resource(
        IAM_USER,
        "An IAM user (ListUsers, with one member per per-user call, each made only when a \
         rule reads it); id = the user's ARN",
        vec![
            string("user_name"),
            string("user_id"),
            string("arn").doc("Also the resource id"),
            string("path"),
            string("create_date"),
            string("password_last_used")
                .doc("When the console password was last used; null when never (or no password)"),
            list_of(
                "access_keys",
                vec![
                    string("access_key_id"),
                    string("status").doc("\"Active\" or \"Inactive\""),
                    string("create_date"),
                    object(
                        "last_used",
                        vec![
                            string("last_used_date").doc("null when the key was never used"),
                            string("service_name"),
                            string("region"),
                        ],
                    )
                    .doc("GetAccessKeyLastUsed"),
                ],
            )
            .doc("ListAccessKeys, each key with GetAccessKeyLastUsed"),
            list_of(
                "mfa_devices",
                vec![string("serial_number"), string("enable_date")],
            )
            .doc("ListMFADevices: the user's MFA devices (virtual and hardware)"),
            object(
                "login_profile",
                vec![string("create_date"), boolean("password_reset_required")],
            )
            .doc("GetLoginProfile: the console password; null when the user has none"),
            list_of(
                "attached_policies",
                vec![
                    string("policy_name"),
                    string("policy_arn"),
                    assoc("policy", IAM_POLICY).doc("The policy (from policy_arn)"),
                ],
            )
            .doc("ListAttachedUserPolicies: managed policies attached to the user itself"),
            strings("policy_names")
                .doc("ListUserPolicies: the names of the user's inline policies"),
            list_of(
                "groups",
                vec![
                    string("group_name"),
                    string("group_id"),
                    string("arn"),
                    assoc("group", IAM_GROUP).doc("The group (from arn)"),
                ],
            )
            .doc("ListGroupsForUser"),
            tags("tags").doc("ListUserTags as a key-value map"),
        ],
    )
}

pub(crate) fn iam_policy() -> ResourceSchema {
    resource(
        IAM_POLICY,
        "A managed IAM policy: the account's own (ListPolicies scope Local) and AWS's that are \
         attached to something (scope AWS, only attached); id = the policy's ARN",
        vec![
            string("policy_name"),
            string("policy_id"),
            string("arn")
                .doc("Also the resource id; AWS's own policies are arn:aws:iam::aws:policy/..."),
            string("path"),
            string("default_version_id"),
            integer("attachment_count"),
            boolean("is_attachable"),
            string("create_date"),
            string("update_date"),
            any("document").doc(
                "GetPolicyVersion of the default version: the policy document parsed from JSON, \
                 its own keys kept (Statement ( Effect, Action, Resource ))",
            ),
            entities("entities").doc("ListEntitiesForPolicy: what it is attached to"),
            tags("tags").doc("ListPolicyTags as a key-value map"),
        ],
    )
}

pub(crate) fn iam_account() -> ResourceSchema {
    resource(
        IAM_ACCOUNT,
        "The account's IAM settings (one member per call, each made only when a rule reads \
         it); id = account id",
        vec![
            string("account_id").doc("Also the resource id"),
            object(
                "password_policy",
                vec![
                    integer("minimum_password_length"),
                    boolean("require_symbols"),
                    boolean("require_numbers"),
                    boolean("require_uppercase_characters"),
                    boolean("require_lowercase_characters"),
                    boolean("allow_users_to_change_password"),
                    boolean("expire_passwords"),
                    integer("max_password_age"),
                    integer("password_reuse_prevention"),
                    boolean("hard_expiry"),
                ],
            )
            .doc("GetAccountPasswordPolicy; null when the account has none"),
            object(
                "summary",
                SUMMARY_KEYS
                    .iter()
                    .map(|(_, name)| integer(name))
                    .collect(),
            )
            .doc("GetAccountSummary's SummaryMap in snake_case (account_mfa_enabled is 1 when the root user has MFA)"),
            list_of(
                "virtual_mfa_devices",
                vec![
                    string("serial_number"),
                    string("enable_date"),
                    object(
                        "user",
                        vec![string("user_name"), string("user_id"), string("arn")],
                    )
                    .doc("The user it is assigned to (arn ending in :root for the root user); null when unassigned"),
                ],
            )
            .doc("ListVirtualMFADevices"),
            entities("support_access").doc(
                "ListEntitiesForPolicy of AWS's AWSSupportAccess policy: who may manage \
                 incidents with AWS Support",
            ),
        ],
    )
}

/// A ListEntitiesForPolicy answer: the users, groups and roles a policy is attached to.
fn entities(name: &str) -> Member {
    object(
        name,
        vec![
            list_of("policy_users", vec![string("user_name"), string("user_id")]),
            list_of(
                "policy_groups",
                vec![string("group_name"), string("group_id")],
            ),
            list_of("policy_roles", vec![string("role_name"), string("role_id")]),
        ],
    )
}

/// A role's or group's managed policies and inline policy names (per-resource calls).
fn attached_and_inline(kind: &str) -> [Member; 2] {
    [
        list_of(
            "attached_policies",
            vec![
                string("policy_name"),
                string("policy_arn"),
                assoc("policy", IAM_POLICY).doc("The policy (from policy_arn)"),
            ],
        )
        .doc(format!(
            "ListAttached{kind}Policies: managed policies attached to it"
        )),
        strings("policy_names").doc(format!(
            "List{kind}Policies: the names of its inline policies"
        )),
    ]
}

pub(crate) fn iam_role() -> ResourceSchema {
    let [attached, inline] = attached_and_inline("Role");
    resource(
        IAM_ROLE,
        "An IAM role (ListRoles, with one member per per-role call, each made only when a \
         rule reads it); id = the role's ARN",
        vec![
            string("role_name"),
            string("role_id"),
            string("arn").doc("Also the resource id"),
            string("path"),
            string("description"),
            string("create_date"),
            integer("max_session_duration"),
            any("assume_role_policy_document")
                .doc("The trust policy parsed from JSON (Statement ( Effect, Principal, Action ))"),
            attached,
            inline,
            tags("tags").doc("ListRoleTags as a key-value map"),
        ],
    )
}

pub(crate) fn iam_group() -> ResourceSchema {
    let [attached, inline] = attached_and_inline("Group");
    resource(
        IAM_GROUP,
        "An IAM group (ListGroups, with one member per per-group call, each made only when a \
         rule reads it); id = the group's ARN",
        vec![
            string("group_name"),
            string("group_id"),
            string("arn").doc("Also the resource id"),
            string("path"),
            string("create_date"),
            attached,
            inline,
        ],
    )
}

pub(crate) fn iam_server_certificate() -> ResourceSchema {
    resource(
        IAM_SERVER_CERTIFICATE,
        "A server certificate stored in IAM (ListServerCertificates); id = its ARN",
        vec![
            string("server_certificate_name"),
            string("server_certificate_id"),
            string("arn").doc("Also the resource id"),
            string("path"),
            string("upload_date"),
            string("expiration").doc("When the certificate expires"),
            tags("tags").doc("ListServerCertificateTags as a key-value map"),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// CloudTrail, Config, Security Hub, Access Analyzer
// ---------------------------------------------------------------------------------------

pub(crate) fn trail() -> ResourceSchema {
    resource(
        TRAIL,
        "A CloudTrail trail (DescribeTrails in every region, shadow trails included, each \
         trail once); region = its home region; id = its ARN",
        vec![
            string("name"),
            string("trail_arn").doc("Also the resource id"),
            string("home_region"),
            string("s3_bucket_name"),
            string("s3_key_prefix"),
            string("sns_topic_arn"),
            boolean("include_global_service_events"),
            boolean("is_multi_region_trail"),
            boolean("is_organization_trail"),
            boolean("log_file_validation_enabled"),
            string("cloud_watch_logs_log_group_arn"),
            assoc("cloud_watch_logs_log_group", LOG_GROUP)
                .doc("The log group it delivers to (from cloud_watch_logs_log_group_arn)"),
            string("cloud_watch_logs_role_arn"),
            string("kms_key_id").doc("The KMS key that encrypts its logs; null when none"),
            boolean("has_custom_event_selectors"),
            boolean("has_insight_selectors"),
            object(
                "status",
                vec![
                    boolean("is_logging"),
                    string("latest_delivery_error"),
                    string("latest_delivery_time"),
                    string("latest_cloud_watch_logs_delivery_error"),
                    string("latest_cloud_watch_logs_delivery_time"),
                    string("start_logging_time"),
                    string("stop_logging_time"),
                ],
            )
            .doc("GetTrailStatus"),
            object(
                "event_selectors",
                vec![
                    list_of(
                        "event_selectors",
                        vec![
                            string("read_write_type").doc("\"ReadOnly\", \"WriteOnly\" or \"All\""),
                            boolean("include_management_events"),
                            strings("exclude_management_event_sources"),
                            list_of(
                                "data_resources",
                                vec![
                                    string("type").doc("e.g. \"AWS::S3::Object\""),
                                    strings("values")
                                        .doc("ARNs or prefixes; \"arn:aws:s3\" is every bucket"),
                                ],
                            ),
                        ],
                    ),
                    list_of(
                        "advanced_event_selectors",
                        vec![
                            string("name"),
                            list_of(
                                "field_selectors",
                                vec![
                                    string("field").doc(
                                        "e.g. \"eventCategory\", \"resources.type\", \"readOnly\"",
                                    ),
                                    strings("equals"),
                                    strings("starts_with"),
                                    strings("ends_with"),
                                    strings("not_equals"),
                                    strings("not_starts_with"),
                                    strings("not_ends_with"),
                                ],
                            ),
                        ],
                    ),
                ],
            )
            .doc("GetEventSelectors: the basic or the advanced event selectors"),
            tags("tags").doc("ListTags as a key-value map"),
        ],
    )
}

pub(crate) fn configuration_recorder() -> ResourceSchema {
    resource(
        CONFIGURATION_RECORDER,
        "An AWS Config recorder (DescribeConfigurationRecorders with \
         DescribeConfigurationRecorderStatus); id = its ARN, else REGION/NAME",
        vec![
            string("name"),
            string("arn"),
            string("role_arn"),
            object(
                "recording_group",
                vec![
                    boolean("all_supported"),
                    boolean("include_global_resource_types"),
                    strings("resource_types"),
                    object(
                        "exclusion_by_resource_types",
                        vec![strings("resource_types")],
                    ),
                    object("recording_strategy", vec![string("use_only")]),
                ],
            ),
            object(
                "recording_mode",
                vec![string("recording_frequency").doc("\"CONTINUOUS\" or \"DAILY\"")],
            ),
            object(
                "status",
                vec![
                    boolean("recording"),
                    string("last_status").doc("\"Pending\", \"Success\" or \"Failure\""),
                    string("last_start_time"),
                    string("last_stop_time"),
                    string("last_status_change_time"),
                    string("last_error_code"),
                    string("last_error_message"),
                ],
            )
            .doc("DescribeConfigurationRecorderStatus; null when AWS gave none"),
        ],
    )
}

pub(crate) fn delivery_channel() -> ResourceSchema {
    resource(
        DELIVERY_CHANNEL,
        "An AWS Config delivery channel (DescribeDeliveryChannels); id = REGION/NAME",
        vec![
            string("name"),
            string("s3_bucket_name"),
            string("s3_key_prefix"),
            string("s3_kms_key_arn"),
            string("sns_topic_arn"),
            object(
                "config_snapshot_delivery_properties",
                vec![string("delivery_frequency")],
            ),
        ],
    )
}

pub(crate) fn securityhub_hub() -> ResourceSchema {
    resource(
        SECURITYHUB_HUB,
        "Security Hub in a region (DescribeHub); none where it is not enabled; id = the hub ARN",
        vec![
            string("hub_arn").doc("Also the resource id"),
            string("subscribed_at"),
            boolean("auto_enable_controls"),
            string("control_finding_generator").doc("\"STANDARD_CONTROL\" or \"SECURITY_CONTROL\""),
        ],
    )
}

pub(crate) fn analyzer() -> ResourceSchema {
    resource(
        ANALYZER,
        "An IAM Access Analyzer analyzer (ListAnalyzers); id = its ARN",
        vec![
            string("arn").doc("Also the resource id"),
            string("name"),
            string("type").doc("\"ACCOUNT\", \"ORGANIZATION\", or an unused-access type"),
            string("status").doc("\"ACTIVE\", \"CREATING\", \"DISABLED\" or \"FAILED\""),
            string("created_at"),
            string("last_resource_analyzed"),
            string("last_resource_analyzed_at"),
            tags("tags"),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// RDS, EFS, KMS, CloudWatch Logs, CloudWatch, SNS (regional)
// ---------------------------------------------------------------------------------------
//
// KMS keys are collected now: `kms_key_id` of these types gains `> kms_key` (the key's ARN
// is its id; an alias or a bare key id, as some APIs answer, dangles to null).

const RDS_DB_INSTANCE: &str = "aws:rds:db_instance";
const EFS_FILE_SYSTEM: &str = "aws:efs:file_system";
const KMS_KEY: &str = "aws:kms:key";
const LOG_GROUP: &str = "aws:logs:log_group";
const ALARM: &str = "aws:cloudwatch:alarm";
const SNS_TOPIC: &str = "aws:sns:topic";

fn kms_key_link() -> [Member; 2] {
    [
        string("kms_key_id").doc("The KMS key (ARN) that encrypts it; null when none"),
        assoc("kms_key", KMS_KEY).doc("The KMS key (from kms_key_id)"),
    ]
}

pub(crate) fn rds_db_instance() -> ResourceSchema {
    let mut members = vec![
        string("db_instance_identifier"),
        string("db_instance_arn").doc("Also the resource id"),
        string("dbi_resource_id"),
        string("db_instance_class").doc("e.g. \"db.t3.micro\""),
        string("db_instance_status").doc("e.g. \"available\""),
        string("engine").doc("e.g. \"postgres\", \"mysql\", \"aurora-postgresql\""),
        string("engine_version"),
        string("db_name"),
        string("master_username"),
        object(
            "endpoint",
            vec![string("address"), integer("port"), string("hosted_zone_id")],
        ),
        integer("allocated_storage").doc("GiB"),
        string("storage_type").doc("e.g. \"gp3\", \"io1\""),
        boolean("storage_encrypted").doc("Whether the storage is encrypted at rest"),
    ];
    members.extend(kms_key_link());
    members.extend([
        boolean("publicly_accessible").doc("Whether the endpoint resolves to a public address"),
        boolean("auto_minor_version_upgrade")
            .doc("Whether minor engine upgrades are applied automatically"),
        integer("backup_retention_period").doc("Days automated backups are kept; 0: none"),
        string("preferred_backup_window"),
        string("preferred_maintenance_window"),
        boolean("multi_az"),
        string("availability_zone"),
        boolean("deletion_protection"),
        boolean("copy_tags_to_snapshot"),
        boolean("iam_database_authentication_enabled"),
        boolean("performance_insights_enabled"),
        integer("monitoring_interval").doc("Enhanced monitoring interval in seconds; 0: off"),
        strings("enabled_cloudwatch_logs_exports").doc("Log types exported to CloudWatch Logs"),
        string("ca_certificate_identifier"),
        string("db_cluster_identifier").doc("The Aurora cluster it belongs to, when it does"),
        string("instance_create_time"),
        object(
            "db_subnet_group",
            vec![
                string("db_subnet_group_name"),
                string("db_subnet_group_arn"),
                string("vpc_id"),
                assoc("vpc", VPC).doc("The VPC (from vpc_id)"),
                string("subnet_group_status"),
                list_of(
                    "subnets",
                    vec![
                        string("subnet_identifier").doc("The subnet id"),
                        object("subnet_availability_zone", vec![string("name")]),
                        string("subnet_status"),
                    ],
                ),
            ],
        )
        .doc("The DB subnet group; null for an instance outside a VPC"),
        list_of(
            "vpc_security_groups",
            vec![
                string("vpc_security_group_id"),
                string("status").doc("e.g. \"active\""),
                assoc("vpc_security_group", SECURITY_GROUP)
                    .doc("The security group (from vpc_security_group_id)"),
            ],
        )
        .doc("The VPC security groups of the instance"),
        tag_map(),
    ]);
    resource(
        RDS_DB_INSTANCE,
        "An RDS DB instance (DescribeDBInstances); id = the instance's ARN",
        members,
    )
}

pub(crate) fn efs_file_system() -> ResourceSchema {
    let mut members = vec![
        string("file_system_id").doc("Also the resource id"),
        string("file_system_arn"),
        string("owner_id"),
        string("creation_token"),
        string("creation_time"),
        string("life_cycle_state").doc("e.g. \"available\", \"deleting\""),
        string("name").doc("The value of its Name tag"),
        integer("number_of_mount_targets"),
        object(
            "size_in_bytes",
            vec![
                integer("value"),
                string("timestamp"),
                integer("value_in_ia"),
                integer("value_in_standard"),
                integer("value_in_archive"),
            ],
        )
        .doc("Metered size, as of timestamp"),
        string("performance_mode").doc("\"generalPurpose\" or \"maxIO\""),
        boolean("encrypted").doc("Whether the file system is encrypted at rest"),
    ];
    members.extend(kms_key_link());
    members.extend([
        string("throughput_mode").doc("\"bursting\", \"provisioned\" or \"elastic\""),
        number("provisioned_throughput_in_mibps"),
        string("availability_zone_name").doc("For One Zone file systems; else null"),
        string("availability_zone_id"),
        object(
            "file_system_protection",
            vec![string("replication_overwrite_protection")
                .doc("\"ENABLED\", \"DISABLED\" or \"REPLICATING\"")],
        ),
        tag_map(),
    ]);
    resource(
        EFS_FILE_SYSTEM,
        "An EFS file system (DescribeFileSystems); id = the file system id",
        members,
    )
}

pub(crate) fn kms_key() -> ResourceSchema {
    let described = "; null when DescribeKey failed for the key (an error of these members)";
    resource(
        KMS_KEY,
        "A KMS key (ListKeys, with DescribeKey of every key; rotation, policy and tags are \
         members made only when a rule reads them); id = the key's ARN",
        vec![
            string("key_id"),
            string("arn").doc("Also the resource id"),
            string("aws_account_id"),
            string("creation_date"),
            boolean("enabled"),
            string("description"),
            string("key_usage")
                .doc(format!("\"ENCRYPT_DECRYPT\", \"SIGN_VERIFY\", \"GENERATE_VERIFY_MAC\" or \"KEY_AGREEMENT\"{described}")),
            string("key_state").doc(format!(
                "\"Enabled\", \"Disabled\", \"PendingDeletion\", \"PendingImport\", \"Unavailable\"...{described}"
            )),
            string("deletion_date").doc("When a key pending deletion is deleted"),
            string("valid_to").doc("When imported key material expires"),
            string("origin").doc("\"AWS_KMS\", \"EXTERNAL\", \"AWS_CLOUDHSM\" or \"EXTERNAL_KEY_STORE\""),
            string("custom_key_store_id"),
            string("expiration_model"),
            string("key_manager").doc(format!(
                "\"CUSTOMER\" (customer managed) or \"AWS\" (AWS managed){described}"
            )),
            string("key_spec").doc(format!(
                "\"SYMMETRIC_DEFAULT\", \"RSA_2048\", \"ECC_NIST_P256\", \"HMAC_256\"...{described}"
            )),
            strings("encryption_algorithms"),
            strings("signing_algorithms"),
            strings("mac_algorithms"),
            boolean("multi_region"),
            integer("pending_deletion_window_in_days"),
            boolean("key_rotation_enabled").doc(
                "GetKeyRotationStatus: whether automatic rotation is on; null where rotation \
                 does not apply (asymmetric and HMAC keys, imported material, custom key \
                 stores, keys pending deletion or import)",
            ),
            integer("rotation_period_in_days")
                .doc("GetKeyRotationStatus: days between automatic rotations; null when off or not applicable"),
            any("policy").doc(
                "GetKeyPolicy (the \"default\" policy): the document parsed from JSON, keys as in \
                 the document (Statement, Effect, Principal)",
            ),
            tags("tags").doc("ListResourceTags as a key-value map"),
        ],
    )
}

pub(crate) fn logs_log_group() -> ResourceSchema {
    let mut members = vec![
        string("log_group_name"),
        string("arn").doc("Also the resource id: ends in \":*\", as CloudTrail names log groups"),
        string("log_group_arn").doc("The ARN without the trailing \":*\""),
        string("creation_time"),
        integer("retention_in_days").doc("null: events never expire"),
        integer("metric_filter_count"),
        integer("stored_bytes"),
    ];
    members.extend(kms_key_link());
    members.extend([
        string("data_protection_status").doc("\"ACTIVATED\", \"DELETED\", \"ARCHIVED\" or \"DISABLED\""),
        string("log_group_class").doc("\"STANDARD\", \"INFREQUENT_ACCESS\" or \"DELIVERY\""),
        boolean("deletion_protection_enabled"),
        list_of(
            "metric_filters",
            vec![
                string("filter_name"),
                string("filter_pattern")
                    .doc("e.g. { ($.errorCode = \"*UnauthorizedOperation\") || ($.errorCode = \"AccessDenied*\") }"),
                string("creation_time"),
                list_of(
                    "metric_transformations",
                    vec![
                        string("metric_name"),
                        string("metric_namespace"),
                        string("metric_value"),
                        number("default_value"),
                        string("unit"),
                        reverse(
                            "alarms",
                            ALARM,
                            "the metric alarms of the region on this metric (same metric_name \
                             and namespace)",
                        ),
                    ],
                ),
            ],
        )
        .doc("DescribeMetricFilters of the log group"),
        tags("tags").doc("ListTagsForResource as a key-value map"),
    ]);
    resource(
        LOG_GROUP,
        "A CloudWatch Logs log group (DescribeLogGroups; its metric filters are a member made \
         only when a rule reads it); id = its arn (ending in \":*\")",
        members,
    )
}

pub(crate) fn cloudwatch_alarm() -> ResourceSchema {
    resource(
        ALARM,
        "A CloudWatch metric alarm (DescribeAlarms); id = the alarm's ARN",
        vec![
            string("alarm_name"),
            string("alarm_arn").doc("Also the resource id"),
            string("alarm_description"),
            boolean("actions_enabled"),
            strings("alarm_actions").doc("ARNs of what the alarm notifies or does in ALARM state"),
            assocs("alarm_action_topics", SNS_TOPIC)
                .doc("The SNS topics among alarm_actions (their ARNs of SNS topics)"),
            strings("ok_actions"),
            strings("insufficient_data_actions"),
            string("state_value").doc("\"OK\", \"ALARM\" or \"INSUFFICIENT_DATA\""),
            string("state_reason"),
            string("state_updated_timestamp"),
            string("alarm_configuration_updated_timestamp"),
            string("metric_name"),
            string("namespace"),
            string("statistic")
                .doc("\"SampleCount\", \"Average\", \"Sum\", \"Minimum\" or \"Maximum\""),
            string("extended_statistic"),
            list_of("dimensions", vec![string("name"), string("value")]),
            integer("period").doc("Seconds"),
            string("unit"),
            integer("evaluation_periods"),
            integer("datapoints_to_alarm"),
            number("threshold"),
            string("comparison_operator").doc("e.g. \"GreaterThanOrEqualToThreshold\""),
            string("treat_missing_data"),
            tags("tags").doc("ListTagsForResource as a key-value map"),
        ],
    )
}

pub(crate) fn sns_topic() -> ResourceSchema {
    resource(
        SNS_TOPIC,
        "An SNS topic (ListTopics; subscriptions and attributes are members made only when a \
         rule reads them); id = the topic's ARN",
        vec![
            string("topic_arn").doc("Also the resource id"),
            list_of(
                "subscriptions",
                vec![
                    string("subscription_arn")
                        .doc("\"PendingConfirmation\" until the endpoint confirms"),
                    string("protocol").doc("e.g. \"email\", \"sqs\", \"lambda\", \"https\""),
                    string("endpoint"),
                    string("owner"),
                ],
            )
            .doc("ListSubscriptionsByTopic"),
            object(
                "attributes",
                vec![
                    string("topic_arn"),
                    string("owner"),
                    string("display_name"),
                    string("kms_master_key_id").doc("null: not encrypted at rest with KMS"),
                    string("signature_version"),
                    string("tracing_config"),
                    boolean("fifo_topic"),
                    boolean("content_based_deduplication"),
                    integer("subscriptions_confirmed"),
                    integer("subscriptions_pending"),
                    integer("subscriptions_deleted"),
                    any("policy")
                        .doc("The access policy parsed from JSON, keys as in the document"),
                    any("delivery_policy"),
                    any("effective_delivery_policy"),
                ],
            )
            .doc(
                "GetTopicAttributes in snake_case with typed values (an attribute the topic \
                 does not have is null)",
            ),
            tags("tags").doc("ListTagsForResource as a key-value map"),
            reverse(
                "alarms",
                ALARM,
                "the alarms whose alarm_actions name the topic",
            ),
        ],
    )
}
