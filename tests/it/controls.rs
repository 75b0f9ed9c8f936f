//! `cloudspec run --controls`: the controls view in every report format through the real
//! binary, a rule pack's default controls (`controls/default`) and `--no-controls`, the
//! warning for a reference to a control the file does not list, and malformed controls
//! files (each a file in `tests/fixtures/controls/malformed/` with the exact error it gives
//! in `NAME.stderr`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/controls")
}

/// Runs `cloudspec run ARGS` in `dir`; returns exit status, stdout and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(dir)
        .arg("run")
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

/// `cloudspec run spec.cloudspec --inventory inventory.json ARGS` in the fixture folder.
fn run(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["spec.cloudspec", "--inventory", "inventory.json"];
    all.extend_from_slice(args);
    run_in(&fixtures(), &all)
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// `(id, status, [rule names])` of every control of a JSON report, in order.
fn verdicts(report: &Value) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for section in report["controls"]["sections"]
        .as_array()
        .into_iter()
        .flatten()
    {
        for control in section["controls"].as_array().into_iter().flatten() {
            let rules = control["rules"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| r["name"].as_str().unwrap_or_default().to_string())
                .collect();
            out.push((
                control["id"].as_str().unwrap_or_default().to_string(),
                control["status"].as_str().unwrap_or_default().to_string(),
                rules,
            ));
        }
    }
    out
}

const UNKNOWN_CONTROL_WARNING: &str = "rule \"Buckets are tagged with a team\" references EX-1.0-9.9, but controls.yaml (Example Benchmark 1.0) has no control 9.9";

#[test]
fn the_json_report_carries_every_control_with_its_verdict() {
    let (status, stdout, stderr) = run(&["--controls", "controls.yaml", "--format", "json"]);
    assert_eq!(status, 1, "{stderr}");
    let report = json(&stdout);
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        verdicts(&report),
        vec![
            (
                "1.1".into(),
                "fail".into(),
                s(&["Instances require IMDSv2"])
            ),
            (
                "1.2".into(),
                "skip".into(),
                s(&["Load balancers use TLS 1.2"])
            ),
            ("1.3".into(), "not_covered".into(), s(&[])),
            (
                "2.1".into(),
                "fail".into(),
                s(&[
                    "Buckets must have versioning enabled",
                    "Buckets are tagged with a team"
                ])
            ),
            ("2.2".into(), "manual".into(), s(&[])),
        ]
    );
    let controls = &report["controls"];
    assert_eq!(controls["file"], "controls.yaml");
    assert_eq!(controls["benchmark"], "Example Benchmark");
    assert_eq!(controls["version"], "1.0");
    assert_eq!(controls["reference_prefix"], "EX-1.0");
    assert_eq!(
        controls["summary"],
        serde_json::json!({"controls": 5, "pass": 0, "fail": 2, "error": 0, "unknown": 0,
            "waived": 0, "skip": 1, "manual": 1, "not_covered": 1})
    );
    let section = &controls["sections"][1];
    assert_eq!(section["id"], "2");
    assert_eq!(section["title"], "Storage");
    let control = &section["controls"][0];
    assert_eq!(control["reference"], "EX-1.0-2.1");
    assert_eq!(control["assessment"], "automated");
    assert_eq!(
        control["rules"][0],
        serde_json::json!({"spec": "Controls fixture", "group": "Buckets",
            "name": "Buckets must have versioning enabled", "status": "fail",
            "resources": 2, "failing": 1,
            "location": {"file": "spec.cloudspec", "line": 6, "column": 3}})
    );
    // The rule referencing an unlisted control is a warning, on stderr and in the report.
    assert_eq!(
        stderr,
        format!("warning: spec.cloudspec:13:3: {UNKNOWN_CONTROL_WARNING}\n")
    );
}

#[test]
fn the_console_lists_controls_by_section_after_the_rule_table() {
    let (status, stdout, _) = run(&["--controls", "controls.yaml"]);
    assert_eq!(status, 1);
    let expected = "\
Controls of Example Benchmark 1.0 (controls.yaml)

1 Compute
  1.1  fail         Instances require IMDSv2
         fail    Instances › Instances require IMDSv2 (1 of 2 failing)
  1.2  skip         Load balancers use TLS 1.2
         skip    Instances › Load balancers use TLS 1.2
  1.3  not covered  Instances are patched

2 Storage
  2.1  fail         Buckets are versioned and owned
         fail    Buckets › Buckets must have versioning enabled (1 of 2 failing)
         pass    Buckets › Buckets are tagged with a team
  2.2  manual       Data is classified

";
    let table_end = stdout.find("┘\n\n").expect("the rule table") + "┘\n\n".len();
    assert!(
        stdout[table_end..].starts_with(expected),
        "{}",
        &stdout[table_end..]
    );
    assert!(
        stdout.contains(
            "\n4 rules: 1 pass, 2 fail, 1 skip, 0 error (4 resources evaluated)\nExample Benchmark 1.0: 5 controls: 2 fail, 1 skip, 1 manual, 1 not covered\n"
        ),
        "{stdout}"
    );
}

#[test]
fn junit_has_a_testsuite_of_controls() {
    let (_, stdout, _) = run(&["--controls", "controls.yaml", "--format", "junit"]);
    for line in [
        r#"<testsuite name="Example Benchmark 1.0" tests="5" errors="0" failures="2" time="0.000" skipped="3" file="controls.yaml">"#,
        r#"<property name="reference_prefix" value="EX-1.0"/>"#,
        r#"<testcase name="1.1 Instances require IMDSv2" classname="1 Compute">"#,
        r#"<failure message="its rule fails" type="fail">EX-1.0-1.1"#,
        "fail: Instances / Instances require IMDSv2 (1 of 2 failing) [spec.cloudspec:20]",
        r#"<skipped message="manual: assessed by hand; no rule of the run checks it">EX-1.0-2.2</skipped>"#,
        r#"<skipped message="not covered: no rule of the run checks this automated control">EX-1.0-1.3</skipped>"#,
    ] {
        assert!(stdout.contains(line), "{line}\nnot in\n{stdout}");
    }
}

#[test]
fn sarif_tags_rules_with_their_controls_and_carries_the_benchmark_as_a_taxonomy() {
    let (_, stdout, _) = run(&["--controls", "controls.yaml", "--format", "sarif"]);
    let log = json(&stdout);
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let versioning = &rules[0];
    assert_eq!(
        versioning["properties"]["tags"],
        serde_json::json!(["Buckets", "aws:s3:bucket", "EX-1.0-2.1"])
    );
    assert_eq!(
        versioning["relationships"],
        serde_json::json!([{"target": {"id": "2.1", "index": 3,
            "toolComponent": {"name": "Example Benchmark", "index": 0}},
            "kinds": ["relevant"]}])
    );
    // The repeated reference counts once.
    assert_eq!(
        rules[2]["properties"]["tags"],
        serde_json::json!(["Instances", "aws:ec2:instance", "EX-1.0-1.1"])
    );
    let taxonomy = &run["taxonomies"][0];
    assert_eq!(taxonomy["name"], "Example Benchmark");
    assert_eq!(taxonomy["version"], "1.0");
    assert_eq!(
        taxonomy["taxa"][2],
        serde_json::json!({"id": "1.3", "shortDescription": {"text": "Instances are patched"},
            "properties": {"reference": "EX-1.0-1.3", "section": "1 Compute",
                "assessment": "automated", "status": "not_covered"}})
    );
}

#[test]
fn without_controls_the_reports_have_no_controls_view() {
    let (_, stdout, stderr) = run(&["--format", "json"]);
    assert!(json(&stdout).get("controls").is_none());
    assert_eq!(stderr, "");
    let (_, stdout, _) = run(&["--format", "sarif"]);
    assert!(json(&stdout)["runs"][0].get("taxonomies").is_none());
    let (_, stdout, _) = run(&[]);
    assert!(!stdout.contains("Controls of"), "{stdout}");
}

#[test]
fn a_spec_directory_with_controls_default_brings_its_controls() {
    let (status, stdout, stderr) = run_in(
        &fixtures(),
        &["pack", "--inventory", "inventory.json", "--format", "json"],
    );
    assert_eq!(status, 1, "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["controls"]["file"], "pack/controls/example-1.0.yaml");
    assert_eq!(verdicts(&report).len(), 5);
    // --no-controls opts out; --controls picks another file.
    let (_, stdout, stderr) = run_in(
        &fixtures(),
        &[
            "pack",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
            "--no-controls",
        ],
    );
    assert!(json(&stdout).get("controls").is_none());
    assert_eq!(stderr, "");
    let (_, stdout, _) = run_in(
        &fixtures(),
        &[
            "pack",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
            "--controls",
            "controls.yaml",
        ],
    );
    assert_eq!(json(&stdout)["controls"]["file"], "controls.yaml");
    // A spec file of the pack, not the directory, brings none.
    let (_, stdout, _) = run_in(
        &fixtures(),
        &[
            "pack/spec.cloudspec",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
        ],
    );
    assert!(json(&stdout).get("controls").is_none());
}

#[test]
fn the_cis_pack_brings_cis_7_and_takes_cis_6_on_request() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inventory = "rules/aws-cis/fixtures/networking-noncompliant.json";
    let (status, stdout, stderr) = run_in(
        root,
        &[
            "rules/aws-cis",
            "--inventory",
            inventory,
            "--format",
            "json",
        ],
    );
    assert_eq!(status, 1, "{stderr}");
    assert_eq!(stderr, "", "every reference of the pack names a control");
    let report = json(&stdout);
    assert_eq!(report["controls"]["version"], "7.0.0");
    assert_eq!(report["controls"]["summary"]["controls"], 70);
    let v7 = verdicts(&report);
    let find = |v: &[(String, String, Vec<String>)], id: &str| {
        v.iter()
            .find(|c| c.0 == id)
            .map(|c| c.1.clone())
            .unwrap_or_default()
    };
    assert_eq!(find(&v7, "6.2"), "fail");
    assert_eq!(find(&v7, "2.1.1"), "manual");
    let (_, stdout, stderr) = run_in(
        root,
        &[
            "rules/aws-cis",
            "--inventory",
            inventory,
            "--format",
            "json",
            "--controls",
            "rules/aws-cis/controls/cis-6.0.0.yaml",
        ],
    );
    assert_eq!(stderr, "");
    let report = json(&stdout);
    assert_eq!(report["controls"]["reference_prefix"], "CIS-AWS-6.0.0");
    assert_eq!(report["controls"]["summary"]["controls"], 63);
    assert_eq!(find(&verdicts(&report), "6.2"), "fail");
}

#[test]
fn the_shipped_controls_files_parse_and_list_every_reference_of_the_pack() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/aws-cis");
    for (file, prefix, count) in [
        ("cis-7.0.yaml", "CIS-AWS-7.0", 70),
        ("cis-6.0.0.yaml", "CIS-AWS-6.0.0", 63),
    ] {
        let text = std::fs::read_to_string(root.join("controls").join(file)).expect("read");
        let catalog = cloudspec::controls::parse(&text).unwrap_or_else(|e| panic!("{file}:{e}"));
        assert_eq!(catalog.reference_prefix, prefix);
        let ids: Vec<&str> = catalog
            .sections
            .iter()
            .flat_map(|s| s.controls.iter().map(|c| c.id.as_str()))
            .collect();
        assert_eq!(ids.len(), count, "{file}");
        let sections: Vec<String> = catalog
            .sections
            .iter()
            .map(|s| format!("{} {}", s.id, s.title))
            .collect();
        assert_eq!(
            sections,
            [
                "2 Identity and Access Management",
                "3 Storage",
                "4 Logging",
                "5 Monitoring",
                "6 Networking"
            ]
        );
        for section in &catalog.sections {
            for control in &section.controls {
                assert!(
                    control.id.starts_with(&format!("{}.", section.id)),
                    "{file}: {} in section {}",
                    control.id,
                    section.id
                );
            }
        }
    }
    assert_eq!(
        std::fs::read_to_string(root.join("controls/default"))
            .expect("read")
            .trim(),
        "cis-7.0.yaml"
    );
}

#[test]
fn malformed_controls_files_are_errors_with_line_and_column() {
    let dir = fixtures().join("malformed");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 15);
    let mut failures = Vec::new();
    for case in cases {
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let expected = std::fs::read_to_string(case.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{name}: no .stderr file: {e}"));
        let (status, stdout, stderr) = run(&["--controls", &format!("malformed/{name}")]);
        if status != 2 || stderr != expected || !stdout.is_empty() {
            failures.push(format!(
                "{name}: exit {status}\n  expected: {expected}  actual:   {stderr}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_unreadable_controls_file_is_an_error() {
    let (status, stdout, stderr) = run(&["--controls", "missing.yaml"]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: missing.yaml: cannot read: "),
        "{stderr}"
    );
}

#[test]
fn controls_and_no_controls_conflict() {
    let (status, _, stderr) = run(&["--controls", "controls.yaml", "--no-controls"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("the argument '--controls <FILE>' cannot be used with '--no-controls'"),
        "{stderr}"
    );
}

/// A pack directory in a temporary folder: `spec.cloudspec`, `inventory.json`, and
/// `controls/` with `default` holding `pointer` (when given) and `example.yaml`.
fn pack(root: &Path, name: &str, pointer: Option<&str>) {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("controls")).expect("mkdir");
    std::fs::copy(
        fixtures().join("spec.cloudspec"),
        dir.join("spec.cloudspec"),
    )
    .expect("copy");
    std::fs::copy(
        fixtures().join("controls.yaml"),
        dir.join("controls/example.yaml"),
    )
    .expect("copy");
    if let Some(pointer) = pointer {
        std::fs::write(dir.join("controls/default"), pointer).expect("write");
    }
}

#[test]
fn bad_default_controls_are_errors() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let root = tmp.path();
    std::fs::copy(
        fixtures().join("inventory.json"),
        root.join("inventory.json"),
    )
    .expect("copy");
    pack(root, "missing", Some("cis-9.yaml\n"));
    pack(root, "escapes", Some("../spec.cloudspec\n"));
    pack(root, "two-lines", Some("example.yaml\nother.yaml\n"));
    pack(root, "a", Some("# the default\nexample.yaml\n"));
    pack(root, "b", Some("example.yaml"));
    pack(root, "none", None);
    let cases: [(&[&str], &str); 4] = [
        (
            &["missing"],
            "error: missing/controls/default: names cis-9.yaml, which is not a file of missing/controls\n",
        ),
        (
            &["escapes"],
            "error: escapes/controls/default: expected one line naming a controls file of escapes/controls (such as cis-7.0.yaml)\n",
        ),
        (
            &["two-lines"],
            "error: two-lines/controls/default: expected one line naming a controls file of two-lines/controls (such as cis-7.0.yaml)\n",
        ),
        (
            &["a", "b"],
            "error: several SPEC directories name default controls (a/controls/default, b/controls/default); choose one with --controls FILE, or none with --no-controls\n",
        ),
    ];
    for (specs, expected) in cases {
        let mut args = specs.to_vec();
        args.extend(["--inventory", "inventory.json"]);
        let (status, stdout, stderr) = run_in(root, &args);
        assert_eq!(
            (status, stdout.as_str(), stderr.as_str()),
            (2, "", expected),
            "{specs:?}"
        );
        // --controls or --no-controls settles it.
        args.push("--no-controls");
        let (status, _, stderr) = run_in(root, &args);
        assert_eq!(status, 1, "{specs:?}: {stderr}");
    }
    // A comment line is allowed; a directory without `default` brings nothing.
    let (_, stdout, _) = run_in(
        root,
        &[
            "a",
            "none",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
            "-q",
        ],
    );
    assert_eq!(json(&stdout)["controls"]["file"], "a/controls/example.yaml");
}
