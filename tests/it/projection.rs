//! A projected load (only the properties the specs read) evaluates exactly as a full load:
//! the same report and the same warnings, on every data-driven case, the bundled example
//! and the rule packs' fixtures. `cloudspec run --inventory` loads projected.

use std::path::{Path, PathBuf};

use cloudspec::eval::{evaluate, projection, SpecInput};
use cloudspec::model::Inventory;
use cloudspec::report::{render, Format, RenderOptions};

/// Evaluates `specs` against `inventory` loaded in full and projected; compares.
fn same_outcome(specs: &[PathBuf], inventory: &Path) -> bool {
    let sources: Vec<String> = specs
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    let parsed: Vec<_> = sources
        .iter()
        .map(|s| cloudspec::syntax::parse(s))
        .collect();
    if parsed.iter().any(|p| p.has_errors() || p.spec.is_none()) {
        return false;
    }
    let inputs: Vec<SpecInput<'_>> = parsed
        .iter()
        .zip(&sources)
        .zip(specs)
        .filter_map(|((p, source), file)| {
            Some(SpecInput {
                file: file.to_str()?,
                source,
                spec: p.spec.as_ref()?,
            })
        })
        .collect();
    let keep = projection(inputs.iter().map(|i| i.spec));
    let full = Inventory::load(inventory);
    let projected = Inventory::load_projected(inventory, &keep);
    let (full, projected) = match (full, projected) {
        (Ok(full), Ok(projected)) => (full, projected),
        (Err(full), Err(projected)) => {
            assert_eq!(projected.to_string(), full.to_string(), "{inventory:?}");
            return false;
        }
        (full, projected) => panic!("{inventory:?}: full {full:?}, projected {projected:?}"),
    };
    let report = |inv: &Inventory| {
        let outcome = evaluate(&inputs, inv);
        (
            render(Format::Json, &outcome, &RenderOptions::default()),
            outcome.warnings,
        )
    };
    assert_eq!(
        report(&projected),
        report(&full),
        "{specs:?} on {inventory:?}"
    );
    true
}

fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}

#[test]
fn projected_loads_evaluate_as_full_loads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for cases in [
        root.join("tests/cases"),
        root.join("../shared/conformance/cases"),
    ] {
        for dir in case_dirs(&cases) {
            let (spec, inventory) = (dir.join("spec.cloudspec"), dir.join("inventory.json"));
            if spec.is_file() && inventory.is_file() && same_outcome(&[spec], &inventory) {
                compared += 1;
            }
        }
    }
    assert!(compared >= 100, "only {compared} cases compared");
    assert!(same_outcome(
        &[root.join("examples/prod.cloudspec")],
        &root.join("examples/inventory.json")
    ));
    let mut fixtures = 0;
    for pack in case_dirs(&root.join("rules")) {
        let specs: Vec<PathBuf> = case_dirs(&pack)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "cloudspec"))
            .collect();
        for fixture in case_dirs(&pack.join("fixtures")) {
            if fixture.extension().is_some_and(|e| e == "json") && same_outcome(&specs, &fixture) {
                fixtures += 1;
            }
        }
    }
    assert!(fixtures >= 4, "only {fixtures} rule pack fixtures compared");
}

#[test]
fn a_run_that_saves_the_inventory_loads_it_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("saved.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(root)
        .args([
            "run",
            "examples/prod.cloudspec",
            "--inventory",
            "examples/inventory.json",
        ])
        .arg("--save-inventory")
        .arg(&saved)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let full =
        Inventory::load(&root.join("examples/inventory.json")).unwrap_or_else(|e| panic!("{e}"));
    let saved = std::fs::read_to_string(&saved).unwrap_or_default();
    assert_eq!(saved, full.to_json_string());
}
