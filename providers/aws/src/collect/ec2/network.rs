//! Security groups, VPCs, subnets, network interfaces, ACLs, route tables, gateways, flow
//! logs, elastic IPs and VPC endpoints: their converters.

use aws_sdk_ec2::operation::describe_vpc_attribute::DescribeVpcAttributeOutput;
use aws_sdk_ec2::types::{
    Address, AttributeBooleanValue, FlowLog, InternetGateway, IpPermission, NatGateway, NetworkAcl,
    NetworkInterface, NetworkInterfaceAssociation, RouteTable, SecurityGroup, Subnet, Vpc,
    VpcAttributeName, VpcEndpoint,
};
use aws_sdk_ec2::Client;
use serde_json::{json, Value as Json};

use super::tags;
use crate::collect::convert::{document, en, list, opt, r, refs, strs, tag_map, ts};
use crate::collect::fetch::On;

const INSTANCE: &str = "aws:ec2:instance";
const SECURITY_GROUP: &str = "aws:ec2:security_group";
const VPC: &str = "aws:ec2:vpc";
const SUBNET: &str = "aws:ec2:subnet";
const NETWORK_INTERFACE: &str = "aws:ec2:network_interface";
const ROUTE_TABLE: &str = "aws:ec2:route_table";
const NAT_GATEWAY: &str = "aws:ec2:nat_gateway";

pub(crate) fn security_group(g: &SecurityGroup) -> Json {
    json!({
        "group_id": g.group_id(),
        "group_name": g.group_name(),
        "security_group_arn": g.security_group_arn(),
        "description": g.description(),
        "owner_id": g.owner_id(),
        "vpc_id": g.vpc_id(),
        "vpc": r(VPC, g.vpc_id()),
        "ip_permissions": list(g.ip_permissions(), ip_permission),
        "ip_permissions_egress": list(g.ip_permissions_egress(), ip_permission),
        "tags": tags(g.tags()),
    })
}

fn ip_permission(p: &IpPermission) -> Json {
    json!({
        "ip_protocol": p.ip_protocol(),
        "from_port": p.from_port(),
        "to_port": p.to_port(),
        "ip_ranges": list(p.ip_ranges(), |x| json!({"cidr_ip": x.cidr_ip(), "description": x.description()})),
        "ipv6_ranges": list(p.ipv6_ranges(), |x| json!({"cidr_ipv6": x.cidr_ipv6(), "description": x.description()})),
        "prefix_list_ids": list(p.prefix_list_ids(), |x| json!({"prefix_list_id": x.prefix_list_id(), "description": x.description()})),
        "user_id_group_pairs": list(p.user_id_group_pairs(), |x| json!({
            "group_id": x.group_id(),
            "group": r(SECURITY_GROUP, x.group_id()),
            "group_name": x.group_name(),
            "user_id": x.user_id(),
            "vpc_id": x.vpc_id(),
            "vpc_peering_connection_id": x.vpc_peering_connection_id(),
            "peering_status": x.peering_status(),
            "description": x.description(),
        })),
    })
}

pub(crate) fn vpc(v: &Vpc) -> Json {
    json!({
        "vpc_id": v.vpc_id(),
        "cidr_block": v.cidr_block(),
        "cidr_block_association_set": list(v.cidr_block_association_set(), |a| json!({
            "association_id": a.association_id(),
            "cidr_block": a.cidr_block(),
            "cidr_block_state": opt(a.cidr_block_state(), |s| json!({"state": en(s.state()), "status_message": s.status_message()})),
        })),
        "ipv6_cidr_block_association_set": list(v.ipv6_cidr_block_association_set(), |a| json!({
            "association_id": a.association_id(),
            "ipv6_cidr_block": a.ipv6_cidr_block(),
            "ipv6_cidr_block_state": opt(a.ipv6_cidr_block_state(), |s| json!({"state": en(s.state()), "status_message": s.status_message()})),
            "network_border_group": a.network_border_group(),
            "ipv6_pool": a.ipv6_pool(),
        })),
        "state": en(v.state()),
        "is_default": v.is_default(),
        "instance_tenancy": en(v.instance_tenancy()),
        "dhcp_options_id": v.dhcp_options_id(),
        "owner_id": v.owner_id(),
        "tags": tags(v.tags()),
    })
}

/// One attribute of one VPC (DescribeVpcAttribute answers one per call), read by `value`.
pub(crate) async fn vpc_attribute(
    o: &On<'_, Client>,
    attribute: VpcAttributeName,
    value: fn(&DescribeVpcAttributeOutput) -> Json,
) -> Result<Json, String> {
    let request = o
        .client
        .describe_vpc_attribute()
        .vpc_id(o.id)
        .attribute(attribute);
    let out = o.ctx.request(o.region, o.call, request.send()).await?;
    Ok(value(&out))
}

/// `enable_dns_support`: the `EnableDnsSupport` of an `enableDnsSupport` answer.
pub(crate) fn enable_dns_support(o: &DescribeVpcAttributeOutput) -> Json {
    boolean_value(o.enable_dns_support())
}

/// `enable_dns_hostnames`: the `EnableDnsHostnames` of an `enableDnsHostnames` answer.
pub(crate) fn enable_dns_hostnames(o: &DescribeVpcAttributeOutput) -> Json {
    boolean_value(o.enable_dns_hostnames())
}

/// `{Value: bool}` as the bool; null when AWS leaves it out.
fn boolean_value(v: Option<&AttributeBooleanValue>) -> Json {
    v.and_then(AttributeBooleanValue::value)
        .map_or(Json::Null, Json::Bool)
}

pub(crate) fn subnet(s: &Subnet) -> Json {
    json!({
        "subnet_id": s.subnet_id(),
        "subnet_arn": s.subnet_arn(),
        "vpc_id": s.vpc_id(),
        "vpc": r(VPC, s.vpc_id()),
        "cidr_block": s.cidr_block(),
        "ipv6_cidr_block_association_set": list(s.ipv6_cidr_block_association_set(), |a| json!({
            "association_id": a.association_id(),
            "ipv6_cidr_block": a.ipv6_cidr_block(),
            "ipv6_cidr_block_state": opt(a.ipv6_cidr_block_state(), |st| json!({"state": en(st.state()), "status_message": st.status_message()})),
        })),
        "availability_zone": s.availability_zone(),
        "availability_zone_id": s.availability_zone_id(),
        "available_ip_address_count": s.available_ip_address_count(),
        "default_for_az": s.default_for_az(),
        "map_public_ip_on_launch": s.map_public_ip_on_launch(),
        "assign_ipv6_address_on_creation": s.assign_ipv6_address_on_creation(),
        "map_customer_owned_ip_on_launch": s.map_customer_owned_ip_on_launch(),
        "customer_owned_ipv4_pool": s.customer_owned_ipv4_pool(),
        "enable_dns64": s.enable_dns64(),
        "ipv6_native": s.ipv6_native(),
        "private_dns_name_options_on_launch": opt(s.private_dns_name_options_on_launch(), |o| json!({
            "hostname_type": en(o.hostname_type()),
            "enable_resource_name_dns_a_record": o.enable_resource_name_dns_a_record(),
            "enable_resource_name_dns_aaaa_record": o.enable_resource_name_dns_aaaa_record(),
        })),
        "state": en(s.state()),
        "outpost_arn": s.outpost_arn(),
        "owner_id": s.owner_id(),
        "tags": tags(s.tags()),
    })
}

pub(crate) fn network_interface(n: &NetworkInterface) -> Json {
    let groups = n.groups();
    json!({
        "network_interface_id": n.network_interface_id(),
        "interface_type": en(n.interface_type()),
        "status": en(n.status()),
        "description": n.description(),
        "subnet_id": n.subnet_id(),
        "subnet": r(SUBNET, n.subnet_id()),
        "vpc_id": n.vpc_id(),
        "vpc": r(VPC, n.vpc_id()),
        "availability_zone": n.availability_zone(),
        "private_ip_address": n.private_ip_address(),
        "private_dns_name": n.private_dns_name(),
        "private_ip_addresses": list(n.private_ip_addresses(), |p| json!({
            "private_ip_address": p.private_ip_address(),
            "private_dns_name": p.private_dns_name(),
            "primary": p.primary(),
            "association": opt(p.association(), eni_association),
        })),
        "ipv6_addresses": list(n.ipv6_addresses(), |a| json!({
            "ipv6_address": a.ipv6_address(),
            "is_primary_ipv6": a.is_primary_ipv6(),
        })),
        "association": opt(n.association(), eni_association),
        "attachment": opt(n.attachment(), |a| json!({
            "attachment_id": a.attachment_id(),
            "instance_id": a.instance_id(),
            "instance": r(INSTANCE, a.instance_id()),
            "instance_owner_id": a.instance_owner_id(),
            "device_index": a.device_index(),
            "network_card_index": a.network_card_index(),
            "status": en(a.status()),
            "attach_time": ts(a.attach_time()),
            "delete_on_termination": a.delete_on_termination(),
        })),
        "groups": list(groups, |g| json!({"group_id": g.group_id(), "group_name": g.group_name()})),
        "security_group_ids": strs(groups.iter().filter_map(|g| g.group_id())),
        "security_groups": refs(SECURITY_GROUP, groups.iter().filter_map(|g| g.group_id())),
        "mac_address": n.mac_address(),
        "source_dest_check": n.source_dest_check(),
        "requester_managed": n.requester_managed(),
        "requester_id": n.requester_id(),
        "owner_id": n.owner_id(),
        "outpost_arn": n.outpost_arn(),
        "tags": tag_map(n.tag_set().iter().map(|t| (t.key(), t.value()))),
    })
}

fn eni_association(a: &NetworkInterfaceAssociation) -> Json {
    json!({
        "public_ip": a.public_ip(),
        "public_dns_name": a.public_dns_name(),
        "ip_owner_id": a.ip_owner_id(),
        "allocation_id": a.allocation_id(),
        "association_id": a.association_id(),
        "carrier_ip": a.carrier_ip(),
        "customer_owned_ip": a.customer_owned_ip(),
    })
}

pub(crate) fn network_acl(a: &NetworkAcl) -> Json {
    json!({
        "network_acl_id": a.network_acl_id(),
        "vpc_id": a.vpc_id(),
        "vpc": r(VPC, a.vpc_id()),
        "is_default": a.is_default(),
        "entries": list(a.entries(), |e| json!({
            "rule_number": e.rule_number(),
            "protocol": e.protocol(),
            "rule_action": en(e.rule_action()),
            "egress": e.egress(),
            "cidr_block": e.cidr_block(),
            "ipv6_cidr_block": e.ipv6_cidr_block(),
            "port_range": opt(e.port_range(), |p| json!({"from": p.from(), "to": p.to()})),
            "icmp_type_code": opt(e.icmp_type_code(), |i| json!({"code": i.code(), "type": i.r#type()})),
        })),
        "associations": list(a.associations(), |x| json!({
            "network_acl_association_id": x.network_acl_association_id(),
            "network_acl_id": x.network_acl_id(),
            "subnet_id": x.subnet_id(),
            "subnet": r(SUBNET, x.subnet_id()),
        })),
        "owner_id": a.owner_id(),
        "tags": tags(a.tags()),
    })
}

pub(crate) fn route_table(t: &RouteTable) -> Json {
    json!({
        "route_table_id": t.route_table_id(),
        "vpc_id": t.vpc_id(),
        "vpc": r(VPC, t.vpc_id()),
        "routes": list(t.routes(), |x| json!({
            "destination_cidr_block": x.destination_cidr_block(),
            "destination_ipv6_cidr_block": x.destination_ipv6_cidr_block(),
            "destination_prefix_list_id": x.destination_prefix_list_id(),
            "gateway_id": x.gateway_id(),
            "egress_only_internet_gateway_id": x.egress_only_internet_gateway_id(),
            "nat_gateway_id": x.nat_gateway_id(),
            "nat_gateway": r(NAT_GATEWAY, x.nat_gateway_id()),
            "instance_id": x.instance_id(),
            "instance": r(INSTANCE, x.instance_id()),
            "instance_owner_id": x.instance_owner_id(),
            "network_interface_id": x.network_interface_id(),
            "network_interface": r(NETWORK_INTERFACE, x.network_interface_id()),
            "vpc_peering_connection_id": x.vpc_peering_connection_id(),
            "transit_gateway_id": x.transit_gateway_id(),
            "local_gateway_id": x.local_gateway_id(),
            "carrier_gateway_id": x.carrier_gateway_id(),
            "core_network_arn": x.core_network_arn(),
            "state": en(x.state()),
            "origin": en(x.origin()),
        })),
        "associations": list(t.associations(), |x| json!({
            "route_table_association_id": x.route_table_association_id(),
            "route_table_id": x.route_table_id(),
            "main": x.main(),
            "subnet_id": x.subnet_id(),
            "subnet": r(SUBNET, x.subnet_id()),
            "gateway_id": x.gateway_id(),
            "association_state": opt(x.association_state(), |s| json!({"state": en(s.state()), "status_message": s.status_message()})),
        })),
        "propagating_vgws": list(t.propagating_vgws(), |v| json!({"gateway_id": v.gateway_id()})),
        "owner_id": t.owner_id(),
        "tags": tags(t.tags()),
    })
}

pub(crate) fn internet_gateway(g: &InternetGateway) -> Json {
    json!({
        "internet_gateway_id": g.internet_gateway_id(),
        "attachments": list(g.attachments(), |a| json!({
            "vpc_id": a.vpc_id(),
            "vpc": r(VPC, a.vpc_id()),
            "state": en(a.state()),
        })),
        "owner_id": g.owner_id(),
        "tags": tags(g.tags()),
    })
}

pub(crate) fn nat_gateway(g: &NatGateway) -> Json {
    json!({
        "nat_gateway_id": g.nat_gateway_id(),
        "vpc_id": g.vpc_id(),
        "vpc": r(VPC, g.vpc_id()),
        "subnet_id": g.subnet_id(),
        "subnet": r(SUBNET, g.subnet_id()),
        "state": en(g.state()),
        "connectivity_type": en(g.connectivity_type()),
        "nat_gateway_addresses": list(g.nat_gateway_addresses(), |a| json!({
            "allocation_id": a.allocation_id(),
            "network_interface_id": a.network_interface_id(),
            "network_interface": r(NETWORK_INTERFACE, a.network_interface_id()),
            "private_ip": a.private_ip(),
            "public_ip": a.public_ip(),
            "association_id": a.association_id(),
            "is_primary": a.is_primary(),
            "status": en(a.status()),
            "failure_message": a.failure_message(),
        })),
        "create_time": ts(g.create_time()),
        "delete_time": ts(g.delete_time()),
        "failure_code": g.failure_code(),
        "failure_message": g.failure_message(),
        "tags": tags(g.tags()),
    })
}

pub(crate) fn flow_log(f: &FlowLog) -> Json {
    json!({
        "flow_log_id": f.flow_log_id(),
        "flow_log_status": f.flow_log_status(),
        "resource_id": f.resource_id(),
        "traffic_type": en(f.traffic_type()),
        "log_destination_type": en(f.log_destination_type()),
        "log_destination": f.log_destination(),
        "log_group_name": f.log_group_name(),
        "deliver_logs_status": f.deliver_logs_status(),
        "deliver_logs_error_message": f.deliver_logs_error_message(),
        "deliver_logs_permission_arn": f.deliver_logs_permission_arn(),
        "deliver_cross_account_role": f.deliver_cross_account_role(),
        "log_format": f.log_format(),
        "max_aggregation_interval": f.max_aggregation_interval(),
        "destination_options": opt(f.destination_options(), |d| json!({
            "file_format": en(d.file_format()),
            "hive_compatible_partitions": d.hive_compatible_partitions(),
            "per_hour_partition": d.per_hour_partition(),
        })),
        "creation_time": ts(f.creation_time()),
        "tags": tags(f.tags()),
    })
}

pub(crate) fn address(a: &Address) -> Json {
    json!({
        "allocation_id": a.allocation_id(),
        "public_ip": a.public_ip(),
        "association_id": a.association_id(),
        "domain": en(a.domain()),
        "instance_id": a.instance_id(),
        "instance": r(INSTANCE, a.instance_id()),
        "network_interface_id": a.network_interface_id(),
        "network_interface": r(NETWORK_INTERFACE, a.network_interface_id()),
        "network_interface_owner_id": a.network_interface_owner_id(),
        "private_ip_address": a.private_ip_address(),
        "network_border_group": a.network_border_group(),
        "public_ipv4_pool": a.public_ipv4_pool(),
        "customer_owned_ip": a.customer_owned_ip(),
        "customer_owned_ipv4_pool": a.customer_owned_ipv4_pool(),
        "carrier_ip": a.carrier_ip(),
        "tags": tags(a.tags()),
    })
}

pub(crate) fn vpc_endpoint(e: &VpcEndpoint) -> Json {
    let groups = e.groups();
    let ids = |v: &[String]| strs(v.iter().map(String::as_str));
    json!({
        "vpc_endpoint_id": e.vpc_endpoint_id(),
        "vpc_endpoint_type": en(e.vpc_endpoint_type()),
        "vpc_id": e.vpc_id(),
        "vpc": r(VPC, e.vpc_id()),
        "service_name": e.service_name(),
        "state": en(e.state()),
        "policy_document": document(e.policy_document()),
        "route_table_ids": ids(e.route_table_ids()),
        "route_tables": refs(ROUTE_TABLE, e.route_table_ids().iter().map(String::as_str)),
        "subnet_ids": ids(e.subnet_ids()),
        "subnets": refs(SUBNET, e.subnet_ids().iter().map(String::as_str)),
        "groups": list(groups, |g| json!({"group_id": g.group_id(), "group_name": g.group_name()})),
        "security_group_ids": strs(groups.iter().filter_map(|g| g.group_id())),
        "security_groups": refs(SECURITY_GROUP, groups.iter().filter_map(|g| g.group_id())),
        "private_dns_enabled": e.private_dns_enabled(),
        "requester_managed": e.requester_managed(),
        "network_interface_ids": ids(e.network_interface_ids()),
        "network_interfaces": refs(NETWORK_INTERFACE, e.network_interface_ids().iter().map(String::as_str)),
        "dns_entries": list(e.dns_entries(), |d| json!({"dns_name": d.dns_name(), "hosted_zone_id": d.hosted_zone_id()})),
        "dns_options": opt(e.dns_options(), |d| json!({
            "dns_record_ip_type": en(d.dns_record_ip_type()),
            "private_dns_only_for_inbound_resolver_endpoint": d.private_dns_only_for_inbound_resolver_endpoint(),
        })),
        "ip_address_type": en(e.ip_address_type()),
        "last_error": opt(e.last_error(), |l| json!({"code": l.code(), "message": l.message()})),
        "creation_timestamp": ts(e.creation_timestamp()),
        "owner_id": e.owner_id(),
        "tags": tags(e.tags()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vpc_dns_attributes_are_booleans_read_from_their_own_answer() {
        let yes = AttributeBooleanValue::builder().value(true).build();
        let no = AttributeBooleanValue::builder().value(false).build();
        let support = DescribeVpcAttributeOutput::builder()
            .vpc_id("vpc-1")
            .enable_dns_support(yes)
            .build();
        assert_eq!(enable_dns_support(&support), json!(true));
        // Each call answers the attribute it asked for only.
        assert_eq!(enable_dns_hostnames(&support), Json::Null);
        let hostnames = DescribeVpcAttributeOutput::builder()
            .vpc_id("vpc-1")
            .enable_dns_hostnames(no)
            .build();
        assert_eq!(enable_dns_hostnames(&hostnames), json!(false));
        let empty = DescribeVpcAttributeOutput::builder()
            .enable_dns_support(AttributeBooleanValue::builder().build())
            .build();
        assert_eq!(enable_dns_support(&empty), Json::Null);
    }
}
