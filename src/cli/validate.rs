//! `cloudspec validate`: parse spec files (and, with `--provider`, check them against the
//! provider's resource schemas) and print every problem found.

use std::io::IsTerminal;

use super::sources::Registry;
use super::{specs, use_color, ValidateArgs, EXIT_OK, EXIT_USAGE};
use crate::model::schema::SchemaSet;

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec validate specs/prod.cloudspec
  cloudspec validate specs/                 # every *.cloudspec below specs/
  cloudspec validate --provider aws specs/  # also check resource types and member names

Every problem is printed on stderr as `error[code]: message` with `--> file:line:col`,
the offending text underlined and a hint; docs/diagnostics.md lists the codes.

Exit status: 0 every file is valid (warnings allowed); 2 a file has an error or cannot be
read.";

/// Counts over all files.
#[derive(Debug, Default)]
struct Tally {
    files: usize,
    files_with_errors: usize,
    errors: usize,
    warnings: usize,
}

pub(super) fn validate(args: ValidateArgs, registry: &Registry) -> u8 {
    let color = use_color(&args.color, std::io::stderr().is_terminal());
    let schemas: Vec<SchemaSet> = match args.provider.as_deref() {
        None => Vec::new(),
        Some(provider) => match registry.schemas_of(provider) {
            Some(set) => vec![set],
            None => {
                return super::fail(&format!(
                    "--provider {}: no resource schemas are known for this provider (this build knows {})",
                    cloudspec_model::input::escape_control(provider),
                    registry.providers_with_schemas().join(", ")
                ));
            }
        },
    };
    let loaded = match specs::load_each(&args.files, &schemas, color, |file| {
        if file.errors + file.warnings > 0 && !super::logging::is_json() {
            eprintln!();
        }
    }) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let mut tally = Tally {
        files: loaded.files.len() + loaded.unreadable,
        files_with_errors: loaded.unreadable,
        errors: loaded.unreadable,
        warnings: 0,
    };
    for file in &loaded.files {
        tally.errors += file.errors;
        tally.warnings += file.warnings;
        tally.files_with_errors += usize::from(file.errors > 0);
    }
    let summary = summary(&tally);
    if tally.errors > 0 {
        super::fail(summary.trim_start_matches("error: "));
        EXIT_USAGE
    } else {
        super::logging::say(&summary);
        EXIT_OK
    }
}

fn summary(tally: &Tally) -> String {
    let files = plural(tally.files, "file", "files");
    let warnings = plural(tally.warnings, "warning", "warnings");
    if tally.errors == 0 {
        if tally.warnings == 0 {
            format!("ok: {files}")
        } else {
            format!("ok: {files} ({warnings})")
        }
    } else {
        let verb = if tally.files_with_errors == 1 {
            "has"
        } else {
            "have"
        };
        let errors = plural(tally.errors, "error", "errors");
        format!(
            "error: {} of {files} {verb} errors ({errors})",
            tally.files_with_errors
        )
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
