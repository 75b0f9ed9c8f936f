//! `cloudspec validate` and `cloudspec fmt`, run as the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cloudspec");

const GOOD: &str =
    "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On aws:ec2:instance\n    Assert x == 1\n";
const UNFORMATTED: &str =
    "Spec \"s\" Group \"g\" Rule \"r\" On aws:ec2:instance Assert x == 1 # keep me\n";
const BAD: &str =
    "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On aws:ec2:instance\n    Assert size bigger 50\n";

fn run(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run cloudspec")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

#[test]
fn validate_accepts_a_good_file() {
    let dir = dir_with(&[("good.cloudspec", GOOD)]);
    let out = run(&["validate", "good.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "ok: 1 file\n");
}

#[test]
fn validate_prints_the_rendered_error_and_exits_2() {
    let dir = dir_with(&[("bad.cloudspec", BAD), ("good.cloudspec", GOOD)]);
    let out = run(&["validate", "--color", "never", "."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let expected = "\
error[syntax]: expected a predicate such as \"equal to\" or \"is not null\"
 --> ./bad.cloudspec:6:17
  |
6 |     Assert size bigger 50
  |                 ^^^^^^ found \"bigger\"
  |
  = help: a member is followed by a predicate (\"size equal to 50\", \"is not null\"), or by \"( ... )\" to check the members inside it; docs/language.md lists every predicate

error: 1 of 2 files has errors (1 error)
";
    assert_eq!(stderr(&out), expected);
}

#[test]
fn validate_names_an_unreadable_file() {
    let dir = dir_with(&[]);
    let out = run(&["validate", "missing.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("missing.cloudspec: cannot read: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn fmt_check_reports_files_that_would_change() {
    let dir = dir_with(&[("good.cloudspec", GOOD), ("messy.cloudspec", UNFORMATTED)]);
    let out = run(
        &["fmt", "--check", "good.cloudspec", "messy.cloudspec"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "messy.cloudspec\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("messy.cloudspec")).expect("read"),
        UNFORMATTED
    );
    let out = run(&["fmt", "--check", "good.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
}

#[test]
fn fmt_rewrites_in_place_and_leaves_broken_files_alone() {
    let dir = dir_with(&[("messy.cloudspec", UNFORMATTED), ("bad.cloudspec", BAD)]);
    let out = run(&["fmt", "messy.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.path().join("messy.cloudspec")).expect("read");
    assert_eq!(
        text,
        GOOD.replace("Assert x == 1\n", "Assert x == 1 # keep me\n")
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(leftovers.len(), 2, "no temporary file left behind");

    let out = run(&["fmt", "bad.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error[syntax]"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.cloudspec")).expect("read"),
        BAD
    );
}

#[test]
fn fmt_reads_stdin_and_writes_stdout() {
    let mut child = Command::new(BIN)
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(UNFORMATTED.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        GOOD.replace("Assert x == 1\n", "Assert x == 1 # keep me\n")
    );
}

#[test]
fn validate_prints_a_bounded_excerpt_of_a_huge_one_line_spec() {
    // Regression: every message repeated the whole 160 KB line (750 MB of output; the
    // issue's 159 KB case aborted).
    let line = (0..3000)
        .map(|i| format!("Rule \"r{i}\" On aws:ec2:instance Assert nosuch{i} == 1"))
        .collect::<Vec<_>>()
        .join(" ");
    let dir = dir_with(&[("one.cloudspec", &format!("Spec \"x\" Group \"g\" {line}\n"))]);
    let out = run(
        &["validate", "--provider", "aws", "one.cloudspec"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.len() < 200_000, "{} bytes", err.len());
    assert_eq!(err.matches("error[unknown-member]").count(), 100);
    assert!(err.contains("\n1 | …g\" Rule \"r0\" On aws:ec2:instance Assert nosuch0 == 1 Rule \"r1\" On aws:ec2:instance Assert nosuch1 == 1 Rule \"r2\" On aws:…\n  |                                          ^^^^^^^ no such member\n"), "{err}");
    assert!(err.ends_with("... and 2900 more diagnostics in one.cloudspec not shown (at most 100 per file)\n\nerror: 1 of 1 file has errors (3000 errors)\n"), "{err}");
}

#[test]
fn validate_reports_an_invalid_pattern_and_fmt_normalizes_the_new_forms() {
    let bad = "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On aws:s3:bucket\n    Assert name matching \"(\"\n";
    let messy = "Spec \"s\" Group \"g\" Rule \"r\" On aws:iam:user Assert AT MOST 1 access_keys ( created Older Than 1 DAYS )\n";
    let dir = dir_with(&[("bad.cloudspec", bad), ("messy.cloudspec", messy)]);
    let out = run(
        &["validate", "--color", "never", "bad.cloudspec"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "error[invalid-pattern]: \"(\" is not a valid regular expression\n --> bad.cloudspec:6:26\n"
        ),
        "{}",
        stderr(&out)
    );
    let out = run(&["fmt", "messy.cloudspec"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("messy.cloudspec")).expect("read"),
        "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On aws:iam:user\n    Assert at most 1 access_keys ( created older than 1 day )\n"
    );
}

#[test]
fn validate_points_at_a_dangling_or() {
    let text =
        "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On t:x:res\n    Assert a == 1\n    Or\n";
    let dir = dir_with(&[("or.cloudspec", text)]);
    let out = run(&["validate", "--color", "never", "."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let expected = "\
error[syntax]: expected a member name or \">\"
 --> ./or.cloudspec:7:7
  |
7 |     Or
  |       ^ found the end of the file
  |
  = help: \"or\" joins two statements and needs one after it: a == 1 or b == 2; remove it if no other alternative is meant

error: 1 of 1 file has errors (1 error)
";
    assert_eq!(stderr(&out), expected);
}
