//! `count` and `for_each` by Terraform's rules (`terraform/eval_count.go`,
//! `eval_for_each.go`), the instance keys they give, and addresses.

use std::collections::BTreeMap;

use cloudspec_hcl::body::Expr;
use cloudspec_hcl::convert::convert;
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Type, Value};

use crate::identity;

/// The key of one instance.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// No `count` nor `for_each`.
    None,
    Int(usize),
    Str(String),
    /// The one instance of an unknown `count`/`for_each`.
    Unknown,
}

impl Key {
    /// The address suffix: ``, `[0]`, `["k"]`, `[*]`.
    pub fn suffix(&self) -> String {
        match self {
            Key::None => String::new(),
            Key::Int(i) => format!("[{i}]"),
            Key::Str(s) => format!("[{}]", hcl_quoted(s)),
            Key::Unknown => "[*]".to_string(),
        }
    }
}

/// Terraform's `toHCLQuotedString` (instance keys in addresses).
pub fn hcl_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if !go_printable(c) => {
                let n = c as u32;
                if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`, closely: letters, marks, numbers, punctuation, symbols and the
/// ASCII space; not control, format, separator or private-use characters.
fn go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(
        c as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0xE000..=0xF8FF
            | 0xF0000..=0x10FFFF
    )
}

/// How a block expands.
#[derive(Clone, Debug)]
pub enum Expansion {
    Single,
    Count(usize),
    /// Keys in order, with `each.value`.
    ForEach(Vec<(String, Value)>),
    Unknown,
}

impl Expansion {
    /// The instances: key, and the `count`/`each` variables of its scope.
    pub fn instances(&self) -> Vec<(Key, BTreeMap<String, Value>)> {
        match self {
            Expansion::Single => vec![(Key::None, BTreeMap::new())],
            Expansion::Count(n) => (0..*n)
                .map(|i| {
                    let count = Value::object_from([("index", Value::number(i as u64))]);
                    (Key::Int(i), BTreeMap::from([("count".to_string(), count)]))
                })
                .collect(),
            Expansion::ForEach(items) => items
                .iter()
                .map(|(k, v)| {
                    let each = Value::object_from([
                        ("key", Value::string(k.clone())),
                        ("value", v.clone()),
                    ]);
                    (
                        Key::Str(k.clone()),
                        BTreeMap::from([("each".to_string(), each)]),
                    )
                })
                .collect(),
            Expansion::Unknown => {
                let count = Value::object_from([("index", Value::Unknown(Type::Number))]);
                let each = Value::object_from([
                    ("key", Value::Unknown(Type::String)),
                    ("value", Value::dynamic()),
                ]);
                vec![(
                    Key::Unknown,
                    BTreeMap::from([("count".to_string(), count), ("each".to_string(), each)]),
                )]
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        match self {
            Expansion::Single | Expansion::Unknown => 1,
            Expansion::Count(n) => *n,
            Expansion::ForEach(items) => items.len(),
        }
    }

    /// The value of the whole block from its instances' values (in [`Self::instances`]
    /// order): the object, a tuple (`count`), an object by key (`for_each`), or unknown.
    pub fn collect(&self, values: Vec<Value>) -> Value {
        match self {
            Expansion::Single => values.into_iter().next().unwrap_or(Value::dynamic()),
            Expansion::Count(_) => Value::Tuple(values),
            Expansion::ForEach(items) => {
                Value::Object(items.iter().map(|(k, _)| k.clone()).zip(values).collect())
            }
            Expansion::Unknown => Value::dynamic(),
        }
    }
}

fn invalid(summary: &str, detail: impl Into<String>, expr: &Expr) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(expr.range()))
}

/// `count`: a whole, non-negative number; `None` when unknown.
pub fn count(expr: &Expr, ctx: &EvalContext) -> Result<Option<usize>, Vec<Diagnostic>> {
    let (value, diags) = expr.value(ctx);
    if cloudspec_hcl::diag::has_errors(&diags) {
        return Err(diags);
    }
    let value = match convert(&value, &Type::Number) {
        Ok(v) => v,
        Err(e) => {
            return Err(vec![invalid(
                "Incorrect value type",
                format!("Invalid expression value: {}.", e.message),
                expr,
            )])
        }
    };
    match value {
        Value::Null(_) => Err(vec![invalid(
            "Invalid count argument",
            "The given \"count\" argument value is null. An integer is required.",
            expr,
        )]),
        Value::Unknown(_) => Ok(None),
        Value::Number(n) => {
            let whole = n.is_integer().then(|| n.to_i64()).flatten();
            match whole {
                None => Err(vec![invalid(
                    "Invalid count argument",
                    "The given \"count\" argument value is unsuitable: value must be a whole \
                     number, between -9223372036854775808 and 9223372036854775807.",
                    expr,
                )]),
                Some(i) if i < 0 => Err(vec![invalid(
                    "Invalid count argument",
                    "The given \"count\" argument value is unsuitable: must be greater than or \
                     equal to zero.",
                    expr,
                )]),
                Some(i) => Ok(Some(usize::try_from(i).unwrap_or(usize::MAX))),
            }
        }
        _ => Ok(None),
    }
}

/// True when a value holds an unknown value or an identity anywhere.
fn not_known_before_apply(v: &Value) -> bool {
    match v {
        Value::Unknown(_) => true,
        Value::String(s) => identity::contains_identity(s),
        Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => {
            vs.iter().any(not_known_before_apply)
        }
        Value::Map(_, m) | Value::Object(m) => m.values().any(not_known_before_apply),
        _ => false,
    }
}

/// `for_each`: a map (or object) or a set of strings; `None` when the keys are not known
/// before apply (unknown, or an identity in a key or set element).
pub fn for_each(
    expr: &Expr,
    ctx: &EvalContext,
) -> Result<Option<Vec<(String, Value)>>, Vec<Diagnostic>> {
    let (value, diags) = expr.value(ctx);
    if cloudspec_hcl::diag::has_errors(&diags) {
        return Err(diags);
    }
    const UNSUITABLE: &str = "The given \"for_each\" argument value is unsuitable: ";
    match &value {
        Value::Null(_) => Err(vec![invalid(
            "Invalid for_each argument",
            format!(
                "{UNSUITABLE}the given \"for_each\" argument value is null. A map, or set of \
                 strings is allowed."
            ),
            expr,
        )]),
        Value::Unknown(Type::Map(_) | Type::Object(_) | Type::Set(_) | Type::Dynamic) => Ok(None),
        Value::Map(_, m) | Value::Object(m) => {
            if m.keys().any(|k| identity::contains_identity(k)) {
                return Ok(None);
            }
            Ok(Some(
                m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            ))
        }
        Value::Set(ety, elems) => {
            if *ety != Type::String && *ety != Type::Dynamic {
                return Err(vec![invalid(
                    "Invalid for_each set argument",
                    format!(
                        "{UNSUITABLE}\"for_each\" supports maps and sets of strings, but you \
                         have provided a set containing type {}.",
                        ety.friendly_name()
                    ),
                    expr,
                )]);
            }
            if elems.iter().any(Value::is_null) {
                return Err(vec![invalid(
                    "Invalid for_each set argument",
                    format!("{UNSUITABLE}\"for_each\" sets must not contain null values."),
                    expr,
                )]);
            }
            if elems.iter().any(not_known_before_apply) {
                return Ok(None);
            }
            let mut out = Vec::with_capacity(elems.len());
            for e in elems {
                match e {
                    Value::String(s) => out.push((s.clone(), e.clone())),
                    _ => return Ok(None),
                }
            }
            Ok(Some(out))
        }
        other => Err(vec![invalid(
            "Invalid for_each argument",
            format!(
                "{UNSUITABLE}the \"for_each\" argument must be a map, or set of strings, and you \
                 have provided a value of type {}.",
                other.ty().friendly_name()
            ),
            expr,
        )]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_quoted_as_terraform_quotes_them() {
        assert_eq!(Key::Str("a".into()).suffix(), "[\"a\"]");
        assert_eq!(Key::Str("a\"b\\".into()).suffix(), "[\"a\\\"b\\\\\"]");
        assert_eq!(Key::Str("${x}".into()).suffix(), "[\"$${x}\"]");
        assert_eq!(Key::Int(3).suffix(), "[3]");
        assert_eq!(
            Key::Str("a\u{a0}b\u{200b}".into()).suffix(),
            "[\"a\\u00a0b\\u200b\"]"
        );
        assert_eq!(Key::Unknown.suffix(), "[*]");
    }
}
