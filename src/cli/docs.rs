//! `cloudspec docs`: read rule packs, write their Markdown pages (`crate::rule_docs`).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::{expand_spec_paths, use_color, DocsArgs, EXIT_OK, EXIT_USAGE};
use crate::render_diagnostics::render;
use crate::rule_docs::{self, Pack, SpecSource};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec docs rules/ --output site/rules
  cloudspec docs rules/aws-cis --output docs/generated

Each directory holding spec files is a pack (named after the directory): DIR/index.md lists
the packs, DIR/<pack>.md documents every rule (severity, resource type, references,
remediation, source location and the rule text). The pages are generated and
deterministic: regenerate them instead of editing them.

Exit status: 0 the pages were written; 2 a spec is invalid or a file cannot be read or
written.";

pub(super) fn docs(args: DocsArgs) -> u8 {
    let color = use_color("auto", std::io::stderr().is_terminal());
    let packs = match load_packs(&args.paths, color) {
        Ok(p) => p,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let pages = rule_docs::render(&packs);
    if let Err(message) = write_pages(&args.output, &pages) {
        eprintln!("error: {message}");
        return EXIT_USAGE;
    }
    eprintln!(
        "wrote {} pages ({} packs) to {}",
        pages.len(),
        packs.len(),
        args.output.display()
    );
    EXIT_OK
}

/// Reads and parses every spec, grouped into packs by directory (sorted by path).
fn load_packs(paths: &[PathBuf], color: bool) -> Result<Vec<Pack>, String> {
    let files = expand_spec_paths(paths)?;
    let mut by_dir: BTreeMap<PathBuf, Vec<SpecSource>> = BTreeMap::new();
    let mut invalid = 0;
    for file in files {
        match load_spec(&file, color) {
            Some(spec) => by_dir
                .entry(file.parent().map(Path::to_path_buf).unwrap_or_default())
                .or_default()
                .push(spec),
            None => invalid += 1,
        }
    }
    if invalid > 0 {
        return Err(format!(
            "{invalid} spec file(s) are invalid; no page was written"
        ));
    }
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    Ok(by_dir
        .into_iter()
        .map(|(dir, specs)| {
            let base = pack_name(&dir);
            let n = names.entry(base.clone()).or_default();
            *n += 1;
            let name = if *n == 1 { base } else { format!("{base}-{n}") };
            Pack { name, specs }
        })
        .collect())
}

/// A directory's last component (`rules/aws-cis` -> `aws-cis`), or `rules` for `.`.
fn pack_name(dir: &Path) -> String {
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    canonical
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "rules".into())
}

fn load_spec(path: &Path, color: bool) -> Option<SpecSource> {
    let shown = cloudspec_model::input::display_path(path).replace('\\', "/");
    let source = match super::files::read_spec(path) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("error: {message}");
            return None;
        }
    };
    let parsed = crate::syntax::parse(&source);
    if parsed.has_errors() {
        eprint!("{}", render(&shown, &source, &parsed.diagnostics, color));
        return None;
    }
    let spec = parsed.spec?;
    Some(SpecSource {
        file: shown,
        source,
        spec,
    })
}

fn write_pages(dir: &Path, pages: &[rule_docs::Page]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "{}: cannot create the directory: {e}",
            cloudspec_model::input::display_path(dir)
        )
    })?;
    for page in pages {
        let path = dir.join(&page.path);
        super::files::write_bytes(&path, page.content.as_bytes())?;
    }
    Ok(())
}
