//! Evaluation of `or` between statements (docs/language.md, "Either of two statements: or"):
//! Kleene's three-valued disjunction, `and` binding tighter, `or` inside quantifiers and
//! counts, in With, the failures and unknowns a disjunction reports, and errors.

use super::*;
use crate::model::Inventory;
use crate::outcome::{ResourceOutcome, RunOutcome, Status};

fn outcome(spec_source: &str, resources: &str, errors: &str) -> RunOutcome {
    let parsed = crate::syntax::parse(spec_source);
    assert!(
        parsed.diagnostics.is_empty(),
        "{spec_source}\n{:?}",
        parsed.diagnostics
    );
    let spec = parsed.spec.expect("a spec");
    let json = format!(
        r#"{{"cloudspec_inventory": 1, "collected_at": "2026-11-22T07:00:00Z", "resources": [{resources}], "errors": [{errors}]}}"#
    );
    let inventory = Inventory::from_slice(json.as_bytes(), "inventory.json").expect("inventory");
    let input = SpecInput {
        file: "t.cloudspec",
        source: spec_source,
        spec: &spec,
    };
    evaluate_with_threads(&[input], &inventory, 1)
}

/// A spec of one rule on `t:x:res` whose clauses are `clauses` (`Assert ...`, `With ...`).
fn spec(clauses: &str) -> String {
    format!("Spec \"s\"\nGroup \"g\"\n  Rule \"r\"\n    On t:x:res\n    {clauses}\n")
}

/// Resources of type `t:x:res`, `id => properties`.
fn res(items: &[(&str, &str)]) -> String {
    items
        .iter()
        .map(|(id, props)| format!(r#"{{"type": "t:x:res", "id": "{id}", "properties": {props}}}"#))
        .collect::<Vec<_>>()
        .join(",")
}

fn rule(out: &RunOutcome) -> &crate::outcome::RuleOutcome {
    &out.specs[0].groups[0].rules[0]
}

/// `id:status` of every resource in scope.
fn verdicts(out: &RunOutcome) -> Vec<String> {
    rule(out)
        .resources
        .iter()
        .map(|r| format!("{}:{}", r.id, r.status))
        .collect()
}

fn resource<'a>(out: &'a RunOutcome, id: &str) -> &'a ResourceOutcome {
    rule(out)
        .resources
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} not in {:?}", verdicts(out)))
}

/// `path: message` of each failure of `id`.
fn failures(out: &RunOutcome, id: &str) -> Vec<String> {
    resource(out, id)
        .failures()
        .iter()
        .map(|f| format!("{}: {}", f.path, f.message))
        .collect()
}

fn unknowns(out: &RunOutcome, id: &str) -> Vec<String> {
    resource(out, id)
        .unknowns()
        .iter()
        .map(|u| format!("{}: {}", u.path, u.reason))
        .collect()
}

const U: &str = r#"{"$unknown": "computed"}"#;

/// The value of `a` or `b` for a truth value of `x == 1`: true, false, unknown.
fn value(truth: char) -> &'static str {
    match truth {
        'T' => "1",
        'F' => "2",
        _ => U,
    }
}

#[test]
fn a_disjunction_is_kleenes_or() {
    let mut items = Vec::new();
    for a in ['T', 'F', 'U'] {
        for b in ['T', 'F', 'U'] {
            items.push((
                format!("{a}{b}"),
                format!(r#"{{"a": {}, "b": {}}}"#, value(a), value(b)),
            ));
        }
    }
    let items: Vec<(&str, &str)> = items
        .iter()
        .map(|(id, p)| (id.as_str(), p.as_str()))
        .collect();
    let out = outcome(&spec("Assert a == 1 or b == 1"), &res(&items), "");
    assert_eq!(
        verdicts(&out),
        [
            "FF:fail",
            "FT:pass",
            "FU:unknown",
            "TF:pass",
            "TT:pass",
            "TU:pass",
            "UF:unknown",
            "UT:pass",
            "UU:unknown"
        ]
    );
    // Failing: what each alternative found.
    assert_eq!(
        failures(&out, "FF"),
        ["a: a is 2, expected == 1", "b: b is 2, expected == 1"]
    );
    // Unknown: the unknown paths, not the failures of the alternatives that failed.
    assert!(failures(&out, "FU").is_empty());
    assert_eq!(unknowns(&out, "FU"), ["b: computed"]);
    assert_eq!(unknowns(&out, "UU"), ["a: computed", "b: computed"]);
    // Passing: nothing from any alternative.
    assert!(failures(&out, "TF").is_empty() && unknowns(&out, "TU").is_empty());
    assert!(unknowns(&out, "UT").is_empty());
    assert_eq!(rule(&out).status, Status::Fail);
}

#[test]
fn and_binds_tighter_than_or() {
    // `(a and b) or (c and d)`, not `a and (b or c) and d`.
    let items = res(&[
        ("r1", r#"{"a": 2, "b": 2, "c": 1, "d": 1}"#),
        ("r2", r#"{"a": 1, "b": 2, "c": 1, "d": 2}"#),
        ("r3", r#"{"a": 1, "b": 1, "c": 2, "d": 2}"#),
        ("r4", r#"{"a": 1, "b": 1, "c": 1, "d": 1}"#),
    ]);
    let out = outcome(
        &spec("Assert a == 1 and b == 1\n    Or c == 1\n    And d == 1"),
        &items,
        "",
    );
    assert_eq!(verdicts(&out), ["r1:pass", "r2:fail", "r3:pass", "r4:pass"]);
    assert_eq!(
        failures(&out, "r2"),
        ["b: b is 2, expected == 1", "d: d is 2, expected == 1"]
    );
    // The same inside parentheses, and in any case.
    let nested = res(&[
        ("r1", r#"{"n": {"a": 2, "b": 2, "c": 1, "d": 1}}"#),
        ("r2", r#"{"n": {"a": 1, "b": 2, "c": 1, "d": 2}}"#),
    ]);
    let out = outcome(
        &spec("Assert n ( a == 1 AND b == 1 OR c == 1 and d == 1 )"),
        &nested,
        "",
    );
    assert_eq!(verdicts(&out), ["r1:pass", "r2:fail"]);
    assert_eq!(
        failures(&out, "r2"),
        ["n.b: b is 2, expected == 1", "n.d: d is 2, expected == 1"]
    );
}

#[test]
fn or_under_every_any_and_no_is_a_predicate_on_each_element() {
    let items = res(&[
        ("all", r#"{"xs": [{"a": 1}, {"b": 1}]}"#),
        ("one", r#"{"xs": [{"a": 1}, {"a": 2, "b": 2}]}"#),
        ("none", r#"{"xs": [{"a": 2}, {"b": 2}]}"#),
        (
            "unk",
            r#"{"xs": [{"a": 2, "b": {"$unknown": "computed"}}]}"#,
        ),
        ("empty", r#"{"xs": []}"#),
    ]);
    let every = outcome(&spec("Assert xs ( a == 1 or b == 1 )"), &items, "");
    assert_eq!(
        verdicts(&every),
        [
            "all:pass",
            "empty:pass",
            "none:fail",
            "one:fail",
            "unk:unknown"
        ]
    );
    assert_eq!(
        failures(&every, "one"),
        [
            "xs[1].a: a is 2, expected == 1",
            "xs[1].b: b is 2, expected == 1"
        ]
    );
    assert_eq!(unknowns(&every, "unk"), ["xs[0].b: computed"]);
    assert_eq!(resource(&every, "empty").notes().len(), 1, "vacuous");

    let any = outcome(&spec("Assert any xs ( a == 1 or b == 1 )"), &items, "");
    assert_eq!(
        verdicts(&any),
        [
            "all:pass",
            "empty:fail",
            "none:fail",
            "one:pass",
            "unk:unknown"
        ]
    );
    assert_eq!(
        failures(&any, "none"),
        [
            "xs[0].a: a is 2, expected == 1",
            "xs[0].b: b is missing, expected == 1",
            "xs[1].a: a is missing, expected == 1",
            "xs[1].b: b is 2, expected == 1"
        ]
    );

    // No element where a == 1 or b == 1.
    let no = outcome(&spec("Assert no xs ( a == 1 or b == 1 )"), &items, "");
    assert_eq!(
        verdicts(&no),
        [
            "all:fail",
            "empty:pass",
            "none:pass",
            "one:fail",
            "unk:unknown"
        ]
    );
    assert_eq!(
        failures(&no, "all"),
        [
            "xs[0]: xs[0] matches, expected no xs to match",
            "xs[1]: xs[1] matches, expected no xs to match"
        ]
    );
}

#[test]
fn or_under_counting_quantifiers_counts_elements_where_an_alternative_holds() {
    let items = res(&[
        ("two", r#"{"xs": [{"a": 1}, {"b": 1}, {"a": 2}]}"#),
        ("one", r#"{"xs": [{"a": 1}, {"a": 2, "b": 2}]}"#),
        (
            "maybe",
            r#"{"xs": [{"a": 1}, {"a": 2, "b": {"$unknown": "computed"}}]}"#,
        ),
    ]);
    let at_least = outcome(
        &spec("Assert at least 2 xs ( a == 1 or b == 1 )"),
        &items,
        "",
    );
    assert_eq!(
        verdicts(&at_least),
        ["maybe:unknown", "one:fail", "two:pass"]
    );
    assert_eq!(
        failures(&at_least, "one"),
        [
            "xs[1].a: a is 2, expected == 1",
            "xs[1].b: b is 2, expected == 1",
            "xs: 1 of xs matches, expected at least 2"
        ]
    );
    let at_most = outcome(
        &spec("Assert at most 1 xs ( a == 1 or b == 1 )"),
        &items,
        "",
    );
    assert_eq!(
        verdicts(&at_most),
        ["maybe:unknown", "one:pass", "two:fail"]
    );
    let exactly = outcome(
        &spec("Assert exactly 2 xs ( a == 1 or b == 1 )"),
        &items,
        "",
    );
    assert_eq!(
        verdicts(&exactly),
        ["maybe:unknown", "one:fail", "two:pass"]
    );
}

#[test]
fn with_accepts_or() {
    let items = res(&[
        ("prod", r#"{"env": "prod", "ok": true}"#),
        ("staging", r#"{"env": "staging", "ok": false}"#),
        ("dev", r#"{"env": "dev", "ok": false}"#),
        ("unset", &format!(r#"{{"env": {U}, "ok": true}}"#)),
    ]);
    let out = outcome(
        &spec("With env == \"prod\" or env == \"staging\"\n    Assert ok is true"),
        &items,
        "",
    );
    assert_eq!(
        verdicts(&out),
        ["prod:pass", "staging:fail", "unset:unknown"]
    );
    assert_eq!(
        resource(&out, "unset").notes()[0],
        "the With clause is unknown, so the scope is undetermined"
    );
}

#[test]
fn a_vacuous_alternative_leaves_no_note_when_another_holds_outright() {
    let items = res(&[
        ("both", r#"{"xs": [], "a": 1}"#),
        ("vacuous", r#"{"xs": [], "a": 2}"#),
    ]);
    for clauses in [
        "Assert xs ( b == 1 ) or a == 1",
        "Assert a == 1 or xs ( b == 1 )",
    ] {
        let out = outcome(&spec(clauses), &items, "");
        assert_eq!(verdicts(&out), ["both:pass", "vacuous:pass"], "{clauses}");
        assert!(resource(&out, "both").notes().is_empty(), "{clauses}");
        assert_eq!(resource(&out, "vacuous").notes().len(), 1, "{clauses}");
    }
}

#[test]
fn an_error_counts_only_when_it_is_what_stops_the_disjunction() {
    // `> sub` leads into a type whose collection failed.
    let items = res(&[
        ("holds", r#"{"a": 1, "sub": {"$ref": "t:x:sub/s1"}}"#),
        ("fails", r#"{"a": 2, "sub": {"$ref": "t:x:sub/s1"}}"#),
    ]);
    let errors = r#"{"type": "t:x:sub", "message": "AccessDenied"}"#;
    for clauses in [
        "Assert a == 1 or > sub ( b == 1 )",
        "Assert > sub ( b == 1 ) or a == 1",
    ] {
        let out = outcome(&spec(clauses), &items, errors);
        assert_eq!(verdicts(&out), ["fails:error", "holds:pass"], "{clauses}");
        assert_eq!(rule(&out).status, Status::Error, "{clauses}");
    }
    // When every resource holds through another alternative, the failed collection is not
    // what the verdict rests on.
    let holds = res(&[("holds", r#"{"a": 1, "sub": {"$ref": "t:x:sub/s1"}}"#)]);
    for clauses in [
        "Assert a == 1 or > sub ( b == 1 )",
        "Assert > sub ( b == 1 ) or a == 1",
    ] {
        let out = outcome(&spec(clauses), &holds, errors);
        assert_eq!(verdicts(&out), ["holds:pass"], "{clauses}");
        assert_eq!(rule(&out).status, Status::Pass, "{clauses}");
    }
    // Under `and`, as before: an error met anywhere makes the resource an error.
    let out = outcome(&spec("Assert a == 1 and > sub ( b == 1 )"), &items, errors);
    assert_eq!(verdicts(&out), ["fails:error", "holds:error"]);
}

#[test]
fn an_alternative_reads_members_for_the_projection_and_collection_errors() {
    let parsed = crate::syntax::parse(&spec(
        "Assert a == 1 or n ( b == 1 or > c ( d == 1 ) )\n    Or e is true",
    ));
    let spec = parsed.spec.expect("a spec");
    let rule = &spec.groups[0].rules[0];
    let mut names = HashSet::new();
    for s in rule.statements() {
        member_names(s, true, &mut names);
    }
    let mut names: Vec<&str> = names.into_iter().collect();
    names.sort_unstable();
    assert_eq!(names, ["a", "b", "c", "d", "e", "n"]);
    let mut expected = crate::model::Projection::new();
    expected.keep_through("n").keep_through("c");
    for name in ["a", "b", "d", "e"] {
        expected.keep_whole(name);
    }
    assert_eq!(projection([&spec]), expected);
}
