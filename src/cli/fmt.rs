//! `cloudspec fmt`: rewrite spec files in canonical layout (docs/language.md, "Formatting"),
//! or with `--check` only report which ones are not.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

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
            eprintln!("error: {message}");
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
        eprint!("{}", render(name, source, &parsed.diagnostics, color));
        eprintln!("error: {name} was not formatted because it has errors");
        return None;
    }
    parsed.spec.map(|spec| format(&spec, source))
}

fn format_stdin(check: bool, color: bool) -> Outcome {
    let mut source = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut source) {
        eprintln!("error: cannot read standard input: {e}");
        return Outcome::Failed;
    }
    let Some(text) = formatted("<stdin>", &source, color) else {
        return Outcome::Failed;
    };
    let changed = text != source;
    if check {
        if changed {
            println!("<stdin>");
        }
    } else if let Err(e) = std::io::stdout().write_all(text.as_bytes()) {
        eprintln!("error: cannot write standard output: {e}");
        return Outcome::Failed;
    }
    if changed {
        Outcome::Changed
    } else {
        Outcome::Unchanged
    }
}

fn format_file(path: &Path, check: bool, color: bool) -> Outcome {
    let name = path.display().to_string();
    let source = match std::fs::read_to_string(path) {
        Ok(source) => source,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
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
        println!("{name}");
        return Outcome::Changed;
    }
    match replace_file(path, &text) {
        Ok(()) => {
            eprintln!("formatted {name}");
            Outcome::Changed
        }
        Err(e) => {
            eprintln!("error: cannot write {name}: {e}");
            Outcome::Failed
        }
    }
}

/// Writes `text` to a temporary file next to `path`, then renames it over `path`, so a
/// crash never leaves a half-written spec. Keeps the file's permissions.
fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `dir/.name.cloudspec.fmt-<pid>.tmp`.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.fmt-{}.tmp", std::process::id()))
}
