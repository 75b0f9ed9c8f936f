//! Evaluation of counting quantifiers, time predicates and pattern predicates (language.md,
//! "Counting, time and pattern predicates"), on ASTs built by hand: each spec below parses
//! with the forms of the seed, and the test then swaps in the new quantifier or predicate
//! (`any` becomes `at most 1`, `starting with "T"` becomes `before "T"`, `gte 90` becomes
//! `older than 90 days`), so these run whatever the parser accepts.

use super::*;
use crate::model::Inventory;
use crate::outcome::{ResourceOutcome, RunOutcome, Status};
use crate::predicates::def;
use crate::syntax::ast::{
    Body, Literal, PredicateKind, Quantifier, Spanned, Spec, Statement, TimeUnit,
};

/// The reference time a run without `--now` uses: `collected_at`, else the clock.
fn reference_time(inventory: &Inventory) -> i128 {
    let clock = crate::predicates::instant_of(&chrono::Utc::now());
    super::reference_time(inventory, clock)
}

/// The reference time of every test inventory (`collected_at`).
const COLLECTED_AT: &str = "2026-11-22T07:00:00Z";

fn parse(source: &str) -> Spec {
    let parsed = crate::syntax::parse(source);
    assert!(
        parsed.diagnostics.is_empty(),
        "{source}\n{:?}",
        parsed.diagnostics
    );
    parsed.spec.expect("a spec")
}

fn inventory(resources: &str) -> Inventory {
    let json = format!(
        r#"{{"cloudspec_inventory": 1, "collected_at": "{COLLECTED_AT}", "resources": [{resources}], "errors": []}}"#
    );
    Inventory::from_slice(json.as_bytes(), "inventory.json").expect("inventory")
}

fn each_statement(body: &mut Body, f: &mut impl FnMut(&mut Statement)) {
    for s in body.alternatives.iter_mut().flatten() {
        f(s);
        if let Tail::Nested(body) = &mut s.tail {
            each_statement(body, f);
        }
    }
}

fn each_rule_statement(spec: &mut Spec, f: &mut impl FnMut(&mut Statement)) {
    for rule in spec.groups.iter_mut().flat_map(|g| &mut g.rules) {
        each_statement(&mut rule.with, f);
        each_statement(&mut rule.assert, f);
    }
}

/// Every explicit `any` becomes `q`.
fn requantify(spec: &mut Spec, q: Quantifier) {
    each_rule_statement(spec, &mut |s| {
        if let Some(sq) = &mut s.quantifier {
            if sq.value == Quantifier::Any {
                sq.value = q;
            }
        }
    });
}

/// Every `starting with "T"` becomes `kind "T"`, and every `gte N` becomes `kind N unit`.
fn repredicate(spec: &mut Spec, kind: PredicateKind, unit: TimeUnit) {
    each_rule_statement(spec, &mut |s| {
        if let Tail::Predicate(p) = &mut s.tail {
            match p.kind {
                PredicateKind::StartsWith => {
                    p.kind = kind;
                    p.words = def(kind).spellings[0].to_string();
                }
                PredicateKind::Gte => {
                    p.kind = kind;
                    p.words = def(kind).spellings[0].to_string();
                    p.unit = Some(Spanned::new(unit, p.span));
                    assert!(matches!(p.operands.as_slice(), [Literal::Int(_)]));
                }
                _ => {}
            }
        }
    });
}

fn run_at(source: &str, spec: &Spec, inv: &Inventory, now: i128) -> RunOutcome {
    let input = SpecInput {
        file: "t.cloudspec",
        source,
        spec,
    };
    evaluate_at(&[input], inv, 1, Limits::default(), now)
}

fn run(source: &str, spec: &Spec, inv: &Inventory) -> RunOutcome {
    run_at(source, spec, inv, reference_time(inv))
}

fn resources(outcome: &RunOutcome) -> &[ResourceOutcome] {
    &outcome.specs[0].groups[0].rules[0].resources
}

/// `id:status` of every resource of the first rule.
fn verdicts(outcome: &RunOutcome) -> Vec<String> {
    resources(outcome)
        .iter()
        .map(|r| format!("{}:{}", r.id, r.status))
        .collect()
}

fn resource<'a>(outcome: &'a RunOutcome, id: &str) -> &'a ResourceOutcome {
    resources(outcome)
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} not in {:?}", verdicts(outcome)))
}

fn messages(outcome: &RunOutcome, id: &str) -> Vec<String> {
    resource(outcome, id)
        .failures()
        .iter()
        .map(|f| format!("{}: {}", f.path, f.message))
        .collect()
}

fn unknown_paths(outcome: &RunOutcome, id: &str) -> Vec<String> {
    resource(outcome, id)
        .unknowns()
        .iter()
        .map(|u| u.path.clone())
        .collect()
}

const USERS: &str = r#"
    {"type": "t:iam:user", "id": "u0", "properties": {"keys": []}},
    {"type": "t:iam:user", "id": "u1", "properties": {"keys": [{"status": "Active"}]}},
    {"type": "t:iam:user", "id": "u2", "properties": {"keys": [{"status": "Active"}, {"status": "Active"}]}},
    {"type": "t:iam:user", "id": "u3", "properties": {"keys": [{"status": "Active"}, {"status": "Active"}, {"status": "Active"}]}},
    {"type": "t:iam:user", "id": "u4", "properties": {}},
    {"type": "t:iam:user", "id": "u5", "properties": {"keys": null}},
    {"type": "t:iam:user", "id": "u6", "properties": {"keys": [null, {"status": "Active"}, {"status": "Inactive"}]}},
    {"type": "t:iam:user", "id": "u7", "properties": {"keys": [{"status": {"$unknown": "computed"}}, {"status": "Active"}]}},
    {"type": "t:iam:user", "id": "u8", "properties": {"keys": {"$unknown": "known after apply"}}},
    {"type": "t:iam:user", "id": "u9", "properties": {"keys": [{"status": "Inactive"}, {"status": {"$unknown": "computed"}}, {"status": {"$unknown": "computed"}}]}}
"#;

const KEYS_SPEC: &str = r#"Spec "s"
Group "g"
  Rule "r"
    On t:iam:user
    Assert any keys ( status == "Active" )
"#;

fn count_keys(q: Quantifier) -> RunOutcome {
    let mut spec = parse(KEYS_SPEC);
    requantify(&mut spec, q);
    run(KEYS_SPEC, &spec, &inventory(USERS))
}

#[test]
fn at_most_counts_matching_elements_at_its_boundary() {
    let out = count_keys(Quantifier::AtMost(1));
    assert_eq!(
        verdicts(&out),
        [
            "u0:pass",
            "u1:pass",
            "u2:fail",
            "u3:fail",
            "u4:pass",
            "u5:pass",
            "u6:pass",
            "u7:unknown",
            "u8:unknown",
            "u9:unknown"
        ]
    );
    assert_eq!(
        messages(&out, "u2"),
        ["keys: 2 of keys match, expected at most 1"]
    );
    let f = &resource(&out, "u3").failures()[0];
    assert_eq!(f.message, "3 of keys match, expected at most 1");
    assert_eq!(&*f.predicate, "at most 1 keys");
    assert_eq!(&*f.expected, "at most 1 keys to match");
    assert_eq!(f.actual, serde_json::json!(3));
    assert_eq!(unknown_paths(&out, "u7"), ["keys[0].status"]);
    assert_eq!(unknown_paths(&out, "u8"), ["keys"]);
    assert_eq!(out.now, None, "no time predicate");
}

#[test]
fn at_least_counts_matching_elements_at_its_boundary() {
    let out = count_keys(Quantifier::AtLeast(2));
    assert_eq!(
        verdicts(&out),
        [
            "u0:fail",
            "u1:fail",
            "u2:pass",
            "u3:pass",
            "u4:fail",
            "u5:fail",
            "u6:fail",
            "u7:unknown",
            "u8:unknown",
            "u9:unknown"
        ]
    );
    assert_eq!(
        messages(&out, "u0"),
        ["keys: 0 of keys match, expected at least 2"]
    );
    assert_eq!(
        messages(&out, "u1"),
        ["keys: 1 of keys matches, expected at least 2"]
    );
    // Missing and null count as zero elements.
    assert_eq!(
        messages(&out, "u4"),
        ["keys: 0 of keys match, expected at least 2"]
    );
    // The elements that did not match explain the shortfall; a null element is none.
    assert_eq!(
        messages(&out, "u6"),
        [
            "keys[2].status: status is \"Inactive\", expected == \"Active\"",
            "keys: 1 of keys matches, expected at least 2"
        ]
    );
    assert_eq!(
        unknown_paths(&out, "u9"),
        ["keys[1].status", "keys[2].status"]
    );
}

#[test]
fn at_least_false_when_even_the_unknowns_cannot_reach_it() {
    let out = count_keys(Quantifier::AtLeast(3));
    // u7: 1 true + 1 unknown < 3; u9: 0 + 2 < 3.
    assert_eq!(resource(&out, "u7").status, Status::Fail);
    assert_eq!(
        messages(&out, "u7"),
        ["keys: 1 of keys matches (and 1 unknown), expected at least 3"]
    );
    assert_eq!(resource(&out, "u9").status, Status::Fail);
    assert_eq!(resource(&out, "u8").status, Status::Unknown);
}

#[test]
fn exactly_is_at_least_and_at_most() {
    let out = count_keys(Quantifier::Exactly(2));
    assert_eq!(
        verdicts(&out),
        [
            "u0:fail",
            "u1:fail",
            "u2:pass",
            "u3:fail",
            "u4:fail",
            "u5:fail",
            "u6:fail",
            "u7:unknown",
            "u8:unknown",
            "u9:unknown"
        ]
    );
    assert_eq!(
        messages(&out, "u3"),
        ["keys: 3 of keys match, expected exactly 2"]
    );
    assert_eq!(
        messages(&out, "u1"),
        ["keys: 1 of keys matches, expected exactly 2"]
    );
    let out = count_keys(Quantifier::Exactly(0));
    assert_eq!(
        verdicts(&out),
        [
            "u0:pass",
            "u1:fail",
            "u2:fail",
            "u3:fail",
            "u4:pass",
            "u5:pass",
            "u6:fail",
            "u7:fail",
            "u8:unknown",
            "u9:unknown"
        ]
    );
}

#[test]
fn at_least_zero_always_holds() {
    let out = count_keys(Quantifier::AtLeast(0));
    assert!(resources(&out).iter().all(|r| r.status == Status::Pass));
    assert!(resource(&out, "u8").unknowns().is_empty());
}

#[test]
fn counting_in_with_scopes_by_the_count() {
    let source = r#"Spec "s"
Group "g"
  Rule "r"
    On t:iam:user
    With any keys ( status == "Active" )
    Assert keys ( status starting with "A" )
"#;
    let mut spec = parse(source);
    requantify(&mut spec, Quantifier::AtLeast(2));
    let out = run(source, &spec, &inventory(USERS));
    // Out of scope: fewer than 2 (u0, u1, u4, u5, u6); unknown scope: u7, u8, u9.
    assert_eq!(
        verdicts(&out),
        [
            "u2:pass",
            "u3:pass",
            "u7:unknown",
            "u8:unknown",
            "u9:unknown"
        ]
    );
}

#[test]
fn counting_over_leaf_lists_and_associations() {
    let source = r#"Spec "s"
Group "g"
  Rule "leaf"
    On t:x:thing
    Assert any names starting with "a"
  Rule "assoc"
    On t:x:thing
    Assert any > peers ( on is true )
  Rule "single"
    On t:x:thing
    Assert any > peer ( on is true )
"#;
    let inv = inventory(
        r#"
        {"type": "t:x:thing", "id": "a", "properties": {"names": ["ab", "ac", "b", null, 5],
            "peers": [{"$ref": "t:x:thing/b"}, {"$ref": "t:x:thing/c"}, {"$ref": "t:x:thing/gone"}],
            "peer": {"$ref": "t:x:thing/gone"}}},
        {"type": "t:x:thing", "id": "b", "properties": {"names": "abc", "on": true,
            "peers": [{"$ref": "t:x:thing/b"}, {"$ref": "t:x:thing/b"}], "peer": {"$ref": "t:x:thing/b"}}},
        {"type": "t:x:thing", "id": "c", "properties": {"on": false, "peers": "not a reference",
            "peer": {"$ref": "t:x:thing/c"}}}
    "#,
    );
    let mut spec = parse(source);
    requantify(&mut spec, Quantifier::AtMost(1));
    let out = run(source, &spec, &inv);
    let rule = |i: usize| &out.specs[0].groups[0].rules[i];
    let statuses = |i: usize| -> Vec<String> {
        rule(i)
            .resources
            .iter()
            .map(|r| format!("{}:{}", r.id, r.status))
            .collect()
    };
    // a: "ab" and "ac" match (null and 5 count as no match); b: a scalar is one value.
    assert_eq!(statuses(0), ["a:fail", "b:pass", "c:pass"]);
    let a = rule(0).resources.iter().find(|r| r.id == "a").expect("a");
    assert_eq!(
        a.failures()
            .iter()
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>(),
        ["2 of names match, expected at most 1"]
    );
    // a: b matches, c does not, the dangling one is none; b: itself twice; c: not a
    // reference, no element.
    assert_eq!(statuses(1), ["a:pass", "b:fail", "c:pass"]);
    let b = rule(1).resources.iter().find(|r| r.id == "b").expect("b");
    assert_eq!(b.failures()[0].path, "> peers");
    assert_eq!(
        b.failures()[0].message,
        "2 of peers match, expected at most 1"
    );

    let mut spec = parse(source);
    requantify(&mut spec, Quantifier::AtLeast(1));
    let out = run(source, &spec, &inv);
    let rule = |i: usize| &out.specs[0].groups[0].rules[i];
    let statuses = |i: usize| -> Vec<String> {
        rule(i)
            .resources
            .iter()
            .map(|r| format!("{}:{}", r.id, r.status))
            .collect()
    };
    assert_eq!(statuses(1), ["a:pass", "b:pass", "c:fail"]);
    // A single association: dangling is no element; c's peer is itself, which is off.
    assert_eq!(statuses(2), ["a:fail", "b:pass", "c:fail"]);
    let a = rule(2).resources.iter().find(|r| r.id == "a").expect("a");
    assert_eq!(
        a.failures()
            .iter()
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>(),
        ["0 of peer match, expected at least 1"]
    );
    let c = rule(2).resources.iter().find(|r| r.id == "c").expect("c");
    assert_eq!(
        c.failures()
            .iter()
            .map(|f| format!("{}: {}", f.path, f.message))
            .collect::<Vec<_>>(),
        [
            "> peer.on: on is false, expected true",
            "> peer: 0 of peer match, expected at least 1"
        ]
    );
}

#[test]
fn counting_respects_the_step_budget() {
    let items: Vec<String> = (0..200).map(|_| r#"{"status": "Active"}"#.into()).collect();
    let inv = inventory(&format!(
        r#"{{"type": "t:iam:user", "id": "big", "properties": {{"keys": [{}]}}}}"#,
        items.join(",")
    ));
    let mut spec = parse(KEYS_SPEC);
    requantify(&mut spec, Quantifier::AtMost(1000));
    let input = SpecInput {
        file: "t.cloudspec",
        source: KEYS_SPEC,
        spec: &spec,
    };
    let limits = Limits {
        max_steps: 100,
        ..Limits::default()
    };
    let out = evaluate_at(&[input], &inv, 1, limits, reference_time(&inv));
    let r = resource(&out, "big");
    assert_eq!(r.status, Status::Error);
    assert!(r.error().unwrap_or_default().contains("100 steps"));
    // With room, it passes; `at least 1` stops at the first match, so it needs few steps.
    let out = evaluate_at(&[input], &inv, 1, Limits::default(), reference_time(&inv));
    assert_eq!(resource(&out, "big").status, Status::Pass);
    let mut spec = parse(KEYS_SPEC);
    requantify(&mut spec, Quantifier::AtLeast(1));
    let input = SpecInput {
        file: "t.cloudspec",
        source: KEYS_SPEC,
        spec: &spec,
    };
    let limits = Limits {
        max_steps: 10,
        ..Limits::default()
    };
    let out = evaluate_at(&[input], &inv, 1, limits, reference_time(&inv));
    assert_eq!(resource(&out, "big").status, Status::Pass);
}

const TIMES: &str = r#"
    {"type": "t:x:key", "id": "k01-boundary", "properties": {"created": "2026-08-24T07:00:00Z"}},
    {"type": "t:x:key", "id": "k02-second-before", "properties": {"created": "2026-08-24T06:59:59Z"}},
    {"type": "t:x:key", "id": "k03-second-after", "properties": {"created": "2026-08-24T07:00:01Z"}},
    {"type": "t:x:key", "id": "k04-boundary-offset", "properties": {"created": "2026-08-24T09:00:00+02:00"}},
    {"type": "t:x:key", "id": "k05-date", "properties": {"created": "2026-08-24"}},
    {"type": "t:x:key", "id": "k06-nanos-after", "properties": {"created": "2026-08-24T07:00:00.000000001Z"}},
    {"type": "t:x:key", "id": "k07-no-offset", "properties": {"created": "2026-08-24T07:00:00"}},
    {"type": "t:x:key", "id": "k08-number", "properties": {"created": 5}},
    {"type": "t:x:key", "id": "k09-missing", "properties": {}},
    {"type": "t:x:key", "id": "k10-unknown", "properties": {"created": {"$unknown": "later"}}},
    {"type": "t:x:key", "id": "k11-text", "properties": {"created": "yesterday"}}
"#;

const AGE_SPEC: &str = r#"Spec "s"
Group "g"
  Rule "r"
    On t:x:key
    Assert created gte 90
"#;

fn ages(kind: PredicateKind, unit: TimeUnit) -> RunOutcome {
    let mut spec = parse(AGE_SPEC);
    repredicate(&mut spec, kind, unit);
    run(AGE_SPEC, &spec, &inventory(TIMES))
}

/// The verdicts of k01..k06 (the timestamps), then k07..k11 (never a pass).
fn age_verdicts(out: &RunOutcome) -> (String, String) {
    let v: Vec<String> = resources(out)
        .iter()
        .map(|r| r.status.as_str()[..1].to_string())
        .collect();
    (v[..6].concat(), v[6..].concat())
}

#[test]
fn older_and_newer_than_are_strict_at_now_minus_n() {
    // k01 boundary, k02 a second older, k03 a second newer, k04 the boundary with an
    // offset, k05 the date (midnight, older), k06 a nanosecond newer.
    let out = ages(PredicateKind::OlderThan, TimeUnit::Days);
    assert_eq!(age_verdicts(&out), ("fpffpf".into(), "fffuf".into()));
    assert_eq!(out.now.as_deref(), Some("2026-11-22T07:00:00Z"));
    let out = ages(PredicateKind::NotOlderThan, TimeUnit::Days);
    assert_eq!(age_verdicts(&out), ("pfppfp".into(), "fffuf".into()));
    let out = ages(PredicateKind::NewerThan, TimeUnit::Days);
    assert_eq!(age_verdicts(&out), ("ffpffp".into(), "fffuf".into()));
    let out = ages(PredicateKind::NotNewerThan, TimeUnit::Days);
    assert_eq!(age_verdicts(&out), ("ppfppf".into(), "fffuf".into()));
}

#[test]
fn time_predicate_messages_name_what_was_found() {
    let out = ages(PredicateKind::OlderThan, TimeUnit::Days);
    assert_eq!(
        messages(&out, "k01-boundary"),
        ["created: created is \"2026-08-24T07:00:00Z\", expected older than 90 days"]
    );
    assert_eq!(
        messages(&out, "k07-no-offset"),
        ["created: created is a string \"2026-08-24T07:00:00\", not a timestamp, expected older than 90 days"]
    );
    assert_eq!(
        messages(&out, "k08-number"),
        ["created: created is an integer 5, not a timestamp, expected older than 90 days"]
    );
    assert_eq!(
        messages(&out, "k09-missing"),
        ["created: created is missing, expected older than 90 days"]
    );
    assert_eq!(unknown_paths(&out, "k10-unknown"), ["created"]);
    let f = &resource(&out, "k01-boundary").failures()[0];
    assert_eq!(&*f.expected, "older than 90 days");
}

#[test]
fn hours_and_minutes_and_singular_units() {
    let source = r#"Spec "s"
Group "g"
  Rule "r"
    On t:x:key
    Assert created gte 5
"#;
    let inv = inventory(
        r#"
        {"type": "t:x:key", "id": "a", "properties": {"created": "2026-11-22T02:00:00Z"}},
        {"type": "t:x:key", "id": "b", "properties": {"created": "2026-11-22T01:59:59Z"}},
        {"type": "t:x:key", "id": "c", "properties": {"created": "2026-11-22T06:55:00Z"}},
        {"type": "t:x:key", "id": "d", "properties": {"created": "2026-11-22T06:54:59Z"}}
    "#,
    );
    let mut spec = parse(source);
    repredicate(&mut spec, PredicateKind::OlderThan, TimeUnit::Hours);
    let out = run(source, &spec, &inv);
    assert_eq!(verdicts(&out), ["a:fail", "b:pass", "c:fail", "d:fail"]);
    assert_eq!(
        resource(&out, "a").failures()[0].message,
        "created is \"2026-11-22T02:00:00Z\", expected older than 5 hours"
    );
    let mut spec = parse(source);
    repredicate(&mut spec, PredicateKind::OlderThan, TimeUnit::Minutes);
    let out = run(source, &spec, &inv);
    assert_eq!(verdicts(&out), ["a:pass", "b:pass", "c:fail", "d:pass"]);
    assert_eq!(
        resource(&out, "c").failures()[0].message,
        "created is \"2026-11-22T06:55:00Z\", expected older than 5 minutes"
    );
    let one = source.replace("gte 5", "gte 1");
    let mut spec = parse(&one);
    repredicate(&mut spec, PredicateKind::NewerThan, TimeUnit::Days);
    let out = run(&one, &spec, &inv);
    assert!(resources(&out).iter().all(|r| r.status == Status::Pass));
    let mut spec = parse(&one);
    repredicate(&mut spec, PredicateKind::OlderThan, TimeUnit::Days);
    let out = run(&one, &spec, &inv);
    assert_eq!(
        resource(&out, "a").failures()[0].expected.as_ref(),
        "older than 1 day"
    );
}

#[test]
fn the_reference_time_is_the_given_now_and_is_reported() {
    let mut spec = parse(AGE_SPEC);
    repredicate(&mut spec, PredicateKind::OlderThan, TimeUnit::Days);
    let inv = inventory(TIMES);
    // A day later, the boundary value is older than 90 days.
    let later = reference_time(&inv) + 86_400 * 1_000_000_000 + 250_000_000;
    let out = run_at(AGE_SPEC, &spec, &inv, later);
    assert_eq!(resource(&out, "k01-boundary").status, Status::Pass);
    assert_eq!(resource(&out, "k03-second-after").status, Status::Pass);
    assert_eq!(out.now.as_deref(), Some("2026-11-23T07:00:00.250Z"));
    assert_eq!(out.collected_at.as_deref(), Some(COLLECTED_AT));
}

#[test]
fn instant_text_is_rfc3339_utc_with_z() {
    let at = crate::predicates::parse_instant("2026-11-22T09:00:00+02:00").expect("parses");
    assert_eq!(instant_text(at), "2026-11-22T07:00:00Z");
    assert_eq!(instant_text(at + 1), "2026-11-22T07:00:00.000000001Z");
    assert_eq!(instant_text(at + 120_000_000), "2026-11-22T07:00:00.120Z");
    assert_eq!(instant_text(-1), "1969-12-31T23:59:59.999999999Z");
    assert_eq!(instant_text(0), "1970-01-01T00:00:00Z");
}

const DATES_SPEC: &str = r#"Spec "s"
Group "g"
  Rule "r"
    On t:x:key
    Assert created starting with "2026-01-01"
"#;

const DATES: &str = r#"
    {"type": "t:x:key", "id": "d1-midnight", "properties": {"created": "2026-01-01T00:00:00Z"}},
    {"type": "t:x:key", "id": "d2-second-before", "properties": {"created": "2025-12-31T23:59:59Z"}},
    {"type": "t:x:key", "id": "d3-second-after", "properties": {"created": "2026-01-01T00:00:01Z"}},
    {"type": "t:x:key", "id": "d4-midnight-offset", "properties": {"created": "2026-01-01T01:00:00+01:00"}},
    {"type": "t:x:key", "id": "d5-same-date", "properties": {"created": "2026-01-01"}},
    {"type": "t:x:key", "id": "d6-local-earlier", "properties": {"created": "2026-01-01T00:30:00+01:00"}}
"#;

fn dates(kind: PredicateKind, operand: &str) -> RunOutcome {
    let source = DATES_SPEC.replace("2026-01-01", operand);
    let mut spec = parse(&source);
    repredicate(&mut spec, kind, TimeUnit::Days);
    run(&source, &spec, &inventory(DATES))
}

fn statuses_letters(out: &RunOutcome) -> String {
    resources(out)
        .iter()
        .map(|r| &r.status.as_str()[..1])
        .collect()
}

#[test]
fn before_and_after_are_strict_with_dates_and_offsets() {
    // d6 is 2025-12-31T23:30:00Z: before the date.
    let out = dates(PredicateKind::Before, "2026-01-01");
    assert_eq!(statuses_letters(&out), "fpfffp");
    assert_eq!(out.now.as_deref(), Some(COLLECTED_AT));
    assert_eq!(
        statuses_letters(&dates(PredicateKind::NotBefore, "2026-01-01")),
        "pfpppf"
    );
    assert_eq!(
        statuses_letters(&dates(PredicateKind::After, "2026-01-01")),
        "ffpfff"
    );
    assert_eq!(
        statuses_letters(&dates(PredicateKind::NotAfter, "2026-01-01")),
        "ppfppp"
    );
    // A timestamp operand with an offset: 2026-01-01T00:00:00Z as written in +01:00.
    let out = dates(PredicateKind::Before, "2026-01-01T01:00:00+01:00");
    assert_eq!(statuses_letters(&out), "fpfffp");
    let f = &resource(&out, "d1-midnight").failures()[0];
    assert_eq!(
        f.message,
        "created is \"2026-01-01T00:00:00Z\", expected before \"2026-01-01T01:00:00+01:00\""
    );
}

const NAMES: &str = r#"
    {"type": "t:x:res", "id": "n1", "properties": {"name": "prod-12"}},
    {"type": "t:x:res", "id": "n2", "properties": {"name": "xprod-12"}},
    {"type": "t:x:res", "id": "n3", "properties": {"name": "prod-12x"}},
    {"type": "t:x:res", "id": "n4", "properties": {"name": "prod-"}},
    {"type": "t:x:res", "id": "n5", "properties": {"name": "a.b"}},
    {"type": "t:x:res", "id": "n6", "properties": {"name": "axb"}},
    {"type": "t:x:res", "id": "n7", "properties": {"name": 12}},
    {"type": "t:x:res", "id": "n8", "properties": {}},
    {"type": "t:x:res", "id": "n9", "properties": {"name": ["prod-1"]}}
"#;

fn patterns(kind: PredicateKind, pattern_literal: &str) -> RunOutcome {
    let source = format!(
        "Spec \"s\"\nGroup \"g\"\n  Rule \"r\"\n    On t:x:res\n    Assert name starting with \"{pattern_literal}\"\n"
    );
    let mut spec = parse(&source);
    repredicate(&mut spec, kind, TimeUnit::Days);
    let out = run(&source, &spec, &inventory(NAMES));
    assert_eq!(out.now, None, "no time predicate");
    out
}

#[test]
fn matching_searches_and_anchors_pin() {
    // The literal's escapes first: "^prod-\\d+$" is the regex ^prod-\d+$. n9 is a list of
    // one string: the predicate applies to each element.
    let out = patterns(PredicateKind::Matching, r"^prod-\\d+$");
    assert_eq!(statuses_letters(&out), "pfffffffp");
    assert_eq!(
        messages(&out, "n2"),
        [r#"name: name is "xprod-12", expected matching "^prod-\\d+$""#]
    );
    assert_eq!(
        messages(&out, "n7"),
        [r#"name: name is an integer 12, not a string, expected matching "^prod-\\d+$""#]
    );
    assert_eq!(
        messages(&out, "n8"),
        [r#"name: name is missing, expected matching "^prod-\\d+$""#]
    );
    // A search, not a full match.
    assert_eq!(
        statuses_letters(&patterns(PredicateKind::Matching, "prod")),
        "ppppffffp"
    );
    // An escaped dot is a dot.
    assert_eq!(
        statuses_letters(&patterns(PredicateKind::Matching, r"^a\\.b$")),
        "ffffpffff"
    );
    assert_eq!(
        statuses_letters(&patterns(PredicateKind::Matching, "^a.b$")),
        "ffffppfff"
    );
    // not matching: the exact negation on strings; non-strings and null still fail.
    let out = patterns(PredicateKind::NotMatching, r"^prod-\\d+$");
    assert_eq!(statuses_letters(&out), "fpppppfff");
    assert_eq!(
        messages(&out, "n7"),
        [r#"name: name is an integer 12, not a string, expected not matching "^prod-\\d+$""#]
    );
    assert_eq!(
        messages(&out, "n8"),
        [r#"name: name is missing, expected not matching "^prod-\\d+$""#]
    );
}

#[test]
fn a_pattern_is_compiled_once_per_rule() {
    let source = "Spec \"s\"\nGroup \"g\"\n  Rule \"r\"\n    On t:x:res\n    Assert name starting with \"^p\"\n";
    let mut spec = parse(source);
    repredicate(&mut spec, PredicateKind::Matching, TimeUnit::Days);
    let rule = &spec.groups[0].rules[0];
    let inv = inventory(NAMES);
    let ctx = compile::Ctx {
        interner: &inv.interner,
        source,
        now: 0,
    };
    let compiled = compile::statements(&rule.assert, Quantifier::Every, ctx);
    let compile::CTail::Predicate(p) = &compiled.alternatives[0][0].tail else {
        panic!("a predicate")
    };
    let crate::predicates::Operand::Pattern(pattern) = &p.operand else {
        panic!("a compiled pattern: {:?}", p.operand)
    };
    assert_eq!(pattern.0.as_str(), "^p");
}
