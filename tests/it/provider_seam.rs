//! A source of resources added from code, through the registry alone: `run` loads it,
//! joins it with a saved inventory, and refuses a (type, id) both hold.

use std::path::Path;

use clap::Parser;
use cloudspec::cli::sources::{Registry, Source};
use cloudspec::cli::{dispatch_with, Cli};
use cloudspec::model::{
    Inventory, InventoryBuilder, LoadRequest, Object, Options, Provider, ProviderError, Reference,
    Resource, Value,
};

/// Two boxes, one holding a reference to a saved inventory's shelf.
struct Tiny;

impl Provider for Tiny {
    fn name(&self) -> &str {
        "tiny"
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        assert!(request.plan.needs_type("tiny:thing:box"));
        let mut b = InventoryBuilder::new();
        for (id, size) in [("a", 1), ("b", 5)] {
            let size_key = b.interner().intern("size");
            let shelf_key = b.interner().intern("shelf");
            b.push(Resource {
                type_name: "tiny:thing:box".into(),
                id: id.into(),
                region: None,
                account: None,
                source: None,
                properties: Object::new(vec![
                    (size_key, Value::Int(size)),
                    (
                        shelf_key,
                        Value::Ref(Box::new(Reference::new("tiny:thing:shelf/s1"))),
                    ),
                ]),
            })
            .map_err(|e| ProviderError::new(e.to_string()))?;
        }
        Ok(b.finish())
    }
}

fn registry() -> Registry {
    Registry::builtin().with(Source {
        provider: Box::new(Tiny),
        wanted: Box::new(|_| true),
        options: Box::new(|_| Options::default()),
        default: false,
    })
}

const SPEC: &str = "Spec \"tiny\"\nGroup \"boxes\"\nRule \"big boxes\"\nOn tiny:thing:box\nAssert size > 2\nRule \"boxes on a wide shelf\"\nOn tiny:thing:box\nAssert > shelf ( width > 10 )\n";

fn run(dir: &Path, extra: &[&str]) -> (u8, Option<serde_json::Value>) {
    std::fs::write(dir.join("tiny.cloudspec"), SPEC).unwrap();
    let report = dir.join("report.json");
    let _ = std::fs::remove_file(&report);
    let mut args = vec![
        "cloudspec".to_string(),
        "run".into(),
        dir.join("tiny.cloudspec").display().to_string(),
        "--format".into(),
        format!("json={}", report.display()),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let status = dispatch_with(Cli::try_parse_from(args).unwrap(), &registry());
    let json = std::fs::read_to_string(&report)
        .ok()
        .map(|t| serde_json::from_str(&t).unwrap());
    (status, json)
}

fn rule_status(report: &serde_json::Value, rule: &str) -> String {
    let rules = report["groups"][0]["rules"].as_array().unwrap();
    let r = rules.iter().find(|r| r["name"] == rule).unwrap();
    r["status"].as_str().unwrap().to_string()
}

#[test]
fn a_provider_from_code_is_run_through_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    let (status, report) = run(dir.path(), &[]);
    let report = report.expect("a report");
    // Box "a" (size 1) fails; its shelf is in no source: the association is dangling.
    assert_eq!(status, 1);
    assert_eq!(rule_status(&report, "big boxes"), "fail");
}

#[test]
fn its_resources_join_a_saved_inventory() {
    let dir = tempfile::tempdir().unwrap();
    let inventory = r#"{"cloudspec_inventory": 1, "resources": [
        {"type": "tiny:thing:shelf", "id": "s1", "properties": {"width": 20}}
    ]}"#;
    std::fs::write(dir.path().join("inv.json"), inventory).unwrap();
    let inv = dir.path().join("inv.json").display().to_string();
    let (status, report) = run(dir.path(), &["--inventory", &inv]);
    let report = report.expect("a report");
    assert_eq!(status, 1);
    // The reference from the provider's boxes reaches the inventory's shelf.
    assert_eq!(rule_status(&report, "boxes on a wide shelf"), "pass");
}

#[test]
fn a_resource_in_two_sources_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let inventory = r#"{"cloudspec_inventory": 1, "resources": [
        {"type": "tiny:thing:box", "id": "a", "properties": {"size": 9}}
    ]}"#;
    std::fs::write(dir.path().join("inv.json"), inventory).unwrap();
    let inv = dir.path().join("inv.json").display().to_string();
    let (status, report) = run(dir.path(), &["--inventory", &inv]);
    assert_eq!(status, 2);
    assert!(report.is_none());
}

/// The crate names of every provider under `providers/` except the shared model.
fn provider_crates() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("providers");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap()
            .replace('-', "_");
        if name != "cloudspec_model" {
            names.push(name);
        }
    }
    assert!(names.contains(&"cloudspec_aws".to_string()), "{names:?}");
    names
}

/// ARCHITECTURE.md: only the CLI wires providers; the engine (syntax, check, plan, eval,
/// reports, waivers, ...) names no provider crate, only the model they share.
#[test]
fn the_engine_names_no_provider_crate() {
    let crates = provider_crates();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("cli") {
                    stack.push(path);
                }
                continue;
            }
            if path == src.join("main.rs") || path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                for word in words.filter(|w| crates.iter().any(|c| c == w)) {
                    offenders.push(format!("{}:{}: {word}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "provider crates named outside src/cli: {offenders:#?}"
    );
}
