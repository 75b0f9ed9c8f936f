//! Static checks of a spec against resource schemas, before anything runs
//! (`shared/design/language.md`, "Errors before any API call"): unknown resource type,
//! unknown member, `>` on a property that is not an association, `( ... )` on a scalar,
//! predicates on properties of the wrong type (a number predicate on a string, a string,
//! pattern or time predicate on a number or boolean...). Every problem of a file is reported, each
//! with a "did you mean" where a close name exists. Types without a schema are not checked.

use crate::diagnostic::{quoted, Diagnostic};
use crate::model::schema::{Member, MemberType, SchemaSet};
use crate::predicates::{def, Applies};
use crate::syntax::ast::{Body, Spec, Statement, Tail};

/// Every problem of `spec` against several providers' schemas, in source order: each rule
/// is checked against the provider its type names (`aws:ec2:instance` against `aws`).
pub fn check_all(spec: &Spec, schemas: &[SchemaSet]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = schemas.iter().flat_map(|s| check(spec, s)).collect();
    out.sort_by_key(|d| d.span.start);
    out
}

/// Every problem of `spec` against `schemas`, in source order. (Operand problems that need
/// no schema are the parser's.)
pub fn check(spec: &Spec, schemas: &SchemaSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let prefix = format!("{}:", schemas.provider);
    for group in &spec.groups {
        for rule in &group.rules {
            let on = &rule.on.value;
            let Some(schema) = schemas.get(on) else {
                if on.starts_with(&prefix) {
                    let names: Vec<&str> = schemas.types.keys().map(|k| k.as_str()).collect();
                    let mut d = Diagnostic::error(
                        "unknown-resource-type",
                        format!("unknown resource type \"{}\"", quoted(on)),
                        rule.on.span,
                    )
                    .with_label("not a resource type of this provider");
                    d.help = Some(match suggest(on, &names) {
                        Some(s) => format!("did you mean \"{s}\"?"),
                        None => format!(
                            "`cloudspec schema` lists the resource types of \"{}\"",
                            schemas.provider
                        ),
                    });
                    out.push(d);
                }
                continue;
            };
            let scope = Scope {
                members: Some(&schema.members),
                owner: on.clone(),
            };
            for s in rule.statements() {
                statement(s, &scope, schemas, &mut out);
            }
        }
    }
    out.sort_by_key(|d| d.span.start);
    out
}

/// The members a statement can name: `None` when anything goes (a free-form value).
struct Scope<'a> {
    members: Option<&'a [Member]>,
    /// What the members belong to, for messages: `aws:ec2:instance`, `ip_permissions`.
    owner: String,
}

fn statement(s: &Statement, scope: &Scope<'_>, schemas: &SchemaSet, out: &mut Vec<Diagnostic>) {
    let name = &s.path.name;
    let Some(members) = scope.members else {
        return nested_any(s, schemas, out);
    };
    let Some(member) = members.iter().find(|m| m.name == name.value) else {
        let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        let mut d = Diagnostic::error(
            "unknown-member",
            format!(
                "unknown member \"{}\" of {}",
                quoted(&name.value),
                quoted(&scope.owner)
            ),
            name.span,
        )
        .with_label("no such member");
        d.help = Some(match suggest(&name.value, &names) {
            Some(s) => format!("did you mean \"{s}\"?"),
            None => format!("the members of {} are: {}", scope.owner, list(&names)),
        });
        out.push(d);
        return;
    };
    let mut ty = &member.ty;
    for key in &s.path.keys {
        ty = match strip_list(ty) {
            MemberType::Map(inner) => inner,
            MemberType::Any => return nested_any(s, schemas, out),
            MemberType::Object(members) => match members.iter().find(|m| m.name == key.value) {
                Some(m) => &m.ty,
                None => return nested_any(s, schemas, out),
            },
            other => {
                out.push(
                    Diagnostic::error(
                        "not-a-map",
                        format!(
                            "\"{}\" is {}, so it has no keys to look up",
                            quoted(&name.value),
                            type_phrase(other)
                        ),
                        key.span,
                    )
                    .with_label("key lookup on a value without keys"),
                );
                return;
            }
        };
    }
    match &s.tail {
        Tail::Nested(body) => nested(s, ty, body, schemas, out),
        Tail::Predicate(p) => {
            if s.path.association.is_some() {
                return;
            }
            let applies = def(p.kind).applies;
            let element = strip_list(ty);
            let mismatch = matches!(
                (applies, element),
                (Applies::Number, MemberType::String | MemberType::Bool)
                    | (
                        Applies::String | Applies::IpString | Applies::Timestamp,
                        MemberType::Integer | MemberType::Number | MemberType::Bool,
                    )
                    | (
                        Applies::Bool,
                        MemberType::String | MemberType::Integer | MemberType::Number
                    )
                    | (
                        Applies::Number
                            | Applies::String
                            | Applies::IpString
                            | Applies::Bool
                            | Applies::Timestamp,
                        MemberType::Object(_) | MemberType::Map(_) | MemberType::Association { .. },
                    )
            );
            if mismatch {
                out.push(
                    Diagnostic::error(
                        "type-mismatch",
                        format!(
                            "\"{}\" applies to {}, but \"{}\" is {}",
                            p.words,
                            applies.noun(),
                            quoted(&name.value),
                            type_phrase(element)
                        ),
                        p.span,
                    )
                    .with_label(format!(
                        "{} predicate on {}",
                        applies_adjective(applies),
                        type_phrase(element)
                    )),
                );
            }
        }
    }
}

fn nested(
    s: &Statement,
    ty: &MemberType,
    body: &Body,
    schemas: &SchemaSet,
    out: &mut Vec<Diagnostic>,
) {
    let name = &s.path.name;
    let element = strip_list(ty);
    if let Some(arrow) = s.path.association {
        match element {
            MemberType::Association { target } => {
                let scope = match schemas.get(target) {
                    Some(schema) => Scope { members: Some(&schema.members), owner: target.clone() },
                    None => Scope { members: None, owner: target.clone() },
                };
                for b in body.statements() {
                    statement(b, &scope, schemas, out);
                }
            }
            MemberType::Any => nested_any_body(body, schemas, out),
            other => out.push(
                Diagnostic::error(
                    "not-an-association",
                    format!(
                        "\"{}\" is {}, not an association, so \">\" cannot follow it",
                        quoted(&name.value),
                        type_phrase(other)
                    ),
                    arrow.join(name.span),
                )
                .with_label("not an association")
                .with_help(match other {
                    MemberType::Object(_) => format!("to enter the nested property, drop the \">\": {} ( ... )", quoted(&name.value)),
                    _ => "\">\" follows associations to other resources; `cloudspec schema` lists them".into(),
                }),
            ),
        }
        return;
    }
    match element {
        MemberType::Object(members) => {
            let scope = Scope {
                members: Some(members),
                owner: name.value.clone(),
            };
            for b in body.statements() {
                statement(b, &scope, schemas, out);
            }
        }
        MemberType::Map(_) | MemberType::Any => nested_any_body(body, schemas, out),
        MemberType::Association { .. } => out.push(
            Diagnostic::error(
                "association-without-arrow",
                format!(
                    "\"{}\" is an association: follow it with \">\"",
                    quoted(&name.value)
                ),
                name.span,
            )
            .with_label("an association to another resource")
            .with_help(format!("write > {} ( ... )", quoted(&name.value))),
        ),
        other => out.push(
            Diagnostic::error(
                "not-nested",
                format!(
                    "\"{}\" is {}, so it has no members to enter with ( ... )",
                    quoted(&name.value),
                    type_phrase(other)
                ),
                name.span,
            )
            .with_label("not a nested property")
            .with_help(format!(
                "test the value itself, e.g. {} is not null",
                quoted(&name.value)
            )),
        ),
    }
}

/// Below a free-form value nothing is known, but associations named there may still lead to
/// known types; nothing to check for now.
fn nested_any(_s: &Statement, _schemas: &SchemaSet, _out: &mut Vec<Diagnostic>) {}

fn nested_any_body(_body: &Body, _schemas: &SchemaSet, _out: &mut Vec<Diagnostic>) {}

fn strip_list(ty: &MemberType) -> &MemberType {
    match ty {
        MemberType::List(inner) => strip_list(inner),
        other => other,
    }
}

fn type_phrase(ty: &MemberType) -> String {
    match ty {
        MemberType::String => "a string".into(),
        MemberType::Integer => "an integer".into(),
        MemberType::Number => "a number".into(),
        MemberType::Bool => "a boolean".into(),
        MemberType::Any => "a free-form value".into(),
        MemberType::List(inner) => format!("a list of {}", type_phrase(inner)),
        MemberType::Object(_) => "a nested property".into(),
        MemberType::Map(_) => "a key-value property".into(),
        MemberType::Association { target } => format!("an association to {target}"),
    }
}

fn applies_adjective(applies: Applies) -> &'static str {
    match applies {
        Applies::AnyValue => "a",
        Applies::Number => "a number",
        Applies::String => "a string",
        Applies::IpString => "an IP",
        Applies::Bool => "a boolean",
        Applies::Timestamp => "a timestamp",
    }
}

fn list(names: &[&str]) -> String {
    let mut v: Vec<&str> = names.to_vec();
    v.sort_unstable();
    v.join(", ")
}

/// The closest name to `wanted`, if any is close enough to be a likely typo.
///
/// Names whose lengths alone rule them out are skipped before any distance is computed, so
/// a huge `wanted` costs one character count, not a distance matrix per name.
pub fn suggest<'a>(wanted: &str, names: &[&'a str]) -> Option<&'a str> {
    const MIN_SCORE: f64 = 0.6;
    let wanted = wanted.to_lowercase();
    let wanted_len = wanted.chars().count();
    names
        .iter()
        .filter_map(|n| {
            let lower = n.to_lowercase();
            could_match(wanted_len, lower.chars().count(), MIN_SCORE)
                .then(|| (strsim::normalized_damerau_levenshtein(&wanted, &lower), *n))
        })
        .filter(|(score, _)| *score >= MIN_SCORE)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// Whether names of `a` and `b` characters can score `min` or more: the distance is at
/// least the difference of the lengths, and the score is `1 - distance / longer`.
fn could_match(a: usize, b: usize, min: f64) -> bool {
    let longer = a.max(b);
    longer == 0 || 1.0 - (a.abs_diff(b) as f64) / (longer as f64) >= min - 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_skip_names_too_different_in_length() {
        // Regression: a 10 MB member name built a distance matrix of 10M × 11 cells per
        // member name of the schema.
        let names = ["encrypted", "size"];
        let huge = "e".repeat(10_000_000);
        assert_eq!(suggest(&huge, &names), None);
        assert_eq!(suggest("encrypt", &names), Some("encrypted"));
        assert_eq!(suggest("Sise", &names), Some("size"));
        assert!(could_match(5, 3, 0.6) && !could_match(5, 2, 0.6));
    }

    /// Time and pattern predicates apply to strings: on a member typed as a number or a
    /// boolean (or a nested property), each is a type mismatch at the predicate, worded as
    /// for number predicates on strings. (The AST is built from a spec that parses today,
    /// its predicate then swapped for the new kind.)
    #[test]
    fn time_and_pattern_predicates_on_numbers_and_booleans_are_type_errors() {
        use crate::model::schema::{dsl, ResourceSchema};
        use crate::syntax::ast::{Literal, PredicateKind, Spanned, Tail, TimeUnit};
        let mut schemas = SchemaSet::new("aws");
        schemas.add(ResourceSchema {
            type_name: "aws:test:thing".into(),
            doc: String::new(),
            members: vec![
                dsl::string("created"),
                dsl::integer("count"),
                dsl::boolean("flag"),
                dsl::strings("names"),
                dsl::object("inner", vec![dsl::string("a")]),
            ],
        });
        let check_one = |member: &str, kind: PredicateKind| -> Vec<Diagnostic> {
            let source = format!(
                "Spec \"s\"\nGroup \"g\"\n  Rule \"r\"\n    On aws:test:thing\n    \
                 Assert {member} starting with \"x\"\n"
            );
            let parsed = crate::syntax::parse(&source);
            let mut spec = parsed.spec.expect("parses");
            let rule = &mut spec.groups[0].rules[0];
            let Tail::Predicate(p) = &mut rule.assert.alternatives[0][0].tail else {
                panic!("a predicate")
            };
            p.kind = kind;
            p.words = def(kind).spellings[0].to_string();
            if def(kind).operands == crate::predicates::Operands::Duration {
                p.operands = vec![Literal::Int(Spanned::new(90, p.span))];
                p.unit = Some(Spanned::new(TimeUnit::Days, p.span));
            }
            check(&spec, &schemas)
        };
        for kind in [
            PredicateKind::OlderThan,
            PredicateKind::NotNewerThan,
            PredicateKind::Before,
            PredicateKind::NotAfter,
            PredicateKind::Matching,
            PredicateKind::NotMatching,
        ] {
            assert!(
                check_one("created", kind).is_empty(),
                "{kind:?} on a string"
            );
            assert!(check_one("names", kind).is_empty(), "{kind:?} on strings");
            for (member, phrase) in [
                ("count", "an integer"),
                ("flag", "a boolean"),
                ("inner", "a nested property"),
            ] {
                let d = check_one(member, kind);
                assert_eq!(d.len(), 1, "{kind:?} on {member}: {d:?}");
                assert_eq!(d[0].code, "type-mismatch");
                let noun = def(kind).applies.noun();
                assert_eq!(
                    d[0].message,
                    format!(
                        "\"{}\" applies to {noun}, but \"{member}\" is {phrase}",
                        def(kind).spellings[0]
                    )
                );
            }
        }
        let d = check_one("count", PredicateKind::OlderThan);
        assert_eq!(
            d[0].message,
            "\"older than\" applies to a timestamp, but \"count\" is an integer"
        );
        let d = check_one("flag", PredicateKind::Matching);
        assert_eq!(
            d[0].message,
            "\"matching\" applies to a string, but \"flag\" is a boolean"
        );
    }
}
