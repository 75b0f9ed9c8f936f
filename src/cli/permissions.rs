//! `cloudspec permissions SPEC...`: the least-privilege read-only IAM policy for running
//! the specs live, derived from the same collection plan a run uses.
use std::io::IsTerminal;

use super::sources::Registry;
use super::{specs, PermissionsArgs, EXIT_OK, EXIT_USAGE};
use crate::syntax::ast::Spec;

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec permissions prod.cloudspec > cloudspec-policy.json
  cloudspec permissions rules/

Prints an IAM policy document (JSON) allowing only the Describe/List/Get actions the specs'
rules need: one per resource type they reach (through associations too), plus one per
setting that costs a call per resource and that they read (S3 bucket settings, VPC DNS
attributes, snapshot sharing). ec2:DescribeRegions is included for --all-regions.";

pub(super) fn permissions(args: PermissionsArgs, registry: &Registry) -> u8 {
    let Some(schemas) = registry.schemas_of("aws") else {
        return super::fail("this build has no AWS provider");
    };
    let color = super::use_color("auto", std::io::stderr().is_terminal());
    let loaded = match specs::load(&args.specs, &registry.schemas(), color) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let mut failed = loaded.unreadable > 0;
    for file in loaded.files.iter().filter(|f| !f.is_valid()) {
        super::fail(&format!(
            "{}: the spec has errors; no policy was printed",
            file.file
        ));
        failed = true;
    }
    if failed {
        return EXIT_USAGE;
    }
    let refs: Vec<&Spec> = loaded
        .files
        .iter()
        .filter_map(|f| f.spec.as_ref())
        .collect();
    let plan = crate::plan::plan(&refs, &schemas);
    match serde_json::to_string_pretty(&cloudspec_aws::iam_policy(&plan)) {
        Ok(text) => match super::files::print_stdout(&format!("{text}\n")) {
            Ok(()) => EXIT_OK,
            Err(status) => status,
        },
        Err(e) => super::fail(&e.to_string()),
    }
}
