//! The reference time of time predicates end to end: `--now`, else the inventory's
//! `collected_at`, else the clock; `"now"` in the JSON report; `now:` in rule tests.

use std::path::Path;
use std::process::{Command, Output};

fn cloudspec(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .args(args)
        .current_dir(dir)
        .env_remove("CLOUDSPEC_LOG")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SPEC: &str = "Spec \"keys\"\nGroup \"IAM\"\nRule \"Keys rotated within 90 days\"\nOn test:iam:key\nAssert create_date newer than 90 days\n";

/// One key created on 2026-08-01; collected on 2026-10-01 (61 days later).
const INVENTORY: &str = r#"{"cloudspec_inventory": 1, "collected_at": "2026-10-01T00:00:00+02:00", "resources": [
  {"type": "test:iam:key", "id": "k1", "properties": {"create_date": "2026-08-01T00:00:00Z"}}
]}"#;

fn dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.cloudspec"), SPEC).unwrap();
    std::fs::write(dir.path().join("inv.json"), INVENTORY).unwrap();
    dir
}

fn report(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
}

#[test]
fn collected_at_is_now_unless_now_is_given() {
    let dir = dir();
    let args = [
        "run",
        "keys.cloudspec",
        "--inventory",
        "inv.json",
        "--format",
        "json",
    ];
    let out = cloudspec(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = report(&out);
    assert_eq!(r["now"], "2026-09-30T22:00:00Z");
    assert_eq!(r["groups"][0]["rules"][0]["status"], "pass");

    let mut later = args.to_vec();
    later.extend(["--now", "2026-11-01T00:00:00Z"]);
    let out = cloudspec(&later, dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = report(&out);
    assert_eq!(r["now"], "2026-11-01T00:00:00Z");
    assert_eq!(r["groups"][0]["rules"][0]["status"], "fail");
}

#[test]
fn a_report_without_time_predicates_has_no_now() {
    let dir = dir();
    std::fs::write(
        dir.path().join("plain.cloudspec"),
        SPEC.replace("create_date newer than 90 days", "create_date is not null"),
    )
    .unwrap();
    let out = cloudspec(
        &[
            "run",
            "plain.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(report(&out).get("now").is_none());
}

const TEST_FILE: &str = "now: \"2026-11-01T00:00:00Z\"\ncases:\n  - name: pinned by the file\n    inventory: inv.json\n    expect:\n      \"IAM/Keys rotated within 90 days\": fail\n  - name: pinned by the case\n    now: \"2026-09-01\"\n    inventory: inv.json\n    expect:\n      \"IAM/Keys rotated within 90 days\": pass\n";

#[test]
fn rule_tests_pin_now() {
    let dir = dir();
    std::fs::write(dir.path().join("keys.test.yaml"), TEST_FILE).unwrap();
    let out = cloudspec(&["test", ".", "--color", "never"], dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );
}

#[test]
fn test_now_applies_to_cases_that_pin_none() {
    let dir = dir();
    let file = "cases:\n  - name: judged at --now\n    inventory: inv.json\n    expect:\n      \"IAM/Keys rotated within 90 days\": fail\n";
    std::fs::write(dir.path().join("keys.test.yaml"), file).unwrap();
    let out = cloudspec(
        &[
            "test",
            ".",
            "--color",
            "never",
            "--now",
            "2027-01-01T00:00:00Z",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = cloudspec(&["test", ".", "--color", "never"], dir.path());
    assert_eq!(
        out.status.code(),
        Some(1),
        "collected_at judges the key recent"
    );
}

#[test]
fn bad_times_are_errors_with_their_position() {
    let dir = dir();
    std::fs::write(
        dir.path().join("keys.test.yaml"),
        TEST_FILE.replace("2026-09-01", "soon"),
    )
    .unwrap();
    let out = cloudspec(&["test", ".", "--color", "never"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: ./keys.test.yaml:8:10: case \"pinned by the case\": `now` is \"soon\", which is not an RFC 3339 timestamp such as \"2026-11-22T07:00:00Z\"\nerror: 1 test file is invalid; no case was run\n"
    );
    let out = cloudspec(&["test", ".", "--now", "never"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --now is \"never\", which is not an RFC 3339 time such as 2026-11-23T07:15:00Z (or a date such as 2026-11-23)\n"
    );
}

#[test]
fn a_bad_file_level_now_is_reported_where_it_is_written() {
    let dir = dir();
    let file = "cases:\n  - name: pinned\n    now: \"2026-11-22T07:00:00Z\"\n    inventory: inv.json\n    expect:\n      \"IAM/Keys rotated within 90 days\": pass\nnow: 2026\n";
    std::fs::write(dir.path().join("keys.test.yaml"), file).unwrap();
    let out = cloudspec(&["test", ".", "--color", "never"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: ./keys.test.yaml:7:6: `now` is \"2026\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn now_may_be_a_date() {
    let dir = dir();
    let out = cloudspec(
        &[
            "run",
            "keys.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "json",
            "--now",
            "2027-01-01",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(report(&out)["now"], "2027-01-01T00:00:00Z");
}
