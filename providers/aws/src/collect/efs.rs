//! EFS: `aws:efs:file_system`, every page of DescribeFileSystems in the task's region
//! (id = the file system id). Encryption, modes, size and tags come with the listing.

use aws_sdk_efs::types::FileSystemDescription;
use serde_json::{json, Value as Json};

use super::client;
use super::convert::{opt, r, tag_map, ts};
use super::fetch::{listing, Fetched, Task};

const KMS_KEY: &str = "aws:kms:key";

/// `aws:efs:file_system`.
pub(crate) async fn file_systems(t: &Task) -> Fetched {
    let client = client::efs(&t.config, &t.region, &t.ctx.attempts);
    // MaxItems: at most 100 (the default).
    let pages = client
        .describe_file_systems()
        .max_items(t.page(100))
        .into_paginator()
        .send();
    let found = listing(
        t,
        pages,
        |p| {
            p.file_systems()
                .iter()
                .map(|f| (f, Some(f.owner_id())))
                .collect()
        },
        |f| Some(f.file_system_id()),
        file_system,
    )
    .await?;
    Ok((found, Vec::new()))
}

fn file_system(f: &FileSystemDescription) -> Json {
    json!({
        "file_system_id": f.file_system_id(),
        "file_system_arn": f.file_system_arn(),
        "owner_id": f.owner_id(),
        "creation_token": f.creation_token(),
        "creation_time": ts(Some(f.creation_time())),
        "life_cycle_state": f.life_cycle_state().as_str(),
        "name": f.name(),
        "number_of_mount_targets": f.number_of_mount_targets(),
        "size_in_bytes": opt(f.size_in_bytes(), |s| json!({
            "value": s.value(),
            "timestamp": ts(s.timestamp()),
            "value_in_ia": s.value_in_ia(),
            "value_in_standard": s.value_in_standard(),
            "value_in_archive": s.value_in_archive(),
        })),
        "performance_mode": f.performance_mode().as_str(),
        "encrypted": f.encrypted(),
        "kms_key_id": f.kms_key_id(),
        "kms_key": r(KMS_KEY, f.kms_key_id()),
        "throughput_mode": f.throughput_mode().map(|m| m.as_str()),
        "provisioned_throughput_in_mibps": f.provisioned_throughput_in_mibps(),
        "availability_zone_name": f.availability_zone_name(),
        "availability_zone_id": f.availability_zone_id(),
        "file_system_protection": opt(f.file_system_protection(), |p| json!({
            "replication_overwrite_protection": p.replication_overwrite_protection().map(|v| v.as_str()),
        })),
        "tags": tag_map(f.tags().iter().map(|t| (Some(t.key()), Some(t.value())))),
    })
}
