//! The Terraform contract (`design/terraform.md`, sections 1-12) as data: every folder
//! under `tests/terraform/` is one end-to-end case, named `<section>-<name>`
//! (`03-source-lines`, `08-every-unknown-vs-false`), run through the real binary inside
//! its folder as
//!
//! ```text
//! cloudspec run spec.cloudspec --terraform INPUT --format json [args...]
//! ```
//!
//! A case folder holds:
//!
//! - `spec.cloudspec`: the rules;
//! - the input, one or more of: `tf/` (a root module in native syntax), `tf-json/` (the
//!   same configuration in `.tf.json`), `plan.json` (`terraform show -json` output). Every
//!   input present is run and must give the same `expected.txt`;
//!   a plan case may keep the configuration it planned in `config/` (not run);
//! - `args` (optional): more arguments, one per line (`--var`, `size=3`); paths in them are
//!   relative to the case folder;
//! - `env` (optional): `NAME=VALUE` lines set in the environment of the run (`TF_VAR_*`;
//!   the tests' own `TF_VAR_*` are removed);
//! - `expected.txt`: `exit N`, then one line per rule x resource in scope, sorted:
//!   by rule then resource: `STATUS<TAB>rule<TAB>resource id`, with `<TAB>` and the unknown paths and reasons
//!   (`path (reason); ...`) for an unknown resource, the failing paths and messages for a
//!   failing one; a rule with nothing in scope is `skip<TAB>rule<TAB>-`. For exit 2 (the
//!   configuration cannot be loaded) it is `exit 2` alone;
//! - `stderr.txt`: the exact standard error of `tf/` (and of `plan.json`), `stderr-json.txt`
//!   that of `tf-json/` (positions differ); a missing file means it must be empty;
//! - `resources.txt` / `resources-json.txt` (optional, opt-in by creating the file):
//!   `type<TAB>id<TAB>region<TAB>file:line` of every resource of the report, for cases that
//!   pin sources and regions (which differ between the two syntaxes).
//!
//! `UPDATE_TF_CASES=1` rewrites the expected files from the runs (read them before
//! committing: they must agree with the contract); `TF_CASES=substr` runs the cases whose
//! folder name contains `substr`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cloudspec");

fn cases_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/terraform")
}

/// One input of a case and the files that hold what it must print.
struct Input {
    /// `--terraform` argument, relative to the case folder.
    path: &'static str,
    stderr_file: &'static str,
    resources_file: &'static str,
}

const INPUTS: [Input; 3] = [
    Input {
        path: "tf",
        stderr_file: "stderr.txt",
        resources_file: "resources.txt",
    },
    Input {
        path: "plan.json",
        stderr_file: "stderr.txt",
        resources_file: "resources.txt",
    },
    Input {
        path: "tf-json",
        stderr_file: "stderr-json.txt",
        resources_file: "resources-json.txt",
    },
];

fn read_lines(path: &Path) -> Vec<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        Err(_) => Vec::new(),
    }
}

fn run(dir: &Path, input: &str) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir)
        .args([
            "run",
            "spec.cloudspec",
            "--terraform",
            input,
            "--format",
            "json",
        ])
        .args(read_lines(&dir.join("args")))
        .env_remove("CLOUDSPEC_LOG")
        .env("NO_COLOR", "1");
    // The tests' own environment must not set variables of the configurations here.
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("TF_VAR_") {
            cmd.env_remove(name);
        }
    }
    for line in read_lines(&dir.join("env")) {
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("{}: env line {line:?} is not NAME=VALUE", dir.display()));
        cmd.env(name, value);
    }
    cmd.output().expect("run cloudspec")
}

/// `path (text); path (text)` of a resource's `unknowns` or `failures`.
fn joined(list: &Value, text: &str) -> String {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|u| {
            format!(
                "{} ({})",
                u["path"].as_str().unwrap_or_default(),
                u[text].as_str().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The verdicts of a JSON report in the form of `expected.txt` (without the exit line).
fn verdicts(report: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    let rules = report["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["rules"].as_array().into_iter().flatten());
    for rule in rules {
        let name = rule["name"].as_str().unwrap_or_default();
        let resources = rule["resources"].as_array().cloned().unwrap_or_default();
        if resources.is_empty() {
            let status = rule["status"].as_str().unwrap_or_default();
            let mut line = format!("{status}\t{name}\t-");
            if let Some(error) = rule["error"].as_str() {
                line.push_str(&format!("\t{error}"));
            }
            lines.push(line);
            continue;
        }
        for r in resources {
            let status = r["status"].as_str().unwrap_or_default();
            let id = r["id"].as_str().unwrap_or_default();
            let mut line = format!("{status}\t{name}\t{id}");
            let detail = match status {
                "unknown" => joined(&r["unknowns"], "reason"),
                "fail" => joined(&r["failures"], "message"),
                "error" => r["error"].as_str().unwrap_or_default().to_string(),
                _ => String::new(),
            };
            if !detail.is_empty() {
                line.push('\t');
                line.push_str(&detail);
            }
            lines.push(line);
        }
    }
    // By rule, then resource: the status leads each line but does not order them.
    lines.sort_by(|a, b| {
        let key = |l: &str| {
            l.split('\t')
                .skip(1)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        key(a).cmp(&key(b))
    });
    lines
}

/// `type<TAB>id<TAB>region<TAB>file:line` of every resource in the report, sorted.
fn resources(report: &Value) -> Vec<String> {
    let set: BTreeSet<String> = report["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["rules"].as_array().into_iter().flatten())
        .flat_map(|r| r["resources"].as_array().into_iter().flatten())
        .map(|r| {
            let source = &r["source"];
            let mut at = source["file"].as_str().unwrap_or("-").to_string();
            if let Some(line) = source["line"].as_u64() {
                at.push_str(&format!(":{line}"));
            }
            format!(
                "{}\t{}\t{}\t{at}",
                r["type"].as_str().unwrap_or_default(),
                r["id"].as_str().unwrap_or_default(),
                r["region"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    set.into_iter().collect()
}

/// What one run of a case gave: `expected.txt`'s text, stderr and `resources.txt`'s text.
struct Outcome {
    expected: String,
    stderr: String,
    resources: String,
}

fn outcome(dir: &Path, input: &str) -> Result<Outcome, String> {
    let out = run(dir, input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    let mut expected = format!("exit {code}\n");
    let mut resource_lines = Vec::new();
    if code != 2 {
        let report: Value = serde_json::from_str(&stdout).map_err(|e| {
            format!("{input}: report is not JSON ({e}):\n{stdout}\nstderr:\n{stderr}")
        })?;
        for line in verdicts(&report) {
            expected.push_str(&line);
            expected.push('\n');
        }
        resource_lines = resources(&report);
    } else if !stdout.is_empty() {
        return Err(format!("{input}: exit 2 with a report:\n{stdout}"));
    }
    let mut resources = String::new();
    for line in resource_lines {
        resources.push_str(&line);
        resources.push('\n');
    }
    Ok(Outcome {
        expected,
        stderr,
        resources,
    })
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn write_or_remove(path: &Path, text: &str) {
    if text.is_empty() {
        let _ = std::fs::remove_file(path);
    } else {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

fn check(what: &str, file: &str, got: &str, want: &str) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{what}: differs from {file}\n--- expected\n{want}--- got\n{got}"
        ))
    }
}

fn run_case(dir: &Path, update: bool) -> Result<(), String> {
    let inputs: Vec<&Input> = INPUTS
        .iter()
        .filter(|i| dir.join(i.path).exists())
        .collect();
    if inputs.is_empty() {
        return Err("no tf/, tf-json/ or plan.json".to_string());
    }
    let mut errors = Vec::new();
    let mut updated = false;
    for input in inputs {
        let got = outcome(dir, input.path)?;
        let resources_path = dir.join(input.resources_file);
        if update {
            // The first input writes expected.txt; the others are checked against it, so
            // that an update never hides a difference between the syntaxes.
            if !updated {
                std::fs::write(dir.join("expected.txt"), &got.expected).expect("write");
                updated = true;
            }
            write_or_remove(&dir.join(input.stderr_file), &got.stderr);
            if resources_path.exists() {
                std::fs::write(&resources_path, &got.resources).expect("write");
            }
        }
        let what = input.path;
        let checks = [
            check(
                what,
                "expected.txt",
                &got.expected,
                &read(&dir.join("expected.txt")),
            ),
            check(
                what,
                input.stderr_file,
                &got.stderr,
                &read(&dir.join(input.stderr_file)),
            ),
            if resources_path.exists() {
                check(
                    what,
                    input.resources_file,
                    &got.resources,
                    &read(&resources_path),
                )
            } else {
                Ok(())
            },
        ];
        errors.extend(checks.into_iter().filter_map(Result::err));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

#[test]
fn every_case_gives_its_expected_verdicts() {
    let filter = std::env::var("TF_CASES").unwrap_or_default();
    let update = std::env::var_os("UPDATE_TF_CASES").is_some();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_root())
        .expect("tests/terraform")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("spec.cloudspec").is_file())
        .filter(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .contains(&filter)
        })
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no case matches TF_CASES={filter:?}");
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| {
            run_case(d, update)
                .err()
                .map(|e| format!("--- {}\n{e}", d.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}
/// Every contract section has cases (issue #18).
#[test]
fn every_contract_section_has_cases() {
    let names: Vec<String> = std::fs::read_dir(cases_root())
        .expect("tests/terraform")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for section in 1..=12 {
        let prefix = format!("{section:02}-");
        let n = names.iter().filter(|n| n.starts_with(&prefix)).count();
        assert!(n >= 2, "section {section} has {n} cases in tests/terraform");
    }
}
