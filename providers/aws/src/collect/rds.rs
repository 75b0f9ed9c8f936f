//! RDS: `aws:rds:db_instance`, every page of DescribeDBInstances in the task's region
//! (id = the instance's ARN). Everything rules read comes with the listing (encryption,
//! public access, upgrades, backups, tags), so the type has no per-resource members.

use aws_sdk_rds::types::{DbInstance, DbSubnetGroup};
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{list, opt, r, tag_map, ts};
use super::fetch::{arn_account, listing, Fetched, Task};

const VPC: &str = "aws:ec2:vpc";
const SECURITY_GROUP: &str = "aws:ec2:security_group";
const KMS_KEY: &str = "aws:kms:key";

/// `aws:rds:db_instance`.
pub(crate) async fn db_instances(t: &Task) -> Fetched {
    let client = client::rds(&t.config, &t.region, &t.ctx.attempts);
    // MaxRecords: 20 to 100.
    let pages = client
        .describe_db_instances()
        .max_records(t.page(100).max(20))
        .into_paginator()
        .send();
    let found = listing(
        t,
        pages,
        |p| {
            p.db_instances()
                .iter()
                .map(|i| (i, arn_account(i.db_instance_arn())))
                .collect()
        },
        DbInstance::db_instance_arn,
        db_instance,
    )
    .await?;
    Ok((found, Vec::new()))
}

fn db_instance(i: &DbInstance) -> Json {
    json!({
        "db_instance_identifier": i.db_instance_identifier(),
        "db_instance_arn": i.db_instance_arn(),
        "dbi_resource_id": i.dbi_resource_id(),
        "db_instance_class": i.db_instance_class(),
        "db_instance_status": i.db_instance_status(),
        "engine": i.engine(),
        "engine_version": i.engine_version(),
        "db_name": i.db_name(),
        "master_username": i.master_username(),
        "endpoint": opt(i.endpoint(), |e| json!({
            "address": e.address(),
            "port": e.port(),
            "hosted_zone_id": e.hosted_zone_id(),
        })),
        "allocated_storage": i.allocated_storage(),
        "storage_type": i.storage_type(),
        "storage_encrypted": i.storage_encrypted(),
        "kms_key_id": i.kms_key_id(),
        "kms_key": r(KMS_KEY, i.kms_key_id()),
        "publicly_accessible": i.publicly_accessible(),
        "auto_minor_version_upgrade": i.auto_minor_version_upgrade(),
        "backup_retention_period": i.backup_retention_period(),
        "preferred_backup_window": i.preferred_backup_window(),
        "preferred_maintenance_window": i.preferred_maintenance_window(),
        "multi_az": i.multi_az(),
        "availability_zone": i.availability_zone(),
        "deletion_protection": i.deletion_protection(),
        "copy_tags_to_snapshot": i.copy_tags_to_snapshot(),
        "iam_database_authentication_enabled": i.iam_database_authentication_enabled(),
        "performance_insights_enabled": i.performance_insights_enabled(),
        "monitoring_interval": i.monitoring_interval(),
        "enabled_cloudwatch_logs_exports": i.enabled_cloudwatch_logs_exports(),
        "ca_certificate_identifier": i.ca_certificate_identifier(),
        "db_cluster_identifier": i.db_cluster_identifier(),
        "instance_create_time": ts(i.instance_create_time()),
        "db_subnet_group": opt(i.db_subnet_group(), db_subnet_group),
        "vpc_security_groups": list(i.vpc_security_groups(), |g| json!({
            "vpc_security_group_id": g.vpc_security_group_id(),
            "status": g.status(),
            "vpc_security_group": r(SECURITY_GROUP, g.vpc_security_group_id()),
        })),
        "tags": tag_map(i.tag_list().iter().map(|t| (t.key(), t.value()))),
    })
}

fn db_subnet_group(g: &DbSubnetGroup) -> Json {
    json!({
        "db_subnet_group_name": g.db_subnet_group_name(),
        "db_subnet_group_arn": g.db_subnet_group_arn(),
        "vpc_id": g.vpc_id(),
        "vpc": r(VPC, g.vpc_id()),
        "subnet_group_status": g.subnet_group_status(),
        "subnets": list(g.subnets(), |s| json!({
            "subnet_identifier": s.subnet_identifier(),
            "subnet_availability_zone": opt(s.subnet_availability_zone(), |z| json!({"name": z.name()})),
            "subnet_status": s.subnet_status(),
        })),
    })
}
