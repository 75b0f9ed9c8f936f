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
        "error: --vars: nofile.json: cannot read: No such file or directory (os error 2)\n"
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
        stderr(&out).starts_with("error: missing.hcl: cannot read: "),
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

/// The value of the environment variable the secret-leak tests give the binary.
const SECRET: &str = "s3cr3t-AKIAIOSFODNN7EXAMPLE-wJalrXUtnFEMI";

/// `/proc/self/environ` (the environment, NUL-separated) as the file or the `--vars` file:
/// refused as not text, at the first NUL, without a byte of it shown.
#[cfg(target_os = "linux")]
#[test]
fn the_environment_never_reaches_the_output() {
    let dir = dir_with(&[("in.hcl", "a = 1\n")]);
    let column = "CLOUDSPEC_TEST_SECRET=".len() + SECRET.len() + 1;
    for (args, expected) in [
        (
            &["hcl", "eval", "/proc/self/environ"][..],
            format!("error: /proc/self/environ:1:{column}: not a text file (a NUL byte); an HCL file must be UTF-8 text\n"),
        ),
        (
            &["hcl", "eval", "--vars", "/proc/self/environ", "in.hcl"],
            format!("error: --vars: /proc/self/environ:1:{column}: not a text file (a NUL byte); a variables file must be UTF-8 text\n"),
        ),
    ] {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(dir.path())
            .env_clear()
            .env("CLOUDSPEC_TEST_SECRET", SECRET)
            .stdin(Stdio::null())
            .output()
            .expect("run cloudspec");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&out), "");
        assert_eq!(stderr(&out), expected);
        assert!(!stderr(&out).contains("s3cr3t"));
    }
}

/// Endless or binary inputs are refused within the limit, with positions.
#[cfg(target_os = "linux")]
#[test]
fn inputs_are_bounded_text() {
    let dir = dir_with(&[]);
    let out = run(&["hcl", "eval", "/dev/zero"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: /dev/zero: larger than the 16 MiB limit for an HCL file\n"
    );
    std::fs::write(dir.path().join("bad.hcl"), b"a = 1\nb = \"\xff\"\n").expect("write");
    let out = run(&["hcl", "eval", "bad.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: bad.hcl:2:6: invalid UTF-8; an HCL file must be UTF-8 text\n"
    );
    // A byte-order mark is skipped, as HCL skips it.
    std::fs::write(dir.path().join("bom.hcl"), b"\xEF\xBB\xBFa = 1\n").expect("write");
    let out = run(&["hcl", "eval", "bom.hcl"], dir.path(), None);
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(0), "{\"a\":1}\n".into())
    );
}

/// A result that cannot be written is an error with exit status 2, never a panic.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_results_exit_2() {
    let dir = dir_with(&[("in.hcl", "a = 1\n")]);
    let out = Command::new(BIN)
        .args(["hcl", "eval", "in.hcl"])
        .current_dir(dir.path())
        .stdout(std::fs::File::create("/dev/full").expect("open /dev/full"))
        .output()
        .expect("run cloudspec");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: cannot write the result to standard output: No space left on device (os error 28)\n"
    );
    // A pipe whose reader has gone (before the child has read its file, let alone written).
    let mut child = Command::new(BIN)
        .args(["hcl", "eval", "in.hcl"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cloudspec");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: cannot write the result to standard output: Broken pipe (os error 32)\n"
    );
}

/// A number literal beyond the exponents cloudspec represents is an error at the
/// literal, never another value (it was silently 0).
#[test]
fn huge_exponents_are_errors_not_zero() {
    let dir = dir_with(&[("n.hcl", "ok = 1e10000000\nbad = [1, 1e10000001]\n")]);
    let out = run(&["hcl", "eval", "n.hcl"], dir.path(), None);
    assert_eq!((out.status.code(), stdout(&out)), (Some(2), String::new()));
    assert_eq!(
        stderr(&out),
        "n.hcl:2:11: error: Invalid number literal: This number's exponent is beyond the range cloudspec supports: decimal exponents may be at most 10000000 in magnitude.\n"
    );
}

/// A quoted string left open is reported where it breaks, as HCL reports it.
#[test]
fn unterminated_strings_are_reported_where_they_break() {
    let dir = dir_with(&[
        ("nl.hcl", "a = 1\nb = \"abc\nc = 2\n"),
        ("eof.hcl", "a = 1\nb = \"x${\"}\"}y"),
    ]);
    let out = run(&["hcl", "eval", "nl.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "nl.hcl:2:9: error: Invalid multi-line string: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.\n"
    );
    let out = run(&["hcl", "eval", "eof.hcl"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "eof.hcl:2:14: error: Unterminated template string: No closing marker was found for the string.\n"
    );
}

/// Calls that are each within their own limits, combined into a bomb of a few hundred
/// bytes, are stopped by the one budget of the evaluation: one diagnostic at the
/// expression that went beyond it, exit status 2. Each of these aborted the process
/// (out of memory) before.
#[test]
fn bombs_are_diagnostics_not_aborts() {
    const FIFTY_MB: &str = "replace(format(\"%1000000s\", \"\"), \" \", \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\")";
    let values = "Evaluation too expensive: Evaluation stopped after building 1048576 values: the configuration builds (or copies) too many values.";
    let bytes = "Evaluation too expensive: Evaluation stopped after building 256 MiB of strings: the configuration builds (or copies) too much text.";
    for (name, text, expected) in [
        // 50M one-character strings from one `split`.
        (
            "split.hcl",
            format!("x = length(split(\"\", {FIFTY_MB}))\n"),
            format!("split.hcl:1:12: error: {values}\n"),
        ),
        // 1024 copies of a 50 MB string from one `formatlist`.
        (
            "formatlist.hcl",
            format!("x = length(formatlist(\"%s%s\", range(1024), {FIFTY_MB}))\n"),
            format!("formatlist.hcl:1:12: error: {bytes}\n"),
        ),
        // A YAML alias bomb: 9 anchors, each nine aliases of the one before (9^9 nodes).
        (
            "yaml.hcl",
            concat!(r#"x = length(yamldecode("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]"))"#, "\n").to_string(),
            format!("yaml.hcl:1:12: error: {values}\n"),
        ),
    ] {
        let dir = dir_with(&[(name, &text)]);
        assert!(text.len() < 500, "{name}: {} bytes", text.len());
        let out = run(&["hcl", "eval", name], dir.path(), None);
        assert_eq!(
            (out.status.code(), stdout(&out), stderr(&out)),
            (Some(2), String::new(), expected),
            "{name}"
        );
    }
}
