//! Evaluation behaviour that the YAML cases cannot express: diagnostic ranges, several
//! errors per file, scopes, `variables()`, standalone templates and whole bodies.

use std::collections::BTreeMap;

use cloudspec_hcl::diag::Diagnostic;
use cloudspec_hcl::eval::{self, EvalContext, TraverseStep};
use cloudspec_hcl::syntax::{parse_body, parse_expr, parse_template, SourceFile};
use cloudspec_hcl::{json, Number, Type, Value};

fn eval_expr(text: &str, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    let src = SourceFile::new("t.hcl", text);
    let e = parse_expr(&src).expect("parses");
    eval::expr(&e, ctx, &src)
}

/// `summary @ line:col-line:col` for each diagnostic.
fn located(diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| match &d.subject {
            Some(r) => format!(
                "{} @ {}:{}-{}:{}",
                d.summary, r.start.line, r.start.column, r.end.line, r.end.column
            ),
            None => format!("{} @ -", d.summary),
        })
        .collect()
}

fn vars(json_text: &str) -> EvalContext {
    match json::decode(json_text).expect("json") {
        Value::Object(m) => EvalContext::new().with_variables(m),
        _ => panic!("vars must be an object"),
    }
}

#[test]
fn diagnostics_point_at_the_failing_part() {
    let ctx = vars(r#"{"obj": {"a": [1, 2]}}"#);
    let cases: &[(&str, &str)] = &[
        ("nosuch", "Unknown variable @ 1:1-1:7"),
        ("obj.b", "Unsupported attribute @ 1:4-1:6"),
        ("obj.a[5]", "Invalid index @ 1:6-1:9"),
        ("(1 +\n  \"x\")", "Invalid operand @ 2:3-2:6"),
        ("nosuch(1)", "Call to unknown function @ 1:1-1:7"),
        ("upper([])", "Invalid function argument @ 1:7-1:9"),
        (
            "[for x in null : x]",
            "Iteration over null value @ 1:11-1:15",
        ),
        (
            "\"a${null}\"",
            "Invalid template interpolation value @ 1:5-1:9",
        ),
        ("\"é\\/\"", "Invalid escape sequence @ 1:3-1:5"),
    ];
    for (text, want) in cases {
        let (_, diags) = eval_expr(text, &ctx);
        assert_eq!(located(&diags), vec![want.to_string()], "{text}");
    }
}

#[test]
fn a_failed_expression_is_unknown_and_evaluation_continues() {
    let (v, diags) = eval_expr("[nosuch1, 1 / 0, {a = 1}.b, 2]", &EvalContext::new());
    assert_eq!(
        located(&diags),
        vec![
            "Unknown variable @ 1:2-1:9",
            "Division by zero @ 1:15-1:16",
            "Unsupported attribute @ 1:25-1:27",
        ]
    );
    let Value::Tuple(items) = v else {
        panic!("tuple expected, got {v:?}");
    };
    assert_eq!(items.len(), 4);
    assert!(items[0].is_unknown() && items[2].is_unknown());
    assert_eq!(items[1], Value::Unknown(Type::Number));
    assert_eq!(items[3], Value::Number(Number::from_i64(2)));
}

#[test]
fn nil_contexts_forbid_variables_and_calls() {
    let (_, diags) = eval_expr("x", &EvalContext::empty());
    assert_eq!(diags[0].summary, "Variables not allowed");
    assert_eq!(diags[0].detail, "Variables may not be used here.");
    let (_, diags) = eval_expr("upper(\"a\")", &EvalContext::empty());
    assert_eq!(diags[0].summary, "Function calls not allowed");
    let (v, diags) = eval_expr("1 + 2", &EvalContext::empty());
    assert!(diags.is_empty());
    assert_eq!(v, Value::Number(Number::from_i64(3)));
}

#[test]
fn child_scopes_shadow_and_inherit() {
    let mut root = EvalContext::new();
    root.set_variable("a", Value::String("root".into()));
    root.set_variable("b", Value::String("b".into()));
    let mut vars = BTreeMap::new();
    vars.insert("a".to_string(), Value::String("child".into()));
    let child = root.child(vars);
    let (v, diags) = eval_expr("\"${a}-${b}-${upper(b)}\"", &child);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(v, Value::String("child-b-B".into()));
}

#[test]
fn try_reports_every_failure_with_hcl_ranges() {
    let (_, diags) = eval_expr("try(nosuch, {}.x)", &EvalContext::new());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Error in function call");
    assert_eq!(
        diags[0].detail,
        "Call to function \"try\" failed: no expression succeeded:\n\
         - Unknown variable (at t.hcl:1,5-11)\n  There is no variable named \"nosuch\".\n\
         - Unsupported attribute (at t.hcl:1,15-17)\n  This object does not have an attribute named \"x\".\n\
         \nAt least one expression must produce a successful result."
    );
}

#[test]
fn variables_lists_absolute_traversals() {
    let text = "[for x in a.b[c].d : x + y.z[0][\"k\"] + x.w] + f(q.*.r, s[*].t, \"${u.v}\")";
    let src = SourceFile::new("t.hcl", text);
    let e = parse_expr(&src).expect("parses");
    let found: Vec<(Vec<TraverseStep>, String)> = eval::variables(&e, &src)
        .into_iter()
        .map(|(steps, r)| (steps, format!("{}-{}", r.start.column, r.end.column)))
        .collect();
    let root = |n: &str| TraverseStep::Root(n.to_string());
    let attr = |n: &str| TraverseStep::Attr(n.to_string());
    assert_eq!(
        found,
        vec![
            (vec![root("a"), attr("b")], "11-14".to_string()),
            (vec![root("c")], "15-16".to_string()),
            (
                vec![
                    root("y"),
                    attr("z"),
                    TraverseStep::Index(Value::Number(Number::from_i64(0))),
                    TraverseStep::Index(Value::String("k".into())),
                ],
                "26-37".to_string()
            ),
            (vec![root("q")], "49-50".to_string()),
            (vec![root("s")], "56-57".to_string()),
            (vec![root("u"), attr("v")], "67-70".to_string()),
        ]
    );
}

#[test]
fn standalone_templates_unwrap_single_interpolations() {
    let ctx = vars(r#"{"n": 5, "xs": ["a", "b"]}"#);
    let run = |text: &str| {
        let src = SourceFile::new("t.tmpl", text);
        let t = parse_template(&src).expect("parses");
        eval::template(&t, &ctx, &src)
    };
    let (v, diags) = run("${n}");
    assert!(diags.is_empty());
    assert_eq!(v, Value::Number(Number::from_i64(5)));
    let (v, _) = run("n=${n}\n%{ for x in xs ~}\n- ${x}\n%{ endfor ~}\nend \\n \"q\"\n");
    assert_eq!(v, Value::String("n=5\n- a\n- b\nend \\n \"q\"\n".into()));
}

#[test]
fn source_base_positions_shift_diagnostics() {
    let base = cloudspec_hcl::Pos {
        line: 3,
        column: 10,
        byte: 40,
    };
    let src = SourceFile::with_base("f.json", "${nosuch}", base);
    let t = parse_template(&src).expect("parses");
    let (_, diags) = eval::template(&t, &EvalContext::new(), &src);
    let r = diags[0].subject.clone().expect("range");
    assert_eq!((r.start.line, r.start.column, r.start.byte), (3, 12, 42));
    assert_eq!(r.filename, "f.json");
}

#[test]
fn bodies_become_nested_objects() {
    let text = r#"
name = "x"
resource "aws_s3_bucket" "logs" {
  acl = "private"
}
resource "aws_s3_bucket" "data" {
  acl = upper("public")
}
locals {
  a = 1
}
locals {
  b = [for v in [1, 2] : v * 2]
}
"#;
    let src = SourceFile::new("main.tf", text);
    let body = parse_body(&src).expect("parses");
    let (v, diags) = eval::body_to_value(&body, &EvalContext::new(), &src);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        json::encode(&v).expect("json"),
        r#"{"locals":[{"a":1},{"b":[2,4]}],"name":"x","resource":{"aws_s3_bucket":{"data":[{"acl":"PUBLIC"}],"logs":[{"acl":"private"}]}}}"#
    );
}

#[test]
fn body_errors_are_all_reported_in_source_order() {
    let text = "resource \"a\" \"b\" { x = nosuch1 }\nlocals { y = nosuch2 }\nz = nosuch3\nz2 {}\nz2 \"l\" {}\nlocals = 1\n";
    let src = SourceFile::new("main.tf", text);
    let body = parse_body(&src).expect("parses");
    let (_, diags) = eval::body_to_value(&body, &EvalContext::new(), &src);
    assert_eq!(
        located(&diags),
        vec![
            "Unknown variable @ 1:24-1:31",
            "Unknown variable @ 2:14-2:21",
            "Unknown variable @ 3:5-3:12",
            "Inconsistent block labels @ 5:1-5:3",
            "Attribute and block of the same name @ 2:1-2:7",
        ]
    );
}

/// Deeply nested input is parsed and evaluated within a test thread's small stack.
#[test]
fn deep_nesting_within_the_limit_evaluates_and_beyond_is_a_diagnostic() {
    let run = |text: String| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let src = SourceFile::new("t", text);
                match parse_expr(&src) {
                    Ok(e) => {
                        let (v, d) = eval::expr(&e, &EvalContext::new(), &src);
                        (Some(v), d)
                    }
                    Err(d) => (None, vec![d]),
                }
            })
            .expect("spawn")
            .join()
            .expect("no stack overflow")
    };
    let deep = |open: &str, mid: &str, close: &str, n: usize| {
        format!("{}{mid}{}", open.repeat(n), close.repeat(n))
    };
    for text in [
        deep("[for x in ", "[1]", " : x]", 60),
        deep("[", "1", "]", 60),
        deep("(", "1", ")", 60),
        deep("-", "1", "", 60),
        deep("!", "true", "", 60),
        deep("{a = ", "1", "}", 60),
        deep("f(", "1", ")", 60),
        deep("\"${", "1", "}\"", 60),
        deep("\"%{if true}", "x", "%{endif}\"", 60),
        deep("true ? ", "1", " : 2", 60),
        deep("try(", "1", ")", 60),
        format!("1{}", " + 1".repeat(127)),
        format!("[1]{}", "[*]".repeat(200)),
    ] {
        let (v, diags) = run(text.clone());
        assert!(v.is_some(), "{text}: {diags:?}");
    }
    for text in [
        deep("[", "1", "]", 100),
        deep("[for x in ", "[1]", " : x]", 1000),
        deep("(", "1", ")", 100_000),
        deep("-", "1", "", 100_000),
        format!("1{}", " + 1".repeat(10_000)),
    ] {
        let (v, diags) = run(text.clone());
        assert!(v.is_none(), "{}", &text[..40]);
        assert!(
            ["Nesting too deep", "Too many operators"].contains(&diags[0].summary.as_str()),
            "{diags:?}"
        );
    }
    // Splats are traversal steps (not parser nesting): the evaluator bounds them.
    let (v, diags) = run(format!("[1]{}", "[*]".repeat(10_000)));
    assert!(v.is_some_and(|v| v.is_unknown()));
    assert_eq!(diags[0].summary, "Nesting too deep");
}
