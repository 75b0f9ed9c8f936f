//! Walking member paths over one resource: With is "any", Assert is "every", explicit
//! quantifiers override, statements inside one `( ... )` apply to the same element.
//!
//! Every resource is first evaluated fast (no paths, no messages, short-circuits); only a
//! resource that does not plainly pass is walked again in detail to collect its failing
//! paths, unknown paths and notes. Both walks compute the same verdict.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt::Write as _;

use super::compare::{display, to_json};
use super::compile::{CPredicate, CStmt, CTail};
use super::predicates::{Test, Why};
use super::truth::Truth;
use crate::model::{CollectionError, Inventory, Object, Sym, Value};
use crate::outcome::{Failure, UnknownPath};
use crate::syntax::ast::{PredicateKind, Quantifier};

/// What a path stands on: a nested property or resource, or an element whose members are
/// all null (missing, dangling) or all unknown.
#[derive(Clone, Copy)]
pub(crate) enum Elem<'a> {
    Obj(&'a Object),
    Null(NullWhy<'a>),
    Unknown(&'a str),
}

/// Why a value is null.
#[derive(Clone, Copy)]
pub(crate) enum NullWhy<'a> {
    Missing,
    /// Reached through a reference whose target is not in the inventory.
    Dangling(&'a str),
}

/// A value a path reaches.
#[derive(Clone, Copy)]
enum Leaf<'a> {
    Val(&'a Value),
    Null(NullWhy<'a>),
    Unknown(&'a str, bool),
}

/// What one resource's walk collected.
#[derive(Default)]
pub(crate) struct Trail {
    /// Collect paths and messages (the detailed walk).
    pub detail: bool,
    path: String,
    pub failures: Vec<Failure>,
    pub unknowns: Vec<UnknownPath>,
    pub notes: Vec<String>,
    /// Some `every` statement met zero elements (the verdict may be vacuous).
    pub saw_empty: bool,
    /// The resource could not be evaluated: why.
    pub error: Option<String>,
    /// A reference led into a type whose collection failed.
    pub touched_failed: Option<String>,
}

impl Trail {
    pub(crate) fn fast() -> Trail {
        Trail::default()
    }

    pub(crate) fn detailed() -> Trail {
        Trail {
            detail: true,
            // Room for most paths, so that it is allocated once.
            path: String::with_capacity(64),
            ..Trail::default()
        }
    }
}

/// Accumulates element verdicts under a quantifier.
struct Acc {
    quantifier: Quantifier,
    any: Truth,
    all: Truth,
    count: usize,
}

impl Acc {
    fn new(quantifier: Quantifier) -> Acc {
        Acc {
            quantifier,
            any: Truth::False,
            all: Truth::True,
            count: 0,
        }
    }

    /// Adds one element's verdict; true once the result cannot change.
    fn push(&mut self, t: Truth) -> bool {
        self.count += 1;
        self.any = self.any.or(t);
        self.all = self.all.and(t);
        match self.quantifier {
            Quantifier::Every => self.all == Truth::False,
            Quantifier::Any | Quantifier::No => self.any == Truth::True,
        }
    }

    fn finish(&self) -> Truth {
        match self.quantifier {
            Quantifier::Every => self.all,
            Quantifier::Any => self.any,
            Quantifier::No => self.any.not(),
        }
    }
}

/// Walks resources of one inventory.
pub(crate) struct Walker<'a> {
    pub inventory: &'a Inventory,
    pub failed: &'a HashMap<&'a str, Vec<&'a CollectionError>>,
}

impl<'a> Walker<'a> {
    /// All statements hold on `elem` (they are correlated: the same element).
    pub(crate) fn statements(&self, elem: Elem<'a>, stmts: &'a [CStmt], t: &mut Trail) -> Truth {
        let mut acc = Truth::True;
        for s in stmts {
            acc = acc.and(self.statement(elem, s, t));
            if acc == Truth::False && !t.detail {
                break;
            }
        }
        acc
    }

    fn statement(&self, elem: Elem<'a>, s: &'a CStmt, t: &mut Trail) -> Truth {
        let mark = t.path.len();
        if t.detail {
            push_segment(&mut t.path, s);
        }
        let mut leaf = member(elem, s);
        for (key, _) in &s.keys {
            leaf = match leaf {
                Leaf::Val(Value::Object(o)) => key
                    .and_then(|k| o.get(k))
                    .map(norm)
                    .unwrap_or(Leaf::Null(NullWhy::Missing)),
                Leaf::Val(_) => Leaf::Null(NullWhy::Missing),
                Leaf::Null(why) => Leaf::Null(why),
                Leaf::Unknown(reason, _) => Leaf::Unknown(reason, false),
            };
        }
        let result = match &s.tail {
            CTail::Predicate(p) => self.quantify_predicate(leaf, s, p, t),
            CTail::Nested(body) => self.quantify_nested(leaf, s, body, t),
        };
        t.path.truncate(mark);
        result
    }

    fn quantify_nested(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        body: &'a [CStmt],
        t: &mut Trail,
    ) -> Truth {
        self.quantify(leaf, s, true, t, |w, item, t| {
            let elem = w.enter(item, s.association, t);
            w.statements(elem, body, t)
        })
    }

    fn quantify_predicate(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        p: &'a CPredicate,
        t: &mut Trail,
    ) -> Truth {
        self.quantify(leaf, s, !p.whole, t, |w, item, t| w.test(item, s, p, t))
    }

    /// Applies `each` to every element of a list (when `split` allows) or to the value
    /// itself, and combines the verdicts under the statement's quantifier.
    fn quantify(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        split: bool,
        t: &mut Trail,
        each: impl Fn(&Self, Leaf<'a>, &mut Trail) -> Truth,
    ) -> Truth {
        let marks = (t.failures.len(), t.unknowns.len());
        let mut acc = Acc::new(s.quantifier);
        let mut matched = Vec::new();
        let mut one = |item: Leaf<'a>, t: &mut Trail, acc: &mut Acc| {
            let r = each(self, item, t);
            if t.detail && r == Truth::True && s.quantifier == Quantifier::No {
                matched.push(t.path.clone());
            }
            acc.push(r)
        };
        match leaf {
            Leaf::Val(Value::List(items)) if split => {
                for (i, item) in items.iter().enumerate() {
                    let mark = t.path.len();
                    if t.detail {
                        // Writing to a String cannot fail.
                        let _ = write!(t.path, "[{i}]");
                    }
                    let decided = one(norm(item), t, &mut acc);
                    t.path.truncate(mark);
                    if decided && !t.detail {
                        break;
                    }
                }
            }
            other => {
                one(other, t, &mut acc);
            }
        }
        let result = acc.finish();
        self.settle(s, &acc, result, marks, matched, t);
        result
    }

    /// Keeps only the findings that explain `result`, and adds the statement's own.
    fn settle(
        &self,
        s: &CStmt,
        acc: &Acc,
        result: Truth,
        (failures, unknowns): (usize, usize),
        matched: Vec<String>,
        t: &mut Trail,
    ) {
        if acc.count == 0 && s.quantifier == Quantifier::Every {
            t.saw_empty = true;
            if t.detail {
                t.notes.push(format!(
                    "{} has no elements: checked zero elements, so it holds vacuously",
                    display_path(&t.path)
                ));
            }
        }
        if !t.detail {
            return;
        }
        if result != Truth::False || s.quantifier == Quantifier::No {
            t.failures.truncate(failures);
        }
        if result == Truth::True {
            t.unknowns.truncate(unknowns);
        }
        if result != Truth::False {
            return;
        }
        match s.quantifier {
            Quantifier::No => {
                for path in matched {
                    t.failures.push(Failure {
                        path: display_path(&path),
                        predicate: format!("no {}", s.name_text).into(),
                        expected: format!("no {} to match", s.name_text).into(),
                        actual: serde_json::Value::Null,
                        message: format!(
                            "{} matches, expected no {} to match",
                            display_path(&path),
                            s.name_text
                        ),
                    });
                }
            }
            Quantifier::Any if acc.count == 0 => {
                let path = display_path(&t.path);
                t.failures.push(Failure {
                    path: path.clone(),
                    predicate: format!("any {}", s.name_text).into(),
                    expected: "at least one element".into(),
                    actual: serde_json::Value::Array(vec![]),
                    message: format!("{path} has no elements, expected at least one to match"),
                });
            }
            _ => {}
        }
    }

    /// Enters `( ... )` on a value: a nested property, or the target of a reference.
    fn enter(&self, leaf: Leaf<'a>, association: bool, t: &mut Trail) -> Elem<'a> {
        match leaf {
            Leaf::Unknown(reason, _) => Elem::Unknown(reason),
            Leaf::Null(why) => Elem::Null(why),
            Leaf::Val(Value::Ref(r)) if association => {
                // Most runs have no failed collection: spare splitting the reference then.
                let target_type = if self.failed.is_empty() {
                    ""
                } else {
                    r.target_type()
                };
                let failed = !self.failed.is_empty() && self.failed.contains_key(target_type);
                if failed && t.touched_failed.is_none() {
                    t.touched_failed = Some(target_type.to_string());
                }
                match r.target.and_then(|idx| self.inventory.resource(idx)) {
                    Some(resource) => Elem::Obj(&resource.properties),
                    None => {
                        if failed && t.error.is_none() {
                            t.error = Some(format!(
                                "{} could not be checked: the collection of {target_type} failed",
                                r.raw
                            ));
                        }
                        Elem::Null(NullWhy::Dangling(&r.raw))
                    }
                }
            }
            Leaf::Val(Value::Object(o)) if !association => Elem::Obj(o),
            Leaf::Val(Value::Unknown(u)) => Elem::Unknown(&u.reason),
            Leaf::Val(_) => Elem::Null(NullWhy::Missing),
        }
    }

    /// Tests one value against a predicate; in detail, records why it failed or is unknown.
    fn test(&self, leaf: Leaf<'a>, s: &CStmt, p: &CPredicate, t: &mut Trail) -> Truth {
        match leaf {
            Leaf::Unknown(reason, not_null) => {
                let r = match (p.def.kind, not_null) {
                    (PredicateKind::Null, true) => Truth::False,
                    (PredicateKind::NotNull, true) => Truth::True,
                    _ => Truth::Unknown,
                };
                if t.detail {
                    match r {
                        Truth::Unknown => t.unknowns.push(UnknownPath {
                            path: display_path(&t.path),
                            reason: reason.to_string(),
                        }),
                        Truth::False => self.fail(t, s, p, Found::NotKnownYet),
                        Truth::True => {}
                    }
                }
                r
            }
            Leaf::Null(why) => {
                let r = Truth::from(p.def.on_null);
                if t.detail && r == Truth::False {
                    self.fail(t, s, p, Found::Null(why));
                }
                r
            }
            Leaf::Val(value) => {
                let test = (p.def.test)(value, &p.operand);
                if t.detail {
                    match test {
                        Test::Holds => {}
                        Test::Unknown => t.unknowns.push(UnknownPath {
                            path: display_path(&t.path),
                            reason: first_unknown(value)
                                .unwrap_or("holds an unknown value")
                                .to_string(),
                        }),
                        Test::Fails(why) => self.fail(t, s, p, Found::Value(why, value)),
                    }
                }
                test.truth()
            }
        }
    }

    /// Records a failure: `<subject> <found>, expected <expected>`, written in one string.
    fn fail(&self, t: &mut Trail, s: &CStmt, p: &CPredicate, found: Found<'_>) {
        let actual = match found {
            Found::Value(_, value) => to_json(value, &self.inventory.interner),
            _ => serde_json::Value::Null,
        };
        let mut message = String::with_capacity(s.subject.len() + p.expected.len() + 48);
        message.push_str(&s.subject);
        message.push(' ');
        // Writing to a String cannot fail.
        let _ = match found {
            Found::NotKnownYet => message.write_str("is present but not known yet"),
            Found::Null(NullWhy::Missing) => message.write_str("is missing"),
            Found::Null(NullWhy::Dangling(raw)) => write!(
                message,
                "is missing: the reference to {raw} is dangling (not in the inventory)"
            ),
            Found::Value(why, value) => {
                let shown = display(value, &actual);
                match why {
                    Why::Mismatch => write!(message, "is {shown}"),
                    Why::WrongType => write!(
                        message,
                        "is {} {shown}, not {}",
                        article(value.type_name()),
                        p.def.applies.noun()
                    ),
                    Why::NotAnAddress => write!(
                        message,
                        "is {shown}, which is not an IP address or CIDR block"
                    ),
                    Why::OtherFamily => write!(
                        message,
                        "is {shown}: IPv4 and IPv6 addresses do not compare"
                    ),
                }
            }
        };
        message.push_str(", expected ");
        message.push_str(&p.expected);
        t.failures.push(Failure {
            path: display_path(&t.path),
            predicate: p.text.clone(),
            message,
            expected: p.expected.clone(),
            actual,
        });
    }
}

/// What a failing value was found to be, for its message.
enum Found<'a> {
    /// Present but unknown, where the predicate needed it absent.
    NotKnownYet,
    Null(NullWhy<'a>),
    Value(Why, &'a Value),
}

fn norm(value: &Value) -> Leaf<'_> {
    match value {
        Value::Null => Leaf::Null(NullWhy::Missing),
        Value::Unknown(u) => Leaf::Unknown(&u.reason, u.not_null),
        v => Leaf::Val(v),
    }
}

fn member<'a>(elem: Elem<'a>, s: &CStmt) -> Leaf<'a> {
    match elem {
        Elem::Obj(o) => s
            .name
            .and_then(|n| get_hinted(o, n, &s.hint))
            .map(norm)
            .unwrap_or(Leaf::Null(NullWhy::Missing)),
        Elem::Null(why) => Leaf::Null(why),
        Elem::Unknown(reason) => Leaf::Unknown(reason, false),
    }
}

/// `o.get(key)`, looking first where the key was last found (`hint`), which spares
/// scanning the entries (and the memory they sit in) for most objects.
fn get_hinted<'a>(o: &'a Object, key: Sym, hint: &Cell<usize>) -> Option<&'a Value> {
    if let Some((k, v)) = o.entries.get(hint.get()) {
        if *k == key {
            return Some(v);
        }
    }
    let at = o.entries.iter().position(|(k, _)| *k == key)?;
    hint.set(at);
    o.entries.get(at).map(|(_, v)| v)
}

fn push_segment(path: &mut String, s: &CStmt) {
    if s.association {
        if !path.is_empty() {
            path.push(' ');
        }
        path.push_str("> ");
    } else if !path.is_empty() {
        path.push('.');
    }
    path.push_str(&s.subject);
}

fn display_path(path: &str) -> String {
    if path.is_empty() {
        "(resource)".into()
    } else {
        path.to_string()
    }
}

fn article(type_name: &str) -> String {
    match type_name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}

fn first_unknown(value: &Value) -> Option<&str> {
    match value {
        Value::Unknown(u) => Some(&u.reason),
        Value::List(items) => items.iter().find_map(first_unknown),
        Value::Object(o) => o.iter().find_map(|(_, v)| first_unknown(v)),
        _ => None,
    }
}
