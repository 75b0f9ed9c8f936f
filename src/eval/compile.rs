//! AST to the evaluator's form: member names resolved to the inventory's symbols, operands
//! checked and parsed once (numbers, IP addresses, CIDR blocks, timestamps, durations against
//! the reference time, regular expressions), quantifiers made explicit. A rule is compiled
//! once per run, so each pattern is compiled once per rule, never per resource.

use std::cell::Cell;
use std::net::IpAddr;
use std::sync::Arc;

use ipnetwork::IpNetwork;

use crate::model::{Interner, Sym};
use crate::predicates::{def, parse_instant, Lit, Operand, Operands, Pattern, PredicateDef};
use crate::syntax::ast::{Body, Literal, Predicate, Quantifier, Statement, Tail};
use crate::truth::Bound;

/// What compiling a rule needs besides its statements.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub interner: &'a Interner,
    /// The rule's file, for the text of its predicates.
    pub source: &'a str,
    /// The reference time of time predicates, nanoseconds since the Unix epoch.
    pub now: i128,
}

/// A statement ready to evaluate.
#[derive(Debug)]
pub(crate) struct CStmt {
    /// The effective quantifier (explicit, or the context's).
    pub quantifier: Quantifier,
    /// The bound of a counting quantifier (`at least 2`...); `None` for `any`, `every`, `no`.
    pub bound: Option<Bound>,
    pub association: bool,
    /// `None`: no property in the inventory has this name, so it is always missing.
    pub name: Option<Sym>,
    pub name_text: String,
    pub keys: Vec<(Option<Sym>, String)>,
    /// The member messages talk about: `size`, `tags["env"]` (made once, not per failure).
    pub subject: String,
    /// Where `name` was found in the last object that had it: objects of one resource type
    /// mostly share their key order, so looking there first usually finds it at once.
    pub hint: Cell<usize>,
    pub tail: CTail,
}

#[derive(Debug)]
pub(crate) enum CTail {
    Predicate(CPredicate),
    Nested(CBody),
}

/// Statements joined by `and` and `or` (a With, an Assert, a `( ... )` body): the
/// alternatives of a disjunction, each a conjunction. Without `or` there is one alternative
/// (none for a rule without With).
#[derive(Debug, Default)]
pub(crate) struct CBody {
    pub alternatives: Vec<Vec<CStmt>>,
}

#[derive(Debug)]
pub(crate) struct CPredicate {
    pub def: &'static PredicateDef,
    pub operand: Operand,
    /// The operand is a list or container literal: compare a list-valued property whole.
    pub whole: bool,
    /// The predicate as written (`gte 50`), for reports (shared by its failures).
    pub text: Arc<str>,
    /// What the predicate asks for, in words (`>= 50`; made once, shared by its failures).
    pub expected: Arc<str>,
}

/// Compiles statements under a context quantifier (`Every` for Assert, `Any` for With).
pub(crate) fn statements(body: &Body, context: Quantifier, ctx: Ctx<'_>) -> CBody {
    CBody {
        alternatives: body
            .alternatives
            .iter()
            .map(|alternative| {
                alternative
                    .iter()
                    .map(|s| statement(s, context, ctx))
                    .collect()
            })
            .collect(),
    }
}

fn statement(s: &Statement, context: Quantifier, ctx: Ctx<'_>) -> CStmt {
    let interner = ctx.interner;
    let quantifier = s.quantifier.as_ref().map(|q| q.value).unwrap_or(context);
    let inner = match quantifier {
        Quantifier::Every => Quantifier::Every,
        // Counting quantifiers: the statements inside take the `any` context, as under
        // `no` (language.md).
        Quantifier::Any
        | Quantifier::No
        | Quantifier::AtLeast(_)
        | Quantifier::AtMost(_)
        | Quantifier::Exactly(_) => Quantifier::Any,
    };
    let tail = match &s.tail {
        Tail::Nested(body) => CTail::Nested(statements(body, inner, ctx)),
        Tail::Predicate(p) => CTail::Predicate(predicate(p, ctx)),
    };
    let keys: Vec<(Option<Sym>, String)> = s
        .path
        .keys
        .iter()
        .map(|k| (interner.get(&k.value), k.value.clone()))
        .collect();
    CStmt {
        quantifier,
        bound: match quantifier {
            Quantifier::AtLeast(n) => Some(Bound::AtLeast(n)),
            Quantifier::AtMost(n) => Some(Bound::AtMost(n)),
            Quantifier::Exactly(n) => Some(Bound::Exactly(n)),
            Quantifier::Any | Quantifier::Every | Quantifier::No => None,
        },
        association: s.path.association.is_some(),
        name: interner.get(&s.path.name.value),
        name_text: s.path.name.value.clone(),
        subject: subject(&s.path.name.value, &keys),
        hint: Cell::new(0),
        keys,
        tail,
    }
}

/// The member a message talks about: `size`, `tags["env"]`.
fn subject(name: &str, keys: &[(Option<Sym>, String)]) -> String {
    let mut out = name.to_string();
    for (_, key) in keys {
        out.push('[');
        out.push_str(&serde_json::Value::String(key.clone()).to_string());
        out.push(']');
    }
    out
}

fn predicate(p: &Predicate, ctx: Ctx<'_>) -> CPredicate {
    let def = def(p.kind);
    let source = ctx.source;
    let operand = operand(p, ctx).unwrap_or(Operand::Nothing);
    let whole = match &operand {
        Operand::Value(lit) => lit.is_collection(),
        Operand::Choices(choices) => choices.iter().any(Lit::is_collection),
        _ => false,
    };
    let text = source
        .get(p.span.start..p.span.end)
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| p.words.clone());
    CPredicate {
        def,
        expected: (def.expected)(&operand).into(),
        operand,
        whole,
        text: text.into(),
    }
}

/// The operand of a predicate in the shape its table entry says. The parser has already
/// reported operands that do not fit (`invalid-operand`, a bad timestamp, an invalid
/// pattern), so a misfit here yields `None` (and the predicate fails on every value).
fn operand(p: &Predicate, ctx: Ctx<'_>) -> Option<Operand> {
    let interner = Some(ctx.interner);
    let ops = p.operands.as_slice();
    match (def(p.kind).operands, ops) {
        (Operands::None, []) => Some(Operand::Nothing),
        (Operands::Value, [lit]) => Some(Operand::Value(lit_of(lit, interner))),
        (Operands::List, [Literal::List(items)]) => Some(Operand::Choices(
            items.value.iter().map(|l| lit_of(l, interner)).collect(),
        )),
        (Operands::Number, [lit]) => number_of(lit).map(Operand::Number),
        (Operands::TwoNumbers, [a, b]) => Some(Operand::Range(number_of(a)?, number_of(b)?)),
        (Operands::Text, [Literal::Str(s)]) => Some(Operand::Text(s.value.clone())),
        (Operands::IpAddress, [Literal::Str(s)]) => {
            s.value.trim().parse::<IpAddr>().ok().map(Operand::Address)
        }
        (Operands::Network, [Literal::Str(s)]) => s
            .value
            .trim()
            .parse::<IpNetwork>()
            .ok()
            .map(Operand::Network),
        (Operands::Duration, [Literal::Int(n)]) => {
            let unit = p.unit.as_ref()?.value;
            let n = n.value;
            // `now - n units`: i128 nanoseconds hold any i64 count of days (about 8e32 ns),
            // so this cannot overflow.
            let span = i128::from(n) * i128::from(unit.seconds()) * 1_000_000_000;
            Some(Operand::Instant {
                at: ctx.now - span,
                text: format!("{n} {}", unit.word(n)),
            })
        }
        (Operands::Timestamp, [Literal::Str(s)]) => Some(Operand::Instant {
            at: parse_instant(&s.value)?,
            text: serde_json::Value::String(s.value.clone()).to_string(),
        }),
        (Operands::Pattern, [Literal::Str(s)]) => crate::syntax::pattern::compile_pattern(&s.value)
            .ok()
            .map(|re| Operand::Pattern(Pattern(re))),
        _ => None,
    }
}

fn number_of(lit: &Literal) -> Option<f64> {
    match lit {
        Literal::Int(i) => Some(i.value as f64),
        Literal::Float(f) => Some(f.value),
        _ => None,
    }
}

fn lit_of(lit: &Literal, interner: Option<&Interner>) -> Lit {
    match lit {
        Literal::Str(s) => Lit::Str(s.value.clone()),
        Literal::Int(i) => Lit::Int(i.value),
        Literal::Float(f) => Lit::Float(f.value),
        Literal::Bool(b) => Lit::Bool(b.value),
        Literal::List(items) => {
            Lit::List(items.value.iter().map(|l| lit_of(l, interner)).collect())
        }
        Literal::Container(entries) => Lit::Container(
            entries
                .value
                .iter()
                .map(|(k, v)| {
                    (
                        interner.and_then(|i| i.get(&k.value)),
                        k.value.clone(),
                        lit_of(v, interner),
                    )
                })
                .collect(),
        ),
    }
}
