//! `cloudspec run --waivers`: matching (rule glob, id glob, tags), the `waived` status in
//! every report format, expiry, unused waivers, and malformed waiver files (each a file in
//! `tests/fixtures/audit/malformed/` with the exact error it gives in `NAME.stderr`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const NOW: &str = "2026-11-23T07:15:00Z";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// Runs `cloudspec run spec.cloudspec --inventory inventory.json ARGS` in the fixture
/// folder at `now`; returns exit status, stdout and stderr.
fn run_at(now: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(fixtures())
        .args(["run", "spec.cloudspec", "--inventory", "inventory.json"])
        .args(args)
        .args(["--now", now])
        .env("NO_COLOR", "1")
        .env_remove("CLOUDSPEC_LOG")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON report of a run with `waivers` at `now`, and its exit status and stderr.
fn json_report(now: &str, waivers: &str) -> (i32, Value, String) {
    let (status, stdout, stderr) = run_at(now, &["--waivers", waivers, "--format", "json"]);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (status, report, stderr)
}

/// `rule name -> (rule status, id -> resource)`.
fn resource<'a>(report: &'a Value, rule: &str, id: &str) -> &'a Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap())
        .filter(|r| r["name"] == rule)
        .flat_map(|r| r["resources"].as_array().unwrap())
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {rule}"))
}

fn rule_status<'a>(report: &'a Value, rule: &str) -> &'a Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap())
        .find(|r| r["name"] == rule)
        .map(|r| &r["status"])
        .unwrap_or_else(|| panic!("no rule {rule}"))
}

const IMDS: &str = "Instances require IMDSv2";
const VERSIONING: &str = "Buckets must have versioning enabled";

#[test]
fn waivers_match_by_id_glob_and_by_tags() {
    let (status, report, _) = json_report(NOW, "waivers.yaml");
    assert_eq!(status, 1, "i-002 and scratch-2 still fail");
    let i3 = resource(&report, IMDS, "i-003");
    assert_eq!(i3["status"], "waived");
    assert_eq!(
        i3["waiver"],
        serde_json::json!({
            "rule": "Instances/*",
            "resource": "i-003",
            "reason": "vendor appliance without IMDSv2 support",
            "owner": "platform@example.com",
            "expires": "2027-03-31",
            "line": 2
        })
    );
    assert_eq!(
        i3["notes"][0],
        "accepted by a waiver until 2027-03-31 (owner platform@example.com): vendor appliance without IMDSv2 support"
    );
    assert_eq!(i3["failures"].as_array().unwrap().len(), 1, "never hidden");
    let s1 = resource(&report, VERSIONING, "scratch-1");
    assert_eq!(s1["status"], "waived");
    assert_eq!(s1["waiver"]["tags"], serde_json::json!({"team": "data"}));
    assert_eq!(resource(&report, VERSIONING, "scratch-2")["status"], "fail");
    assert_eq!(resource(&report, IMDS, "i-002")["status"], "fail");
    assert_eq!(report["waivers"]["applied"], 2);
}

#[test]
fn expired_and_unused_waivers_are_listed_and_warned_about() {
    let (_, report, stderr) = json_report(NOW, "waivers.yaml");
    let expired = report["waivers"]["expired"].as_array().unwrap();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0]["resource"], "i-002");
    assert_eq!(expired[0]["line"], 12);
    let unused = report["waivers"]["unused"].as_array().unwrap();
    assert_eq!(unused.len(), 1);
    assert_eq!(unused[0]["resource"], "logs-*");
    assert_eq!(
        stderr,
        "warning: waivers.yaml:12: the waiver of \"Instances/Instances require IMDSv2\" for i-002 (owner platform@example.com) expired at 2026-01-31; the failure it matches counts again\n\
         warning: waivers.yaml:17: the waiver of \"Buckets/*\" for logs-* (owner ops@example.com) matched no failure in this run; remove it if the failure was fixed\n"
    );
}

#[test]
fn a_date_holds_until_the_end_of_that_day_utc() {
    let (_, report, _) = json_report("2027-03-31T23:59:59Z", "waivers.yaml");
    assert_eq!(resource(&report, IMDS, "i-003")["status"], "waived");
    let (_, report, stderr) = json_report("2027-04-01T00:00:00Z", "waivers.yaml");
    assert_eq!(resource(&report, IMDS, "i-003")["status"], "fail");
    assert!(stderr.contains("expired at 2027-03-31"), "{stderr}");
}

#[test]
fn an_rfc3339_expiry_is_exact() {
    let (_, report, _) = json_report("2027-01-15T11:59:59Z", "waivers.yaml");
    assert_eq!(
        resource(&report, VERSIONING, "scratch-1")["status"],
        "waived"
    );
    let (_, report, _) = json_report("2027-01-15T12:00:00Z", "waivers.yaml");
    assert_eq!(resource(&report, VERSIONING, "scratch-1")["status"], "fail");
}

/// Every failure of the run waived: rules `waived`, exit status 0.
fn waive_everything(dir: &Path) -> String {
    let path = dir.join("all.yaml");
    std::fs::write(
        &path,
        "waivers:\n  - rule: \"*\"\n    resource: \"*\"\n    reason: \"accepted risk\"\n    owner: \"ciso@example.com\"\n    expires: 2027-06-30\n",
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn a_rule_whose_only_failures_are_waived_is_waived_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let waivers = waive_everything(dir.path());
    let (status, report, stderr) = json_report(NOW, &waivers);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(rule_status(&report, IMDS), "waived");
    assert_eq!(rule_status(&report, VERSIONING), "waived");
    assert_eq!(report["summary"]["waived"], 2);
    assert_eq!(report["summary"]["fail"], 0);
    assert_eq!(resource(&report, IMDS, "i-001")["status"], "pass");
}

#[test]
fn waived_resources_show_in_junit_sarif_and_console() {
    let dir = tempfile::tempdir().unwrap();
    let waivers = waive_everything(dir.path());
    let note = "accepted by a waiver until 2027-06-30 (owner ciso@example.com): accepted risk";
    let (_, junit, _) = run_at(NOW, &["--waivers", &waivers, "--format", "junit"]);
    assert!(
        junit.contains(&format!("<skipped message=\"waived: {note}\"")),
        "{junit}"
    );
    let (_, sarif, _) = run_at(NOW, &["--waivers", &waivers, "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        4,
        "one suppressed result per waived resource"
    );
    for result in results {
        assert_eq!(
            result["suppressions"],
            serde_json::json!([{"kind": "external", "justification": note}])
        );
    }
    let (_, console, _) = run_at(NOW, &["--waivers", &waivers, "--format", "console"]);
    assert!(
        console.contains("  waived aws:ec2:instance i-002\n"),
        "{console}"
    );
    assert!(
        console.contains(&format!("    note: {note}\n")),
        "{console}"
    );
    assert!(
        console.contains("Waivers "),
        "the console names the waiver file: {console}"
    );
}

#[test]
fn malformed_waiver_files_are_errors_with_line_and_column() {
    let dir = fixtures().join("malformed");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10);
    let mut failures = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let expected = std::fs::read_to_string(case.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{name}: no .stderr file: {e}"));
        let (status, stdout, stderr) = run_at(
            NOW,
            &[
                "--waivers",
                &format!("malformed/{name}"),
                "--format",
                "json",
            ],
        );
        if status != 2 || stderr != expected || !stdout.is_empty() {
            failures.push(format!(
                "{name}: exit {status}\n  expected: {expected}  actual:   {stderr}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_unreadable_waiver_file_is_an_error() {
    let (status, _, stderr) = run_at(NOW, &["--waivers", "missing.yaml"]);
    assert_eq!(status, 2);
    assert!(
        stderr.starts_with("error: missing.yaml: cannot read: "),
        "{stderr}"
    );
}

#[test]
fn a_bad_now_is_an_error() {
    let (status, _, stderr) = run_at("yesterday", &["--waivers", "waivers.yaml"]);
    assert_eq!(status, 2);
    assert!(
        stderr.starts_with(
            "error: --now is \"yesterday\", which is not an RFC 3339 time such as 2026-11-23T07:15:00Z (or a date such as 2026-11-23)"
        ),
        "{stderr}"
    );
}
