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

#[test]
fn evaluation_errors_have_hcl_positions_and_texts() {
    let dir = dir_with(&[(
        "mix.hcl",
        "a = \"e\\u0301\"\nb = [1, 2][2]\nc = true ? [1] : {a = 1}\nd = upper([\"x\"])\ne = anytrue([\"x\"])\n",
    )]);
    let out = run(&["hcl", "eval", "mix.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "mix.hcl:2:11: error: Invalid index: The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.\n\
         mix.hcl:3:12: error: Inconsistent conditional result types: The true and false result expressions must have consistent types. The 'true' value is tuple, but the 'false' value is object.\n\
         mix.hcl:4:11: error: Invalid function argument: Invalid value for \"str\" parameter: string required.\n\
         mix.hcl:5:13: error: Invalid function argument: Invalid value for \"list\" parameter: a bool is required.\n"
    );
}

#[test]
fn limits_are_errors_with_positions() {
    let deep = format!("a = {}1{}\n", "[".repeat(70), "]".repeat(70));
    let dir = dir_with(&[("deep.hcl", deep.as_str()), ("dup.hcl", "a = 1\na = 2\n")]);
    let out = run(&["hcl", "eval", "deep.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "deep.hcl:1:70: error: Nesting too deep: Expressions, templates and blocks may be nested at most 64 levels deep.\n"
    );
    let out = run(&["hcl", "eval", "dup.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "dup.hcl:2:1: error: Attribute redefined: The argument \"a\" was already set at dup.hcl:1,1-2. Each argument may be set only once.\n"
    );
}

#[test]
fn invalid_vars_json_is_reported_with_its_position() {
    let dir = dir_with(&[("a.hcl", "a = 1\n"), ("bad.json", "{\"a\": }\n")]);
    let out = run(
        &["hcl", "eval", "--vars", "{\"a\": ", "a.hcl"],
        dir.path(),
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --vars: invalid JSON: 1:7: Missing value; The JSON data ends prematurely.\n"
    );
    let out = run(
        &["hcl", "eval", "--vars", "bad.json", "a.hcl"],
        dir.path(),
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --vars: invalid JSON: 1:7: Missing JSON value; A JSON value must start with a brace, a bracket, a number, a string, or a keyword.\n"
    );
}

const DYNAMIC_HCL: &str = r#"network {
  mode = "host"
  dynamic "port" {
    for_each = ports
    iterator = p
    labels   = [p.value.label]
    content {
      to  = p.value.port
      idx = p.key
    }
  }
  port "static" { to = 1 }
}
disk {
  dynamic "volume" {
    for_each = { a = 10, b = 20 }
    content {
      size = volume.value
      name = volume.key
    }
  }
}
"#;

#[test]
fn dynamic_blocks_are_expanded() {
    let dir = dir_with(&[("net.hcl", DYNAMIC_HCL)]);
    let vars = r#"{"ports": [{"label": "api", "port": 80}, {"label": "ui", "port": 8080}]}"#;
    let out = run(
        &["hcl", "eval", "--vars", vars, "net.hcl"],
        dir.path(),
        None,
    );
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"{"disk":[{"volume":[{"name":"a","size":10},{"name":"b","size":20}]}],"#,
            r#""network":[{"mode":"host","port":{"api":[{"idx":0,"to":80}],"static":[{"to":1}],"ui":[{"idx":1,"to":8080}]}}]}"#,
            "\n"
        )
    );
}

#[test]
fn dynamic_block_errors_have_positions() {
    let text = "dynamic \"x\" {\n  for_each = null\n  content {}\n}\ndynamic \"y\" {\n  for_each = 3\n  content {}\n}\ndynamic \"z\" {\n  for_each = [1]\n}\n";
    let dir = dir_with(&[("d.hcl", text)]);
    let out = run(&["hcl", "eval", "d.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        concat!(
            "d.hcl:2:14: error: Invalid dynamic for_each value: Cannot use a null value in for_each.\n",
            "d.hcl:6:14: error: Invalid dynamic for_each value: Cannot use a number value in for_each. An iterable collection is required.\n",
            "d.hcl:9:1: error: Missing dynamic content block: A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.\n",
        )
    );
}
