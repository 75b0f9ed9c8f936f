//! The spec definition functions (`cmd/hcldec/spec_funcs.go`): the functions expressions in
//! a spec file may call (`literal` values, `transform` results, `variables`, user function
//! results). They are cty's stdlib functions of those names; where Terraform's function of
//! the same name is cty's, the entry of [`crate::functions::stdlib`] is reused, and the
//! others (cty's `hasindex`, `int`, `length`, `reverse` of a string and `strlen`, which
//! Terraform either lacks or defines differently) are written here.

use std::sync::{Arc, OnceLock};

use unicode_segmentation::UnicodeSegmentation;

use crate::functions::{stdlib, FuncError, Function, FunctionTable, Param};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Names of the spec definition functions taken from the standard library unchanged.
const FROM_STDLIB: &[&str] = &[
    "abs",
    "coalesce",
    "concat",
    "jsondecode",
    "jsonencode",
    "lower",
    "max",
    "min",
    "substr",
    "upper",
];

/// The spec definition function table (shared; built once).
pub fn spec_functions() -> Arc<FunctionTable> {
    static TABLE: OnceLock<Arc<FunctionTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut t = FunctionTable::empty();
            let std = stdlib();
            for name in FROM_STDLIB {
                if let Some(f) = std.get(name) {
                    t.add(f.clone());
                }
            }
            t.add(Function::new(
                "hasindex",
                vec![
                    Param::new("collection", Type::Dynamic),
                    Param::new("key", Type::Dynamic),
                ],
                Type::Bool,
                hasindex,
            ));
            t.add(Function::new(
                "int",
                vec![Param::new("num", Type::Number)],
                Type::Number,
                int,
            ));
            t.add(Function::new(
                "length",
                vec![Param::new("collection", Type::Dynamic).allow_unknown()],
                Type::Number,
                length,
            ));
            t.add(Function::new(
                "reverse",
                vec![Param::new("str", Type::String)],
                Type::String,
                reverse,
            ));
            t.add(Function::new(
                "strlen",
                vec![Param::new("str", Type::String)],
                Type::Number,
                strlen,
            ));
            Arc::new(t)
        })
        .clone()
}

const NOT_A_COLLECTION: &str = "collection must be a list, a map or a tuple";

fn arg(args: &[Value], i: usize) -> Result<&Value, FuncError> {
    args.get(i)
        .ok_or_else(|| FuncError::new("missing argument"))
}

/// cty's `HasIndexFunc` (`Value.HasIndex`): lists and tuples take whole-number keys in
/// range, maps string keys present in the map; a key of another type gives `false`.
fn hasindex(args: &[Value]) -> Result<Value, FuncError> {
    let coll = arg(args, 0)?;
    let key = arg(args, 1)?;
    let ty = coll.ty();
    if !(ty.is_list() || ty.is_tuple() || ty.is_map() || ty.is_dynamic()) {
        return Err(FuncError::new(NOT_A_COLLECTION));
    }
    if ty.is_dynamic() || key.ty().is_dynamic() || !coll.is_known() || !key.is_known() {
        return Ok(Value::Unknown(Type::Bool));
    }
    let found = match (coll, key) {
        (Value::List(_, elems) | Value::Tuple(elems), Value::Number(n)) => n
            .to_i64()
            .and_then(|i| usize::try_from(i).ok())
            .is_some_and(|i| i < elems.len()),
        (Value::Map(_, m), Value::String(k)) => m.contains_key(k),
        _ => false,
    };
    Ok(Value::Bool(found))
}

/// cty's `IntFunc`: the integer part, rounding towards zero.
fn int(args: &[Value]) -> Result<Value, FuncError> {
    match arg(args, 0)? {
        Value::Number(n) => Ok(Value::Number(truncate(n))),
        _ => Err(FuncError::arg(0, "number required")),
    }
}

fn truncate(n: &Number) -> Number {
    if n.is_negative() {
        n.ceil()
    } else {
        n.floor()
    }
}

/// cty's `LengthFunc`: the number of elements of a list, set, map or tuple (and, as the
/// hcldec spec format documents, of an object's attributes). Unknown collections of a
/// known type give an unknown number.
fn length(args: &[Value]) -> Result<Value, FuncError> {
    let coll = arg(args, 0)?;
    let ty = coll.ty();
    if !(ty.is_collection() || ty.is_structural() || ty.is_dynamic()) {
        return Err(FuncError::new(NOT_A_COLLECTION));
    }
    if let Type::Tuple(elems) = &ty {
        return Ok(Value::from(elems.len()));
    }
    if let Type::Object(attrs) = &ty {
        return Ok(Value::from(attrs.len()));
    }
    match coll.len() {
        // A set with unknown elements may shrink once they are known.
        Some(_) if matches!(coll, Value::Set(..)) && !coll.is_wholly_known() => {
            Ok(Value::Unknown(Type::Number))
        }
        Some(n) => Ok(Value::from(n)),
        None => Ok(Value::Unknown(Type::Number)),
    }
}

/// cty's `ReverseFunc`: the string with its grapheme clusters in reverse order.
fn reverse(args: &[Value]) -> Result<Value, FuncError> {
    match arg(args, 0)? {
        Value::String(s) => Ok(Value::string(s.graphemes(true).rev().collect::<String>())),
        _ => Err(FuncError::arg(0, "string required")),
    }
}

/// cty's `StrlenFunc`: the number of grapheme clusters.
fn strlen(args: &[Value]) -> Result<Value, FuncError> {
    match arg(args, 0)? {
        Value::String(s) => Ok(Value::from(s.graphemes(true).count())),
        _ => Err(FuncError::arg(0, "string required")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::call_function;

    fn call(name: &str, args: &[Value]) -> Result<Value, FuncError> {
        let table = spec_functions();
        let f = table
            .get(name)
            .ok_or_else(|| FuncError::new(format!("no function {name}")))?;
        call_function(f, args)
    }

    fn num(s: &str) -> Value {
        Value::Number(Number::parse(s).unwrap_or_else(Number::zero))
    }

    #[test]
    fn table_has_every_documented_function() {
        let table = spec_functions();
        let names: Vec<&str> = table.names().collect();
        let own = ["hasindex", "int", "length", "reverse", "strlen"];
        for name in own {
            assert!(names.contains(&name), "{name}");
        }
        // The reused ones are present once the standard library has them.
        for name in FROM_STDLIB {
            if stdlib().get(name).is_some() {
                assert!(names.contains(name), "{name}");
            }
        }
        // Nothing else: the input's expressions must not see Terraform's library.
        assert!(names.len() <= own.len() + FROM_STDLIB.len());
    }

    #[test]
    fn int_truncates_towards_zero() {
        assert_eq!(call("int", &[num("1.9")]), Ok(num("1")));
        assert_eq!(call("int", &[num("-1.9")]), Ok(num("-1")));
        assert_eq!(call("int", &[num("42")]), Ok(num("42")));
        assert_eq!(call("int", &["7.5".into()]), Ok(num("7")));
    }

    #[test]
    fn strlen_and_reverse_count_grapheme_clusters() {
        assert_eq!(call("strlen", &["héllo".into()]), Ok(num("5")));
        assert_eq!(call("strlen", &["e\u{301}a".into()]), Ok(num("2")));
        assert_eq!(call("strlen", &["".into()]), Ok(num("0")));
        assert_eq!(call("reverse", &["abc".into()]), Ok("cba".into()));
        assert_eq!(
            call("reverse", &["ae\u{301}".into()]),
            Ok(Value::from("e\u{301}a"))
        );
        assert_eq!(
            call("reverse", &[Value::Unknown(Type::String)]),
            Ok(Value::Unknown(Type::String))
        );
    }

    #[test]
    fn hasindex_follows_cty() {
        let list = Value::list(Type::String, vec!["a".into(), "b".into()]);
        assert_eq!(call("hasindex", &[list.clone(), num("1")]), Ok(true.into()));
        assert_eq!(
            call("hasindex", &[list.clone(), num("2")]),
            Ok(false.into())
        );
        assert_eq!(
            call("hasindex", &[list.clone(), num("-1")]),
            Ok(false.into())
        );
        assert_eq!(
            call("hasindex", &[list.clone(), num("0.5")]),
            Ok(false.into())
        );
        assert_eq!(call("hasindex", &[list, "0".into()]), Ok(false.into()));
        let tuple = Value::tuple(vec!["a".into(), Value::from(true)]);
        assert_eq!(call("hasindex", &[tuple, num("1")]), Ok(true.into()));
        let map = Value::map(Type::Number, [("k".to_string(), num("1"))].into());
        assert_eq!(
            call("hasindex", &[map.clone(), "k".into()]),
            Ok(true.into())
        );
        assert_eq!(call("hasindex", &[map, "x".into()]), Ok(false.into()));
        let set = Value::set(Type::String, vec!["a".into()]);
        assert_eq!(
            call("hasindex", &[set, num("0")]),
            Err(FuncError::new(NOT_A_COLLECTION))
        );
        assert_eq!(
            call(
                "hasindex",
                &[Value::object_from([("a", num("1"))]), "a".into()]
            ),
            Err(FuncError::new(NOT_A_COLLECTION))
        );
    }

    #[test]
    fn length_of_collections() {
        let list = Value::list(Type::String, vec!["a".into(), "b".into()]);
        assert_eq!(call("length", &[list]), Ok(num("2")));
        assert_eq!(call("length", &[Value::tuple(vec![])]), Ok(num("0")));
        assert_eq!(
            call("length", &[Value::object_from([("a", num("1"))])]),
            Ok(num("1"))
        );
        assert_eq!(
            call("length", &[Value::Unknown(Type::list(Type::String))]),
            Ok(Value::Unknown(Type::Number))
        );
        assert_eq!(
            call("length", &["abc".into()]),
            Err(FuncError::new(NOT_A_COLLECTION))
        );
    }
}
