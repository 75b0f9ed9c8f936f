//! One budget per evaluation (`cloudspec_hcl::budget`): work that each call kept within
//! its own limits, repeated, is stopped for the whole run with one diagnostic. Limits are
//! small here so the tests run fast; the command line uses the defaults
//! (`tests/it/cli_hcl.rs` runs the bombs that exhaust memory against the real binary).

use std::collections::BTreeMap;

use cloudspec_hcl::budget::{Budget, Limits};
use cloudspec_hcl::eval::{body_to_value, EvalContext};
use cloudspec_hcl::hcldec::cmd::{run_with_budget, Options, Source};
use cloudspec_hcl::syntax::{parse_body, SourceFile};
use cloudspec_model::input::InputError;

fn small(steps: u64) -> std::sync::Arc<Budget> {
    Budget::with_limits(Limits {
        steps,
        ..Limits::default()
    })
}

/// (summary, line, column) of each diagnostic.
fn evaluate(text: &str, budget: std::sync::Arc<Budget>) -> Vec<(String, usize, usize)> {
    let src = SourceFile::new("t.hcl", text);
    let body = parse_body(&src).expect("parses");
    let (_, diags) = budget.enter(|| body_to_value(&body, &EvalContext::new(), &src));
    diags
        .iter()
        .map(|d| {
            let (line, column) = d
                .subject
                .as_ref()
                .map_or((0, 0), |r| (r.start.line, r.start.column));
            (d.summary.clone(), line, column)
        })
        .collect()
}

/// A template `%{for}` whose body is literal text evaluates no expression per iteration:
/// each iteration is a step all the same (1024³ iterations ran for hours within the old
/// per-call budget of expressions).
#[test]
fn template_for_iterations_are_steps() {
    let text = "x = \"%{for a in range(1024)}%{for b in range(1024)}%{for c in range(1024)}%{endfor}%{endfor}%{endfor}\"\n";
    assert_eq!(
        evaluate(text, small(100_000)),
        [("Evaluation too expensive".to_string(), 1, 52)]
    );
    // Within the budget: evaluated as before.
    let text = "x = \"%{for a in range(3)}${a}%{endfor}\"\n";
    assert_eq!(evaluate(text, small(100_000)), []);
}

/// Steps are counted for the whole body, not per attribute: many attributes each within
/// the budget exhaust it together, and the run reports it once.
#[test]
fn the_budget_is_shared_by_all_attributes() {
    let attr = "[for a in range(100) : [for b in range(100) : b]]";
    let text: String = (0..10).map(|i| format!("a{i} = {attr}\n")).collect();
    assert_eq!(evaluate(&text, small(1_000_000)), []);
    let diags = evaluate(&text, small(50_000));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].0, "Evaluation too expensive");
}

/// Files served from memory.
struct Mem(BTreeMap<String, Vec<u8>>);

impl Source for Mem {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError> {
        self.0.get(path).cloned().ok_or_else(|| InputError::Io {
            path: path.into(),
            source: std::io::Error::other("no such file"),
        })
    }
    fn read_stdin(&self) -> Result<Vec<u8>, InputError> {
        self.read_file("<stdin>")
    }
}

/// Nested `dynamic` blocks (64⁵ blocks from a 241-byte input) count one step per block
/// generated, in the run's one budget: they ran for hours (each `for_each` alone was
/// cheap).
#[test]
fn dynamic_blocks_are_steps_of_the_run() {
    let mut body = "v = 1\n".to_string();
    let mut spec = "attr {\n  name = \"v\"\n  type = number\n}\n".to_string();
    for _ in 0..5 {
        body = format!("dynamic \"b\" {{\n  for_each = l\n  content {{\n{body}  }}\n}}\n");
        spec = format!("block_list {{\n  block_type = \"b\"\n{spec}}}\n");
    }
    let list: Vec<String> = (0..64).map(|i| i.to_string()).collect();
    let files = Mem(BTreeMap::from([
        ("s.hcldec".to_string(), spec.into_bytes()),
        ("in.hcl".to_string(), body.into_bytes()),
    ]));
    let opts = Options {
        spec: "s.hcldec".into(),
        vars: vec![format!("{{\"l\": [{}]}}", list.join(","))],
        inputs: vec!["in.hcl".into()],
        diags_json: true,
        ..Options::default()
    };
    let out = run_with_budget(&opts, &files, small(100_000));
    assert_eq!((out.status, out.stdout.as_str()), (2, ""));
    let doc: serde_json::Value = serde_json::from_str(&out.stderr).expect("JSON");
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    assert_eq!(diags.len(), 1, "{}", out.stderr);
    assert_eq!(diags[0]["summary"], "Evaluation too expensive");
    assert_eq!(
        diags[0]["detail"],
        "Evaluation stopped after 100000 steps: nested 'for' expressions, splats, templates or dynamic blocks repeat too much work."
    );
    assert_eq!(diags[0]["subject"]["filename"], "in.hcl");
}
