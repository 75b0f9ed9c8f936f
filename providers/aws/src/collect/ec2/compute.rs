//! Instances, volumes, snapshots, images and region settings: their converters, the
//! snapshot sharing member and the region's calls.

use aws_sdk_ec2::types::{
    BlockDeviceMapping, Image, Instance, InstanceNetworkInterface,
    InstanceNetworkInterfaceAssociation, Snapshot, Volume,
};
use aws_sdk_ec2::Client;
use serde_json::{json, Value as Json};

use super::tags;
use crate::collect::convert::{en, list, opt, r, refs, strs, ts};
use crate::collect::fetch::{Fetched, On, Task};

const INSTANCE: &str = "aws:ec2:instance";
const VOLUME: &str = "aws:ec2:volume";
const SNAPSHOT: &str = "aws:ec2:snapshot";
const IMAGE: &str = "aws:ec2:image";
const SUBNET: &str = "aws:ec2:subnet";
const VPC: &str = "aws:ec2:vpc";
const SECURITY_GROUP: &str = "aws:ec2:security_group";
const NETWORK_INTERFACE: &str = "aws:ec2:network_interface";

pub(crate) fn instance(i: &Instance) -> Json {
    let groups = i.security_groups();
    json!({
        "instance_id": i.instance_id(),
        "instance_type": en(i.instance_type()),
        "image_id": i.image_id(),
        "image": r(IMAGE, i.image_id()),
        "state": opt(i.state(), |s| json!({"code": s.code(), "name": en(s.name())})),
        "state_transition_reason": i.state_transition_reason(),
        "state_reason": opt(i.state_reason(), |s| json!({"code": s.code(), "message": s.message()})),
        "private_ip_address": i.private_ip_address(),
        "public_ip_address": i.public_ip_address(),
        "ipv6_address": i.ipv6_address(),
        "private_dns_name": i.private_dns_name(),
        "public_dns_name": i.public_dns_name(),
        "private_dns_name_options": opt(i.private_dns_name_options(), |o| json!({
            "hostname_type": en(o.hostname_type()),
            "enable_resource_name_dns_a_record": o.enable_resource_name_dns_a_record(),
            "enable_resource_name_dns_aaaa_record": o.enable_resource_name_dns_aaaa_record(),
        })),
        "subnet_id": i.subnet_id(),
        "subnet": r(SUBNET, i.subnet_id()),
        "vpc_id": i.vpc_id(),
        "vpc": r(VPC, i.vpc_id()),
        "key_name": i.key_name(),
        "launch_time": ts(i.launch_time()),
        "ami_launch_index": i.ami_launch_index(),
        "architecture": en(i.architecture()),
        "platform": en(i.platform()),
        "platform_details": i.platform_details(),
        "instance_lifecycle": en(i.instance_lifecycle()),
        "spot_instance_request_id": i.spot_instance_request_id(),
        "capacity_reservation_id": i.capacity_reservation_id(),
        "iam_instance_profile": opt(i.iam_instance_profile(), |p| json!({"arn": p.arn(), "id": p.id()})),
        "monitoring": opt(i.monitoring(), |m| json!({"state": en(m.state())})),
        "placement": opt(i.placement(), |p| json!({
            "availability_zone": p.availability_zone(),
            "availability_zone_id": p.availability_zone_id(),
            "tenancy": en(p.tenancy()),
            "group_name": p.group_name(),
            "group_id": p.group_id(),
            "partition_number": p.partition_number(),
            "host_id": p.host_id(),
            "affinity": p.affinity(),
        })),
        "metadata_options": opt(i.metadata_options(), |m| json!({
            "state": en(m.state()),
            "http_tokens": en(m.http_tokens()),
            "http_put_response_hop_limit": m.http_put_response_hop_limit(),
            "http_endpoint": en(m.http_endpoint()),
            "http_protocol_ipv6": en(m.http_protocol_ipv6()),
            "instance_metadata_tags": en(m.instance_metadata_tags()),
        })),
        "block_device_mappings": list(i.block_device_mappings(), |b| json!({
            "device_name": b.device_name(),
            "ebs": opt(b.ebs(), |e| json!({
                "volume_id": e.volume_id(),
                "volume": r(VOLUME, e.volume_id()),
                "status": en(e.status()),
                "attach_time": ts(e.attach_time()),
                "delete_on_termination": e.delete_on_termination(),
                "volume_owner_id": e.volume_owner_id(),
            })),
        })),
        "security_group_names": strs(groups.iter().filter_map(|g| g.group_name())),
        "security_group_ids": strs(groups.iter().filter_map(|g| g.group_id())),
        "security_groups": refs(SECURITY_GROUP, groups.iter().filter_map(|g| g.group_id())),
        "network_interfaces": list(i.network_interfaces(), instance_network_interface),
        "ebs_optimized": i.ebs_optimized(),
        "ena_support": i.ena_support(),
        "sriov_net_support": i.sriov_net_support(),
        "source_dest_check": i.source_dest_check(),
        "root_device_name": i.root_device_name(),
        "root_device_type": en(i.root_device_type()),
        "virtualization_type": en(i.virtualization_type()),
        "hypervisor": en(i.hypervisor()),
        "boot_mode": en(i.boot_mode()),
        "current_instance_boot_mode": en(i.current_instance_boot_mode()),
        "tpm_support": i.tpm_support(),
        "cpu_options": opt(i.cpu_options(), |c| json!({
            "core_count": c.core_count(),
            "threads_per_core": c.threads_per_core(),
            "amd_sev_snp": en(c.amd_sev_snp()),
        })),
        "hibernation_options": opt(i.hibernation_options(), |h| json!({"configured": h.configured()})),
        "enclave_options": opt(i.enclave_options(), |e| json!({"enabled": e.enabled()})),
        "maintenance_options": opt(i.maintenance_options(), |m| json!({"auto_recovery": en(m.auto_recovery())})),
        "product_codes": list(i.product_codes(), |p| json!({
            "product_code_id": p.product_code_id(),
            "product_code_type": en(p.product_code_type()),
        })),
        "tags": tags(i.tags()),
    })
}

fn instance_network_interface(n: &InstanceNetworkInterface) -> Json {
    let groups = n.groups();
    json!({
        "network_interface_id": n.network_interface_id(),
        "network_interface": r(NETWORK_INTERFACE, n.network_interface_id()),
        "description": n.description(),
        "interface_type": n.interface_type(),
        "status": en(n.status()),
        "mac_address": n.mac_address(),
        "owner_id": n.owner_id(),
        "private_ip_address": n.private_ip_address(),
        "private_dns_name": n.private_dns_name(),
        "private_ip_addresses": list(n.private_ip_addresses(), |p| json!({
            "private_ip_address": p.private_ip_address(),
            "private_dns_name": p.private_dns_name(),
            "primary": p.primary(),
            "association": opt(p.association(), instance_association),
        })),
        "ipv6_addresses": list(n.ipv6_addresses(), |a| json!({
            "ipv6_address": a.ipv6_address(),
            "is_primary_ipv6": a.is_primary_ipv6(),
        })),
        "association": opt(n.association(), instance_association),
        "attachment": opt(n.attachment(), |a| json!({
            "attachment_id": a.attachment_id(),
            "attach_time": ts(a.attach_time()),
            "device_index": a.device_index(),
            "network_card_index": a.network_card_index(),
            "status": en(a.status()),
            "delete_on_termination": a.delete_on_termination(),
        })),
        "subnet_id": n.subnet_id(),
        "subnet": r(SUBNET, n.subnet_id()),
        "vpc_id": n.vpc_id(),
        "vpc": r(VPC, n.vpc_id()),
        "source_dest_check": n.source_dest_check(),
        "groups": list(groups, |g| json!({"group_id": g.group_id(), "group_name": g.group_name()})),
        "security_group_ids": strs(groups.iter().filter_map(|g| g.group_id())),
        "security_groups": refs(SECURITY_GROUP, groups.iter().filter_map(|g| g.group_id())),
    })
}

fn instance_association(a: &InstanceNetworkInterfaceAssociation) -> Json {
    json!({
        "public_ip": a.public_ip(),
        "public_dns_name": a.public_dns_name(),
        "ip_owner_id": a.ip_owner_id(),
        "allocation_id": null,
        "association_id": null,
        "carrier_ip": a.carrier_ip(),
        "customer_owned_ip": a.customer_owned_ip(),
    })
}

pub(crate) fn volume(v: &Volume) -> Json {
    json!({
        "volume_id": v.volume_id(),
        "volume_type": en(v.volume_type()),
        "size": v.size(),
        "iops": v.iops(),
        "throughput": v.throughput(),
        "encrypted": v.encrypted(),
        "kms_key_id": v.kms_key_id(),
        "sse_type": en(v.sse_type()),
        "snapshot_id": v.snapshot_id(),
        "snapshot": r(SNAPSHOT, v.snapshot_id()),
        "availability_zone": v.availability_zone(),
        "availability_zone_id": v.availability_zone_id(),
        "state": en(v.state()),
        "create_time": ts(v.create_time()),
        "multi_attach_enabled": v.multi_attach_enabled(),
        "fast_restored": v.fast_restored(),
        "outpost_arn": v.outpost_arn(),
        "attachments": list(v.attachments(), |a| json!({
            "instance_id": a.instance_id(),
            "instance": r(INSTANCE, a.instance_id()),
            "device": a.device(),
            "state": en(a.state()),
            "attach_time": ts(a.attach_time()),
            "delete_on_termination": a.delete_on_termination(),
            "associated_resource": a.associated_resource(),
            "instance_owning_service": a.instance_owning_service(),
        })),
        "tags": tags(v.tags()),
    })
}

pub(crate) fn snapshot(s: &Snapshot) -> Json {
    json!({
        "snapshot_id": s.snapshot_id(),
        "volume_id": s.volume_id(),
        "volume": r(VOLUME, s.volume_id()),
        "volume_size": s.volume_size(),
        "encrypted": s.encrypted(),
        "kms_key_id": s.kms_key_id(),
        "data_encryption_key_id": s.data_encryption_key_id(),
        "state": en(s.state()),
        "state_message": s.state_message(),
        "progress": s.progress(),
        "start_time": ts(s.start_time()),
        "completion_time": ts(s.completion_time()),
        "owner_id": s.owner_id(),
        "owner_alias": s.owner_alias(),
        "description": s.description(),
        "storage_tier": en(s.storage_tier()),
        "restore_expiry_time": ts(s.restore_expiry_time()),
        "sse_type": en(s.sse_type()),
        "outpost_arn": s.outpost_arn(),
        "tags": tags(s.tags()),
    })
}

/// `create_volume_permissions` of one snapshot (DescribeSnapshotAttribute).
pub(crate) async fn create_volume_permissions(o: &On<'_, Client>) -> Result<Json, String> {
    let request = o
        .client
        .describe_snapshot_attribute()
        .snapshot_id(o.id)
        .attribute(aws_sdk_ec2::types::SnapshotAttributeName::CreateVolumePermission);
    let out = o.ctx.request(o.region, o.call, request.send()).await?;
    Ok(list(
        out.create_volume_permissions(),
        |p| json!({"group": en(p.group()), "user_id": p.user_id()}),
    ))
}

pub(crate) fn image(i: &Image) -> Json {
    json!({
        "image_id": i.image_id(),
        "name": i.name(),
        "description": i.description(),
        "state": en(i.state()),
        "state_reason": opt(i.state_reason(), |s| json!({"code": s.code(), "message": s.message()})),
        "public": i.public(),
        "owner_id": i.owner_id(),
        "image_owner_alias": i.image_owner_alias(),
        "image_location": i.image_location(),
        "creation_date": i.creation_date(),
        "deprecation_time": i.deprecation_time(),
        "last_launched_time": i.last_launched_time(),
        "architecture": en(i.architecture()),
        "image_type": en(i.image_type()),
        "platform": en(i.platform()),
        "platform_details": i.platform_details(),
        "usage_operation": i.usage_operation(),
        "hypervisor": en(i.hypervisor()),
        "kernel_id": i.kernel_id(),
        "ramdisk_id": i.ramdisk_id(),
        "root_device_name": i.root_device_name(),
        "root_device_type": en(i.root_device_type()),
        "virtualization_type": en(i.virtualization_type()),
        "ena_support": i.ena_support(),
        "sriov_net_support": i.sriov_net_support(),
        "boot_mode": en(i.boot_mode()),
        "tpm_support": en(i.tpm_support()),
        "imds_support": en(i.imds_support()),
        "deregistration_protection": i.deregistration_protection(),
        "block_device_mappings": list(i.block_device_mappings(), image_block_device),
        "product_codes": list(i.product_codes(), |p| json!({
            "product_code_id": p.product_code_id(),
            "product_code_type": en(p.product_code_type()),
        })),
        "tags": tags(i.tags()),
    })
}

fn image_block_device(b: &BlockDeviceMapping) -> Json {
    json!({
        "device_name": b.device_name(),
        "virtual_name": b.virtual_name(),
        "no_device": b.no_device(),
        "ebs": opt(b.ebs(), |e| json!({
            "snapshot_id": e.snapshot_id(),
            "snapshot": r(SNAPSHOT, e.snapshot_id()),
            "volume_size": e.volume_size(),
            "volume_type": en(e.volume_type()),
            "iops": e.iops(),
            "throughput": e.throughput(),
            "encrypted": e.encrypted(),
            "kms_key_id": e.kms_key_id(),
            "delete_on_termination": e.delete_on_termination(),
        })),
    })
}

/// `aws:ec2:region`: the region's entry in DescribeRegions, then its EBS defaults (members
/// of [`crate::types::MEMBERS`], each its own call, made only when a rule reads it).
pub(crate) async fn region(t: &Task) -> Fetched {
    let [describe] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let (client, region) = (&t.client, t.region.as_str());
    let regions = t
        .ctx
        .request(
            Some(region),
            describe,
            client.describe_regions().region_names(region).send(),
        )
        .await?;
    let entry = regions
        .regions()
        .iter()
        .find(|r| r.region_name() == Some(region));
    let props = json!({
        "region_name": region,
        "endpoint": entry.and_then(|e| e.endpoint()),
        "opt_in_status": entry.and_then(|e| e.opt_in_status()),
    });
    let mut found: Vec<_> = t.resource(Some(region), None, props).into_iter().collect();
    let errors = t.per_resource(&mut found).await;
    Ok((found, errors))
}

/// GetEbsEncryptionByDefault of the region `o.id`.
pub(crate) async fn ebs_encryption_by_default(o: &On<'_, Client>) -> Result<Json, String> {
    let request = o.client.get_ebs_encryption_by_default().send();
    let out = o.ctx.request(o.region, o.call, request).await?;
    Ok(json!(out.ebs_encryption_by_default()))
}

/// GetEbsDefaultKmsKeyId of the region `o.id`.
pub(crate) async fn ebs_default_kms_key_id(o: &On<'_, Client>) -> Result<Json, String> {
    let request = o.client.get_ebs_default_kms_key_id().send();
    let out = o.ctx.request(o.region, o.call, request).await?;
    Ok(json!(out.kms_key_id()))
}
