//! JSON written the way hcldec writes it with Go's `encoding/json`: strings escaped with
//! Go's rules (including `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`), compact or
//! indented by two spaces as `json.MarshalIndent` does, and values in cty's JSON form
//! (`ctyjson.Marshal`: exact numbers, sets and tuples as arrays, a value of a dynamic type
//! wrapped as `{"value":...,"type":...}`). Values are written as `crate::json::encode`
//! writes them (a test checks that they agree); the documents here are needed for what
//! hcldec does around the value: the type wrapper, null stripping and indented output.

use crate::types::Type;
use crate::value::Value;

/// A JSON document with object members in a chosen order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number's literal text.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Compact text (`json.Marshal`).
    pub fn compact(&self) -> String {
        let mut out = String::new();
        write_compact(self, &mut out);
        out
    }

    /// Indented text (`json.MarshalIndent(v, "", "  ")`).
    pub fn indented(&self) -> String {
        let mut out = String::new();
        write_indented(self, 0, &mut out);
        out
    }

    /// The document with every object member whose value is `null` removed, at any depth,
    /// and object members sorted by name: what hcldec's `stripJSONNullProperties` (a decode
    /// into Go maps and a new `json.Marshal`) makes of its output.
    pub fn strip_null_properties(self) -> Json {
        match self {
            Json::Object(members) => {
                let mut kept: Vec<(String, Json)> = members
                    .into_iter()
                    .filter(|(_, v)| *v != Json::Null)
                    .map(|(k, v)| (k, v.strip_null_properties()))
                    .collect();
                kept.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                Json::Object(kept)
            }
            Json::Array(elems) => {
                Json::Array(elems.into_iter().map(Json::strip_null_properties).collect())
            }
            other => other,
        }
    }
}

impl From<&serde_json::Value> for Json {
    fn from(v: &serde_json::Value) -> Json {
        match v {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(b) => Json::Bool(*b),
            serde_json::Value::Number(n) => Json::Number(n.to_string()),
            serde_json::Value::String(s) => Json::String(s.clone()),
            serde_json::Value::Array(a) => Json::Array(a.iter().map(Json::from).collect()),
            serde_json::Value::Object(o) => {
                Json::Object(o.iter().map(|(k, v)| (k.clone(), Json::from(v))).collect())
            }
        }
    }
}

/// Appends `s` as a JSON string literal with Go's escaping (HTML-safe); the one quoting
/// routine is `crate::json`'s.
pub fn write_string(s: &str, out: &mut String) {
    crate::json::quote_into(s, out);
}

fn write_compact(j: &Json, out: &mut String) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(n),
        Json::String(s) => write_string(s, out),
        Json::Array(elems) => {
            out.push('[');
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(e, out);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(k, out);
                out.push(':');
                write_compact(v, out);
            }
            out.push('}');
        }
    }
}

fn newline(depth: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_indented(j: &Json, depth: usize, out: &mut String) {
    match j {
        Json::Array(elems) if !elems.is_empty() => {
            out.push('[');
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(depth + 1, out);
                write_indented(e, depth + 1, out);
            }
            newline(depth, out);
            out.push(']');
        }
        Json::Object(members) if !members.is_empty() => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(depth + 1, out);
                write_string(k, out);
                out.push_str(": ");
                write_indented(v, depth + 1, out);
            }
            newline(depth, out);
            out.push('}');
        }
        other => write_compact(other, out),
    }
}

/// cty's JSON type notation as a document.
pub fn type_json(t: &Type) -> Json {
    Json::from(&t.to_json_value())
}

/// `ctyjson.Marshal(val, ty)`: the value in cty's JSON form, with values of a dynamic
/// declared type (but a known type) wrapped as `{"value":...,"type":...}`. Fails on unknown
/// values with cty's message.
pub fn marshal(val: &Value, ty: &Type) -> Result<Json, String> {
    marshal_depth(val, ty, 0)
}

/// Deeper values than this are not written (values nest no deeper than the parser and the
/// evaluator allow, far less).
const MAX_DEPTH: usize = 10_000;

fn marshal_depth(val: &Value, ty: &Type, depth: usize) -> Result<Json, String> {
    if depth > MAX_DEPTH {
        return Err("value is nested too deeply".into());
    }
    let vty = val.ty();
    if *ty == Type::Dynamic && vty != Type::Dynamic {
        return Ok(Json::Object(vec![
            ("value".into(), marshal_depth(val, &vty, depth + 1)?),
            ("type".into(), type_json(&vty)),
        ]));
    }
    let elem_ty = |i: usize| -> Type {
        match ty {
            Type::List(t) | Type::Set(t) | Type::Map(t) => (**t).clone(),
            Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Dynamic),
            _ => Type::Dynamic,
        }
    };
    Ok(match val {
        Value::Null(_) => Json::Null,
        Value::Unknown(_) => return Err("value is not known".into()),
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => Json::Number(n.to_string()),
        Value::String(s) => Json::String(s.clone()),
        Value::List(_, elems) | Value::Set(_, elems) | Value::Tuple(elems) => {
            let mut out = Vec::with_capacity(elems.len());
            for (i, e) in elems.iter().enumerate() {
                out.push(marshal_depth(e, &elem_ty(i), depth + 1)?);
            }
            Json::Array(out)
        }
        Value::Map(_, m) => {
            let ety = elem_ty(0);
            let mut out = Vec::with_capacity(m.len());
            for (k, v) in m {
                out.push((k.clone(), marshal_depth(v, &ety, depth + 1)?));
            }
            Json::Object(out)
        }
        Value::Object(m) => {
            let mut out = Vec::with_capacity(m.len());
            for (k, v) in m {
                let aty = match ty {
                    Type::Object(attrs) => attrs.get(k).cloned().unwrap_or(Type::Dynamic),
                    _ => v.ty(),
                };
                out.push((k.clone(), marshal_depth(v, &aty, depth + 1)?));
            }
            Json::Object(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    #[test]
    fn go_string_escaping() {
        // As Go 1.20's encoding/json (Terraform 1.5's): \b and \f as \u00XX escapes.
        let mut out = String::new();
        write_string("a\"b\\c\n\t<x>&\u{1}\u{8}\u{c}\u{7f}\u{2028}é", &mut out);
        assert_eq!(
            out,
            "\"a\\\"b\\\\c\\n\\t\\u003cx\\u003e\\u0026\\u0001\\u0008\\u000c\u{7f}\\u2028é\""
        );
    }

    #[test]
    fn compact_and_indented() {
        let j = Json::Object(vec![
            (
                "b".into(),
                Json::Array(vec![Json::Number("1".into()), Json::Null]),
            ),
            ("a".into(), Json::Object(vec![])),
            ("c".into(), Json::Array(vec![])),
        ]);
        assert_eq!(j.compact(), r#"{"b":[1,null],"a":{},"c":[]}"#);
        assert_eq!(
            j.indented(),
            "{\n  \"b\": [\n    1,\n    null\n  ],\n  \"a\": {},\n  \"c\": []\n}"
        );
    }

    #[test]
    fn null_properties_are_stripped_and_keys_sorted() {
        let j = Json::Object(vec![
            (
                "value".into(),
                Json::Object(vec![
                    ("z".into(), Json::Null),
                    (
                        "a".into(),
                        Json::Array(vec![
                            Json::Null,
                            Json::Object(vec![("n".into(), Json::Null)]),
                        ]),
                    ),
                ]),
            ),
            ("type".into(), Json::String("x".into())),
        ]);
        assert_eq!(
            j.strip_null_properties().compact(),
            r#"{"type":"x","value":{"a":[null,{}]}}"#
        );
    }

    #[test]
    fn agrees_with_the_crate_json_encoder() {
        let n = |s: &str| Value::Number(Number::parse(s).unwrap_or_else(Number::zero));
        let v = Value::object_from([
            ("num", n("-12.50e-3")),
            ("big", n("123456789012345678901234567890.5")),
            ("str", Value::from("<a href=\"x\">&\u{1}\n\u{2028}é</a>")),
            (
                "list",
                Value::list(Type::Bool, vec![true.into(), false.into()]),
            ),
            (
                "map",
                Value::map(
                    Type::String,
                    [("b".to_string(), "1".into()), ("a".to_string(), "2".into())].into(),
                ),
            ),
            ("null", Value::Null(Type::String)),
        ]);
        let ours = marshal(&v, &v.ty()).map(|j| j.compact());
        assert_eq!(ours, crate::json::encode(&v));
    }

    #[test]
    fn cty_json_of_values() {
        let n = |s: &str| Value::Number(Number::parse(s).unwrap_or_else(Number::zero));
        let v = Value::object_from([
            ("a", n("1.50")),
            ("b", Value::set(Type::String, vec!["y".into(), "x".into()])),
            ("c", Value::Null(Type::Dynamic)),
            ("d", Value::tuple(vec![Value::from(true), "<".into()])),
        ]);
        let ty = v.ty();
        assert_eq!(
            marshal(&v, &ty).map(|j| j.compact()),
            Ok(r#"{"a":1.5,"b":["x","y"],"c":null,"d":[true,"\u003c"]}"#.to_string())
        );
        assert_eq!(
            marshal(&Value::from("s"), &Type::Dynamic).map(|j| j.compact()),
            Ok(r#"{"value":"s","type":"string"}"#.to_string())
        );
        assert_eq!(
            marshal(&Value::Null(Type::Dynamic), &Type::Dynamic).map(|j| j.compact()),
            Ok("null".to_string())
        );
        assert_eq!(
            marshal(&Value::Unknown(Type::String), &Type::String),
            Err("value is not known".to_string())
        );
    }
}
