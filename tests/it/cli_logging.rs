//! Every subcommand's messages go through the same logging: `--log-format json` gives one
//! JSON object per line on stderr whatever the subcommand, and the text format prints the
//! words it always did. Also the `--now` and `--provider` errors, with their exact text.

use std::path::Path;
use std::process::{Command, Output};

fn cloudspec(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .args(args)
        .current_dir(dir)
        .env_remove("CLOUDSPEC_LOG")
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GOOD: &str =
    "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:volume\nAssert encrypted is true\n";

fn dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.cloudspec"), GOOD).unwrap();
    std::fs::write(
        dir.path().join("bad.cloudspec"),
        GOOD.replace("encrypted", "encrypted_x"),
    )
    .unwrap();
    dir
}

/// Each line of stderr is a JSON object with a level and a message.
fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect()
}

#[test]
fn every_subcommand_logs_json_lines_when_asked() {
    let dir = dir();
    let cases: &[&[&str]] = &[
        &["validate", "good.cloudspec"],
        &["validate", "--provider", "aws", "bad.cloudspec"],
        &["validate", "missing.cloudspec"],
        &["fmt", "good.cloudspec"],
        &["docs", "good.cloudspec", "--output", "site"],
        &["permissions", "bad.cloudspec"],
        &["schema", "aws:ec2:volum"],
        &["test", "nothing-here"],
        &["run", "good.cloudspec", "--inventory", "missing.json"],
        &["hcl", "eval", "missing.hcl"],
        &["diff", "missing-old.json", "missing-new.json"],
    ];
    for args in cases {
        let mut all = vec!["--log-format", "json"];
        all.extend_from_slice(args);
        let out = cloudspec(&all, dir.path());
        let err = stderr(&out);
        assert!(!err.is_empty(), "{args:?} printed nothing on stderr");
        for line in json_lines(&err) {
            assert!(line["level"].is_string(), "{args:?}: {line}");
            assert!(line["message"].is_string(), "{args:?}: {line}");
        }
    }
}

#[test]
fn text_logs_keep_their_words() {
    let dir = dir();
    let out = cloudspec(&["validate", "good.cloudspec"], dir.path());
    assert_eq!(stderr(&out), "ok: 1 file\n");
    let out = cloudspec(&["schema", "aws:ec2:volum"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: unknown resource type \"aws:ec2:volum\"\nhelp: did you mean \"aws:ec2:volume\"?\n"
    );
}

#[test]
fn validate_knows_the_registry_s_providers() {
    let dir = dir();
    for name in ["gcp", "inventory"] {
        let out = cloudspec(
            &["validate", "--provider", name, "good.cloudspec"],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!("error: --provider {name}: no resource schemas are known for this provider (this build knows aws)\n")
        );
    }
}

#[test]
fn a_log_filter_of_directives_keeps_cloudspec_s_messages() {
    let dir = dir();
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .args(["validate", "--provider", "aws", "bad.cloudspec"])
        .current_dir(dir.path())
        .env("CLOUDSPEC_LOG", "aws_smithy_runtime=debug")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with("error: 1 of 1 file has errors (1 error)\n"),
        "{}",
        stderr(&out)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .args(["validate", "good.cloudspec"])
        .current_dir(dir.path())
        .env("CLOUDSPEC_LOG", "warn")
        .output()
        .unwrap();
    assert_eq!(stderr(&out), "ok: 1 file\n");
}

#[test]
fn now_must_be_an_rfc3339_time() {
    let dir = dir();
    let out = cloudspec(
        &[
            "run",
            "good.cloudspec",
            "--inventory",
            "x.json",
            "--now",
            "tomorrow",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --now is \"tomorrow\", which is not an RFC 3339 time such as 2026-11-23T07:15:00Z (or a date such as 2026-11-23)\n"
    );
}
