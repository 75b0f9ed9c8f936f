//! Numeric functions: abs, ceil, floor, log, max, min, parseint, pow, signum.
//!
//! As cty's stdlib (which Terraform 1.5 uses for all of these): `log` and `pow` compute with
//! float64 (`pow` follows Go's `math.Pow` algorithm so that integer powers round the way Go
//! rounds them); `signum` converts its argument to a Go `int` first and therefore rejects
//! fractions; `parseint` follows `big.Int.SetString`.

use num_bigint::BigInt;

use super::{FuncError, Function, FunctionTable, Param};
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

// ---------------------------------------------------------------------------------------
// Go's math.Pow, so that results round exactly as Terraform's do.

fn go_is_odd_int(x: f64) -> bool {
    if x.abs() >= (1u64 << 53) as f64 {
        return false;
    }
    let (xi, xf) = go_modf(x);
    xf == 0.0 && (xi as i64) & 1 == 1
}

/// Go's `math.Modf`: integer and fractional parts with the sign of `f`.
fn go_modf(f: f64) -> (f64, f64) {
    if f < 1.0 {
        if f < 0.0 {
            let (i, fr) = go_modf(-f);
            return (-i, -fr);
        }
        if f == 0.0 {
            return (f, f);
        }
        return (0.0, f);
    }
    let i = f.trunc();
    (i, f - i)
}

/// Go's `math.Frexp`: `f == frac × 2^exp` with `0.5 <= |frac| < 1`.
fn go_frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || f.is_infinite() || f.is_nan() {
        return (f, 0);
    }
    let (f, mut exp) = if f.abs() < f64::MIN_POSITIVE {
        (f * (1u64 << 52) as f64, -52i64)
    } else {
        (f, 0)
    };
    let mut bits = f.to_bits();
    exp += ((bits >> 52) & 0x7ff) as i64 - 1023 + 1;
    bits &= !(0x7ffu64 << 52);
    bits |= 1022u64 << 52;
    (f64::from_bits(bits), exp)
}

/// Go's `math.Ldexp`: `frac × 2^exp`.
fn go_ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    let (frac, e) = if frac.abs() < f64::MIN_POSITIVE {
        (frac * (1u64 << 52) as f64, -52i64)
    } else {
        (frac, 0)
    };
    let mut exp = exp.saturating_add(e);
    let mut x = frac.to_bits();
    exp = exp.saturating_add(((x >> 52) & 0x7ff) as i64 - 1023);
    if exp < -1075 {
        return 0.0f64.copysign(frac);
    }
    if exp > 1023 {
        return if frac < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    x &= !(0x7ffu64 << 52);
    x |= ((exp + 1023) as u64) << 52;
    m * f64::from_bits(x)
}

/// Go's `math.Pow`.
pub(crate) fn go_pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y < 0.0 {
            if x.is_sign_negative() && go_is_odd_int(y) {
                return f64::NEG_INFINITY;
            }
            return f64::INFINITY;
        }
        if x.is_sign_negative() && go_is_odd_int(y) {
            return x;
        }
        return 0.0;
    }
    if y.is_infinite() {
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y > 0.0) {
            return 0.0;
        }
        return f64::INFINITY;
    }
    if x.is_infinite() {
        if x < 0.0 {
            return go_pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let (mut yi, mut yf) = go_modf(y.abs());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= (1u64 << 63) as f64 {
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y > 0.0) {
            return 0.0;
        }
        return f64::INFINITY;
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = (yf * x.ln()).exp();
    }
    let (mut x1, mut xe) = go_frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    go_ldexp(a1, ae)
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
    fn go_pow_matches_go_for_integer_powers() {
        // Values Go's math.Pow produces (its repeated squaring differs from libm's pow).
        assert_eq!(go_pow(3.0, 40.0), 1.2157665459056929e19);
        assert_eq!(go_pow(10.0, 22.0), 1e22);
        assert_eq!(go_pow(10.0, -2.0), 0.01);
        assert_eq!(go_pow(-2.0, 3.0), -8.0);
        assert!(go_pow(-2.0, 0.5).is_nan());
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
