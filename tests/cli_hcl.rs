//! `cloudspec hcl eval`, run as the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cloudspec");

fn run(args: &[&str], dir: &std::path::Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cloudspec");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write stdin");
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().expect("wait")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

const MAIN_TF: &str = r#"
name    = "app-${var.env}"
count   = var.replicas * 2
big     = 123456789012345678901234567890 + 1
ports   = [for p in [80, 443] : { port = p, tls = p == 443 }]
message = <<-EOT
  Hello, ${upper(var.env)}!
  EOT

resource "aws_s3_bucket" "logs" {
  bucket = "logs-${var.env}"
  tags   = { team = "sre" }
}

locals {
  ids = try(var.missing, ["none"])
}
"#;

#[test]
fn eval_prints_the_attributes_as_json() {
    let dir = dir_with(&[("main.tf", MAIN_TF)]);
    let out = run(
        &[
            "hcl",
            "eval",
            "--vars",
            r#"{"var": {"env": "prod", "replicas": 3}}"#,
            "main.tf",
        ],
        dir.path(),
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    assert_eq!(
        stdout(&out),
        concat!(
            r#"{"big":123456789012345678901234567891,"count":6,"locals":[{"ids":["none"]}],"#,
            r#""message":"Hello, PROD!\n","name":"app-prod","#,
            r#""ports":[{"port":80,"tls":false},{"port":443,"tls":true}],"#,
            r#""resource":{"aws_s3_bucket":{"logs":[{"bucket":"logs-prod","tags":{"team":"sre"}}]}}}"#,
            "\n"
        )
    );
}

#[test]
fn vars_can_come_from_a_file_and_input_from_stdin() {
    let dir = dir_with(&[("vars.json", r#"{"who": "world", "n": 2}"#)]);
    let out = run(
        &["hcl", "eval", "--vars", "vars.json", "-"],
        dir.path(),
        Some("greeting = \"hello ${who}\"\ntwice = [for i in range(n) : i]\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"greeting\":\"hello world\",\"twice\":[0,1]}\n"
    );
}

#[test]
fn every_error_is_printed_one_per_line_and_exits_2() {
    let dir = dir_with(&[(
        "bad.hcl",
        "a = nosuch\nb = 1 / 0\nc = upper([])\nd = \"fine\"\n",
    )]);
    let out = run(&["hcl", "eval", "bad.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "bad.hcl:1:5: error: Unknown variable: There is no variable named \"nosuch\".\n\
         bad.hcl:2:9: error: Division by zero: The divisor is zero. HCL would produce an infinite number here, which cannot be represented.\n\
         bad.hcl:3:11: error: Invalid function argument: Invalid value for \"str\" parameter: string required.\n"
    );
}

#[test]
fn syntax_errors_exit_2() {
    let out = run(
        &["hcl", "eval", "-"],
        std::path::Path::new("."),
        Some("a = [1,\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "<stdin>:1:8: error: Invalid syntax: Expected `]`.\n"
    );
}

#[test]
fn bad_vars_and_missing_files_exit_2() {
    let dir = dir_with(&[("a.hcl", "a = 1\n")]);
    let out = run(&["hcl", "eval", "--vars", "[1]", "a.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --vars: expected a JSON object of variables, found tuple\n"
    );
    let out = run(
        &["hcl", "eval", "--vars", "nofile.json", "a.hcl"],
        dir.path(),
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --vars: nofile.json: cannot read file: No such file or directory (os error 2)\n"
    );
    let out = run(
        &["hcl", "eval", "--vars", "{\"a\": ", "a.hcl"],
        dir.path(),
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: --vars: invalid JSON: "),
        "{}",
        stderr(&out)
    );
    let out = run(&["hcl", "eval", "missing.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: missing.hcl: cannot read file: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_explains_the_output_shape() {
    let out = run(&["hcl", "eval", "--help"], std::path::Path::new("."), None);
    assert_eq!(out.status.code(), Some(0));
    let help = stdout(&out);
    assert!(
        help.contains("Usage: cloudspec hcl eval [OPTIONS] <FILE>"),
        "{help}"
    );
    assert!(help.contains("--vars <JSON|FILE>"), "{help}");
    assert!(
        help.contains("\"resource\": {\"t\": {\"n\": [{\"b\": 2}]}}"),
        "{help}"
    );
}
