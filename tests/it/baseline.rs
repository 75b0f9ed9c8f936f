//! `cloudspec run --baseline` (new, persisting, fixed; `--fail-on-new`) and
//! `cloudspec diff OLD NEW` (table, JSON, exit status).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// Runs the binary with `args` in `dir`; returns exit status, stdout and stderr.
fn cloudspec(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLOUDSPEC_LOG")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A temporary folder holding the fixture spec, the fixture inventory as `old.json`'s
/// source, and a changed inventory: i-001 now fails (new), scratch-2 is fixed, i-003 is
/// gone (fixed), i-002 and scratch-1 still fail (persisting).
struct Drifted {
    dir: tempfile::TempDir,
}

impl Drifted {
    fn new() -> Drifted {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(
            fixtures().join("spec.cloudspec"),
            dir.path().join("spec.cloudspec"),
        )
        .unwrap();
        let text = std::fs::read_to_string(fixtures().join("inventory.json")).unwrap();
        std::fs::write(dir.path().join("before.json"), &text).unwrap();
        let mut inventory: Value = serde_json::from_str(&text).unwrap();
        let resources = inventory["resources"].as_array_mut().unwrap();
        resources.retain(|r| r["id"] != "i-003");
        for r in resources.iter_mut() {
            match r["id"].as_str() {
                Some("i-001") => {
                    r["properties"]["metadata_options"]["http_tokens"] = json!("optional")
                }
                Some("scratch-2") => r["properties"]["versioning"] = json!({"status": "Enabled"}),
                _ => {}
            }
        }
        std::fs::write(dir.path().join("after.json"), inventory.to_string()).unwrap();
        let drifted = Drifted { dir };
        let (status, _, stderr) = drifted.run(&["before.json", "--format", "json=old.json"]);
        assert_eq!(status, 1, "{stderr}");
        drifted
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `cloudspec run spec.cloudspec --inventory INVENTORY ARGS...`.
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["run", "spec.cloudspec", "--inventory"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--now", "2026-11-23T07:15:00Z"]);
        cloudspec(self.path(), &all)
    }
}

fn find<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap())
        .flat_map(|r| r["resources"].as_array().unwrap())
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn failures_are_marked_new_or_persisting_and_fixed_ones_listed() {
    let d = Drifted::new();
    let (status, stdout, stderr) =
        d.run(&["after.json", "--baseline", "old.json", "--format", "json"]);
    assert_eq!(status, 1, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(find(&report, "i-001")["drift"], "new");
    assert_eq!(find(&report, "i-002")["drift"], "persisting");
    assert_eq!(find(&report, "scratch-1")["drift"], "persisting");
    assert_eq!(
        find(&report, "scratch-2").get("drift"),
        None,
        "passing: no drift"
    );
    assert_eq!(
        report["baseline"],
        json!({
            "file": "old.json",
            "new": 1,
            "persisting": 2,
            "fixed": [
                {"group": "Buckets", "rule": "Buckets must have versioning enabled",
                 "type": "aws:s3:bucket", "id": "scratch-2"},
                {"group": "Instances", "rule": "Instances require IMDSv2",
                 "type": "aws:ec2:instance", "id": "i-003"}
            ]
        })
    );
}

#[test]
fn the_console_shows_drift_and_what_was_fixed() {
    let d = Drifted::new();
    let (_, stdout, _) = d.run(&["after.json", "--baseline", "old.json"]);
    assert!(
        stdout.contains("  fail aws:ec2:instance i-001 [new]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  fail aws:ec2:instance i-002 [persisting]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "Baseline old.json: 1 new, 2 persisting, 2 fixed\n  \
             fixed: Buckets › Buckets must have versioning enabled: aws:s3:bucket scratch-2\n  \
             fixed: Instances › Instances require IMDSv2: aws:ec2:instance i-003\n"
        ),
        "{stdout}"
    );
}

#[test]
fn sarif_results_carry_their_baseline_state() {
    let d = Drifted::new();
    let (_, stdout, _) = d.run(&["after.json", "--baseline", "old.json", "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&stdout).unwrap();
    let mut states: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["baselineState"].as_str())
        .collect();
    states.sort_unstable();
    assert_eq!(states, ["new", "unchanged", "unchanged"]);
}

#[test]
fn fail_on_new_sets_exit_1_only_for_new_failures() {
    let d = Drifted::new();
    let args = [
        "--baseline",
        "old.json",
        "--fail-on-new",
        "--format",
        "json=/dev/null",
    ];
    let (status, _, _) = d.run(&[&["after.json"][..], &args].concat());
    assert_eq!(status, 1, "i-001 is new");
    let (status, _, stderr) = d.run(&[&["before.json"][..], &args].concat());
    assert_eq!(status, 0, "the same failures as the baseline: {stderr}");
}

#[test]
fn fail_on_new_requires_a_baseline() {
    let d = Drifted::new();
    let (status, _, stderr) = d.run(&["after.json", "--fail-on-new"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--baseline"), "{stderr}");
}

#[test]
fn a_waived_failure_whose_waiver_expired_is_persisting_not_new() {
    let d = Drifted::new();
    std::fs::write(
        d.path().join("w.yaml"),
        "waivers:\n  - rule: \"*\"\n    resource: \"i-002\"\n    reason: r\n    owner: o\n    expires: 2027-01-01\n",
    )
    .unwrap();
    let (_, _, stderr) = d.run(&[
        "before.json",
        "--waivers",
        "w.yaml",
        "--format",
        "json=waived.json",
    ]);
    assert_eq!(stderr, "");
    let (_, stdout, _) = d.run(&[
        "before.json",
        "--baseline",
        "waived.json",
        "--format",
        "json",
    ]);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(find(&report, "i-002")["drift"], "persisting");
}

#[test]
fn a_baseline_that_is_not_a_report_is_an_error() {
    let d = Drifted::new();
    let (status, stdout, stderr) = d.run(&["after.json", "--baseline", "before.json"]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "error: before.json: is not a cloudspec JSON report (it has no \"cloudspec_report\" key; write one with `cloudspec run --format json`)\n"
    );
    std::fs::write(d.path().join("junk.json"), "not json").unwrap();
    let (status, _, stderr) = d.run(&["after.json", "--baseline", "junk.json"]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        "error: junk.json: is not a cloudspec JSON report: expected ident at line 1 column 2\n"
    );
}

/// `old.json` and `new.json` (the run on `after.json`) in the drifted folder.
fn two_reports() -> Drifted {
    let d = Drifted::new();
    let (_, _, stderr) = d.run(&["after.json", "--format", "json=new.json"]);
    assert_eq!(stderr, "");
    d
}

#[test]
fn diff_prints_a_table_and_exits_1_on_new_failures() {
    let d = two_reports();
    let (status, stdout, stderr) = cloudspec(d.path(), &["diff", "old.json", "new.json"]);
    assert_eq!(status, 1, "{stderr}");
    let expected = "\
┌───────────┬──────────────────────────────────────┬─────┬───────┬────────────┐
│ Group     ┆ Rule                                 ┆ New ┆ Fixed ┆ Persisting │
╞═══════════╪══════════════════════════════════════╪═════╪═══════╪════════════╡
│ Buckets   ┆ Buckets must have versioning enabled ┆   0 ┆     1 ┆          1 │
│ Instances ┆ Instances require IMDSv2             ┆   1 ┆     1 ┆          1 │
└───────────┴──────────────────────────────────────┴─────┴───────┴────────────┘

Buckets › Buckets must have versioning enabled
  fixed aws:s3:bucket scratch-2

Instances › Instances require IMDSv2
  new aws:ec2:instance i-001
  fixed aws:ec2:instance i-003

1 new, 2 fixed, 2 persisting
";
    assert_eq!(stdout, expected);
}

#[test]
fn diff_as_json() {
    let d = two_reports();
    let (status, stdout, _) = cloudspec(
        d.path(),
        &["diff", "old.json", "new.json", "--format", "json"],
    );
    assert_eq!(status, 1);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        doc,
        json!({
            "cloudspec_diff": 1,
            "old": "old.json",
            "new": "new.json",
            "summary": {"new": 1, "fixed": 2, "persisting": 2},
            "rules": [
                {"group": "Buckets", "rule": "Buckets must have versioning enabled",
                 "new": [],
                 "fixed": [{"type": "aws:s3:bucket", "id": "scratch-2"}],
                 "persisting": [{"type": "aws:s3:bucket", "id": "scratch-1"}]},
                {"group": "Instances", "rule": "Instances require IMDSv2",
                 "new": [{"type": "aws:ec2:instance", "id": "i-001"}],
                 "fixed": [{"type": "aws:ec2:instance", "id": "i-003"}],
                 "persisting": [{"type": "aws:ec2:instance", "id": "i-002"}]}
            ]
        })
    );
}

#[test]
fn diff_without_new_failures_exits_0() {
    let d = two_reports();
    let (status, stdout, _) = cloudspec(d.path(), &["diff", "old.json", "old.json"]);
    assert_eq!(status, 0);
    assert!(
        stdout.ends_with("0 new, 0 fixed, 4 persisting\n"),
        "{stdout}"
    );
}

#[test]
fn diff_of_something_that_is_not_a_report_exits_2() {
    let d = two_reports();
    let (status, stdout, stderr) = cloudspec(d.path(), &["diff", "old.json", "after.json"]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "error: after.json: is not a cloudspec JSON report (it has no \"cloudspec_report\" key; write one with `cloudspec run --format json`)\n"
    );
    let (status, _, stderr) = cloudspec(d.path(), &["diff", "gone.json", "new.json"]);
    assert_eq!(status, 2);
    assert!(
        stderr.starts_with("error: gone.json: cannot read: "),
        "{stderr}"
    );
}

/// `--report-passing none`: the JSON report lists only what did not pass, each rule counts
/// what it left out, the summary is the full report's; the other formats do not change.
#[test]
fn report_passing_none_leaves_passing_resources_out_of_the_json_report() {
    let d = Drifted::new();
    let (status, full, stderr) = d.run(&["before.json", "--format", "json"]);
    assert_eq!(status, 1, "{stderr}");
    let (status, compact, stderr) = d.run(&[
        "before.json",
        "--format",
        "json",
        "--report-passing",
        "none",
    ]);
    assert_eq!(status, 1, "{stderr}");
    let full: Value = serde_json::from_str(&full).unwrap();
    let compact: Value = serde_json::from_str(&compact).unwrap();
    assert_eq!(compact["summary"], full["summary"]);
    let rules = |report: &Value| -> Vec<Value> {
        (report["groups"].as_array().unwrap().iter())
            .flat_map(|g| g["rules"].as_array().unwrap().clone())
            .collect()
    };
    let (full_rules, compact_rules) = (rules(&full), rules(&compact));
    assert_eq!(compact_rules.len(), 2);
    for (f, c) in full_rules.iter().zip(&compact_rules) {
        let listed = f["resources"].as_array().unwrap();
        let kept: Vec<&Value> = listed.iter().filter(|r| r["status"] != "pass").collect();
        let passing = listed.len() - kept.len();
        assert!(
            passing > 0,
            "the fixture has passing resources in {}",
            f["name"]
        );
        assert_eq!(c["passing_omitted"], passing, "{c}");
        assert_eq!(
            c["resources"]
                .as_array()
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            kept
        );
        assert_eq!(f.get("passing_omitted"), None, "only with the option");
        let mut rest = c.clone();
        let rest = rest.as_object_mut().unwrap();
        rest.remove("passing_omitted");
        rest.insert("resources".into(), f["resources"].clone());
        assert_eq!(
            &Value::Object(rest.clone()),
            f,
            "the rest of the rule is unchanged"
        );
    }
    // JUnit's `time` attributes differ from run to run.
    let times = regex::Regex::new(r#" time="[0-9.]+""#).unwrap();
    let strip_times = |s: &str| times.replace_all(s, "").into_owned();
    for format in ["console", "junit", "sarif"] {
        let (_, listed, _) = d.run(&["before.json", "--format", format]);
        let (_, omitted, _) = d.run(&[
            "before.json",
            "--format",
            format,
            "--report-passing",
            "none",
        ]);
        assert_eq!(strip_times(&omitted), strip_times(&listed), "{format}");
    }
}

/// A report without its passing resources is still a baseline: the same drift as against
/// the full report (passing and gone are both "fixed").
#[test]
fn a_report_without_passing_resources_serves_as_a_baseline() {
    let d = Drifted::new();
    let (status, _, stderr) = d.run(&[
        "before.json",
        "--report-passing",
        "none",
        "--format",
        "json=compact.json",
    ]);
    assert_eq!(status, 1, "{stderr}");
    let drift = |baseline: &str| {
        let (_, stdout, stderr) =
            d.run(&["after.json", "--baseline", baseline, "--format", "json"]);
        assert_eq!(stderr, "");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        let mut baseline = report["baseline"].clone();
        baseline["file"] = json!("-");
        baseline
    };
    assert_eq!(drift("compact.json"), drift("old.json"));

    // `cloudspec diff` reads the same drift from either kind of report on either side, also
    // when a rule is `error` with a fixed failure under it: the buckets' collection failed,
    // scratch-2 now passes, and a rule in `error` keeps its passing resources.
    let text = std::fs::read_to_string(d.path().join("after.json")).unwrap();
    let mut inventory: Value = serde_json::from_str(&text).unwrap();
    inventory["errors"] = json!([
        {"type": "aws:s3:bucket", "region": "eu-west-1", "message": "AccessDenied"}
    ]);
    std::fs::write(d.path().join("after-error.json"), inventory.to_string()).unwrap();
    let diff = |old: &str, new: &str| {
        let (status, stdout, stderr) = cloudspec(d.path(), &["diff", old, new, "--format", "json"]);
        assert_eq!(stderr, "");
        let mut doc: Value = serde_json::from_str(&stdout).unwrap();
        doc["old"] = json!("-");
        doc["new"] = json!("-");
        (status, doc)
    };
    for inventory in ["after.json", "after-error.json"] {
        for (name, passing) in [("full.json", "all"), ("compact-new.json", "none")] {
            let target = format!("json={name}");
            let args = [inventory, "--report-passing", passing, "--format", &target];
            let (status, _, stderr) = d.run(&args);
            assert!(status == 1 || status == 3, "{stderr}");
        }
        let expected = diff("old.json", "full.json");
        assert_eq!(expected.0, 1, "i-001 is new");
        let fixed: Vec<&Value> = (expected.1["rules"].as_array().unwrap().iter())
            .flat_map(|r| r["fixed"].as_array().unwrap())
            .map(|r| &r["id"])
            .collect();
        assert!(
            fixed.contains(&&json!("scratch-2")),
            "{inventory}: {fixed:?}"
        );
        for (old, new) in [
            ("old.json", "compact-new.json"),
            ("compact.json", "full.json"),
            ("compact.json", "compact-new.json"),
        ] {
            assert_eq!(diff(old, new), expected, "{inventory}: diff {old} {new}");
        }
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("compact-new.json")).unwrap())
            .unwrap();
    let buckets = &report["groups"][0]["rules"][0];
    assert_eq!(
        (&buckets["status"], &buckets["passing_omitted"]),
        (&json!("error"), &json!(0)),
        "{buckets}"
    );
    assert!(buckets["resources"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["status"] == "pass"));
}

#[test]
fn report_passing_takes_all_or_none() {
    let d = Drifted::new();
    let (status, _, stderr) = d.run(&["after.json", "--report-passing", "some"]);
    assert_eq!(status, 2);
    assert!(
        stderr.starts_with(
            "error: invalid value 'some' for '--report-passing <WHICH>'\n  \
             [possible values: all, none]\n"
        ),
        "{stderr}"
    );
}
