//! Go's `encoding/json` writing a document whose object members are in a chosen order:
//! [`Json::compact`] is `json.Marshal`, [`Json::indented`] is `json.MarshalIndent(v, "",
//! "  ")`, and [`Json::strip_null_properties`] is what a decode into Go maps and a new
//! `json.Marshal` make of a document (null members gone, keys sorted by bytes). hcldec's
//! output (`hcldec::gojson`, `hcldec::cmd`) is written with these; the string quoting is
//! [`crate::gocompat::json::quote_into`].
//!
//! Why not `serde_json::to_string_pretty`: its pretty printer writes the same layout, but
//! its strings are escaped serde's way, not Go's (`<`, `>`, `&`, U+2028 and U+2029 raw,
//! `\b`/`\f` short), numbers go through its own number type rather than keeping cty's
//! exact decimal text, and its maps sort or keep order by feature flag rather than by the
//! document.
//!
//! [`Json`] and [`write_string`] are `pub` because `hcldec::gojson` re-exports them.

use crate::gocompat::json::quote_into;

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

/// Appends `s` as a JSON string literal with Go's escaping (HTML-safe): [`quote_into`].
pub fn write_string(s: &str, out: &mut String) {
    quote_into(s, out);
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
