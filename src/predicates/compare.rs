//! Comparing inventory values with literals: numbers by value, strings exactly, containers
//! structurally, no coercion between types; unknown parts make the answer unknown unless a
//! known part already differs.

use crate::model::{Sym, Value};
use crate::truth::Truth;

/// A literal operand, with container keys resolved against the inventory's interner.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lit {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(Vec<Lit>),
    /// `{name = value}`: keys resolved to symbols (`None`: no property anywhere has it).
    Container(Vec<(Option<Sym>, String, Lit)>),
}

impl Lit {
    pub(crate) fn is_collection(&self) -> bool {
        matches!(self, Lit::List(_) | Lit::Container(_))
    }
}

/// `value == lit`.
pub(super) fn equals(value: &Value, lit: &Lit) -> Truth {
    match (value, lit) {
        (Value::Unknown(_), _) => Truth::Unknown,
        (Value::Str(a), Lit::Str(b)) => Truth::from(**a == **b),
        (Value::Bool(a), Lit::Bool(b)) => Truth::from(a == b),
        (Value::Int(a), Lit::Int(b)) => Truth::from(a == b),
        (Value::Int(_) | Value::Float(_), Lit::Int(_) | Lit::Float(_)) => {
            Truth::from(value.as_f64() == lit_f64(lit))
        }
        (Value::List(items), Lit::List(lits)) => equal_lists(items, lits),
        (Value::Object(obj), Lit::Container(entries)) => {
            let present = obj.iter().filter(|(_, v)| !v.is_null()).count();
            if present != entries.len() {
                return Truth::False;
            }
            let mut acc = Truth::True;
            for (sym, _, lit) in entries {
                let found = sym.and_then(|s| obj.get(s)).filter(|v| !v.is_null());
                match found {
                    None => return Truth::False,
                    Some(v) => acc = acc.and(equals(v, lit)),
                }
                if acc == Truth::False {
                    return Truth::False;
                }
            }
            acc
        }
        _ => Truth::False,
    }
}

fn equal_lists(items: &[Value], lits: &[Lit]) -> Truth {
    if items.len() != lits.len() {
        return Truth::False;
    }
    let mut acc = Truth::True;
    for (v, l) in items.iter().zip(lits) {
        acc = acc.and(equals(v, l));
        if acc == Truth::False {
            return Truth::False;
        }
    }
    acc
}

fn lit_f64(lit: &Lit) -> Option<f64> {
    match lit {
        Lit::Int(i) => Some(*i as f64),
        Lit::Float(f) => Some(*f),
        _ => None,
    }
}

/// A literal in the language's own notation, for `expected` texts.
pub(super) fn lit_text(lit: &Lit) -> String {
    match lit {
        Lit::Str(s) => serde_json::Value::String(s.clone()).to_string(),
        Lit::Int(i) => i.to_string(),
        Lit::Float(f) => format!("{f}"),
        Lit::Bool(b) => b.to_string(),
        Lit::List(items) => {
            let parts: Vec<String> = items.iter().map(lit_text).collect();
            format!("[{}]", parts.join(", "))
        }
        Lit::Container(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(_, k, v)| format!("{k} = {}", lit_text(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}
