//! Raw resources: every managed instance as `terraform:<provider>:<rest>` (the Terraform
//! type split at its first `_`), id its address, properties its arguments as written
//! (nested blocks as lists of objects, unset arguments absent, computed attributes
//! unknown).

use crate::{Instance, MappedResource};

/// The raw type of a Terraform type: `aws_s3_bucket` -> `terraform:aws:s3_bucket`.
pub fn raw_type(tf_type: &str) -> String {
    match tf_type.split_once('_') {
        Some((provider, rest)) => format!("terraform:{provider}:{rest}"),
        None => format!("terraform:{tf_type}:{tf_type}"),
    }
}

/// The raw resource of one instance.
pub fn raw(instance: &Instance) -> MappedResource {
    MappedResource {
        type_name: raw_type(&instance.tf_type),
        id: instance.address.clone(),
        region: instance.region.clone(),
        file: instance.file.clone(),
        line: Some(instance.line as u64),
        properties: serde_json::Map::new(),
    }
}
