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
    assert_eq!((status, stdout.as_str()), (Some(1), ""));
    assert!(
        stderr.starts_with("Error: can't open missing/result.json for writing: ")
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
