//! `cloudspec run --output-dir DIR`: timestamped files plus `latest.*`, atomic writes (a
//! simulated crash mid-write leaves the previous `latest.*` whole), the lock file; and
//! `--log-format json`: logs on stderr as JSON lines, reports alone on stdout.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const SUFFIXES: [&str; 4] = ["report.json", "junit.xml", "sarif", "inventory.json"];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// `cloudspec run spec.cloudspec --inventory inventory.json --output-dir DIR ARGS` at
/// `now`, with extra environment `env`; returns exit status, stdout and stderr.
fn run(dir: &Path, now: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(fixtures())
        .args([
            "run",
            "spec.cloudspec",
            "--inventory",
            "inventory.json",
            "--output-dir",
        ])
        .arg(dir)
        .args(args)
        .args(["--now", now])
        .env("NO_COLOR", "1")
        .env_remove("CLOUDSPEC_LOG")
        .env_remove("CLOUDSPEC_TEST_CRASH_AFTER")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_run_writes_timestamped_files_and_latest_copies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("audits");
    let (status, stdout, stderr) = run(&dir, "2026-11-23T07:15:00Z", &["-q"], &[]);
    assert_eq!(status, 1, "the fixture has failures: {stderr}");
    assert!(
        stdout.contains("2 rules: 0 pass, 2 fail"),
        "the console report still goes to stdout"
    );
    assert_eq!(stderr, "");
    let mut expected: Vec<String> = SUFFIXES
        .iter()
        .flat_map(|s| [format!("2026-11-23T071500Z.{s}"), format!("latest.{s}")])
        .collect();
    expected.sort();
    assert_eq!(names(&dir), expected, "no lock or temporary file is left");
    for suffix in SUFFIXES {
        assert_eq!(
            read(&dir, &format!("latest.{suffix}")),
            read(&dir, &format!("2026-11-23T071500Z.{suffix}"))
        );
    }
    let report: Value = serde_json::from_str(&read(&dir, "latest.report.json")).unwrap();
    assert_eq!(report["cloudspec_report"], 1);
    assert!(read(&dir, "latest.junit.xml").starts_with("<?xml"));
    let sarif: Value = serde_json::from_str(&read(&dir, "latest.sarif")).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let inventory: Value = serde_json::from_str(&read(&dir, "latest.inventory.json")).unwrap();
    assert_eq!(inventory["resources"].as_array().unwrap().len(), 6);
}

/// `--report-passing none` applies to the directory's JSON report too; the inventory and
/// the other reports are whole.
#[test]
fn report_passing_none_applies_to_the_directory_report() {
    let tmp = tempfile::tempdir().unwrap();
    let (status, _, stderr) = run(
        tmp.path(),
        "2026-11-23T07:15:00Z",
        &["-q", "--report-passing", "none"],
        &[],
    );
    assert_eq!(status, 1, "{stderr}");
    let report: Value = serde_json::from_str(&read(tmp.path(), "latest.report.json")).unwrap();
    let rules: Vec<&Value> = (report["groups"].as_array().unwrap().iter())
        .flat_map(|g| g["rules"].as_array().unwrap())
        .collect();
    let listed: Vec<(&str, &str)> = (rules.iter())
        .flat_map(|r| r["resources"].as_array().unwrap())
        .map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("scratch-1", "fail"),
            ("scratch-2", "fail"),
            ("i-002", "fail"),
            ("i-003", "fail")
        ]
    );
    let omitted: Vec<&Value> = rules.iter().map(|r| &r["passing_omitted"]).collect();
    assert_eq!(omitted, [1, 1]);
    let inventory: Value =
        serde_json::from_str(&read(tmp.path(), "latest.inventory.json")).unwrap();
    assert_eq!(inventory["resources"].as_array().unwrap().len(), 6);
    let junit = read(tmp.path(), "latest.junit.xml");
    assert_eq!(junit.matches("<testcase ").count(), 6, "{junit}");
}

#[test]
fn a_second_run_in_the_same_second_does_not_overwrite_the_first() {
    let tmp = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        run(tmp.path(), "2026-11-23T07:15:00Z", &["-q"], &[]);
    }
    let names = names(tmp.path());
    assert!(names.contains(&"2026-11-23T071500Z.report.json".to_string()));
    assert!(
        names.contains(&"2026-11-23T071500Z-2.report.json".to_string()),
        "{names:?}"
    );
}

#[test]
fn the_text_log_says_what_was_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, _, stderr) = run(tmp.path(), "2026-11-23T07:15:00Z", &[], &[]);
    assert_eq!(
        stderr,
        format!(
            "info: wrote 8 files to {} (2026-11-23T071500Z.* and latest.*)\n",
            tmp.path().display()
        )
    );
}

/// A run at `now` that crashes after writing `n` whole files, in the middle of the next.
fn crash_after(dir: &Path, now: &str, n: usize) {
    let n = n.to_string();
    let (status, _, _) = run(
        dir,
        now,
        &["-q", "--waivers", "waivers.yaml"],
        &[("CLOUDSPEC_TEST_CRASH_AFTER", &n)],
    );
    assert_ne!(status, 0);
    assert_ne!(status, 1, "the run must not have finished");
}

#[test]
fn a_crash_mid_write_leaves_the_previous_latest_whole() {
    if !cfg!(debug_assertions) {
        // The crash hook exists in debug builds only (`cargo test --release` has none).
        return;
    }
    for n in [4, 5, 6, 7] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        run(dir, "2026-11-22T07:15:00Z", &["-q"], &[]);
        let before: Vec<String> = SUFFIXES
            .iter()
            .map(|s| read(dir, &format!("latest.{s}")))
            .collect();
        // The waivers change every report, so old and new latest files differ.
        crash_after(dir, "2026-11-23T07:15:00Z", n);
        let names = names(dir);
        assert!(
            names.iter().any(|n| n.ends_with(".tmp")),
            "the crash left a half-written temporary file: {names:?}"
        );
        assert!(
            names.contains(&".cloudspec.lock".to_string()),
            "a crash leaves its lock"
        );
        assert_eq!(
            read(dir, "latest.report.json"),
            before[0],
            "crash after {n}: the previous latest report stands"
        );
        for (suffix, old) in SUFFIXES.iter().zip(&before) {
            let latest = read(dir, &format!("latest.{suffix}"));
            let new = std::fs::read_to_string(dir.join(format!("2026-11-23T071500Z.{suffix}")))
                .unwrap_or_default();
            assert!(
                latest == *old || latest == new,
                "crash after {n}: latest.{suffix} is neither the old nor the new file"
            );
        }
        // The next run takes over the dead run's lock and clears its temporary files.
        let (status, _, stderr) = run(dir, "2026-11-24T07:15:00Z", &[], &[]);
        assert_eq!(status, 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "warning: {}: took over the lock of a cloudspec run that is gone (pid ",
                dir.display()
            )),
            "{stderr}"
        );
        let names = self::names(dir);
        assert!(
            !names
                .iter()
                .any(|n| n.ends_with(".tmp") || n.ends_with(".lock")),
            "{names:?}"
        );
        assert_eq!(
            read(dir, "latest.report.json"),
            read(dir, "2026-11-24T071500Z.report.json")
        );
    }
}

#[test]
fn a_second_run_while_the_first_holds_the_lock_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // This test process is alive: its lock is not stale.
    let lock = format!("pid={}\nstarted=2026-11-23T07:00:00Z\n", std::process::id());
    std::fs::write(dir.join(".cloudspec.lock"), &lock).unwrap();
    let (status, stdout, stderr) = run(dir, "2026-11-23T07:15:00Z", &[], &[]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "error: {d}: another cloudspec run (pid {pid}, started 2026-11-23T07:00:00Z) is writing this directory; wait for it to finish, or delete {d}/.cloudspec.lock if no such run is active\n",
            d = dir.display(),
            pid = std::process::id()
        )
    );
    assert_eq!(
        names(dir),
        [".cloudspec.lock"],
        "nothing written, the lock untouched"
    );
    assert_eq!(read(dir, ".cloudspec.lock"), lock);
}

#[test]
fn a_lock_without_a_pid_is_not_taken_over() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join(".cloudspec.lock"), "").unwrap();
    let (status, _, stderr) = run(tmp.path(), "2026-11-23T07:15:00Z", &[], &[]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("another cloudspec run (an unknown process) is writing this directory"),
        "{stderr}"
    );
}

#[test]
fn the_lock_is_released_when_the_run_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let (status, _, stderr) = run(
        tmp.path(),
        "2026-11-23T07:15:00Z",
        &["--waivers", "malformed/bad-date.yaml"],
        &[],
    );
    assert_eq!(status, 2, "{stderr}");
    let (status, _, stderr) = run(
        tmp.path(),
        "2026-11-23T07:15:00Z",
        &["--baseline", "inventory.json"],
        &[],
    );
    assert_eq!(status, 2, "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(fixtures())
        .args([
            "run",
            "missing.cloudspec",
            "--inventory",
            "inventory.json",
            "--output-dir",
        ])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        names(tmp.path()),
        Vec::<String>::new(),
        "no lock left behind"
    );
}

/// Every stderr line of a `--log-format json` run is a JSON object with a level and a
/// message; returns them.
fn json_lines(stderr: &str) -> Vec<Value> {
    stderr
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(v["level"].is_string() && v["message"].is_string(), "{line}");
            v
        })
        .collect()
}

#[test]
fn json_logs_go_to_stderr_and_the_report_alone_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let (status, stdout, stderr) = run(
        tmp.path(),
        "2026-11-23T07:15:00Z",
        &[
            "--log-format",
            "json",
            "--waivers",
            "waivers.yaml",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(status, 1);
    let report: Value = serde_json::from_str(&stdout).expect("stdout is exactly one JSON report");
    assert_eq!(report["cloudspec_report"], 1);
    let lines = json_lines(&stderr);
    let levels: Vec<&str> = lines.iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["WARN", "WARN", "INFO"], "{stderr}");
    assert!(lines[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("waivers.yaml:12: the waiver of"));
    assert!(lines.iter().all(|l| l["timestamp"].is_string()));
}

#[test]
fn json_logs_carry_errors_and_spec_diagnostics_as_single_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let (status, stdout, stderr) = run(
        tmp.path(),
        "2026-11-23T07:15:00Z",
        &[
            "--log-format",
            "json",
            "--waivers",
            "malformed/unknown-field.yaml",
        ],
        &[],
    );
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    let lines = json_lines(&stderr);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["level"], "ERROR");
    assert_eq!(
        lines[0]["message"],
        "malformed/unknown-field.yaml:6:5: unknown field `expiry` in a waiver; expected `rule`, `resource`, `tags`, `reason`, `owner` or `expires`"
    );

    std::fs::write(
        tmp.path().join("bad.cloudspec"),
        "Spec \"x\"\nGroup \"g\"\n  Rule \"r\"\n    On\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(tmp.path())
        .args([
            "--log-format",
            "json",
            "run",
            "bad.cloudspec",
            "--inventory",
        ])
        .arg(fixtures().join("inventory.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = json_lines(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(lines.len(), 1, "the rendered diagnostics are one event");
    assert_eq!(lines[0]["file"], "bad.cloudspec");
    assert!(
        !lines[0]["message"].as_str().unwrap().contains('\u{1b}'),
        "no colour in JSON logs"
    );
}
