//! Property tests of the evaluator's budget (docs/language.md, "Evaluation limits"): random
//! specs (nested statements, associations, quantifiers) over random inventories whose
//! references fan out, form cycles, dangle or lead into a failed collection. Evaluation
//! always terminates without panicking, records at most the cap of findings per resource,
//! and a resource either gets the verdict an unlimited evaluation gives it or the
//! out-of-steps error; remembering walks changes nothing.

use cloudspec::eval::{evaluate_with_limits, Limits, SpecInput};
use cloudspec::model::Inventory;
use cloudspec::outcome::{RunOutcome, Status};
use proptest::prelude::*;

/// A statement as text: a member with a predicate, or a member (or association) with a
/// body of statements joined by `and`.
fn statement() -> impl Strategy<Value = String> {
    let quantifier = prop_oneof![Just(""), Just("any "), Just("every "), Just("no ")];
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
            prop::collection::vec(inner, 1..=3),
        )
            .prop_map(|(q, m, body)| format!("{q}{m} ( {} )", body.join(" and ")))
    })
}

fn rule() -> impl Strategy<Value = (Option<String>, Vec<String>)> {
    (
        prop::option::of(statement()),
        prop::collection::vec(statement(), 1..=2),
    )
}

fn spec() -> impl Strategy<Value = String> {
    prop::collection::vec(rule(), 1..=3).prop_map(|rules| {
        let mut out = String::from("Spec \"P\"\n\nGroup \"G\"\n");
        for (i, (with, assert)) in rules.iter().enumerate() {
            out.push_str(&format!("  Rule \"R{i}\"\n    On x:y:z\n"));
            if let Some(w) = with {
                out.push_str(&format!("    With {w}\n"));
            }
            for (j, a) in assert.iter().enumerate() {
                let word = if j == 0 { "Assert" } else { "And" };
                out.push_str(&format!("    {word} {a}\n"));
            }
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
