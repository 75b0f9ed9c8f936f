//! The evaluator's budget (docs/language.md, "Evaluation limits"): references with fan-out
//! and cycles walked deep finish at once (walks into a resource are remembered per rule),
//! recorded failures are capped per resource with a note counting the rest, and a resource
//! that needs more steps than the limit is an `error` (exit status 3), never a hang or an
//! abort. Through the real binary (`run` and `test`) and through the library.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cloudspec::eval::{evaluate_with_limits, Limits, SpecInput, MAX_FINDINGS, MAX_STEPS};
use cloudspec::model::Inventory;
use cloudspec::outcome::{RunOutcome, Status};
use serde_json::Value;

/// Long enough for a loaded CI machine; the runs below take milliseconds.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the binary in `dir`, killed after [`TIMEOUT`] (a hang is a test failure, not a hung
/// test run).
fn cloudspec(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cloudspec");
    // Drain the pipes on threads, so a large report cannot block the child.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cloudspec {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout thread"),
        stderr: err.join().expect("stderr thread"),
    }
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fan_out_case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/120-reference-fan-out-and-cycles")
}

fn find_rule<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["rules"].as_array().into_iter().flatten())
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no rule {name:?} in {report:#}"))
}

fn find_resource<'a>(rule: &'a Value, id: &str) -> &'a Value {
    rule["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no resource {id:?} in {rule:#}"))
}

/// 4^20 paths through two resources that reference each other: the old evaluator walked
/// every path (`run` was killed for memory, `test` never finished). Now every rule has its
/// true verdict at once, and a failing resource lists 100 paths and counts the rest.
#[test]
fn fan_out_times_nesting_finishes_with_capped_failures() {
    let started = Instant::now();
    let out = cloudspec(
        &fan_out_case(),
        &[
            "run",
            "spec.cloudspec",
            "--inventory",
            "inventory.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 1, "stderr:\n{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");

    let every = find_rule(&report, "Every path ends at a one");
    assert_eq!(every["status"], "fail");
    for id in ["a", "b"] {
        let r = find_resource(every, id);
        assert_eq!(r["status"], "fail");
        let failures = r["failures"].as_array().expect("failures");
        assert_eq!(failures.len(), MAX_FINDINGS);
        // Every path has 20 hops; half of the 4^20 end at b, whose v is 2.
        let first = format!("{}> r[1].v", "> r[0] ".repeat(19));
        assert_eq!(failures[0]["path"], first.as_str());
        assert_eq!(failures[0]["message"], "v is 2, expected == 1");
        let second = format!("{}> r[3].v", "> r[0] ".repeat(19));
        assert_eq!(failures[1]["path"], second.as_str());
        let total: u64 = 1 << 39;
        assert_eq!(
            r["notes"],
            serde_json::json!([format!(
                "... and {} more failing paths, not listed (at most 100 are listed per resource)",
                total - 100
            )])
        );
    }

    let some = find_rule(&report, "Some path ends at a one");
    assert_eq!(some["status"], "pass");

    let none = find_rule(&report, "No path ends at a two");
    assert_eq!(none["status"], "fail");
    let r = find_resource(none, "a");
    let messages: Vec<&str> = r["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "> r[0] matches, expected no r to match",
            "> r[1] matches, expected no r to match",
            "> r[2] matches, expected no r to match",
            "> r[3] matches, expected no r to match",
        ]
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

/// The same case through `cloudspec test`, which hung on it before.
#[test]
fn rule_test_of_the_fan_out_case_finishes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let case = fan_out_case();
    for file in ["spec.cloudspec", "inventory.json"] {
        std::fs::copy(case.join(file), dir.path().join(file)).expect("copy");
    }
    std::fs::write(
        dir.path().join("spec.test.yaml"),
        "cases:\n  - name: fan-out\n    inventory: inventory.json\n    expect:\n      \
         \"Graph/Every path ends at a one\": fail\n      \"Graph/Some path ends at a one\": pass\n      \
         \"Graph/No path ends at a two\": fail\n",
    )
    .expect("write test file");
    let out = cloudspec(dir.path(), &["test", "spec.test.yaml"]);
    assert_eq!(
        text(&out.stdout),
        "PASS spec.test.yaml: fan-out\n1 rule untested (no case expects a failure)\n\
         1 passed, 0 failed\n"
    );
    assert_eq!(code(&out), 0, "stderr:\n{}", text(&out.stderr));
}

/// One resource with a list of a million numbers: checking each is a step, so with the
/// statement itself the rule needs 1,000,001 steps on it, one more than the limit.
fn write_budget_case(dir: &Path) {
    let mut inv = String::from(
        "{\"cloudspec_inventory\":1,\"resources\":[\n\
         {\"type\":\"x:y:z\",\"id\":\"big\",\"properties\":{\"xs\":[",
    );
    for i in 0..MAX_STEPS {
        if i > 0 {
            inv.push(',');
        }
        inv.push('0');
    }
    inv.push_str("]}},\n{\"type\":\"x:y:z\",\"id\":\"small\",\"properties\":{\"xs\":[0,1]}}\n]}\n");
    std::fs::write(dir.join("inventory.json"), inv).expect("write inventory");
    std::fs::write(
        dir.join("spec.cloudspec"),
        "Spec \"Budget\"\n\nGroup \"G\"\n    Rule \"R\"\n        On x:y:z\n        Assert xs gte 0\n",
    )
    .expect("write spec");
}

const OUT_OF_STEPS: &str = "not evaluated: the rule needs more than 1000000 steps on this \
                            resource (the evaluation limit per rule and resource)";

/// Running out of steps is an `error` verdict for that resource, with the limit named, and
/// the run exits 3 (incomplete); other resources keep their verdicts.
#[test]
fn out_of_steps_is_an_error_and_exit_three() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_budget_case(dir.path());
    let args = [
        "run",
        "spec.cloudspec",
        "--inventory",
        "inventory.json",
        "--format",
        "json",
    ];
    let out = cloudspec(dir.path(), &args);
    assert_eq!(code(&out), 3, "stderr:\n{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let rule = find_rule(&report, "R");
    assert_eq!(rule["status"], "error");
    assert_eq!(rule["error"], OUT_OF_STEPS);
    let big = find_resource(rule, "big");
    assert_eq!(big["status"], "error");
    assert_eq!(big["error"], OUT_OF_STEPS);
    assert_eq!(big["failures"], serde_json::json!([]));
    assert_eq!(find_resource(rule, "small")["status"], "pass");

    // The console report says it too.
    let out = cloudspec(dir.path(), &args[..4]);
    assert_eq!(code(&out), 3);
    assert!(
        text(&out.stdout).contains(OUT_OF_STEPS),
        "{}",
        text(&out.stdout)
    );
}

/// `cloudspec test` finishes on it with the error verdict.
#[test]
fn rule_test_sees_the_error_verdict() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_budget_case(dir.path());
    std::fs::write(
        dir.path().join("spec.test.yaml"),
        "cases:\n  - name: too big\n    inventory: inventory.json\n    expect:\n      \
         \"G/R\":\n        status: pass\n",
    )
    .expect("write test file");
    let out = cloudspec(dir.path(), &["test", "spec.test.yaml"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!(
            "FAIL spec.test.yaml: too big\n    G/R: expected pass, got error\n      {OUT_OF_STEPS}\n"
        )),
        "{stdout}"
    );
    assert_eq!(code(&out), 1, "stderr:\n{}", text(&out.stderr));
}

fn evaluate(spec: &str, inventory: &str, limits: Limits) -> RunOutcome {
    let parsed = cloudspec::syntax::parse(spec);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let spec_ast = parsed.spec.as_ref().expect("spec");
    let inventory = Inventory::from_slice(inventory.as_bytes(), "inventory.json").expect("load");
    let input = SpecInput {
        file: "spec.cloudspec",
        source: spec,
        spec: spec_ast,
    };
    evaluate_with_limits(&[input], &inventory, 1, limits)
}

/// The step limit counts exactly: a rule that needs `max_steps` steps passes, one more is
/// an error.
#[test]
fn the_limit_is_exact() {
    let spec = "Spec \"S\"\nGroup \"G\"\n  Rule \"R\"\n    On x:y:z\n    Assert xs gte 0\n";
    let inventory = r#"{"cloudspec_inventory":1,"resources":[
        {"type":"x:y:z","id":"a","properties":{"xs":[1,2,3,4]}}]}"#;
    // One step for the statement, one per element.
    let limits = |max_steps| Limits {
        max_steps,
        ..Limits::default()
    };
    let outcome = evaluate(spec, inventory, limits(5));
    let rule = &outcome.specs[0].groups[0].rules[0];
    assert_eq!(rule.resources[0].status, Status::Pass);
    let outcome = evaluate(spec, inventory, limits(4));
    let rule = &outcome.specs[0].groups[0].rules[0];
    assert_eq!(rule.status, Status::Error);
    assert_eq!(rule.resources[0].status, Status::Error);
    assert_eq!(
        rule.resources[0].error(),
        Some(
            "not evaluated: the rule needs more than 4 steps on this resource (the \
             evaluation limit per rule and resource)"
        )
    );
}

/// Unknown paths and notes are capped like failures, each with its own count.
#[test]
fn unknowns_and_notes_are_capped_and_counted() {
    let spec = "Spec \"S\"\nGroup \"G\"\n  Rule \"Unknown\"\n    On x:y:z\n    Assert xs gte 0\n  \
                Rule \"Vacuous\"\n    On x:y:z\n    Assert ys ( zs gte 0 )\n";
    let inventory = r#"{"cloudspec_inventory":1,"resources":[
        {"type":"x:y:z","id":"a","properties":{
          "xs":[{"$unknown":"u"},{"$unknown":"u"},{"$unknown":"u"},{"$unknown":"u"}],
          "ys":[{"zs":[]},{"zs":[]},{"zs":[]},{"zs":[]},{"zs":[]}]}}]}"#;
    let limits = Limits {
        max_findings: 2,
        ..Limits::default()
    };
    let outcome = evaluate(spec, inventory, limits);
    let rules = &outcome.specs[0].groups[0].rules;
    let unknown = &rules[0].resources[0];
    assert_eq!(unknown.status, Status::Unknown);
    let paths: Vec<&str> = unknown.unknowns().iter().map(|u| u.path.as_str()).collect();
    assert_eq!(paths, ["xs[0]", "xs[1]"]);
    assert_eq!(
        unknown.notes(),
        ["... and 2 more unknown paths, not listed (at most 2 are listed per resource)"]
    );
    let vacuous = &rules[1].resources[0];
    assert_eq!(vacuous.status, Status::Pass);
    assert_eq!(
        vacuous.notes(),
        [
            "ys[0].zs has no elements: checked zero elements, so it holds vacuously",
            "ys[1].zs has no elements: checked zero elements, so it holds vacuously",
            "... and 3 more notes, not listed (at most 2 are listed per resource)",
        ]
    );
}

/// Remembering walks changes nothing but the work: the fan-out case with every walk
/// remembered and with none (on a graph small enough to walk in full) gives one report.
#[test]
fn remembered_walks_give_the_same_outcome() {
    let depth = 6;
    let spec = format!(
        "Spec \"S\"\nGroup \"G\"\n  Rule \"Every\"\n    On x:y:z\n    Assert {}v == 1{}\n  \
         Rule \"No\"\n    On x:y:z\n    Assert no {}v == 2{}\n  \
         Rule \"Unknown\"\n    On x:y:z\n    Assert {}w gte 1{}\n",
        "> r ( ".repeat(depth),
        " )".repeat(depth),
        "> r ( ".repeat(depth),
        " )".repeat(depth),
        "every > r ( ".repeat(depth),
        " )".repeat(depth),
    );
    let inventory = r#"{"cloudspec_inventory":1,"resources":[
        {"type":"x:y:z","id":"a","properties":{"v":1,"w":{"$unknown":"later"},
          "r":[{"$ref":"x:y:z/a"},{"$ref":"x:y:z/b"},{"$ref":"x:y:z/gone"}]}},
        {"type":"x:y:z","id":"b","properties":{"v":2,"w":3,"r":[{"$ref":"x:y:z/a"},{"$ref":"x:y:z/b"}]}}]}"#;
    let with = |memo_min_steps, max_findings| {
        let outcome = evaluate(
            &spec,
            inventory,
            Limits {
                memo_min_steps,
                max_findings,
                ..Limits::default()
            },
        );
        serde_json::to_value(&outcome).expect("JSON")
    };
    for cap in [0, 1, 7, 100, 100_000] {
        let never = with(u64::MAX, cap);
        assert_eq!(never, with(0, cap), "max_findings {cap}");
        assert_eq!(never, with(5, cap), "max_findings {cap}");
    }
}

/// Rule positions are found in one pass over the file (and count a lone CR as a line end,
/// as every other position does).
#[test]
fn rule_locations() {
    let spec = "Spec \"S\"\r\rGroup \"G\"\n  Rule \"A\"\n    On x:y:z\n    Assert v == 1\r\n  \
                Rule \"B\"\n    On x:y:z\n    Assert v == 1\n";
    let inventory = r#"{"cloudspec_inventory":1,"resources":[]}"#;
    let outcome = evaluate(spec, inventory, Limits::default());
    let at: Vec<(usize, usize)> = outcome
        .rules()
        .map(|(_, _, r)| (r.location.line, r.location.column))
        .collect();
    assert_eq!(at, [(4, 3), (7, 3)]);
}
