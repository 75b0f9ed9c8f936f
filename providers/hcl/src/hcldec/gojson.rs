//! JSON written the way hcldec writes it: values in cty's JSON form (`ctyjson.Marshal`:
//! exact numbers, sets and tuples as arrays, a value of a dynamic type wrapped as
//! `{"value":...,"type":...}`) as [`Json`] documents. Values are written as
//! `crate::json::encode` writes them (a test checks that they agree); the documents here
//! are needed for what hcldec does around the value: the type wrapper, null stripping and
//! indented output. The document type and its Go-style writers (`json.Marshal`,
//! `json.MarshalIndent`, Go's escaping) are `crate::gocompat::json_indent`'s, re-exported
//! here.

pub use crate::gocompat::json_indent::{write_string, Json};
use crate::types::Type;
use crate::value::Value;

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
