//! `cloudspec validate`: parse spec files (and, with `--provider`, check them against the
//! provider's resource schemas) and print every problem found.

use std::io::IsTerminal;
use std::path::Path;

use super::{expand_spec_paths, use_color, ValidateArgs, EXIT_OK, EXIT_USAGE};
use crate::diagnostic::Diagnostic;
use crate::render_diagnostics::render;
use crate::syntax::parse;

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

pub(super) fn validate(args: ValidateArgs) -> u8 {
    let color = use_color(&args.color, std::io::stderr().is_terminal());
    let files = match expand_spec_paths(&args.files) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let schemas = args.provider.as_deref().and_then(|provider| {
        let found = crate::check::schemas_for(provider);
        if found.is_none() {
            eprintln!("warning: no resource schemas are known for provider \"{provider}\"; member names are not checked");
        }
        found
    });
    let mut tally = Tally::default();
    for file in &files {
        tally.files += 1;
        let diagnostics = match validate_file(file, schemas.as_ref()) {
            Ok((source, diagnostics)) => {
                if !diagnostics.is_empty() {
                    eprint!(
                        "{}",
                        render(
                            &cloudspec_model::input::display_path(file),
                            &source,
                            &diagnostics,
                            color
                        )
                    );
                    eprintln!();
                }
                diagnostics
            }
            Err(message) => {
                eprintln!("error: {message}");
                vec![Diagnostic::error("io", message, Default::default())]
            }
        };
        // The parser's `too-many-errors` stands for the problems it did not keep.
        let errors = diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                if d.code == crate::diagnostic::TOO_MANY_ERRORS {
                    d.message
                        .split(' ')
                        .next()
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(1)
                } else {
                    1
                }
            })
            .sum::<usize>();
        tally.errors += errors;
        tally.warnings += diagnostics.iter().filter(|d| !d.is_error()).count();
        tally.files_with_errors += usize::from(errors > 0);
    }
    eprintln!("{}", summary(&tally));
    if tally.errors > 0 {
        EXIT_USAGE
    } else {
        EXIT_OK
    }
}

/// Reads and checks one file: its text and its diagnostics, or why it cannot be read.
fn validate_file(
    path: &Path,
    schemas: Option<&crate::model::schema::SchemaSet>,
) -> Result<(String, Vec<Diagnostic>), String> {
    let source = super::files::read_spec(path)?;
    let parsed = parse(&source);
    let mut diagnostics = parsed.diagnostics;
    if let (Some(spec), Some(schemas)) = (&parsed.spec, schemas) {
        diagnostics.extend(crate::check::check(spec, schemas));
        diagnostics.sort_by_key(|d| d.span.start);
    }
    Ok((source, diagnostics))
}

/// `ok: 3 files`, `ok: 3 files (1 warning)`, `error: 1 of 3 files has errors (2 errors)`.
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
