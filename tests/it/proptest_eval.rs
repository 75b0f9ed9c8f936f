//! Property tests of the evaluator's budget (docs/language.md, "Evaluation limits"): random
//! specs (nested statements joined by `and` and `or`, associations, quantifiers) over random
//! inventories whose references fan out, form cycles, dangle or lead into a failed
//! collection. Evaluation always terminates without panicking, records at most the cap of
//! findings per resource, and a resource either gets the verdict an unlimited evaluation
//! gives it or the out-of-steps error; remembering walks changes nothing. The specs use the
//! counting quantifiers too (`at least 1`, `at most 1`, `exactly 2`, `at least 0`).
//!
//! Pattern predicates: `matching` and `not matching` with random patterns, valid or not, on
//! random values never panic; a valid pattern gives what the `regex` crate's search gives,
//! `not matching` its exact negation on strings, and both fail on anything else; patterns
//! known to backtrack exponentially elsewhere run in linear time here.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cloudspec::eval::{evaluate_with_limits, Limits, SpecInput};
use cloudspec::model::Inventory;
use cloudspec::outcome::{RunOutcome, Status};
use cloudspec::syntax::ast::{Literal, PredicateKind, Spanned, Spec, Tail};
use proptest::prelude::*;

/// The counting quantifiers, as the generated specs write them.
const COUNTING: [&str; 4] = ["at least 1 ", "at most 1 ", "exactly 2 ", "at least 0 "];

/// Whether the parser reads counting quantifiers. (The syntax side lands them in the same
/// change as the evaluator; until then the generated specs say `any` instead.)
fn counting_parses() -> bool {
    static PARSES: OnceLock<bool> = OnceLock::new();
    *PARSES.get_or_init(|| {
        let spec =
            "Spec \"P\"\nGroup \"G\"\n  Rule \"R\"\n    On x:y:z\n    Assert at least 1 xs == 1\n";
        !cloudspec::syntax::parse(spec).has_errors()
    })
}

/// A statement as text: a member with a predicate, or a member (or association) with a
/// body of statements joined by `and` and `or`.
fn statement() -> impl Strategy<Value = String> {
    let quantifier = prop_oneof![
        4 => prop_oneof![Just(""), Just("any "), Just("every "), Just("no ")],
        1 => prop::sample::select(COUNTING.to_vec()),
    ];
    let leaf = (
        quantifier.clone(),
        prop_oneof![Just("v"), Just("xs"), Just("w"), Just("r")],
        prop_oneof![
            Just("== 1"),
            Just("gte 1"),
            Just("is null"),
            Just("is not null"),
            Just("is empty"),
            Just("within [1, 2]"),
        ],
    )
        .prop_map(|(q, m, p)| format!("{q}{m} {p}"));
    leaf.prop_recursive(5, 40, 3, move |inner| {
        (
            quantifier.clone(),
            prop_oneof![Just("> r"), Just("> r"), Just("> o"), Just("o"), Just("xs")],
            prop::collection::vec((any::<bool>(), inner), 1..=3),
        )
            .prop_map(|(q, m, body)| format!("{q}{m} ( {} )", joined(&body, "and", "or")))
    })
}

/// Statements joined by `and` (or by `or` where the flag says so).
fn joined(statements: &[(bool, String)], and: &str, or: &str) -> String {
    let mut out = String::new();
    for (i, (is_or, s)) in statements.iter().enumerate() {
        if i > 0 {
            out.push_str(if *is_or { or } else { and });
        }
        out.push(' ');
        out.push_str(s);
        out.push(' ');
    }
    out.trim().to_string()
}

type RuleText = (Option<Vec<(bool, String)>>, Vec<(bool, String)>);

fn rule() -> impl Strategy<Value = RuleText> {
    (
        prop::option::of(prop::collection::vec((any::<bool>(), statement()), 1..=2)),
        prop::collection::vec((any::<bool>(), statement()), 1..=3),
    )
}

fn spec() -> impl Strategy<Value = String> {
    prop::collection::vec(rule(), 1..=3).prop_map(|rules| {
        let mut out = String::from("Spec \"P\"\n\nGroup \"G\"\n");
        for (i, (with, assert)) in rules.iter().enumerate() {
            out.push_str(&format!("  Rule \"R{i}\"\n    On x:y:z\n"));
            if let Some(w) = with {
                out.push_str(&format!(
                    "    With {}\n",
                    joined(w, "\n    And", "\n    Or")
                ));
            }
            out.push_str(&format!(
                "    Assert {}\n",
                joined(assert, "\n    And", "\n    Or")
            ));
        }
        out
    })
}

/// A value for `v` or `w`: a number, null, unknown (maybe known present), or absent.
fn scalar() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(Some("1".to_string())),
        Just(Some("2".to_string())),
        Just(Some("null".to_string())),
        Just(Some(r#"{"$unknown":"later"}"#.to_string())),
        Just(Some(r#"{"$unknown":"later","not_null":true}"#.to_string())),
        Just(None),
    ]
}

/// References to resources `0..n` of the inventory, one past them (dangling), or into a
/// type whose collection failed.
fn refs(n: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(0..n + 2, 0..=4).prop_map(move |targets| {
        let items: Vec<String> = targets
            .iter()
            .map(|&t| {
                if t == n + 1 {
                    r#"{"$ref":"x:y:w/f"}"#.to_string()
                } else {
                    format!(r#"{{"$ref":"x:y:z/r{t}"}}"#)
                }
            })
            .collect();
        format!("[{}]", items.join(","))
    })
}

fn resource(n: usize) -> impl Strategy<Value = String> {
    (
        scalar(),
        scalar(),
        prop::collection::vec(0i64..3, 0..=3),
        refs(n),
        prop::option::of((scalar(), refs(n))),
    )
        .prop_map(|(v, w, xs, r, o)| {
            let mut props = Vec::new();
            if let Some(v) = v {
                props.push(format!(r#""v":{v}"#));
            }
            if let Some(w) = w {
                props.push(format!(r#""w":{w}"#));
            }
            let xs: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
            props.push(format!(r#""xs":[{}]"#, xs.join(",")));
            props.push(format!(r#""r":{r}"#));
            if let Some((ov, or)) = o {
                let ov = ov.map(|v| format!(r#""v":{v},"#)).unwrap_or_default();
                props.push(format!(r#""o":{{{ov}"r":{or}}}"#));
            }
            props.join(",")
        })
}

fn inventory() -> impl Strategy<Value = String> {
    (1usize..=4)
        .prop_flat_map(|n| (prop::collection::vec(resource(n), n..=n), any::<bool>()))
        .prop_map(|(resources, failed)| {
            let resources: Vec<String> = resources
                .iter()
                .enumerate()
                .map(|(i, p)| format!(r#"{{"type":"x:y:z","id":"r{i}","properties":{{{p}}}}}"#))
                .collect();
            let errors = if failed {
                r#"[{"type":"x:y:w","message":"denied"}]"#
            } else {
                "[]"
            };
            format!(
                r#"{{"cloudspec_inventory":1,"resources":[{}],"errors":{errors}}}"#,
                resources.join(",\n")
            )
        })
}

fn evaluate(spec: &str, inventory: &Inventory, limits: Limits) -> RunOutcome {
    let owned;
    let spec = if counting_parses() {
        spec
    } else {
        owned = COUNTING
            .iter()
            .fold(spec.to_string(), |s, q| s.replace(q, "any "));
        owned.as_str()
    };
    let parsed = cloudspec::syntax::parse(spec);
    assert!(!parsed.has_errors(), "{spec}\n{:?}", parsed.diagnostics);
    let ast = parsed.spec.as_ref().expect("a spec");
    let input = SpecInput {
        file: "p.cloudspec",
        source: spec,
        spec: ast,
    };
    evaluate_with_limits(&[input], inventory, 1, limits)
}

fn out_of_steps(max_steps: u64) -> String {
    format!(
        "not evaluated: the rule needs more than {max_steps} steps on this resource (the \
         evaluation limit per rule and resource)"
    )
}

/// Unlimited enough for these small inputs (at most 4 references, 5 levels deep).
const PLENTY: u64 = 100_000_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Within any limits: no panic, at most the cap of findings, and every resource has
    /// either its unlimited verdict and findings or the out-of-steps error.
    #[test]
    fn evaluation_stays_within_its_budget(
        spec in spec(),
        inventory in inventory(),
        max_steps in prop_oneof![1u64..50, 50u64..2_000],
        max_findings in 0usize..6,
        memo_min_steps in prop_oneof![Just(0u64), Just(32), Just(u64::MAX)],
    ) {
        let inventory = Inventory::from_slice(inventory.as_bytes(), "inv.json")
            .expect("a valid inventory");
        let limited = evaluate(&spec, &inventory, Limits { max_steps, max_findings, memo_min_steps });
        let full = evaluate(&spec, &inventory, Limits { max_steps: PLENTY, max_findings, memo_min_steps });
        let expected_error = out_of_steps(max_steps);
        let rules = limited.rules().zip(full.rules());
        for ((_, _, limited), (_, _, full)) in rules {
            for r in &limited.resources {
                prop_assert!(r.failures().len() <= max_findings);
                prop_assert!(r.unknowns().len() <= max_findings);
                // Recorded notes, the With note and up to three "... and N more" notes.
                prop_assert!(r.notes().len() <= max_findings + 4);
                let f = full.resources.iter().find(|f| f.id == r.id);
                if r.status == Status::Error && r.error() == Some(expected_error.as_str()) {
                    // Out of steps: in scope whatever its With would have said.
                    continue;
                }
                prop_assert!(f.is_some(), "{} in scope only when limited", r.id);
                if let Some(f) = f {
                    prop_assert_eq!(r, f);
                }
            }
            for f in &full.resources {
                prop_assert!(
                    limited.resources.iter().any(|r| r.id == f.id),
                    "{} in scope only without limits", f.id
                );
            }
        }
    }

    /// Remembering walks (all of them, or none) gives the same report.
    #[test]
    fn remembering_walks_changes_nothing(
        spec in spec(),
        inventory in inventory(),
        max_findings in prop_oneof![0usize..4, Just(100)],
    ) {
        let inventory = Inventory::from_slice(inventory.as_bytes(), "inv.json")
            .expect("a valid inventory");
        let run = |memo_min_steps| {
            let outcome = evaluate(
                &spec,
                &inventory,
                Limits { max_steps: PLENTY, max_findings, memo_min_steps },
            );
            serde_json::to_value(&outcome).expect("JSON")
        };
        let never = run(u64::MAX);
        prop_assert_eq!(&never, &run(0));
        prop_assert_eq!(&never, &run(3));
    }
}

/// A valid regular expression, built from pieces: literals (escaped where special),
/// classes, anchors, groups, alternations, repetitions, flags.
fn pattern() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        "[a-c0-2 .\\-é]{1,3}".prop_map(|s| regex::escape(&s)),
        prop::sample::select(vec![
            ".",
            "\\d",
            "\\w",
            "\\s",
            "[a-c]",
            "[^0-9]",
            "\\.",
            "\\\\",
            "\\b",
            "^",
            "$",
            "(?i)a",
            "\\x{e9}",
            "[[:alpha:]]",
            "\\p{L}",
        ])
        .prop_map(str::to_string),
    ];
    atom.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..=3).prop_map(|v| v.concat()),
            prop::collection::vec(inner.clone(), 2..=3)
                .prop_map(|v| format!("(?:{})", v.join("|"))),
            (
                inner.clone(),
                prop::sample::select(vec!["*", "+", "?", "{2}", "{1,3}", "*?", "{0,}"])
            )
                .prop_map(|(a, r)| format!("({a}){r}")),
            inner.prop_map(|a| format!("(?m)(?s){a}")),
        ]
    })
}

/// A property value: a string (mostly), or something else, or null.
fn value() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        6 => "[a-c0-2 .\\\\\\-\\né]{0,12}".prop_map(serde_json::Value::from),
        2 => any::<String>().prop_map(serde_json::Value::from),
        1 => any::<i64>().prop_map(serde_json::Value::from),
        1 => Just(serde_json::Value::Null),
        1 => Just(serde_json::json!(["a1", "b2"])),
        1 => Just(serde_json::json!({"$unknown": "later"})),
    ]
}

/// Two rules, `name matching P` and `name not matching P`, built from a spec that parses
/// today with its predicates swapped (the pattern is set as the literal's value, after
/// escapes, as the parser would).
fn pattern_spec(pattern: &str) -> (String, Spec) {
    let source = "Spec \"P\"\nGroup \"G\"\n  Rule \"M\"\n    On x:y:z\n    Assert name starting with \"x\"\n  Rule \"N\"\n    On x:y:z\n    Assert name starting with \"x\"\n".to_string();
    let parsed = cloudspec::syntax::parse(&source);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let mut spec = parsed.spec.expect("a spec");
    for (rule, kind) in spec.groups[0]
        .rules
        .iter_mut()
        .zip([PredicateKind::Matching, PredicateKind::NotMatching])
    {
        let Tail::Predicate(p) = &mut rule.assert.alternatives[0][0].tail else {
            panic!("a predicate")
        };
        p.kind = kind;
        p.operands = vec![Literal::Str(Spanned::new(pattern.to_string(), p.span))];
    }
    (source, spec)
}

fn pattern_outcome(pattern: &str, values: &[serde_json::Value]) -> RunOutcome {
    let resources: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!(r#"{{"type":"x:y:z","id":"r{i:03}","properties":{{"name":{v}}}}}"#))
        .collect();
    let inventory = format!(
        r#"{{"cloudspec_inventory":1,"resources":[{}],"errors":[]}}"#,
        resources.join(",")
    );
    let inventory = Inventory::from_slice(inventory.as_bytes(), "inv.json").expect("inventory");
    let (source, spec) = pattern_spec(pattern);
    let input = SpecInput {
        file: "p.cloudspec",
        source: &source,
        spec: &spec,
    };
    evaluate_with_limits(&[input], &inventory, 1, Limits::default())
}

/// The verdict `matching` (or `not matching`) should give a value.
fn expected_status(re: Option<&regex::Regex>, value: &serde_json::Value, found: bool) -> Status {
    match (value, re) {
        (serde_json::Value::String(s), Some(re)) => {
            if re.is_match(s) == found {
                Status::Pass
            } else {
                Status::Fail
            }
        }
        // A list of strings: each element must hold (Assert is "every").
        (serde_json::Value::Array(items), Some(re)) => {
            let all = items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| re.is_match(s) == found));
            if all {
                Status::Pass
            } else {
                Status::Fail
            }
        }
        (serde_json::Value::Object(_), _) => Status::Unknown,
        _ => Status::Fail,
    }
}

fn check_patterns(pattern: &str, values: &[serde_json::Value]) -> Result<(), TestCaseError> {
    let outcome = pattern_outcome(pattern, values);
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
        .ok();
    let rules: Vec<_> = outcome.rules().map(|(_, _, r)| r).collect();
    prop_assert_eq!(rules.len(), 2);
    for (rule, found) in rules.iter().zip([true, false]) {
        prop_assert_eq!(rule.resources.len(), values.len());
        for (r, v) in rule.resources.iter().zip(values) {
            let want = expected_status(re.as_ref(), v, found);
            prop_assert_eq!(r.status, want, "{:?} on {} (found: {})", pattern, v, found);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Valid patterns on random values: the `regex` crate's search, its negation, and a
    /// failure on anything but a string; never a panic.
    #[test]
    fn matching_valid_patterns_never_panics(
        pattern in pattern(),
        values in prop::collection::vec(value(), 1..8),
    ) {
        prop_assert!(regex::Regex::new(&pattern).is_ok(), "{:?} is not valid", pattern);
        check_patterns(&pattern, &values)?;
    }

    /// Any text as a pattern (mostly invalid): no panic. (The parser rejects an invalid
    /// pattern before anything runs; the evaluator then fails every value.)
    #[test]
    fn matching_any_text_never_panics(
        pattern in prop_oneof!["[()\\[\\]{}*+?|\\\\^$.a-c0-9:<>P=!-]{0,16}", any::<String>()],
        values in prop::collection::vec(value(), 1..4),
    ) {
        check_patterns(&pattern, &values)?;
    }
}

/// Patterns that backtracking engines take exponential time on run in linear time: a
/// 20,000-character subject is searched by each in well under a second per value (10 s
/// allowed for the debug build on a loaded machine).
#[test]
fn pathological_patterns_run_in_linear_time() {
    let subject = serde_json::Value::from(format!("{}!", "a".repeat(20_000)));
    for pattern in [
        "^(a+)+$",
        "^(a|a)*$",
        "^(a*)*b$",
        "^(a|aa)+$",
        "(.*a){12}$",
        "^(\\w+\\s?)*$",
    ] {
        let started = Instant::now();
        check_patterns(pattern, std::slice::from_ref(&subject)).expect("verdicts");
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(10),
            "{pattern} took {took:?} on 20,001 characters"
        );
    }
    // A pattern past the size limit does not compile (the parser reports it): every value
    // fails, and nothing hangs.
    check_patterns("(\\w{100}){100}", &[serde_json::Value::from("abc")]).expect("verdicts");
}
