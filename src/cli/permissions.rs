//! `cloudspec permissions SPEC...`: the least-privilege read-only IAM policy for running
//! the specs live, derived from the same collection plan a run uses.
use std::io::IsTerminal;

use super::{PermissionsArgs, EXIT_OK, EXIT_USAGE};
use crate::render_diagnostics::render;
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
    let schemas = cloudspec_aws::schemas();
    let color = super::use_color("auto", std::io::stderr().is_terminal());
    let mut specs: Vec<Spec> = Vec::new();
    let mut failed = false;
    for file in &files {
        let source = match super::files::read_spec(file) {
            Ok(s) => s,
            Err(message) => {
                eprintln!("error: {message}");
                failed = true;
                continue;
            }
        };
        let parsed = crate::syntax::parse(&source);
        let mut diagnostics = parsed.diagnostics;
        if let Some(spec) = &parsed.spec {
            // The policy is only as right as the types it names: a misspelt type would
            // silently leave its actions out.
            diagnostics.extend(crate::check::check(spec, &schemas));
            diagnostics.sort_by_key(|d| d.span.start);
        }
        let name = cloudspec_model::input::display_path(file);
        if !diagnostics.is_empty() {
            eprint!("{}", render(&name, &source, &diagnostics, color));
        }
        match parsed.spec {
            Some(spec) if !diagnostics.iter().any(|d| d.is_error()) => specs.push(spec),
            _ => {
                eprintln!("error: {name}: the spec has errors; no policy was printed");
                failed = true;
            }
        }
    }
    if failed {
        return EXIT_USAGE;
    }
    let refs: Vec<&Spec> = specs.iter().collect();
    let plan = crate::plan::plan(&refs, &schemas);
    match serde_json::to_string_pretty(&cloudspec_aws::iam_policy(&plan)) {
        Ok(text) => match super::files::print_stdout(&format!("{text}\n")) {
            Ok(()) => EXIT_OK,
            Err(status) => status,
        },
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
