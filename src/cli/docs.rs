//! `cloudspec docs`: read rule packs, write their Markdown pages (`crate::rule_docs`).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::sources::Registry;
use super::{specs, use_color, DocsArgs, EXIT_OK};
use crate::model::schema::SchemaSet;
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

pub(super) fn docs(args: DocsArgs, registry: &Registry) -> u8 {
    let color = use_color("auto", std::io::stderr().is_terminal());
    let packs = match load_packs(&args.paths, &registry.schemas(), color) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let pages = rule_docs::render(&packs);
    if let Err(message) = write_pages(&args.output, &pages) {
        return super::fail(&message);
    }
    super::logging::say(&format!(
        "wrote {} pages ({} packs) to {}",
        pages.len(),
        packs.len(),
        cloudspec_model::input::display_path(&args.output)
    ));
    EXIT_OK
}

/// Reads and checks every spec ([`specs::load`]), grouped into packs by directory (sorted
/// by path). `Err` is the exit status, the problems reported.
fn load_packs(paths: &[PathBuf], schemas: &[SchemaSet], color: bool) -> Result<Vec<Pack>, u8> {
    let loaded = specs::load(paths, schemas, color)?;
    let invalid = loaded.unreadable + loaded.files.iter().filter(|f| !f.is_valid()).count();
    if invalid > 0 {
        return Err(super::fail(&format!(
            "{invalid} spec file(s) are invalid; no page was written"
        )));
    }
    let mut by_dir: BTreeMap<PathBuf, Vec<SpecSource>> = BTreeMap::new();
    for file in loaded.files {
        let Some(spec) = file.spec else { continue };
        let dir = file
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        by_dir.entry(dir).or_default().push(SpecSource {
            file: file.file.replace('\\', "/"),
            source: file.source,
            spec,
        });
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
