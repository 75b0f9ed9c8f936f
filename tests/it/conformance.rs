//! The language contract as data: every folder under `tests/cases/` and
//! `../shared/conformance/cases/` holds `spec.cloudspec`, `inventory.json` and
//! `expected.json`. Each is run through the real binary, inside its folder, as
//! `cloudspec run spec.cloudspec --inventory inventory.json --format json [args...]`.
//!
//! `expected.json`:
//! ```json
//! {"exit": 1,
//!  "args": ["--fail-on-unknown"],                      // optional extra arguments
//!  "stderr": ["text that must appear on stderr"],      // optional
//!  "rules": {"<group>/<rule>": {
//!     "status": "fail",
//!     "error": "substring of the rule's error",        // optional
//!     "resources": {
//!        "<id>": "pass",                               // status only, or:
//!        "<id2>": {"status": "fail",
//!                  "paths": ["devices[0] > volume.size"],   // failure paths, in order
//!                  "messages": ["size is 30, expected >= 50"],
//!                  "unknowns": ["path"], "notes": 1, "error": "substring"}}}}}
//! ```
//! A listed rule must list exactly the resources in scope. When `exit` is 2 the report is
//! not read (the spec or inventory is invalid), and `rules` may be omitted.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn run_case(dir: &Path) -> Result<(), String> {
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| format!("expected.json: {e}"))?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cloudspec"));
    cmd.current_dir(dir)
        .args([
            "run",
            "spec.cloudspec",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
        ])
        .env("NO_COLOR", "1");
    if let Some(args) = expected["args"].as_array() {
        cmd.args(args.iter().filter_map(|a| a.as_str()));
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().unwrap_or(-1);
    let want_exit = expected["exit"].as_i64().unwrap_or(-1);
    if i64::from(code) != want_exit {
        return Err(format!(
            "exit {code}, expected {want_exit}\nstderr:\n{stderr}\nstdout:\n{stdout}"
        ));
    }
    for needle in expected["stderr"].as_array().into_iter().flatten() {
        let needle = needle.as_str().unwrap_or_default();
        if !stderr.contains(needle) {
            return Err(format!("stderr lacks {needle:?}:\n{stderr}"));
        }
    }
    if want_exit == 2 {
        return Ok(());
    }
    let report: Value =
        serde_json::from_str(&stdout).map_err(|e| format!("report is not JSON: {e}\n{stdout}"))?;
    let Some(rules) = expected["rules"].as_object() else {
        return Ok(());
    };
    for (key, want) in rules {
        let rule =
            find_rule(&report, key).ok_or_else(|| format!("rule {key:?} not in the report"))?;
        check_rule(key, rule, want)?;
    }
    Ok(())
}

fn find_rule<'a>(report: &'a Value, key: &str) -> Option<&'a Value> {
    let (group, rule) = key.split_once('/')?;
    report["groups"]
        .as_array()?
        .iter()
        .filter(|g| g["name"] == group)
        .flat_map(|g| g["rules"].as_array().into_iter().flatten())
        .find(|r| r["name"] == rule)
}

fn check_rule(key: &str, rule: &Value, want: &Value) -> Result<(), String> {
    if rule["status"] != want["status"] {
        return Err(format!(
            "{key}: status {}, expected {}\n{rule:#}",
            rule["status"], want["status"]
        ));
    }
    if let Some(err) = want["error"].as_str() {
        let got = rule["error"].as_str().unwrap_or_default();
        if !got.contains(err) {
            return Err(format!("{key}: error {got:?} lacks {err:?}"));
        }
    }
    let Some(want_resources) = want["resources"].as_object() else {
        return Ok(());
    };
    let got: Vec<&Value> = rule["resources"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut got_ids: Vec<&str> = got.iter().filter_map(|r| r["id"].as_str()).collect();
    got_ids.sort_unstable();
    let mut want_ids: Vec<&str> = want_resources.keys().map(|k| k.as_str()).collect();
    want_ids.sort_unstable();
    if got_ids != want_ids {
        return Err(format!(
            "{key}: resources in scope {got_ids:?}, expected {want_ids:?}\n{rule:#}"
        ));
    }
    for r in got {
        let id = r["id"].as_str().unwrap_or_default();
        let w = &want_resources[id];
        let status = w
            .as_str()
            .or_else(|| w["status"].as_str())
            .unwrap_or_default();
        if r["status"] != status {
            return Err(format!(
                "{key}: {id} is {}, expected {status}\n{r:#}",
                r["status"]
            ));
        }
        check_list(key, id, r, w, "paths", "failures", "path")?;
        check_list(key, id, r, w, "messages", "failures", "message")?;
        check_list(key, id, r, w, "unknowns", "unknowns", "path")?;
        if let Some(n) = w["notes"].as_u64() {
            let got = r["notes"].as_array().map(|a| a.len()).unwrap_or(0) as u64;
            if got != n {
                return Err(format!("{key}: {id} has {got} notes, expected {n}\n{r:#}"));
            }
        }
        if let Some(err) = w["error"].as_str() {
            let got = r["error"].as_str().unwrap_or_default();
            if !got.contains(err) {
                return Err(format!("{key}: {id} error {got:?} lacks {err:?}"));
            }
        }
    }
    Ok(())
}

fn check_list(
    key: &str,
    id: &str,
    r: &Value,
    w: &Value,
    want_field: &str,
    field: &str,
    sub: &str,
) -> Result<(), String> {
    let Some(want) = w[want_field].as_array() else {
        return Ok(());
    };
    let got: Vec<&Value> = r[field]
        .as_array()
        .map(|a| a.iter().map(|f| &f[sub]).collect())
        .unwrap_or_default();
    let want: Vec<&Value> = want.iter().collect();
    if got != want {
        return Err(format!(
            "{key}: {id} {want_field} {got:?}, expected {want:?}\n{r:#}"
        ));
    }
    Ok(())
}

fn run_all(root: &Path) {
    let dirs = case_dirs(root);
    assert!(!dirs.is_empty(), "no cases in {}", root.display());
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| {
            run_case(d)
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

#[test]
fn project_cases() {
    run_all(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases"));
}

/// The shared conformance samples: `../shared` sits beside the checkout in CI.
#[test]
fn shared_conformance_cases() {
    run_all(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/cases"));
}
