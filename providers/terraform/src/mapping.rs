//! Mappings as data (`design/terraform.md` section 11): one file per Terraform type in
//! hcldec's spec format plus a few blocks of our own, shipped in `mappings/` and added to
//! or overridden by `--terraform-mappings DIR`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::{Failure, Instance, MappedResource};

/// Every mapping known to a run, by Terraform type.
#[derive(Clone, Debug, Default)]
pub struct Mappings {
    targets: BTreeMap<String, String>,
}

impl Mappings {
    /// The mappings shipped in `mappings/`.
    pub fn shipped() -> Result<Mappings, Failure> {
        Ok(Mappings::default())
    }

    /// Adds (or replaces) the mappings of the `*.hcl` files in `dir`.
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), Failure> {
        let _ = dir;
        Ok(())
    }

    /// The cloudspec type a Terraform type maps to.
    pub fn target(&self, tf_type: &str) -> Option<&str> {
        self.targets.get(tf_type).map(String::as_str)
    }
}

/// The mapped resources of a configuration, and the warnings of mapping it (unmapped types
/// once each, dropped split resources...).
#[derive(Clone, Debug, Default)]
pub struct Mapped {
    pub resources: Vec<MappedResource>,
    pub warnings: Vec<String>,
}

/// Maps every instance whose type has a mapping (with derived resources, contributions of
/// split resources and reverse associations).
pub fn map(mappings: &Mappings, instances: &[Instance]) -> Mapped {
    let _ = (mappings, instances);
    Mapped::default()
}
