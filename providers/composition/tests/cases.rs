//! Data-driven cases for the function-hcl contract (`design/function-hcl.md`), one folder
//! per case under `tests/cases/<section>-<name>/`:
//!
//! - `*.hcl`: the composition (every `.hcl` file of the folder, sorted, named by file name);
//! - `xr.yaml`: the composite resource (optional; [`DEFAULT_XR`] when absent);
//! - `observed.yaml`: observed resources, several YAML documents, each named by its
//!   `crossplane.io/composition-resource-name` annotation (optional);
//! - `extra.yaml`: the `--extra-resources` documents (optional; present means the flag was
//!   given, even when it holds no document);
//! - `context.json`: the incoming context (optional);
//! - exactly one of `expected.json` (the whole rendered document, compared as JSON values)
//!   and `expected.err` (the `Failure` text: one line per diagnostic);
//! - `check.err` (optional): what the static passes alone (`check()`) report.
//!
//! Whenever `check()` reports something, `render` must fail with exactly that. Cases whose
//! expectation is a document must pass `check()` cleanly.
//!
//! `UPDATE_CASES=1` (re)writes the expected files from the actual output; `CASES=text` runs
//! only the cases whose folder name contains `text`; `CASES_DIR=path` reads the cases from
//! another folder. Written expectations are to be read
//! against the contract, not trusted: where the evaluator disagrees with the contract, the
//! expected file states the contract's behaviour and the case fails until it is fixed.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cloudspec_composition::{check, render, Composition, Failure, File, Inputs};
use serde_json::Value;

/// The composite resource of a case without `xr.yaml`.
const DEFAULT_XR: &str = "\
apiVersion: example.com/v1
kind: XR
metadata:
  name: xr-1
spec:
  region: us-east-1
  size: 2
";

/// A case that takes longer than this is reported as hanging (the CLI has no timeout: a
/// render must end by itself, within seconds).
const TIMEOUT: Duration = Duration::from_secs(20);

/// The stack a case runs on: the main thread's (where the CLI renders). Recursion through
/// `invoke` is not bounded by the HCL engine's stack guard (each call evaluates afresh):
/// 100 nested calls need more than a spawned thread's default 2 MiB in a debug build.
const STACK: usize = 8 << 20;

/// `tests/cases`, or the folder `CASES_DIR` names (to try cases out elsewhere).
fn root() -> PathBuf {
    match std::env::var_os("CASES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases"),
    }
}

fn case_dirs() -> Vec<PathBuf> {
    let filter = std::env::var("CASES").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .expect("tests/cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .filter(|p| name(p).contains(&filter))
        .collect();
    dirs.sort();
    dirs
}

fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

fn yaml_docs(text: &str, what: &str) -> Vec<Value> {
    serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap_or_else(|e| panic!("{what}: {e}")))
        .filter(|v: &Value| !v.is_null())
        .collect()
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn composition(dir: &Path) -> Composition {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".hcl"))
        .collect();
    names.sort();
    Composition {
        files: names
            .into_iter()
            .map(|n| File {
                text: read(&dir.join(&n)).unwrap(),
                name: n,
            })
            .collect(),
    }
}

fn inputs(dir: &Path) -> Inputs {
    let xr_text = read(&dir.join("xr.yaml")).unwrap_or_else(|| DEFAULT_XR.to_string());
    let xr = yaml_docs(&xr_text, "xr.yaml").remove(0);
    let observed = read(&dir.join("observed.yaml"))
        .map(|t| {
            yaml_docs(&t, "observed.yaml")
                .into_iter()
                .map(|d| {
                    let n = d["metadata"]["annotations"]["crossplane.io/composition-resource-name"]
                        .as_str()
                        .expect("observed resources are annotated with their name")
                        .to_string();
                    (n, d)
                })
                .collect()
        })
        .unwrap_or_default();
    let extra = read(&dir.join("extra.yaml")).map(|t| yaml_docs(&t, "extra.yaml"));
    let context = read(&dir.join("context.json"))
        .map(|t| match serde_json::from_str(&t).expect("context.json") {
            Value::Object(m) => m,
            _ => panic!("context.json is not an object"),
        })
        .unwrap_or_default();
    Inputs {
        xr,
        observed,
        extra,
        context,
    }
}

/// What a case gave: the static diagnostics and the render's outcome.
struct Outcome {
    check: String,
    render: Result<Value, String>,
    took: Duration,
}

/// Runs one case on its own thread; `Err` when it did not finish in time or panicked.
fn run(dir: &Path) -> Result<Outcome, String> {
    let comp = composition(dir);
    let inputs = inputs(dir);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(name(dir))
        .stack_size(STACK)
        .spawn(move || {
            let start = Instant::now();
            let check = Failure {
                diagnostics: check(&comp),
            }
            .to_string();
            let render = render(&comp, &inputs)
                .map(|r| r.document)
                .map_err(|f| f.to_string());
            let _ = tx.send(Outcome {
                check,
                render,
                took: start.elapsed(),
            });
        })
        .unwrap();
    rx.recv_timeout(TIMEOUT).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => format!("did not finish within {TIMEOUT:?}"),
        mpsc::RecvTimeoutError::Disconnected => "panicked".to_string(),
    })
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

fn trim_text(s: &str) -> &str {
    s.strip_suffix('\n').unwrap_or(s)
}

/// Rewrites a case's expected files from what it gave.
fn update(dir: &Path, out: &Outcome) {
    let json = dir.join("expected.json");
    let err = dir.join("expected.err");
    match &out.render {
        Ok(doc) => {
            std::fs::write(&json, pretty(doc)).unwrap();
            let _ = std::fs::remove_file(&err);
        }
        Err(text) => {
            std::fs::write(&err, format!("{text}\n")).unwrap();
            let _ = std::fs::remove_file(&json);
        }
    }
    let check = dir.join("check.err");
    if out.check.is_empty() {
        let _ = std::fs::remove_file(&check);
    } else {
        std::fs::write(&check, format!("{}\n", out.check)).unwrap();
    }
}

/// The differences between a case's expectations and its outcome.
fn compare(dir: &Path, out: &Outcome) -> Vec<String> {
    let mut problems = Vec::new();
    let json = read(&dir.join("expected.json"));
    let err = read(&dir.join("expected.err"));
    match (&json, &err, &out.render) {
        (Some(_), Some(_), _) | (None, None, _) => {
            problems.push("needs exactly one of expected.json and expected.err".into())
        }
        (Some(want), None, Ok(got)) => {
            let want: Value = serde_json::from_str(want).expect("expected.json");
            if &want != got {
                problems.push(format!(
                    "document differs\n--- want\n{}--- got\n{}",
                    pretty(&want),
                    pretty(got)
                ));
            }
        }
        (Some(_), None, Err(got)) => problems.push(format!("render failed:\n{got}")),
        (None, Some(want), Ok(got)) => problems.push(format!(
            "render succeeded, expected the failure\n{}\n--- got\n{}",
            trim_text(want),
            pretty(got)
        )),
        (None, Some(want), Err(got)) => {
            if trim_text(want) != got {
                problems.push(format!(
                    "failure differs\n--- want\n{}\n--- got\n{got}",
                    trim_text(want)
                ));
            }
        }
    }
    if let Some(want) = read(&dir.join("check.err")) {
        if trim_text(&want) != out.check {
            problems.push(format!(
                "check() differs\n--- want\n{}\n--- got\n{}",
                trim_text(&want),
                out.check
            ));
        }
    }
    if !out.check.is_empty() {
        match &out.render {
            Err(got) if *got == out.check => {}
            _ => problems.push(format!(
                "check() reported\n{}\nbut render did not fail with exactly that",
                out.check
            )),
        }
    }
    problems
}

#[test]
fn every_case_matches_its_expectation() {
    let updating = std::env::var("UPDATE_CASES").is_ok_and(|v| v == "1");
    let dirs = case_dirs();
    assert!(!dirs.is_empty(), "no cases under {}", root().display());
    let mut failures = Vec::new();
    for dir in &dirs {
        let case = name(dir);
        let out = match run(dir) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("== {case}: {e}"));
                continue;
            }
        };
        if out.took > Duration::from_secs(5) {
            eprintln!("{case}: took {:?}", out.took);
        }
        if updating {
            update(dir, &out);
            continue;
        }
        let problems = compare(dir, &out);
        if !problems.is_empty() {
            failures.push(format!("== {case}\n{}", problems.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}

/// A composition that renders is statically sound: `check()` finds nothing in any case
/// whose expectation is a document.
#[test]
fn rendering_cases_pass_check() {
    let mut failures = Vec::new();
    for dir in case_dirs() {
        if !dir.join("expected.json").exists() {
            continue;
        }
        let diags = check(&composition(&dir));
        if !diags.is_empty() {
            let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            failures.push(format!("{}: {}", name(&dir), text.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
