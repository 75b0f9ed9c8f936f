//! The promises of docs/security.md, through the real binary: inputs stay where they
//! belong, writes cannot hurt, output failures are exit status 2 (never a panic), data is
//! shown with its control characters escaped. Each test is one finding of the hardening
//! issue, with its exact input, exit status and message.
#![cfg(unix)]

use std::os::unix::fs::{symlink, FileTypeExt as _, MetadataExt as _};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A value that must never reach any output.
const SECRET: &str = "s3cr3t-AKIAEXAMPLE-never-printed";

/// `cloudspec ARGS` in `dir`, with the secret in its environment.
fn cloudspec(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("CLOUDSPEC_TEST_SECRET", SECRET)
        .env_remove("CLOUDSPEC_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn assert_no_secret(what: &str, out: &Output) {
    for (name, text) in [("stdout", stdout(out)), ("stderr", stderr(out))] {
        assert!(
            !text.contains(SECRET) && !text.contains("AWS_SECRET_ACCESS_KEY"),
            "{what}: the environment reached {name}:\n{text}"
        );
    }
}

const SPEC: &str = "Spec \"S\"\n\nGroup \"G\"\n  Rule \"R\"\n    On aws:s3:bucket\n    Assert versioning (\n      status equal to \"Enabled\"\n    )\n";

const INVENTORY: &str = r#"{"cloudspec_inventory": 1, "provider": "aws", "resources": [
  {"type": "aws:s3:bucket", "id": "b1", "properties": {"versioning": {"status": "Enabled"}}}
]}
"#;

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

// -------------------------------------------------------------------------------------
// Secrets never leak
// -------------------------------------------------------------------------------------

#[test]
fn the_environment_is_never_printed_whatever_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("specs/ok.cloudspec"), SPEC);
    symlink("/proc/self/environ", d.join("specs/env.cloudspec")).unwrap();
    write(&d.join("inv.json"), INVENTORY);
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("validate a file", vec!["validate", "/proc/self/environ"]),
        ("validate a directory", vec!["validate", "specs"]),
        ("run", vec!["run", "specs", "--inventory", "inv.json"]),
        (
            "run a file",
            vec!["run", "/proc/self/environ", "--inventory", "inv.json"],
        ),
        ("fmt --check", vec!["fmt", "--check", "specs"]),
        ("fmt a file", vec!["fmt", "--check", "/proc/self/environ"]),
        ("docs", vec!["docs", "specs", "--output", "out"]),
        ("permissions", vec!["permissions", "/proc/self/environ"]),
        (
            "inventory",
            vec![
                "run",
                "specs/ok.cloudspec",
                "--inventory",
                "/proc/self/environ",
            ],
        ),
        (
            "waivers",
            vec![
                "run",
                "specs/ok.cloudspec",
                "--inventory",
                "inv.json",
                "--waivers",
                "/proc/self/environ",
            ],
        ),
        (
            "baseline",
            vec![
                "run",
                "specs/ok.cloudspec",
                "--inventory",
                "inv.json",
                "--baseline",
                "/proc/self/environ",
            ],
        ),
        (
            "diff",
            vec!["diff", "/proc/self/environ", "/proc/self/environ"],
        ),
        ("test", vec!["test", "/proc/self/environ"]),
        ("hcl eval", vec!["hcl", "eval", "/proc/self/environ"]),
        (
            "hcldec input",
            vec![
                "hcldec",
                "--spec",
                "/proc/self/environ",
                "/proc/self/environ",
            ],
        ),
    ];
    for (what, args) in cases {
        let out = cloudspec(d, &args);
        assert_no_secret(what, &out);
        assert_eq!(code(&out), 2, "{what}: {}", stderr(&out));
    }
}

#[test]
fn a_spec_named_by_a_test_file_stays_inside_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("t/a.test.yaml"),
        "spec: /proc/self/environ\ncases:\n  - name: c\n    inventory: inv.json\n    expect:\n      \"G/R\": pass\n",
    );
    let out = cloudspec(d, &["test", "t"]);
    assert_no_secret("absolute spec", &out);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: t/a.test.yaml:1:7: spec: \"/proc/self/environ\" is an absolute path; paths in a test file are relative to it\n\
         error: 1 test file is invalid; no case was run\n"
    );

    write(
        &d.join("t/a.test.yaml"),
        "spec: ../../../../../../../../proc/self/environ\ncases:\n  - name: c\n    inventory: inv.json\n    expect:\n      \"G/R\": pass\n",
    );
    let out = cloudspec(d, &["test", "t"]);
    assert_no_secret("relative spec", &out);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: t/a.test.yaml:1:7: spec: \"../../../../../../../../proc/self/environ\" leads outside t; paths in a test file stay inside the tree it was given\n\
         error: 1 test file is invalid; no case was run\n"
    );
}

#[test]
fn an_inventory_named_by_a_test_file_stays_inside_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("t/a.cloudspec"), SPEC);
    write(&d.join("secret.json"), INVENTORY);
    write(
        &d.join("t/a.test.yaml"),
        "cases:\n  - name: case one\n    inventory: ../secret.json\n    expect:\n      \"G/R\": pass\n",
    );
    let out = cloudspec(d, &["test", "t"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: t/a.test.yaml:3:16: case \"case one\": inventory: \"../secret.json\" leads outside t; paths in a test file stay inside the tree it was given\n\
         error: 1 test file is invalid; no case was run\n"
    );
    // Inside the tree, `..` is fine.
    write(&d.join("t/fixtures/inv.json"), INVENTORY);
    write(
        &d.join("t/sub/a.test.yaml"),
        "spec: ../a.cloudspec\ncases:\n  - name: c\n    inventory: ../fixtures/inv.json\n    expect:\n      \"G/R\": pass\n",
    );
    let out = cloudspec(d, &["test", "t/sub/a.test.yaml", "t/a.cloudspec"]);
    assert_eq!(code(&out), 2, "the test file's own directory is its tree");
    std::fs::remove_file(d.join("t/a.test.yaml")).unwrap();
    let out = cloudspec(d, &["test", "t"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn a_spec_link_out_of_the_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("specs/ok.cloudspec"), SPEC);
    write(&d.join("elsewhere/x.cloudspec"), SPEC);
    symlink("../elsewhere/x.cloudspec", d.join("specs/x.cloudspec")).unwrap();
    let out = cloudspec(d, &["validate", "specs"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: specs/x.cloudspec: symbolic link to a file outside specs; cloudspec does not follow links out of the tree it was given\n"
    );
}

#[test]
fn directory_loops_are_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("specs/ok.cloudspec"), SPEC);
    write(&d.join("specs/sub/two.cloudspec"), SPEC);
    symlink(".", d.join("specs/x")).unwrap();
    symlink("..", d.join("specs/sub/y")).unwrap();
    let out = cloudspec(d, &["validate", "specs"]);
    assert_eq!(stderr(&out), "ok: 2 files\n");
    assert_eq!(code(&out), 0);
}

#[test]
fn endless_and_binary_inputs_are_refused_with_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = cloudspec(d, &["validate", "/dev/zero"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: /dev/zero: larger than the 16 MiB limit for a spec file\nerror: 1 of 1 file has errors (1 error)\n"
    );
    std::fs::write(d.join("bin.cloudspec"), b"Spec \"S\"\n\nGr\0oup").unwrap();
    let out = cloudspec(d, &["validate", "bin.cloudspec"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: bin.cloudspec:3:3: not a text file (a NUL byte); a spec file must be UTF-8 text\nerror: 1 of 1 file has errors (1 error)\n"
    );
    std::fs::write(d.join("latin1.cloudspec"), b"Spec \"S\xe9\"\n").unwrap();
    let out = cloudspec(d, &["validate", "latin1.cloudspec"]);
    assert_eq!(
        stderr(&out),
        "error: latin1.cloudspec:1:8: invalid UTF-8; a spec file must be UTF-8 text\nerror: 1 of 1 file has errors (1 error)\n"
    );
    write(&d.join("s.cloudspec"), SPEC);
    let out = cloudspec(d, &["run", "s.cloudspec", "--inventory", "/dev/zero"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: /dev/zero:1:1: not JSON: expected a JSON value (at $)\n"
    );
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(SPEC.as_bytes());
    std::fs::write(d.join("bom.cloudspec"), bom).unwrap();
    let out = cloudspec(d, &["validate", "bom.cloudspec"]);
    assert_eq!((code(&out), stderr(&out)), (0, "ok: 1 file\n".to_string()));
}

// -------------------------------------------------------------------------------------
// Writes that cannot hurt
// -------------------------------------------------------------------------------------

fn run_to(d: &Path, target: &str) -> Output {
    write(&d.join("s.cloudspec"), SPEC);
    write(&d.join("inv.json"), INVENTORY);
    cloudspec(
        d,
        &[
            "run",
            "s.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            &format!("json={target}"),
        ],
    )
}

#[test]
fn devices_are_written_in_place_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let before = std::fs::metadata("/dev/null").unwrap();
    let out = run_to(dir.path(), "/dev/null");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let after = std::fs::metadata("/dev/null").unwrap();
    assert!(after.file_type().is_char_device());
    assert_eq!(before.ino(), after.ino());
}

#[test]
fn a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = run_to(dir.path(), "pipe");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = reader.join().unwrap();
    assert!(
        text.starts_with('{') && text.contains("\"cloudspec_report\""),
        "{text}"
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn a_link_out_of_its_directory_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let victim_dir = tempfile::tempdir().unwrap();
    let victim = victim_dir.path().join("bashrc");
    std::fs::write(&victim, "keep me").unwrap();
    symlink(&victim, dir.path().join("report.json")).unwrap();
    let out = run_to(dir.path(), "report.json");
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "error: cannot write the json report: report.json: is a symbolic link to {}, outside its directory; cloudspec does not write through it (name the file itself)\n",
            std::fs::canonicalize(&victim).unwrap().display()
        )
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

#[test]
fn fmt_keeps_symbolic_and_hard_links() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let messy = "Spec \"S\"\nGroup \"G\"\n  Rule \"R\"\n    On aws:s3:bucket\n    Assert versioning ( status equal to \"Enabled\" )\n";
    write(&d.join("real.cloudspec"), messy);
    symlink("real.cloudspec", d.join("link.cloudspec")).unwrap();
    std::fs::hard_link(d.join("real.cloudspec"), d.join("hard.cloudspec")).unwrap();
    let out = cloudspec(d, &["fmt", "link.cloudspec"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(d.join("link.cloudspec"))
        .unwrap()
        .file_type()
        .is_symlink());
    let formatted = std::fs::read_to_string(d.join("real.cloudspec")).unwrap();
    assert_ne!(formatted, messy);
    assert_eq!(
        std::fs::read_to_string(d.join("hard.cloudspec")).unwrap(),
        formatted,
        "the hard link sees the new text"
    );
}

#[test]
fn a_permission_error_names_the_path() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("ro")).unwrap();
    std::fs::set_permissions(d.join("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cloudspec"));
    write(&d.join("s.cloudspec"), SPEC);
    write(&d.join("inv.json"), INVENTORY);
    cmd.current_dir(d).args([
        "run",
        "s.cloudspec",
        "--inventory",
        "inv.json",
        "--format",
        "json=ro/report.json",
    ]);
    if std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        // Root writes anywhere: test as the unprivileged user, who can read the files.
        use std::os::unix::process::CommandExt as _;
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        let exe = d.join("cloudspec");
        std::fs::copy(env!("CARGO_BIN_EXE_cloudspec"), &exe).unwrap();
        cmd = Command::new(&exe);
        cmd.current_dir(d)
            .args([
                "run",
                "s.cloudspec",
                "--inventory",
                "inv.json",
                "--format",
                "json=ro/report.json",
            ])
            .uid(65534)
            .gid(65534);
    }
    let out = crate::output_of_fresh_copy(&mut cmd).unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: cannot write the json report: ro/report.json: cannot create a temporary file in ro: Permission denied (os error 13)\n"
    );
}

// -------------------------------------------------------------------------------------
// Output failures are exit status 2, never a panic
// -------------------------------------------------------------------------------------

/// Every subcommand that prints to stdout, with arguments that make it print.
fn printing_commands(d: &Path) -> Vec<Vec<String>> {
    write(&d.join("s.cloudspec"), SPEC);
    write(&d.join("messy.cloudspec"), "Spec \"S\"\nGroup \"G\"\n  Rule \"R\"\n    On aws:s3:bucket\n    Assert versioning ( status equal to \"Enabled\" )\n");
    write(&d.join("inv.json"), INVENTORY);
    write(&d.join("a.hcl"), "a = 1\n");
    write(
        &d.join("spec.hcldec"),
        "object {\n  attr \"a\" {\n    type = number\n  }\n}\n",
    );
    write(&d.join("t/s.cloudspec"), SPEC);
    write(&d.join("t/inv.json"), INVENTORY);
    write(
        &d.join("t/s.test.yaml"),
        "cases:\n  - name: c\n    inventory: inv.json\n    expect:\n      \"G/R\": pass\n",
    );
    let report = cloudspec(
        d,
        &[
            "run",
            "s.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "json=r.json",
        ],
    );
    assert_eq!(code(&report), 0, "{}", stderr(&report));
    let args: Vec<Vec<&str>> = vec![
        vec!["run", "s.cloudspec", "--inventory", "inv.json"],
        vec![
            "run",
            "s.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "json",
        ],
        vec![
            "run",
            "s.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "junit",
        ],
        vec![
            "run",
            "s.cloudspec",
            "--inventory",
            "inv.json",
            "--format",
            "sarif",
        ],
        vec!["fmt", "--check", "messy.cloudspec"],
        vec!["schema"],
        vec!["diff", "r.json", "r.json"],
        vec!["schema", "--format", "json"],
        vec!["permissions", "s.cloudspec"],
        vec!["hcl", "eval", "a.hcl"],
        vec!["hcldec", "--spec", "spec.hcldec", "a.hcl"],
        vec!["--help"],
    ];
    args.into_iter()
        .map(|a| a.into_iter().map(String::from).collect())
        .collect()
}

#[test]
fn a_full_disk_is_exit_status_2_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in printing_commands(d) {
        if args[0] == "--help" {
            continue;
        }
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
            .current_dir(d)
            .args(&args)
            .env("NO_COLOR", "1")
            .stdout(full)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_stdout_is_exit_status_2_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in printing_commands(d) {
        if args[0] == "--help" {
            continue;
        }
        // A pipe whose reader is gone before the command starts.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
            .current_dir(d)
            .args(&args)
            .env("NO_COLOR", "1")
            .stdout(writer)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code(&out), 2, "{args:?}: {err}");
    }
}

#[test]
fn test_exits_2_when_its_results_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    printing_commands(d);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(d)
        .args(["test", "t"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "warning: t/s.cloudspec: rule \"G/R\" is untested: no case expects it to fail\n\
         error: cannot write to standard output: No space left on device (os error 28)\n"
    );
}

// -------------------------------------------------------------------------------------
// Wrong statuses
// -------------------------------------------------------------------------------------

#[test]
fn permissions_with_a_misspelt_type_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("s.cloudspec"),
        "Spec \"S\"\n\nGroup \"G\"\n  Rule \"R\"\n    On aws:s3:buckt\n    Assert versioning (\n      status equal to \"Enabled\"\n    )\n",
    );
    let out = cloudspec(d, &["permissions", "s.cloudspec"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("s.cloudspec:5:8"), "{err}");
    assert!(err.contains("did you mean \"aws:s3:bucket\""), "{err}");
    assert!(
        err.ends_with("error: s.cloudspec: the spec has errors; no policy was printed\n"),
        "{err}"
    );
}

#[test]
fn a_newline_in_data_cannot_forge_a_log_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("s.cloudspec"), SPEC);
    write(
        &d.join("inv.json"),
        r#"{"cloudspec_inventory": 1, "provider": "aws", "resources": [{"type": "aws:s3:bucket", "id": "b1", "properties": {"versioning": {"status": "Enabled"}, "x": {"$ref": "aws:s3:bucket/gone\nerror: forged line"}}}], "errors": [{"type": "aws:s3:bucket", "message": "denied\nerror: forged \u001b[31m"}]}"#,
    );
    let out = cloudspec(d, &["run", "s.cloudspec", "--inventory", "inv.json"]);
    assert_eq!(code(&out), 3);
    assert_eq!(
        stderr(&out),
        "warning: dangling reference: aws:s3:bucket/gone\\nerror: forged line is not in the inventory\n"
    );
    assert!(
        stdout(&out).contains("  error: aws:s3:bucket, whose collection failed (denied\\nerror: forged \\u{1b}[31m)\n"),
        "{}",
        stdout(&out)
    );
}

// -------------------------------------------------------------------------------------
// Safe display
// -------------------------------------------------------------------------------------

#[test]
fn control_characters_in_data_are_escaped_in_the_console_and_logs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("s.cloudspec"), SPEC);
    write(
        &d.join("inv.json"),
        r#"{"cloudspec_inventory": 1, "provider": "aws", "resources": [
  {"type": "aws:s3:bucket", "id": "evil\u001b[2J\nPASS forged", "properties": {"versioning": {"status": "Off\u001b]0;x\u0007"}}}
]}
"#,
    );
    let out = cloudspec(d, &["run", "s.cloudspec", "--inventory", "inv.json"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(!text.contains("\nPASS forged"), "{text}");
    assert!(
        text.contains("  fail aws:s3:bucket evil\\u{1b}[2J\\nPASS forged\n"),
        "{text}"
    );
}

/// Runs with `baseline` as the `--baseline` report: its exit status and stderr.
fn with_baseline(baseline: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("s.cloudspec"), SPEC);
    write(&d.join("inv.json"), INVENTORY);
    write(&d.join("base.json"), baseline);
    let args = [
        "run",
        "s.cloudspec",
        "--inventory",
        "inv.json",
        "--baseline",
        "base.json",
    ];
    let out = cloudspec(d, &args);
    (code(&out), stderr(&out))
}

#[test]
fn a_duplicate_key_in_a_baseline_is_an_error_with_its_position() {
    let head = "{\"cloudspec_report\": 1, \"groups\": [{\"name\": \"G\", \"rules\": [\n";
    assert_eq!(
        with_baseline(&format!("{head}  {{\"name\": \"R\", \"status\": \"pass\", \"status\": \"fail\", \"resources\": []}}\n]}}]}}\n")),
        (2, "error: base.json: 2:42: is not a valid cloudspec JSON report: at $.groups[0].rules[0]: duplicate field `status`\n".to_string())
    );
    assert_eq!(
        with_baseline(&format!("{head}  {{\"name\": \"R\", \"status\": \"fail\", \"resources\": [{{\"type\": \"t\", \"id\": 7, \"status\": \"fail\"}}]}}\n]}}]}}\n")),
        (2, "error: base.json: 2:69: is not a valid cloudspec JSON report: at $.groups[0].rules[0].resources[0].id: invalid type: integer `7`, expected a string\n".to_string())
    );
    assert_eq!(
        with_baseline(&format!("{head}  {{\"name\": \"R\", \"status\": \"fail\", \"resources\": [{{\"type\": \"t\", \"id\": \"a\", \"status\": \"fail\"}}, {{\"type\": \"t\", \"id\": \"a\", \"status\": \"pass\"}}]}}\n]}}]}}\n")),
        (2, "error: base.json: is not a valid cloudspec JSON report: the resource t a is listed twice in one rule (at $.groups[0].rules[0].resources[1])\n".to_string())
    );
}

#[test]
fn a_yaml_alias_bomb_in_a_test_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    bomb.push_str("cases: []\n");
    write(&d.join("t/s.test.yaml"), &bomb);
    write(&d.join("t/s.cloudspec"), SPEC);
    let out = cloudspec(d, &["test", "t"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: t/s.test.yaml:6:45: the document expands to more than 1000000 values (aliases repeat too much)\n\
         error: 1 test file is invalid; no case was run\n"
    );
}
