//! The one spec loader: reading, parsing, checking against resource schemas and printing
//! every problem of spec files, for every subcommand that reads specs (`run`, `validate`,
//! `test`, `docs`, `permissions`). Schemas come from the source registry
//! ([`super::sources::Registry`]): each rule is checked against the schemas of the provider
//! its type names (`aws:...`), and types of providers without schemas are not checked.

use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, TOO_MANY_ERRORS};
use crate::model::schema::SchemaSet;
use crate::syntax::ast::Spec;

/// A spec file read, parsed and checked.
pub(crate) struct SpecFile {
    pub path: PathBuf,
    /// The path as messages show it.
    pub file: String,
    pub source: String,
    /// `None` when the file does not parse at all.
    pub spec: Option<Spec>,
    /// Errors found, counting those a too-many-errors note stands for.
    pub errors: usize,
    pub warnings: usize,
}

impl SpecFile {
    /// Whether the spec can be used: it parsed and has no error.
    pub(crate) fn is_valid(&self) -> bool {
        self.spec.is_some() && self.errors == 0
    }
}

/// Every spec file below `paths` (directories are searched for `*.cloudspec`).
pub(crate) struct Loaded {
    pub files: Vec<SpecFile>,
    /// Files that could not be read (each was reported).
    pub unreadable: usize,
}

impl Loaded {
    /// Whether every file was read and is valid.
    pub(crate) fn all_valid(&self) -> bool {
        self.unreadable == 0 && self.files.iter().all(SpecFile::is_valid)
    }
}

/// Reads, parses and checks every spec under `paths` against `schemas`, printing each
/// file's diagnostics and each read error. `Err` (exit status 2, already reported) when a
/// path names a directory without specs or cannot be walked.
pub(crate) fn load(paths: &[PathBuf], schemas: &[SchemaSet], color: bool) -> Result<Loaded, u8> {
    load_each(paths, schemas, color, |_| {})
}

/// [`load`], calling `after` with each file once its diagnostics are printed.
pub(crate) fn load_each(
    paths: &[PathBuf],
    schemas: &[SchemaSet],
    color: bool,
    mut after: impl FnMut(&SpecFile),
) -> Result<Loaded, u8> {
    let paths = super::expand_spec_paths(paths).map_err(|m| super::fail(&m))?;
    let mut loaded = Loaded {
        files: Vec::with_capacity(paths.len()),
        unreadable: 0,
    };
    for path in &paths {
        match load_one(path, schemas, color) {
            Ok(file) => {
                after(&file);
                loaded.files.push(file);
            }
            Err(message) => {
                super::fail(&message);
                loaded.unreadable += 1;
            }
        }
    }
    Ok(loaded)
}

/// Reads, parses and checks one spec file against `schemas`; prints its diagnostics. `Err`
/// is the read error, not yet reported (callers say what the file was for).
pub(crate) fn load_one(
    path: &Path,
    schemas: &[SchemaSet],
    color: bool,
) -> Result<SpecFile, String> {
    let file = cloudspec_model::input::display_path(path);
    let source = super::files::read_spec(path)?;
    let parsed = crate::syntax::parse(&source);
    let mut diagnostics = parsed.diagnostics;
    if let Some(spec) = &parsed.spec {
        diagnostics.extend(crate::check::check_all(spec, schemas));
    }
    let mut loaded = SpecFile {
        path: path.to_path_buf(),
        file,
        source,
        spec: parsed.spec,
        errors: 0,
        warnings: 0,
    };
    report(&mut loaded, &mut diagnostics, color);
    Ok(loaded)
}

/// Checks specs already loaded against more schemas (those a loaded inventory names);
/// prints the diagnostics. True when every spec is still valid.
pub(crate) fn check_more(files: &mut [SpecFile], schemas: &[SchemaSet], color: bool) -> bool {
    if schemas.is_empty() {
        return files.iter().all(SpecFile::is_valid);
    }
    for f in files.iter_mut() {
        let Some(spec) = &f.spec else { continue };
        let mut diagnostics = crate::check::check_all(spec, schemas);
        report(f, &mut diagnostics, color);
    }
    files.iter().all(SpecFile::is_valid)
}

/// Counts and prints a file's diagnostics (sorted by position).
fn report(file: &mut SpecFile, diagnostics: &mut [Diagnostic], color: bool) {
    if diagnostics.is_empty() {
        return;
    }
    diagnostics.sort_by_key(|d| d.span.start);
    file.errors += diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            if d.code == TOO_MANY_ERRORS {
                // "2900 more diagnostics ..." stands for that many.
                d.message
                    .split(' ')
                    .find_map(|w| w.parse().ok())
                    .unwrap_or(1)
            } else {
                1
            }
        })
        .sum::<usize>();
    file.warnings += diagnostics.iter().filter(|d| !d.is_error()).count();
    let color = color && !super::logging::is_json();
    super::logging::diagnostics(
        &file.file,
        &crate::render_diagnostics::render(&file.file, &file.source, diagnostics, color),
    );
}
