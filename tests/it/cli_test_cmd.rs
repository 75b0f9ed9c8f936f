//! `cloudspec test` through the real binary, on the fixtures under `tests/fixtures/testing/`:
//! `pass/` (every case passes), `fail/` (a case fails, a rule is untested) and `invalid/`
//! (test files and specs that must be rejected with exit status 2).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/testing")
}

/// Runs `cloudspec test ARGS...` inside `tests/fixtures/testing`, without colour.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(fixtures())
        .arg("test")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run cloudspec")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

#[test]
fn passing_cases_print_one_line_each_and_exit_zero() {
    let out = run(&["pass"]);
    assert_eq!(
        text(&out.stdout),
        "PASS pass/buckets.test.yaml: one good and one bad bucket\n\
         PASS pass/buckets.test.yaml: inline good bucket\n\
         PASS pass/buckets.test.yaml: no bucket at all\n\
         3 passed, 0 failed\n"
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(code(&out), 0);
}

#[test]
fn a_failing_case_lists_what_differed_and_exits_one() {
    let out = run(&["fail"]);
    assert_eq!(
        text(&out.stdout),
        "PASS fail/buckets.test.yaml: versioning verdicts as expected\n\
         FAIL fail/buckets.test.yaml: wrong expectations\n\
         \x20   S3/Versioning is enabled: expected pass, got fail\n\
         \x20     fail bad: versioning.status: status is \"Suspended\", expected == \"Enabled\"\n\
         \x20   S3/Versioning is enabled: resource bad: expected pass, got fail\n\
         \x20     versioning.status: status is \"Suspended\", expected == \"Enabled\"\n\
         \x20   S3/Versioning is enabled: resource ghost: expected fail, but it is not in scope\n\
         1 rule untested (no case expects a failure)\n\
         1 passed, 1 failed\n"
    );
    assert_eq!(
        text(&out.stderr),
        "warning: fail/buckets.cloudspec: rule \"S3/Access logging is enabled\" is untested: no case expects it to fail\n"
    );
    assert_eq!(code(&out), 1);
}

#[test]
fn the_summary_is_the_last_line() {
    for dir in ["pass", "fail"] {
        let stdout = text(&run(&[dir]).stdout);
        let last = stdout.lines().last().unwrap_or_default();
        let (passed, failed) = last.split_once(" passed, ").unwrap_or_default();
        assert!(passed.parse::<usize>().is_ok(), "{last}");
        assert!(
            failed
                .strip_suffix(" failed")
                .is_some_and(|n| n.parse::<usize>().is_ok()),
            "{last}"
        );
    }
}

#[test]
fn a_spec_file_argument_runs_the_test_file_beside_it() {
    let out = run(&["pass/buckets.cloudspec"]);
    assert!(text(&out.stdout).ends_with("3 passed, 0 failed\n"));
    assert_eq!(code(&out), 0);
}

#[test]
fn an_unknown_verdict_is_an_error_with_its_position() {
    let out = run(&["invalid/verdict.test.yaml"]);
    assert_eq!(
        text(&out.stderr),
        "error: invalid/verdict.test.yaml:6:7: \"S3/Versioning is enabled\": unknown verdict \"fial\" (expected pass, fail, skip, unknown or error)\n\
         error: 1 test file is invalid; no case was run\n"
    );
    assert_eq!(text(&out.stdout), "");
    assert_eq!(code(&out), 2);
}

#[test]
fn an_unknown_rule_name_suggests_the_closest() {
    let out = run(&["invalid/rule-name.test.yaml"]);
    assert_eq!(
        text(&out.stderr),
        "error: invalid/rule-name.test.yaml:6:7: case \"a typo in a rule name\": the spec has no rule \"S3/Versioning is enabeld\"; did you mean \"S3/Versioning is enabled\"?\n\
         error: 1 test file is invalid; no case was run\n"
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn specs_are_checked_against_the_aws_schema() {
    let out = run(&["invalid/schema.test.yaml"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error[unknown-member]: unknown member \"versionning\" of aws:s3:bucket"),
        "{stderr}"
    );
    assert!(stderr.contains("invalid/schema.cloudspec:6:12"), "{stderr}");
    assert!(stderr.contains("did you mean \"versioning\"?"), "{stderr}");
    assert_eq!(code(&out), 2);
}

#[test]
fn a_yaml_error_names_the_line() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("x.test.yaml");
    std::fs::write(&file, "cases:\n  - name: a\n    inventry: {}\n").expect("write");
    let out = run(&[file.to_str().unwrap_or_default()]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("x.test.yaml:3:5: cases[0]: unknown field `inventry`"),
        "{stderr}"
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn a_missing_inventory_file_is_an_error() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::copy(
        fixtures().join("pass/buckets.cloudspec"),
        dir.path().join("b.cloudspec"),
    )
    .expect("copy spec");
    let file = dir.path().join("b.test.yaml");
    std::fs::write(
        &file,
        "cases:\n  - name: a\n    inventory: nowhere.json\n    expect:\n      \"S3/Versioning is enabled\": pass\n",
    )
    .expect("write");
    let out = run(&[file.to_str().unwrap_or_default()]);
    assert!(
        text(&out.stderr).contains("nowhere.json"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn formats_other_than_junit_are_rejected() {
    let out = run(&["pass", "--format", "json"]);
    assert_eq!(
        text(&out.stderr),
        "error: --format json: `cloudspec test` writes only junit (junit or junit=FILE)\n"
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn junit_to_a_file_validates_and_keeps_the_lines_on_stdout() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let xml_path = dir.path().join("results.xml");
    let arg = format!("junit={}", xml_path.display());
    let out = run(&["fail", "--format", &arg]);
    assert_eq!(code(&out), 1);
    assert!(text(&out.stdout).ends_with("1 passed, 1 failed\n"));
    let xml = std::fs::read_to_string(&xml_path).expect("JUnit file written");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains("<testsuites name=\"cloudspec test\" tests=\"2\" failures=\"1\" errors=\"0\""),
        "{xml}"
    );
    assert!(
        xml.contains("<testsuite name=\"fail/buckets.test.yaml\" tests=\"2\""),
        "{xml}"
    );
    assert!(xml.contains("<testcase name=\"versioning verdicts as expected\" classname=\"fail/buckets.cloudspec\">"), "{xml}");
    assert!(
        xml.contains(
            "<failure message=\"3 verdict(s) differ from the expected ones\" type=\"mismatch\">"
        ),
        "{xml}"
    );
    assert!(
        xml.contains(
            "S3/Versioning is enabled: resource ghost: expected fail, but it is not in scope"
        ),
        "{xml}"
    );
    validate_junit(&xml_path);
}

#[test]
fn junit_on_stdout_moves_the_lines_to_stderr() {
    let out = run(&["pass", "--format", "junit"]);
    assert_eq!(code(&out), 0);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("<?xml"), "{stdout}");
    assert!(stdout.contains("tests=\"3\" failures=\"0\""), "{stdout}");
    assert!(text(&out.stderr).ends_with("3 passed, 0 failed\n"));
}

/// Validates a JUnit file against the schema the report tests use, when xmllint exists
/// (CI installs it).
fn validate_junit(path: &Path) {
    let Ok(output) = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/junit.xsd"))
        .arg(path)
        .output()
    else {
        let on_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(!on_ci, "xmllint is required on CI");
        eprintln!("notice: xmllint not installed; JUnit schema validation skipped");
        return;
    };
    assert!(output.status.success(), "{}", text(&output.stderr));
}
