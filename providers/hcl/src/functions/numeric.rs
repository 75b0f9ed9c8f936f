//! Numeric functions: abs, ceil, floor, log, max, min, parseint, pow, signum.
//!
//! As cty's stdlib (which Terraform 1.5 uses for all of these): `log` and `pow` compute with
//! float64 (`pow` is Go's `math.Pow`, `gocompat::math`, so that integer powers round the
//! way Go rounds them); `signum` converts its argument to a Go `int` first and therefore rejects
//! fractions; `parseint` follows `big.Int.SetString`.

use num_bigint::BigInt;

use super::{FuncError, Function, FunctionTable, Param};
use crate::gocompat::math::go_pow;
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(Function::new(
        "abs",
        vec![num_param("num")],
        Type::Number,
        abs,
    ));
    t.add(Function::new(
        "ceil",
        vec![num_param("num")],
        Type::Number,
        ceil,
    ));
    t.add(Function::new(
        "floor",
        vec![num_param("num")],
        Type::Number,
        floor,
    ));
    t.add(Function::new(
        "log",
        vec![num_param("num"), num_param("base")],
        Type::Number,
        log,
    ));
    t.add(Function::new("max", vec![], Type::Number, max).variadic(num_param("numbers")));
    t.add(Function::new("min", vec![], Type::Number, min).variadic(num_param("numbers")));
    t.add(Function::new(
        "parseint",
        vec![
            Param::new("number", Type::Dynamic).allow_unknown(),
            num_param("base").allow_unknown(),
        ],
        Type::Number,
        parseint,
    ));
    t.add(Function::new(
        "pow",
        vec![num_param("num"), num_param("power")],
        Type::Number,
        pow,
    ));
    t.add(Function::new(
        "signum",
        vec![num_param("num")],
        Type::Number,
        signum,
    ));
}

fn num_param(name: &str) -> Param {
    Param::new(name, Type::Number)
}

/// The message of gocty's conversion of a number to a Go `int` when it is not a whole
/// number in range.
pub(crate) const NOT_AN_INT: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// Converts a known number value to a Go `int` (64-bit) as `gocty.FromCtyValue` does.
pub(crate) fn go_int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => n.to_i64().ok_or_else(|| NOT_AN_INT.to_string()),
        _ => Err("number required".to_string()),
    }
}

fn number_arg(args: &[Value], i: usize) -> Result<&Number, FuncError> {
    args.get(i)
        .and_then(Value::as_number)
        .ok_or_else(|| FuncError::arg(i, "number required"))
}

/// A float64 result as cty's `NumberFloatVal` keeps it (shortest round-trip decimal).
/// cty cannot hold NaN (it panics) and our numbers cannot hold infinities.
pub(crate) fn float_result(f: f64) -> Result<Value, FuncError> {
    if f.is_nan() {
        return Err(FuncError::new("result is not a number (NaN)"));
    }
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| FuncError::new("result is infinite, which cannot be represented"))
}

/// A number as a Go float64 (gocty refuses values beyond the float64 range).
fn go_float(n: &Number, arg: usize) -> Result<f64, FuncError> {
    let f = n.to_f64();
    if f.is_infinite() {
        return Err(FuncError::arg(
            arg,
            format!(
                "value must be between {} and {} inclusive",
                go_float_f(-f64::MAX),
                go_float_f(f64::MAX)
            ),
        ));
    }
    Ok(f)
}

/// Go's `%f` of a float64 (six decimals).
fn go_float_f(f: f64) -> String {
    format!("{f:.6}")
}

fn abs(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Number(number_arg(args, 0)?.abs()))
}

fn ceil(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Number(number_arg(args, 0)?.ceil()))
}

fn floor(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Number(number_arg(args, 0)?.floor()))
}

fn log(args: &[Value]) -> Result<Value, FuncError> {
    let num = go_float(number_arg(args, 0)?, 0)?;
    let base = go_float(number_arg(args, 1)?, 1)?;
    float_result(num.ln() / base.ln())
}

fn pow(args: &[Value]) -> Result<Value, FuncError> {
    let num = go_float(number_arg(args, 0)?, 0)?;
    let power = go_float(number_arg(args, 1)?, 1)?;
    float_result(go_pow(num, power))
}

fn signum(args: &[Value]) -> Result<Value, FuncError> {
    let n = go_int(args.first().unwrap_or(&Value::Null(Type::Number))).map_err(FuncError::new)?;
    Ok(Value::from(n.signum()))
}

fn max(args: &[Value]) -> Result<Value, FuncError> {
    extreme(args, std::cmp::Ordering::Greater)
}

fn min(args: &[Value]) -> Result<Value, FuncError> {
    extreme(args, std::cmp::Ordering::Less)
}

/// The first argument that compares `want` against all earlier winners (cty keeps the
/// first of equal numbers).
fn extreme(args: &[Value], want: std::cmp::Ordering) -> Result<Value, FuncError> {
    let mut best: Option<&Number> = None;
    for i in 0..args.len() {
        let n = number_arg(args, i)?;
        match best {
            Some(b) if n.cmp(b) != want => {}
            _ => best = Some(n),
        }
    }
    best.map(|n| Value::Number(n.clone()))
        .ok_or_else(|| FuncError::new("must pass at least one number"))
}

fn parseint(args: &[Value]) -> Result<Value, FuncError> {
    let number = args.first().cloned().unwrap_or(Value::Null(Type::Dynamic));
    let ty = number.ty();
    // cty: a dynamic-typed argument to a parameter without AllowDynamicType makes the
    // result unknown of unknown type.
    if ty == Type::Dynamic {
        return Ok(Value::Unknown(Type::Dynamic));
    }
    if ty != Type::String {
        return Err(FuncError::arg(
            0,
            format!(
                "first argument must be a string, not {}",
                ty.friendly_name()
            ),
        ));
    }
    let base_val = args.get(1).cloned().unwrap_or(Value::Null(Type::Number));
    let Value::String(s) = number else {
        return Ok(Value::Unknown(Type::Number));
    };
    if base_val.is_unknown() {
        return Ok(Value::Unknown(Type::Number));
    }
    let base = go_int(&base_val).map_err(|e| FuncError::arg(1, e))?;
    if !(2..=62).contains(&base) {
        return Err(FuncError::arg(
            1,
            "base must be a whole number between 2 and 62 inclusive",
        ));
    }
    match go_parse_big_int(&s, base as u32) {
        Some(n) => Ok(Value::Number(Number::from_bigint(n))),
        None => Err(FuncError::arg(
            0,
            format!("cannot parse {} as a base {base} integer", go_quote(&s)),
        )),
    }
}

/// `big.Int.SetString(s, base)` for 2 <= base <= 62: an optional sign, then one or more
/// digits of the base and nothing else. For bases up to 36 letters are case-insensitive;
/// above, `a`-`z` are 10-35 and `A`-`Z` are 36-61.
fn go_parse_big_int(s: &str, base: u32) -> Option<BigInt> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut vals = Vec::with_capacity(digits.len());
    for c in digits.bytes() {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'z' => u32::from(c - b'a') + 10,
            b'A'..=b'Z' if base <= 36 => u32::from(c - b'A') + 10,
            b'A'..=b'Z' => u32::from(c - b'A') + 36,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        vals.push(d as u8);
    }
    let n = BigInt::from_radix_be(num_bigint::Sign::Plus, &vals, base)?;
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::stdlib;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FuncError> {
        stdlib().call(name, &args)
    }
    fn num(s: &str) -> Value {
        Value::Number(Number::parse(s).expect("number"))
    }
    fn s(v: &str) -> Value {
        Value::string(v)
    }

    #[test]
    fn abs_ceil_floor() {
        assert_eq!(call("abs", vec![num("-12.5")]), Ok(num("12.5")));
        assert_eq!(call("abs", vec![num("0")]), Ok(num("0")));
        assert_eq!(call("ceil", vec![num("5.1")]), Ok(num("6")));
        assert_eq!(call("ceil", vec![num("-5.1")]), Ok(num("-5")));
        assert_eq!(call("floor", vec![num("4.9")]), Ok(num("4")));
        assert_eq!(call("floor", vec![num("-4.1")]), Ok(num("-5")));
    }

    #[test]
    fn log_and_pow_use_float64() {
        assert_eq!(
            call("log", vec![num("50"), num("10")]),
            Ok(num("1.6989700043360185"))
        );
        assert_eq!(call("log", vec![num("16"), num("2")]), Ok(num("4")));
        assert_eq!(call("pow", vec![num("3"), num("2")]), Ok(num("9")));
        assert_eq!(call("pow", vec![num("4"), num("0")]), Ok(num("1")));
        assert_eq!(
            call("pow", vec![num("2"), num("100")]),
            Ok(num("1267650600228229400000000000000"))
        );
        assert_eq!(call("pow", vec![num("2"), num("-1")]), Ok(num("0.5")));
        assert_eq!(call("pow", vec![num("4"), num("0.5")]), Ok(num("2")));
        assert!(call("log", vec![num("-1"), num("10")]).is_err());
        assert!(call("pow", vec![num("0"), num("-1")]).is_err());
    }

    #[test]
    fn max_min() {
        assert_eq!(
            call("max", vec![num("12"), num("54"), num("3")]),
            Ok(num("54"))
        );
        assert_eq!(
            call("min", vec![num("12"), num("54"), num("3")]),
            Ok(num("3"))
        );
        assert_eq!(
            call("max", vec![]),
            Err(FuncError::new("must pass at least one number"))
        );
    }

    #[test]
    fn signum_requires_an_integer() {
        assert_eq!(call("signum", vec![num("-13")]), Ok(num("-1")));
        assert_eq!(call("signum", vec![num("0")]), Ok(num("0")));
        assert_eq!(call("signum", vec![num("344")]), Ok(num("1")));
        assert_eq!(
            call("signum", vec![num("0.5")]),
            Err(FuncError::new(NOT_AN_INT))
        );
    }

    #[test]
    fn parseint_bases() {
        assert_eq!(call("parseint", vec![s("100"), num("10")]), Ok(num("100")));
        assert_eq!(call("parseint", vec![s("FF"), num("16")]), Ok(num("255")));
        assert_eq!(call("parseint", vec![s("-10"), num("16")]), Ok(num("-16")));
        assert_eq!(
            call("parseint", vec![s("1011111011101111"), num("2")]),
            Ok(num("48879"))
        );
        assert_eq!(call("parseint", vec![s("aA"), num("62")]), Ok(num("656")));
        assert_eq!(
            call("parseint", vec![s("12345678901234567890123"), num("10")]),
            Ok(num("12345678901234567890123"))
        );
        assert_eq!(
            call("parseint", vec![s("12"), num("2")]),
            Err(FuncError::arg(0, "cannot parse \"12\" as a base 2 integer"))
        );
        assert_eq!(
            call("parseint", vec![s("1_0"), num("10")]),
            Err(FuncError::arg(
                0,
                "cannot parse \"1_0\" as a base 10 integer"
            ))
        );
        assert_eq!(
            call("parseint", vec![s("10"), num("1")]),
            Err(FuncError::arg(
                1,
                "base must be a whole number between 2 and 62 inclusive"
            ))
        );
        assert_eq!(
            call("parseint", vec![num("10"), num("10")]),
            Err(FuncError::arg(
                0,
                "first argument must be a string, not number"
            ))
        );
        assert_eq!(
            call("parseint", vec![Value::Unknown(Type::String), num("10")]),
            Ok(Value::Unknown(Type::Number))
        );
        assert_eq!(
            call("parseint", vec![num("10"), Value::Unknown(Type::Number)]),
            Err(FuncError::arg(
                0,
                "first argument must be a string, not number"
            ))
        );
        assert_eq!(
            call("parseint", vec![Value::Unknown(Type::Dynamic), num("10")]),
            Ok(Value::Unknown(Type::Dynamic))
        );
    }
}
