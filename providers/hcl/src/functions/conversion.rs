//! Type conversion functions, as Terraform 1.5 defines them
//! (`internal/lang/funcs/conversion.go` and `sensitive.go`): `tobool`, `tolist`, `tomap`,
//! `tonumber`, `toset`, `tostring`, `sensitive` and `nonsensitive`.
//!
//! The `to*` functions accept any value (null and unknown included) and convert it with
//! cty's conversions, "unsafe" ones included (`"true"` to `true`, `"12"` to `12`), with
//! Terraform's own wording for failures. `tolist`, `toset` and `tomap` convert to a
//! collection of "any single type": the element types of a tuple or object are unified.
//!
//! `sensitive` and `nonsensitive` return their argument unchanged: values carry no marks
//! here, so there is nothing to add or remove (Terraform 1.5's `nonsensitive` also rejects
//! a value that is not sensitive; that check cannot be made without marks).
//!
//! This module also holds small argument accessors shared by the other function families
//! of this engineer (`str_arg`, `num_arg`, `int_arg`, `bigint_arg`).

use num_bigint::BigInt;

use super::{FuncError, Function, FunctionTable, Param};
use crate::convert::convert;
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(to_fn("tobool", tobool));
    t.add(to_fn("tonumber", tonumber));
    t.add(to_fn("tostring", tostring));
    t.add(to_fn("tolist", tolist));
    t.add(to_fn("toset", toset));
    t.add(to_fn("tomap", tomap));
    t.add(identity_fn("sensitive"));
    t.add(identity_fn("nonsensitive"));
}

/// The string argument at `i` (the function table has converted it already).
pub(crate) fn str_arg(args: &[Value], i: usize) -> Result<&str, FuncError> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(FuncError::arg(i, "a string is required")),
    }
}

/// The number argument at `i`.
pub(crate) fn num_arg(args: &[Value], i: usize) -> Result<&Number, FuncError> {
    match args.get(i) {
        Some(Value::Number(n)) => Ok(n),
        _ => Err(FuncError::arg(i, "a number is required")),
    }
}

/// A number as a Go `int` (64 bits), with gocty's error for fractions and out-of-range values.
pub(crate) fn to_go_int(n: &Number) -> Result<i64, String> {
    n.to_i64().ok_or_else(|| {
        format!(
            "value must be a whole number, between {} and {}",
            i64::MIN,
            i64::MAX
        )
    })
}

/// A number as a Go `*big.Int`, with gocty's error for fractions.
pub(crate) fn to_go_bigint(n: &Number) -> Result<BigInt, String> {
    if !n.is_integer() {
        return Err("value must be a whole number".to_string());
    }
    n.to_bigint()
        .ok_or_else(|| "value must be a whole number".to_string())
}

fn to_fn(name: &'static str, imp: fn(&[Value]) -> Result<Value, FuncError>) -> Function {
    Function::new(
        name,
        vec![Param::new("v", Type::Dynamic).allow_null().allow_unknown()],
        Type::Dynamic,
        imp,
    )
}

fn identity_fn(name: &'static str) -> Function {
    Function::new(
        name,
        vec![Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_unknown()],
        Type::Dynamic,
        |args| {
            args.first()
                .cloned()
                .ok_or_else(|| FuncError::new("missing argument"))
        },
    )
}

fn tobool(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::Bool)
}
fn tonumber(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::Number)
}
fn tostring(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::String)
}
fn tolist(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::list(Type::Dynamic))
}
fn toset(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::set(Type::Dynamic))
}
fn tomap(args: &[Value]) -> Result<Value, FuncError> {
    to_type(args, &Type::map(Type::Dynamic))
}

/// Terraform's `MakeToFunc(want)`: a type-level check first (is there any conversion from
/// the argument's type?), then the value conversion.
fn to_type(args: &[Value], want: &Type) -> Result<Value, FuncError> {
    let v = args
        .first()
        .ok_or_else(|| FuncError::new("missing argument"))?;
    let got = v.ty();
    if &got != want && convert(&Value::Unknown(got.clone()), want).is_err() {
        return Err(FuncError::arg(
            0,
            format!(
                "cannot convert {} to {}",
                got.friendly_name(),
                want.friendly_name_for_constraint()
            ),
        ));
    }
    if let Value::Unknown(_) = v {
        return Ok(Value::Unknown(want.clone()));
    }
    convert(v, want).map_err(|_| {
        let msg = match (v, want) {
            (Value::String(s), Type::Bool) => format!(
                "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                go_quote(s)
            ),
            (Value::String(s), Type::Number) => format!(
                "cannot convert {} to number; given string must be a decimal representation of a number",
                go_quote(s)
            ),
            _ => format!(
                "cannot convert {} to {}",
                got.friendly_name(),
                want.friendly_name_for_constraint()
            ),
        };
        FuncError::arg(0, msg)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn table() -> FunctionTable {
        let mut t = FunctionTable::empty();
        register(&mut t);
        t
    }

    fn s(v: &str) -> Value {
        Value::String(v.to_string())
    }

    #[test]
    fn tobool_strings() {
        let t = table();
        assert_eq!(
            t.call("tobool", &[s("true")]).ok().and_then(|v| match v {
                Value::Bool(b) => Some(b),
                _ => None,
            }),
            Some(true)
        );
        let e = t.call("tobool", &[s("foo")]).unwrap_err();
        assert_eq!(e.arg, Some(0));
        assert_eq!(
            e.message,
            "cannot convert \"foo\" to bool; only the strings \"true\" or \"false\" are allowed"
        );
    }

    #[test]
    fn tonumber_bad_string() {
        let e = table().call("tonumber", &[s("1x")]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot convert \"1x\" to number; given string must be a decimal representation of a number"
        );
    }

    #[test]
    fn type_level_failures() {
        let t = table();
        let list = Value::List(Type::String, vec![s("a")]);
        let e = t.call("tostring", &[list]).unwrap_err();
        assert_eq!(e.message, "cannot convert list of string to string");
        let obj = Value::Object(BTreeMap::from([("a".to_string(), s("b"))]));
        let e = t.call("tolist", &[obj]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot convert object to list of any single type"
        );
        let e = t
            .call("tobool", &[Value::Unknown(Type::list(Type::String))])
            .unwrap_err();
        assert_eq!(e.message, "cannot convert list of string to bool");
    }

    #[test]
    fn unknown_and_null() {
        let t = table();
        assert!(matches!(
            t.call("tostring", &[Value::Unknown(Type::Dynamic)]),
            Ok(Value::Unknown(Type::String))
        ));
        assert!(matches!(
            t.call("tolist", &[Value::Unknown(Type::Dynamic)]),
            Ok(Value::Unknown(Type::List(_)))
        ));
        assert!(matches!(
            t.call("tostring", &[Value::Null(Type::Dynamic)]),
            Ok(Value::Null(Type::String))
        ));
    }

    #[test]
    fn sensitive_is_identity() {
        let t = table();
        assert!(matches!(t.call("sensitive", &[s("x")]), Ok(Value::String(v)) if v == "x"));
        assert!(matches!(
            t.call("nonsensitive", &[Value::Null(Type::Number)]),
            Ok(Value::Null(Type::Number))
        ));
    }

    #[test]
    fn go_int_errors() {
        assert_eq!(
            to_go_int(&Number::parse("1.5").unwrap()).unwrap_err(),
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
        );
        assert_eq!(
            to_go_bigint(&Number::parse("0.75").unwrap()).unwrap_err(),
            "value must be a whole number"
        );
        assert_eq!(to_go_int(&Number::from_i64(-3)).unwrap(), -3);
    }
}
