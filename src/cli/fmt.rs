//! `cloudspec fmt`: rewrite spec files in canonical layout (docs/language.md, "Formatting"),
//! or with `--check` only report which ones are not.

use std::io::IsTerminal;
use std::path::Path;

use super::{expand_spec_paths, use_color, FmtArgs, EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use crate::render_diagnostics::render;
use crate::syntax::{format::format, parse};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec fmt specs/prod.cloudspec       # rewrite the file in place
  cloudspec fmt specs/                     # every *.cloudspec below specs/
  cloudspec fmt --check specs/             # in CI: list files that need formatting
  cat rule.cloudspec | cloudspec fmt -     # format standard input to standard output

Formatting keeps comments and never changes meaning: predicate words stay as written.
A file with errors is left untouched and its errors are printed.

Exit status: 0 all files are (now) formatted; 1 with --check, a file would change;
2 a file has errors or cannot be read or written.";

/// What happened to one input.
enum Outcome {
    Unchanged,
    Changed,
    Failed,
}

pub(super) fn fmt(args: FmtArgs) -> u8 {
    let color = use_color("auto", std::io::stderr().is_terminal());
    let files = match expand_spec_paths(&args.files) {
        Ok(files) => files,
        Err(message) => {
            super::fail(&message);
            return EXIT_USAGE;
        }
    };
    let mut failed = false;
    let mut changed = false;
    for file in &files {
        let outcome = if file.as_os_str() == "-" {
            format_stdin(args.check, color)
        } else {
            format_file(file, args.check, color)
        };
        match outcome {
            Outcome::Unchanged => {}
            Outcome::Changed => changed = true,
            Outcome::Failed => failed = true,
        }
    }
    if failed {
        EXIT_USAGE
    } else if changed && args.check {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}

/// The formatted text of `source`, or `None` after printing its errors.
fn formatted(name: &str, source: &str, color: bool) -> Option<String> {
    let parsed = parse(source);
    if parsed.has_errors() {
        let color = color && !super::logging::is_json();
        super::logging::diagnostics(name, &render(name, source, &parsed.diagnostics, color));
        super::fail(&format!("{name} was not formatted because it has errors"));
        return None;
    }
    parsed.spec.map(|spec| format(&spec, source))
}

fn format_stdin(check: bool, color: bool) -> Outcome {
    let source = match super::files::read_spec_stdin() {
        Ok(source) => source,
        Err(message) => {
            super::fail(&message);
            return Outcome::Failed;
        }
    };
    let Some(text) = formatted("<stdin>", &source, color) else {
        return Outcome::Failed;
    };
    let changed = text != source;
    if check {
        if changed && super::files::print_stdout("<stdin>\n").is_err() {
            return Outcome::Failed;
        }
    } else if super::files::print_stdout(&text).is_err() {
        return Outcome::Failed;
    }
    if changed {
        Outcome::Changed
    } else {
        Outcome::Unchanged
    }
}

fn format_file(path: &Path, check: bool, color: bool) -> Outcome {
    let name = cloudspec_model::input::display_path(path);
    let source = match super::files::read_spec(path) {
        Ok(source) => source,
        Err(message) => {
            super::fail(&message);
            return Outcome::Failed;
        }
    };
    let Some(text) = formatted(&name, &source, color) else {
        return Outcome::Failed;
    };
    if text == source {
        return Outcome::Unchanged;
    }
    if check {
        if super::files::print_stdout(&format!("{name}\n")).is_err() {
            return Outcome::Failed;
        }
        return Outcome::Changed;
    }
    match super::files::write_bytes(path, text.as_bytes()) {
        Ok(()) => {
            super::logging::say(&format!("formatted {name}"));
            Outcome::Changed
        }
        Err(message) => {
            super::fail(&message);
            Outcome::Failed
        }
    }
}
