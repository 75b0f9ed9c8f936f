//! `cloudspec hcldec`, run as the real binary: results, flags, diagnostics and exit statuses
//! with exact output.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cloudspec");

/// The spec and input of hcldec's README.
const README_SPEC: &str = r#"object {
  attr "name" {
    type     = string
    required = true
  }
  attr "is_member" {
    type = bool
  }
}
"#;

const APP_SPEC: &str = r#"variables {
  region = "us-east-1"
}

function "shout" {
  params = [s]
  result = upper(s)
}

object {
  attr "name" {
    type     = string
    required = true
  }
  attr "where" {
    type = string
  }
  block_list "listener" {
    object {
      attr "port" {
        type = number
      }
    }
  }
}
"#;

const APP_INPUT: &str =
    "name  = shout(env)\nwhere = \"${region}/${zone}\"\nlistener {\n  port = 80\n}\n";

fn run(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .arg("hcldec")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cloudspec");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).expect("write stdin");
    }
    drop(input);
    child.wait_with_output().expect("wait")
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write file");
    }
    dir
}

/// (exit status, stdout, stderr)
fn outcome(out: &Output) -> (Option<i32>, String, String) {
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(stdout: &str) -> (Option<i32>, String, String) {
    (Some(0), stdout.to_string(), String::new())
}

#[test]
fn readme_example_and_null_properties() {
    let dir = dir_with(&[
        ("example.hcldec", README_SPEC),
        ("example.conf", "name = \"Raul\"\n"),
    ]);
    let d = dir.path();
    assert_eq!(
        outcome(&run(&["--spec=example.hcldec", "example.conf"], d, None)),
        ok("{\"name\":\"Raul\"}\n")
    );
    assert_eq!(
        outcome(&run(
            &["--spec", "example.hcldec", "--keep-nulls", "example.conf"],
            d,
            None
        )),
        ok("{\"is_member\":null,\"name\":\"Raul\"}\n")
    );
    // With the type: hcldec's re-encoding sorts "type" before "value" (and drops nulls)...
    assert_eq!(
        outcome(&run(&["-s", "example.hcldec", "--with-type", "example.conf"], d, None)),
        ok("{\"type\":[\"object\",{\"is_member\":\"bool\",\"name\":\"string\"}],\"value\":{\"name\":\"Raul\"}}\n")
    );
    // ...and without it the wrapper keeps cty's order.
    assert_eq!(
        outcome(&run(
            &["-s", "example.hcldec", "--with-type", "--keep-nulls", "example.conf"],
            d,
            None
        )),
        ok("{\"value\":{\"is_member\":null,\"name\":\"Raul\"},\"type\":[\"object\",{\"is_member\":\"bool\",\"name\":\"string\"}]}\n")
    );
}

#[test]
fn text_diagnostics() {
    let dir = dir_with(&[
        ("example.hcldec", README_SPEC),
        ("typo.conf", "namme = \"Juan\"\n"),
    ]);
    let out = run(&["--spec=example.hcldec", "typo.conf"], dir.path(), None);
    assert_eq!(
        outcome(&out),
        (
            Some(2),
            String::new(),
            "Error: Missing required argument

  on typo.conf line 1:
   1: namme = \"Juan\"

The argument \"name\" is required, but no definition was found.

Error: Unsupported argument

  on typo.conf line 1:
   1: namme = \"Juan\"

An argument named \"namme\" is not expected here. Did you mean \"name\"?

"
            .to_string()
        )
    );
}

#[test]
fn json_diagnostics() {
    let dir = dir_with(&[("example.hcldec", README_SPEC)]);
    let out = run(
        &["--spec", "example.hcldec", "--diags", "json"],
        dir.path(),
        Some("name = [\"<x>\"]\n"),
    );
    assert_eq!(
        outcome(&out),
        (
            Some(2),
            String::new(),
            r#"{
  "diagnostics": [
    {
      "severity": "error",
      "summary": "Incorrect attribute value type",
      "detail": "Inappropriate value for attribute \"name\": string required.",
      "subject": {
        "filename": "\u003cstdin\u003e",
        "start": {
          "line": 1,
          "column": 8,
          "byte": 7
        },
        "end": {
          "line": 1,
          "column": 15,
          "byte": 14
        }
      }
    }
  ]
}
"#
            .to_string()
        )
    );
}

#[test]
fn variables_functions_and_several_inputs() {
    let dir = dir_with(&[
        ("app.hcldec", APP_SPEC),
        ("app.hcl", APP_INPUT),
        ("more.hcl.json", "{\"listener\": [{\"port\": 443}]}\n"),
        ("vars.json", "{\"zone\": \"b\", \"env\": \"dev\"}\n"),
        ("vars.hcl", "zone = \"c\"\n"),
    ]);
    let d = dir.path();
    // Later --vars override earlier ones; the spec's `variables` are defaults.
    assert_eq!(
        outcome(&run(
            &["-s", "app.hcldec", "-V", "vars.json", "-V", "{\"env\": \"prod\"}", "app.hcl", "more.hcl.json"],
            d,
            None
        )),
        ok("{\"listener\":[{\"port\":80},{\"port\":443}],\"name\":\"PROD\",\"where\":\"us-east-1/b\"}\n")
    );
    assert_eq!(
        outcome(&run(
            &[
                "-s",
                "app.hcldec",
                "--vars",
                "vars.json",
                "--vars",
                "vars.hcl",
                "app.hcl"
            ],
            d,
            None
        )),
        ok("{\"listener\":[{\"port\":80}],\"name\":\"DEV\",\"where\":\"us-east-1/c\"}\n")
    );
    // Standard input when no input file is named.
    assert_eq!(
        outcome(&run(&["-s", "app.hcldec"], d, Some("name = 1\n"))),
        ok("{\"listener\":[],\"name\":\"1\"}\n")
    );
}

#[test]
fn variable_references() {
    let dir = dir_with(&[
        ("example.hcldec", "attr {\n  name = \"a\"\n}\n"),
        ("in.hcl", "a = v.b[0]\n"),
    ]);
    let out = run(
        &[
            "-s",
            "example.hcldec",
            "--var-refs",
            "-V",
            "{\"v\": {\"b\": [true]}}",
            "in.hcl",
        ],
        dir.path(),
        None,
    );
    let range = |indent: &str, c1: usize, b1: usize, c2: usize, b2: usize| {
        format!(
            "{indent}\"range\": {{
{indent}  \"filename\": \"in.hcl\",
{indent}  \"start\": {{
{indent}    \"line\": 1,
{indent}    \"column\": {c1},
{indent}    \"byte\": {b1}
{indent}  }},
{indent}  \"end\": {{
{indent}    \"line\": 1,
{indent}    \"column\": {c2},
{indent}    \"byte\": {b2}
{indent}  }}
{indent}}}"
        )
    };
    let want = format!(
        "[
  {{
    \"root_name\": \"v\",
    \"value\": true,
    \"steps\": [
      {{
        \"kind\": \"root\",
        \"name\": \"v\",
{}
      }},
      {{
        \"kind\": \"attr\",
        \"name\": \"b\",
{}
      }},
      {{
        \"kind\": \"index\",
        \"key\": 0,
{}
      }}
    ],
{}
  }}
]
",
        range("        ", 5, 4, 6, 5),
        range("        ", 6, 5, 8, 7),
        range("        ", 8, 7, 11, 10),
        range("    ", 5, 4, 11, 10),
    );
    assert_eq!(outcome(&out), ok(&want));
}

#[test]
fn output_file() {
    let dir = dir_with(&[
        ("example.hcldec", README_SPEC),
        ("in.conf", "name = \"x\"\n"),
    ]);
    let d = dir.path();
    assert_eq!(
        outcome(&run(
            &["-s", "example.hcldec", "--out", "result.json", "in.conf"],
            d,
            None
        )),
        ok("")
    );
    assert_eq!(
        std::fs::read_to_string(d.join("result.json")).expect("result file"),
        "{\"name\":\"x\"}\n"
    );
    let out = run(
        &[
            "-s",
            "example.hcldec",
            "-o",
            "missing/result.json",
            "in.conf",
        ],
        d,
        None,
    );
    let (status, stdout, stderr) = outcome(&out);
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    assert!(
        stderr
            .starts_with("Error: missing/result.json: cannot create a temporary file in missing: ")
            && stderr.ends_with("\n\n"),
        "{stderr}"
    );
}

#[test]
fn spec_errors_and_unreadable_files() {
    let dir = dir_with(&[("bad.hcldec", "object {\n  attr {\n  }\n}\n")]);
    let d = dir.path();
    assert_eq!(
        outcome(&run(&["-s", "bad.hcldec", "--diags", "json"], d, Some(""))),
        (
            Some(2),
            String::new(),
            r#"{
  "diagnostics": [
    {
      "severity": "error",
      "summary": "Missing key for attr",
      "detail": "All attr blocks must have 1 labels (key).",
      "subject": {
        "filename": "bad.hcldec",
        "start": {
          "line": 2,
          "column": 8,
          "byte": 16
        },
        "end": {
          "line": 2,
          "column": 9,
          "byte": 17
        }
      }
    }
  ]
}
"#
            .to_string()
        )
    );
    assert_eq!(
        outcome(&run(&["-s", "nope.hcldec", "in.hcl"], d, None)),
        (
            Some(2),
            String::new(),
            "Error: Failed to read file\n\nThe configuration file \"nope.hcldec\" could not be read.\n\n"
                .to_string()
        )
    );
}

#[test]
fn usage_errors() {
    let dir = dir_with(&[]);
    let (status, stdout, stderr) = outcome(&run(&["in.hcl"], dir.path(), None));
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    assert!(stderr.contains("--spec <FILE>"), "{stderr}");
    let (status, _, stderr) = outcome(&run(
        &["-s", "x.hcldec", "--diags", "yaml"],
        dir.path(),
        None,
    ));
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("invalid value 'yaml' for '--diags <FORMAT>'"),
        "{stderr}"
    );
}

/// A JSON input with syntax errors: every error HCL's parser reports, in its order, with
/// exact ranges (HCL goes on after a bad value and, when the root object was abandoned,
/// adds "Root value must be object").
#[test]
fn json_syntax_errors_are_all_reported() {
    let dir = dir_with(&[
        ("example.hcldec", README_SPEC),
        ("bad.hcl.json", "{\"name\": tru, \"is_member\": [1,]}\n"),
    ]);
    let out = run(
        &["--spec", "example.hcldec", "bad.hcl.json"],
        dir.path(),
        None,
    );
    assert_eq!(
        outcome(&out),
        (
            Some(2),
            String::new(),
            "Error: Invalid JSON keyword

  on bad.hcl.json line 1:
   1: {\"name\": tru, \"is_member\": [1,]}

\"tru\" is not a valid JSON keyword. Did you mean \"true\"?

Error: Trailing comma in array

  on bad.hcl.json line 1:
   1: {\"name\": tru, \"is_member\": [1,]}

JSON does not permit a trailing comma after the final value in an array.

Error: Mismatched braces

  on bad.hcl.json line 1:
   1: {\"name\": tru, \"is_member\": [1,]}

A JSON object must be closed with a brace, not a bracket.

Error: Root value must be object

  on bad.hcl.json line 1:
   1: {\"name\": tru, \"is_member\": [1,]}

The root value in a JSON-based configuration must be either a JSON object or a
JSON array of objects.

"
            .to_string()
        )
    );
    let out = run(
        &[
            "--spec",
            "example.hcldec",
            "--diags",
            "json",
            "bad.hcl.json",
        ],
        dir.path(),
        None,
    );
    let (status, stdout, stderr) = outcome(&out);
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    let diags: serde_json::Value = serde_json::from_str(&stderr).unwrap();
    let ranges: Vec<(String, u64, u64)> = diags["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["summary"].as_str().unwrap().to_string(),
                d["subject"]["start"]["column"].as_u64().unwrap(),
                d["subject"]["end"]["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ranges,
        [
            ("Invalid JSON keyword".to_string(), 10, 13),
            ("Trailing comma in array".to_string(), 30, 31),
            ("Mismatched braces".to_string(), 31, 32),
            ("Root value must be object".to_string(), 1, 2),
        ]
    );
}

/// The value of the environment variable the secret-leak tests give the binary.
const SECRET: &str = "s3cr3t-AKIAIOSFODNN7EXAMPLE-wJalrXUtnFEMI";

/// Runs hcldec with only `CLOUDSPEC_TEST_SECRET` in its environment (so that
/// `/proc/self/environ` is exactly `CLOUDSPEC_TEST_SECRET=...\0`).
fn run_with_secret(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .arg("hcldec")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("CLOUDSPEC_TEST_SECRET", SECRET)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run cloudspec");
    let got = outcome(&out);
    assert!(
        !got.1.contains("s3cr3t") && !got.2.contains("s3cr3t"),
        "the environment leaked: {got:?}"
    );
    got
}

/// `/proc/self/environ` (the environment, NUL-separated) as the spec, an input or a
/// `-V` file: refused as not text, at the first NUL, without a byte of it shown.
#[cfg(target_os = "linux")]
#[test]
fn the_environment_never_reaches_the_output() {
    let dir = dir_with(&[("s.hcldec", README_SPEC), ("in.hcl", "name = \"x\"\n")]);
    let d = dir.path();
    let column = "CLOUDSPEC_TEST_SECRET=".len() + SECRET.len() + 1;
    let not_text = "Error: Not a text file\n\n  on /proc/self/environ line 1:\n  (source code not available)\n\nThe file \"/proc/self/environ\" contains a NUL byte: input files must be UTF-8\ntext.\n\n"
        .to_string();
    for args in [
        &["-s", "/proc/self/environ", "in.hcl"][..],
        &["-s", "s.hcldec", "/proc/self/environ"],
        &["-s", "s.hcldec", "-V", "/proc/self/environ", "in.hcl"],
        &["-s", "s.hcldec", "-V", "/proc/self/environ"],
    ] {
        assert_eq!(
            run_with_secret(args, d),
            (Some(2), String::new(), not_text.clone()),
            "{args:?}"
        );
    }
    let (status, stdout, stderr) = run_with_secret(
        &["-s", "s.hcldec", "--diags", "json", "/proc/self/environ"],
        d,
    );
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    let doc: serde_json::Value = serde_json::from_str(&stderr).expect("JSON diagnostics");
    let subject = &doc["diagnostics"][0]["subject"];
    assert_eq!(subject["start"]["line"], 1);
    assert_eq!(subject["start"]["column"], column);
    assert_eq!(subject["start"]["byte"], column - 1);
}

/// A spec or an input is read within 16 MiB, whatever it is: `/dev/zero` stops there.
#[cfg(target_os = "linux")]
#[test]
fn endless_inputs_stop_at_the_limit() {
    let dir = dir_with(&[("s.hcldec", README_SPEC)]);
    for args in [
        &["-s", "s.hcldec", "/dev/zero"][..],
        &["-s", "/dev/zero", "in.hcl"],
    ] {
        assert_eq!(
            outcome(&run(args, dir.path(), None)),
            (
                Some(2),
                String::new(),
                "Error: File too large\n\nThe file \"/dev/zero\" is larger than the 16 MiB limit for an input file.\n\n"
                    .to_string()
            ),
            "{args:?}"
        );
    }
}

/// A long line is quoted as a window of at most 120 characters around the problem, its
/// control characters escaped; short lines exactly as HCL shows them.
#[test]
fn source_excerpts_are_bounded() {
    let long = format!(
        "name = \"{}\" + \"\u{1b}[31m{}\"\n",
        "a".repeat(5000),
        "b".repeat(5000)
    );
    let dir = dir_with(&[("s.hcldec", README_SPEC), ("in.hcl", &long)]);
    let (status, stdout, stderr) = outcome(&run(&["-s", "s.hcldec", "in.hcl"], dir.path(), None));
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    // Two diagnostics ("Invalid operand", left and right), each quoting a window of the
    // line around its operand.
    let quoted: Vec<&str> = stderr.lines().filter(|l| l.starts_with("   1: ")).collect();
    assert_eq!(quoted.len(), 2, "{stderr}");
    // 120 characters, two cuts marked `…`, an escape longer than its character.
    assert!(
        quoted.iter().all(|l| l.chars().count() <= 6 + 122 + 5),
        "{stderr}"
    );
    assert!(quoted[0].starts_with("   1: name = \"aaaa") && quoted[0].ends_with("aaa…"));
    assert!(
        quoted[1].starts_with("   1: …aaa") && quoted[1].contains("\" + \"\\u{1b}[31mbbb"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    assert!(stderr.len() < 1000, "{stderr}");
}

/// Standard input that cannot be read (a directory) is an error with exit status 2.
#[cfg(unix)]
#[test]
fn unreadable_stdin_exits_2() {
    let dir = dir_with(&[("s.hcldec", README_SPEC)]);
    let out = Command::new(BIN)
        .args(["hcldec", "-s", "s.hcldec"])
        .current_dir(dir.path())
        .stdin(std::fs::File::open("/").expect("open /"))
        .output()
        .expect("run cloudspec");
    assert_eq!(
        outcome(&out),
        (
            Some(2),
            String::new(),
            "Error: failed to read stdin: Is a directory (os error 21)\n\n".to_string()
        )
    );
}

/// A result that cannot be written (a full disk, a closed pipe, `--out /dev/full`) is an
/// error with exit status 2, never a panic.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_results_exit_2() {
    let dir = dir_with(&[("s.hcldec", README_SPEC), ("in.hcl", "name = \"x\"\n")]);
    let d = dir.path();
    let full = Command::new(BIN)
        .args(["hcldec", "-s", "s.hcldec", "in.hcl"])
        .current_dir(d)
        .stdout(std::fs::File::create("/dev/full").expect("open /dev/full"))
        .output()
        .expect("run cloudspec");
    assert_eq!(
        outcome(&full),
        (
            Some(2),
            String::new(),
            "Error: cannot write the result to standard output: No space left on device (os error 28)\n\n".to_string()
        )
    );
    let out = run(&["-s", "s.hcldec", "--out", "/dev/full", "in.hcl"], d, None);
    assert_eq!(
        outcome(&out),
        (
            Some(2),
            String::new(),
            "Error: /dev/full: cannot write: No space left on device (os error 28)\n\n".to_string()
        )
    );
    // A pipe whose reader has gone (before the child has read its spec, let alone written).
    let mut child = Command::new(BIN)
        .args(["hcldec", "-s", "s.hcldec", "in.hcl"])
        .current_dir(d)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cloudspec");
    drop(child.stdout.take());
    let closed = child.wait_with_output().expect("wait");
    assert_eq!(
        outcome(&closed),
        (
            Some(2),
            String::new(),
            "Error: cannot write the result to standard output: Broken pipe (os error 32)\n\n"
                .to_string()
        )
    );
}
