//! `cloudspec permissions SPEC...`: the least-privilege read-only IAM policy for running
//! the specs live, derived from the same collection plan a run uses.
use super::{PermissionsArgs, EXIT_OK, EXIT_USAGE};
use crate::syntax::ast::Spec;

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec permissions prod.cloudspec > cloudspec-policy.json
  cloudspec permissions rules/

Prints an IAM policy document (JSON) allowing only the Describe/List/Get actions the specs'
rules need: one per resource type they reach (through associations too), plus one per S3
bucket setting they read. ec2:DescribeRegions is included for --all-regions.";

pub(super) fn permissions(args: PermissionsArgs) -> u8 {
    let files = match super::expand_spec_paths(&args.specs) {
        Ok(f) => f,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let mut specs: Vec<Spec> = Vec::new();
    for file in &files {
        let source = match std::fs::read_to_string(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: cannot read: {e}", file.display());
                return EXIT_USAGE;
            }
        };
        let parsed = crate::syntax::parse(&source);
        match parsed.spec {
            Some(spec) if !parsed.diagnostics.iter().any(|d| d.is_error()) => specs.push(spec),
            _ => {
                eprintln!(
                    "error: {}: the spec has errors; `cloudspec validate` shows them",
                    file.display()
                );
                return EXIT_USAGE;
            }
        }
    }
    let refs: Vec<&Spec> = specs.iter().collect();
    let plan = crate::plan::plan(&refs, &cloudspec_aws::schemas());
    match serde_json::to_string_pretty(&cloudspec_aws::iam_policy(&plan)) {
        Ok(text) => {
            println!("{text}");
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
