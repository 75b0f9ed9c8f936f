//! Arbitrary-precision decimal numbers (HCL's number type is not f64).
//!
//! cty represents numbers as `big.Float` with 512 bits of mantissa. We represent them as
//! exact decimals (`BigDecimal`, always normalized: no trailing zeros in the coefficient),
//! which agrees with cty wherever cty is exact and is exact in more places (`0.1 + 0.2`
//! is exactly `0.3`).
//!
//! Precision choices:
//! - Parsing, `add`, `sub`, `mul`, `rem`, `floor`, `ceil` and `pow` with an integer exponent
//!   are exact.
//! - `div` emulates cty: the exact quotient is rounded to a 512-bit binary mantissa (round
//!   half to even, as `big.Float.Quo`) and the result is the shortest decimal that rounds
//!   back to that binary value (what `big.Float.Text('f', -1)` prints). So `1/3` prints the
//!   same 155 digits as Terraform. Operands with extreme exponents fall back to a decimal
//!   quotient rounded to 160 significant digits.
//! - `pow` with a non-integer exponent (or an exponent too large to be exact) goes through
//!   f64 like Terraform's `pow` (which always uses `math.Pow`).
//!
//! Deviations: there are no infinities (`div` and `rem` return `None` on a zero divisor,
//! where cty would produce an infinity or fail) and no negative zero (`-0` is `0`).
//! To keep memory bounded on hostile input, decimal exponents are limited to
//! ±[`MAX_EXPONENT`] when parsing, numbers that would print with more than
//! [`MAX_PLAIN_LEN`] characters print in scientific notation, and adding numbers whose
//! exponents differ by more than [`MAX_ALIGN`] digits returns the larger operand.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use bigdecimal::BigDecimal;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The largest decimal exponent magnitude accepted by [`Number::parse`].
pub const MAX_EXPONENT: i64 = 10_000_000;
/// Numbers whose plain decimal text would be longer than this print in scientific notation.
pub const MAX_PLAIN_LEN: usize = 1_000_000;
/// The largest scale difference `add`/`sub` align exactly.
pub const MAX_ALIGN: i64 = 1_000_000;
/// Scales are clamped to this magnitude (far beyond anything parseable) so that scale
/// arithmetic can never overflow.
const SCALE_LIMIT: i128 = 1_000_000_000_000_000;
/// Precision (significant digits) of the decimal fallback for division.
const FALLBACK_DIV_DIGITS: u64 = 160;
/// cty's mantissa size in bits.
const CTY_PREC: u64 = 512;

/// A number. Stored normalized so that equal numbers compare and hash equal.
#[derive(Clone, Debug)]
pub struct Number(pub BigDecimal);

fn pow10(n: u64) -> BigInt {
    num_traits::pow(BigInt::from(10u8), n as usize)
}

fn pow5(n: u64) -> BigInt {
    num_traits::pow(BigInt::from(5u8), n as usize)
}

/// Number of decimal digits of |i| (1 for zero).
fn digit_count(i: &BigInt) -> u64 {
    if i.is_zero() {
        return 1;
    }
    // Estimate from the bit length, then correct.
    let bits = i.bits();
    let est = ((bits as f64 - 1.0) * std::f64::consts::LOG10_2).floor() as u64 + 1;
    let mag = i.abs();
    if est > 1 && mag < pow10(est - 1) {
        est - 1
    } else if mag >= pow10(est) {
        est + 1
    } else {
        est
    }
}

impl Number {
    /// Builds a normalized number from a coefficient and a scale (value = int × 10^-scale).
    fn from_parts(int: BigInt, scale: i128) -> Number {
        if int.is_zero() {
            return Number(BigDecimal::zero());
        }
        let (mut int, mut scale) = (int, scale);
        // Strip trailing zeros in chunks, then one by one.
        let ten = BigInt::from(10u8);
        let big_chunk = pow10(16);
        loop {
            let (q, r) = int.div_rem(&big_chunk);
            if r.is_zero() {
                int = q;
                scale -= 16;
            } else {
                break;
            }
        }
        loop {
            let (q, r) = int.div_rem(&ten);
            if r.is_zero() {
                int = q;
                scale -= 1;
            } else {
                break;
            }
        }
        if scale > SCALE_LIMIT {
            // Underflow: indistinguishable from zero at any sane precision.
            return Number(BigDecimal::zero());
        }
        let scale = scale.max(-SCALE_LIMIT) as i64;
        Number(BigDecimal::new(int, scale))
    }

    /// The normalized coefficient and scale (value = int × 10^-scale).
    fn parts(&self) -> (BigInt, i64) {
        let (i, s) = self.0.as_bigint_and_exponent();
        if i.is_zero() {
            return (i, 0);
        }
        // Normalize in case someone built `Number(BigDecimal)` by hand.
        if (&i % 10u8).is_zero() {
            let n = Number::from_parts(i, s as i128);
            return n.0.as_bigint_and_exponent();
        }
        (i, s)
    }

    pub fn zero() -> Number {
        Number(BigDecimal::zero())
    }
    pub fn one() -> Number {
        Number::from_i64(1)
    }
    pub fn from_i64(v: i64) -> Number {
        Number::from_parts(BigInt::from(v), 0)
    }
    pub fn from_u64(v: u64) -> Number {
        Number::from_parts(BigInt::from(v), 0)
    }
    pub fn from_bigint(v: BigInt) -> Number {
        Number::from_parts(v, 0)
    }
    /// A finite f64, as the shortest decimal that round-trips (what cty prints for
    /// `cty.NumberFloatVal`). `None` for NaN and infinities.
    pub fn from_f64(v: f64) -> Option<Number> {
        if !v.is_finite() {
            return None;
        }
        Number::parse(&format!("{v:e}"))
    }

    /// Parses a decimal number: optional sign, digits with an optional fraction (`1`, `1.5`,
    /// `.5`, `5.`), optional exponent (`1e3`, `2.5E-2`). Exact; no whitespace, no
    /// infinities. `None` when the text is not a number.
    pub fn parse(s: &str) -> Option<Number> {
        let b = s.as_bytes();
        let mut i = 0;
        let mut neg = false;
        if let Some(&c) = b.first() {
            if c == b'-' || c == b'+' {
                neg = c == b'-';
                i = 1;
            }
        }
        let int_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let int_digits = s.get(int_start..i)?;
        let mut frac_digits = "";
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let fs = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            frac_digits = s.get(fs..i)?;
        }
        if int_digits.is_empty() && frac_digits.is_empty() {
            return None;
        }
        let mut exp: i64 = 0;
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            let mut eneg = false;
            if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
                eneg = b[i] == b'-';
                i += 1;
            }
            let es = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let edigits = s.get(es..i)?;
            if edigits.is_empty() {
                return None;
            }
            let trimmed = edigits.trim_start_matches('0');
            if trimmed.len() > 12 {
                return None;
            }
            let e: i64 = if trimmed.is_empty() {
                0
            } else {
                trimmed.parse().ok()?
            };
            if e > MAX_EXPONENT {
                return None;
            }
            exp = if eneg { -e } else { e };
        }
        if i != b.len() {
            return None;
        }
        let mut digits = String::with_capacity(int_digits.len() + frac_digits.len());
        digits.push_str(int_digits);
        digits.push_str(frac_digits);
        let digits = digits.trim_start_matches('0');
        let mut int = if digits.is_empty() {
            BigInt::zero()
        } else {
            BigInt::parse_bytes(digits.as_bytes(), 10)?
        };
        if neg {
            int = -int;
        }
        Some(Number::from_parts(
            int,
            frac_digits.len() as i128 - exp as i128,
        ))
    }

    /// The value as i64 when it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_bigint()?.to_i64()
    }
    pub fn to_u64(&self) -> Option<u64> {
        self.to_bigint()?.to_u64()
    }
    pub fn to_usize(&self) -> Option<usize> {
        self.to_bigint()?.to_usize()
    }
    /// The value as an integer when it is one.
    pub fn to_bigint(&self) -> Option<BigInt> {
        let (i, s) = self.parts();
        if s > 0 {
            return None;
        }
        let shift = s.unsigned_abs();
        if shift > 100_000 {
            return None;
        }
        Some(i * pow10(shift))
    }
    /// The nearest f64 (infinite when out of range).
    pub fn to_f64(&self) -> f64 {
        let (i, s) = self.parts();
        format!("{i}e{}", -(s as i128))
            .parse::<f64>()
            .unwrap_or(f64::NAN)
    }
    pub fn is_integer(&self) -> bool {
        self.parts().1 <= 0
    }
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    pub fn is_negative(&self) -> bool {
        self.0.sign() == Sign::Minus
    }
    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self.0.sign() {
            Sign::Minus => -1,
            Sign::NoSign => 0,
            Sign::Plus => 1,
        }
    }

    /// Both operands as integers at a common scale, when the scales are close enough.
    fn aligned(&self, other: &Number) -> Option<(BigInt, BigInt, i64)> {
        let (a, sa) = self.parts();
        let (b, sb) = other.parts();
        let d = sa as i128 - sb as i128;
        if d.abs() > MAX_ALIGN as i128 {
            return None;
        }
        Some(match d.cmp(&0) {
            Ordering::Equal => (a, b, sa),
            Ordering::Greater => (a, b * pow10(d as u64), sa),
            Ordering::Less => (a * pow10((-d) as u64), b, sb),
        })
    }

    /// The decimal exponent of the most significant digit (0 for 1..9, -1 for 0.1..0.9).
    fn magnitude(&self) -> i128 {
        let (i, s) = self.parts();
        digit_count(&i) as i128 - 1 - s as i128
    }

    /// Exact sum.
    pub fn add(&self, other: &Number) -> Number {
        if self.is_zero() {
            return other.clone();
        }
        if other.is_zero() {
            return self.clone();
        }
        match self.aligned(other) {
            Some((a, b, s)) => Number::from_parts(a + b, s as i128),
            None => {
                if self.magnitude() >= other.magnitude() {
                    self.clone()
                } else {
                    other.clone()
                }
            }
        }
    }
    /// Exact difference.
    pub fn sub(&self, other: &Number) -> Number {
        self.add(&other.neg())
    }
    /// Exact product.
    pub fn mul(&self, other: &Number) -> Number {
        let (a, sa) = self.parts();
        let (b, sb) = other.parts();
        Number::from_parts(a * b, sa as i128 + sb as i128)
    }
    pub fn neg(&self) -> Number {
        Number(-self.0.clone())
    }
    pub fn abs(&self) -> Number {
        Number(self.0.abs())
    }

    /// Quotient, as cty computes it (see the module docs). `None` when `other` is zero.
    pub fn div(&self, other: &Number) -> Option<Number> {
        if other.is_zero() {
            return None;
        }
        if self.is_zero() {
            return Some(Number::zero());
        }
        let (a, sa) = self.parts();
        let (b, sb) = other.parts();
        let neg = (a.sign() == Sign::Minus) != (b.sign() == Sign::Minus);
        let (a, b) = (a.abs(), b.abs());
        // Exact integer quotient shortcut (keeps huge exact quotients exact).
        let (q, r) = a.div_rem(&b);
        let res = if r.is_zero() {
            Number::from_parts(q, sa as i128 - sb as i128)
        } else {
            let k = sb as i128 - sa as i128; // quotient = a/b * 10^k
            let small = k.abs() <= 10_000 && a.bits() <= 100_000 && b.bits() <= 100_000;
            if small {
                div_binary512(&a, &b, k as i64)
            } else {
                div_decimal(&a, &b, k)
            }
        };
        Some(if neg { res.neg() } else { res })
    }

    /// cty's modulo: `a - b * trunc(a / b)` (the sign follows the dividend). Exact.
    /// `None` when `other` is zero.
    pub fn rem(&self, other: &Number) -> Option<Number> {
        if other.is_zero() {
            return None;
        }
        if !(self.is_integer() && other.is_integer()) {
            return Some(self.rem_binary512(other));
        }
        match self.aligned(other) {
            Some((a, b, s)) => Some(Number::from_parts(a % b, s as i128)),
            None => {
                // Scales too far apart: |a| is either much smaller than |b| (then a % b is
                // a) or a multiple of b at any feasible precision.
                if self.magnitude() < other.magnitude() {
                    Some(self.clone())
                } else {
                    Some(Number::zero())
                }
            }
        }
    }

    /// cty's `Modulo` of non-integers: both operands as 512-bit binary floats (as cty
    /// parses them), `a - trunc(a / b) × b` computed exactly, rounded to 512 bits and
    /// printed as the shortest decimal that rounds back (so `11 % 5.1` is
    /// `0.8000…024`, as Terraform gives it, not the exact decimal `0.8`).
    fn rem_binary512(&self, other: &Number) -> Number {
        let Some((ma, ea)) = self.binary512() else {
            return self.clone();
        };
        let Some((mb, eb)) = other.binary512() else {
            return self.clone();
        };
        // trunc(a / b), the quotient of the binary operands rounded to 512 bits as cty's
        // `Divide` gives it.
        let qi = {
            let (na, nb) = (ma.abs(), mb.abs());
            let (num, den) = match ea - eb {
                d if d >= 0 => (na << d as u64, nb),
                d => (na, nb << d.unsigned_abs()),
            };
            let (m, e) = round_binary512(&num, &den);
            let whole = if e >= 0 {
                m << e as u64
            } else {
                m >> e.unsigned_abs()
            };
            if (ma.sign() == Sign::Minus) != (mb.sign() == Sign::Minus) {
                -whole
            } else {
                whole
            }
        };
        // q × b, rounded to 512 bits as `big.Float.Mul` does.
        let (mp, ep) = {
            let p = &qi * &mb;
            if p.is_zero() {
                (BigInt::zero(), eb)
            } else {
                let neg = p.sign() == Sign::Minus;
                let (num, den) = if eb >= 0 {
                    (p.abs() << eb as u64, BigInt::one())
                } else {
                    (p.abs(), BigInt::one() << eb.unsigned_abs())
                };
                let (m, e) = round_binary512(&num, &den);
                (if neg { -m } else { m }, e)
            }
        };
        let base = ea.min(ep);
        let r = (ma << (ea - base) as u64) - (mp << (ep - base) as u64);
        if r.is_zero() {
            return Number::zero();
        }
        let neg = r.sign() == Sign::Minus;
        let r = r.abs();
        // r × 2^base as num / den.
        let (num, den) = if base >= 0 {
            (r << base as u64, BigInt::one())
        } else {
            (r, BigInt::one() << base.unsigned_abs())
        };
        let (m, e) = round_binary512(&num, &den);
        let v = shortest_decimal(m, e);
        if neg {
            v.neg()
        } else {
            v
        }
    }

    /// The value rounded to a 512-bit binary mantissa with the sign: (±m, e). `None` for
    /// zero, or when the exponent is too far out to scale exactly.
    fn binary512(&self) -> Option<(BigInt, i64)> {
        let (c, s) = self.parts();
        if c.is_zero() || s.unsigned_abs() > 10_000 {
            return None;
        }
        let neg = c.sign() == Sign::Minus;
        let c = c.abs();
        let (num, den) = if s <= 0 {
            (c * pow10(s.unsigned_abs()), BigInt::one())
        } else {
            (c, pow10(s as u64))
        };
        let (m, e) = round_binary512(&num, &den);
        Some((if neg { -m } else { m }, e))
    }

    /// Largest integer not greater than the value.
    pub fn floor(&self) -> Number {
        self.round_int(false)
    }
    /// Smallest integer not less than the value.
    pub fn ceil(&self) -> Number {
        self.round_int(true)
    }
    fn round_int(&self, up: bool) -> Number {
        let (i, s) = self.parts();
        if s <= 0 {
            return self.clone();
        }
        if digit_count(&i) <= s as u64 {
            // |x| < 1
            return Number::from_i64(match (i.sign() == Sign::Minus, up) {
                (true, true) | (false, false) => 0,
                (true, false) => -1,
                (false, true) => 1,
            });
        }
        let d = pow10(s as u64);
        let q = if up {
            -((-i).div_floor(&d))
        } else {
            i.div_floor(&d)
        };
        Number::from_parts(q, 0)
    }

    /// `self` raised to `exp`. Exact for integer exponents when the result stays of
    /// reasonable size (negative exponents divide as `div` does); otherwise computed with
    /// f64 as Terraform's `pow` does. `None` when the result is not finite (`0^-1`) or
    /// not a number.
    pub fn pow(&self, exp: &Number) -> Option<Number> {
        if let Some(n) = exp.to_i64() {
            if n == 0 {
                return Some(Number::one());
            }
            if self.is_zero() {
                return if n > 0 { Some(Number::zero()) } else { None };
            }
            let (i, s) = self.parts();
            let un = n.unsigned_abs();
            let digits = digit_count(&i);
            let est = (digits as u128).saturating_mul(un as u128);
            let scale = (s as i128).saturating_mul(un as i128);
            if est <= 200_000 && scale.abs() <= SCALE_LIMIT {
                let p = Number::from_parts(num_traits::pow(i, un as usize), scale);
                return if n > 0 {
                    Some(p)
                } else {
                    Number::one().div(&p)
                };
            }
            if self.abs() == Number::one() {
                let neg = self.is_negative() && n % 2 != 0;
                return Some(if neg {
                    Number::from_i64(-1)
                } else {
                    Number::one()
                });
            }
        }
        Number::from_f64(self.to_f64().powf(exp.to_f64()))
    }
}

/// Exact decimal value of `m × 2^e` as (coefficient, scale).
fn dyadic_to_decimal(m: &BigInt, e: i64) -> (BigInt, i64) {
    if e >= 0 {
        (m << (e as u64), 0)
    } else {
        let n = e.unsigned_abs();
        (m * pow5(n), n as i64)
    }
}

/// Compares c1×10^-s1 with c2×10^-s2 (non-negative coefficients, moderate scales).
fn cmp_dec(c1: &BigInt, s1: i64, c2: &BigInt, s2: i64) -> Ordering {
    match s1.cmp(&s2) {
        Ordering::Equal => c1.cmp(c2),
        Ordering::Greater => c1.cmp(&(c2 * pow10((s1 - s2) as u64))),
        Ordering::Less => (c1 * pow10((s2 - s1) as u64)).cmp(c2),
    }
}

/// a/b × 10^k rounded to a 512-bit binary mantissa, then printed as the shortest decimal
/// that rounds back to it (`big.Float.Quo` then `Text('f', -1)`). a, b > 0.
fn div_binary512(a: &BigInt, b: &BigInt, k: i64) -> Number {
    // q = num / den exactly.
    let (num, den) = if k >= 0 {
        (a * pow10(k as u64), b.clone())
    } else {
        (a.clone(), b * pow10(k.unsigned_abs()))
    };
    let (m, e) = round_binary512(&num, &den);
    shortest_decimal(m, e)
}

/// num / den (both > 0) rounded half to even to a `CTY_PREC`-bit mantissa: (m, e) with
/// 2^(P-1) <= m < 2^P and the value m × 2^e (`big.Float` arithmetic at 512 bits).
fn round_binary512(num: &BigInt, den: &BigInt) -> (BigInt, i64) {
    // Find e with 2^(P-1) <= num / (den × 2^e) < 2^P.
    let p = CTY_PREC as i64;
    let mut e = num.bits() as i64 - den.bits() as i64 - p;
    let scaled = |e: i64| -> (BigInt, BigInt) {
        if e >= 0 {
            (num.clone(), den << (e as u64))
        } else {
            (num << e.unsigned_abs(), den.clone())
        }
    };
    let lo = BigInt::one() << (CTY_PREC - 1);
    let hi = BigInt::one() << CTY_PREC;
    let (mut n, mut d) = scaled(e);
    // Adjust so that the integer part of n/d is within [2^(P-1), 2^P).
    for _ in 0..4 {
        let q = &n / &d;
        if q >= hi {
            e += 1;
        } else if q < lo {
            e -= 1;
        } else {
            break;
        }
        let nd = scaled(e);
        n = nd.0;
        d = nd.1;
    }
    let (mut m, r) = n.div_rem(&d);
    // Round half to even.
    let twice = &r << 1u8;
    match twice.cmp(&d) {
        Ordering::Greater => m += 1u8,
        Ordering::Equal if m.is_odd() => m += 1u8,
        _ => {}
    }
    if m == hi {
        m = lo.clone();
        e += 1;
    }
    (m, e)
}

/// The shortest decimal that rounds back to the 512-bit binary value m × 2^e (m normalized
/// as [`round_binary512`] gives it): what `big.Float.Text('f', -1)` prints.
fn shortest_decimal(m: BigInt, e: i64) -> Number {
    let lo = BigInt::one() << (CTY_PREC - 1);
    // The rounding interval around m × 2^e.
    let inclusive = m.is_even();
    let (lower_m, lower_e) = if m == lo {
        ((&m << 2u8) - 1u8, e - 2)
    } else {
        ((&m << 1u8) - 1u8, e - 1)
    };
    let (upper_m, upper_e) = ((&m << 1u8) + 1u8, e - 1);
    let (vc, vs) = dyadic_to_decimal(&m, e);
    let (lc, ls) = dyadic_to_decimal(&lower_m, lower_e);
    let (uc, us) = dyadic_to_decimal(&upper_m, upper_e);
    let in_range = |c: &BigInt, s: i64| -> bool {
        let lo_ok = match cmp_dec(c, s, &lc, ls) {
            Ordering::Greater => true,
            Ordering::Equal => inclusive,
            Ordering::Less => false,
        };
        let hi_ok = match cmp_dec(c, s, &uc, us) {
            Ordering::Less => true,
            Ordering::Equal => inclusive,
            Ordering::Greater => false,
        };
        lo_ok && hi_ok
    };
    let total = digit_count(&vc);
    for n in 1..total {
        // Truncate v to n significant digits.
        let drop = total - n;
        let unit = pow10(drop);
        let (down, rest) = vc.div_rem(&unit);
        let s = vs - drop as i64;
        let up = &down + 1u8;
        let ok_down = in_range(&down, s);
        let ok_up = in_range(&up, s);
        let pick = match (ok_down, ok_up) {
            (true, true) => {
                let twice = &rest << 1u8;
                match twice.cmp(&unit) {
                    Ordering::Less => Some(down),
                    Ordering::Greater => Some(up),
                    Ordering::Equal => Some(if down.is_even() { down } else { up }),
                }
            }
            (true, false) => Some(down),
            (false, true) => Some(up),
            (false, false) => None,
        };
        if let Some(c) = pick {
            return Number::from_parts(c, s as i128);
        }
    }
    Number::from_parts(vc, vs as i128)
}

/// a/b × 10^k rounded half-even to `FALLBACK_DIV_DIGITS` significant digits. a, b > 0.
fn div_decimal(a: &BigInt, b: &BigInt, k: i128) -> Number {
    // Scale a so that the integer quotient has at least FALLBACK_DIV_DIGITS + 1 digits.
    let da = digit_count(a) as i64;
    let db = digit_count(b) as i64;
    let shift = (FALLBACK_DIV_DIGITS as i64 + 2 - (da - db)).max(0) as u64;
    let n = a * pow10(shift);
    let (q, r) = n.div_rem(b);
    let qd = digit_count(&q);
    let drop = qd.saturating_sub(FALLBACK_DIV_DIGITS);
    let unit = pow10(drop);
    let (mut c, rest) = q.div_rem(&unit);
    let twice = &rest << 1u8;
    let cmp = twice.cmp(&unit);
    let sticky = !r.is_zero();
    if cmp == Ordering::Greater || (cmp == Ordering::Equal && (sticky || c.is_odd())) {
        c += 1u8;
    }
    Number::from_parts(c, shift as i128 - drop as i128 - k)
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.parts() == other.parts()
    }
}
impl Eq for Number {}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let (i, s) = self.parts();
        i.hash(state);
        s.hash(state);
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        let (sa, sb) = (self.signum(), other.signum());
        if sa != sb {
            return sa.cmp(&sb);
        }
        if sa == 0 {
            return Ordering::Equal;
        }
        let ord_abs = match self.magnitude().cmp(&other.magnitude()) {
            Ordering::Equal => {
                // Same magnitude: the scale difference equals the digit-count difference,
                // so aligning is cheap.
                let (a, s1) = self.parts();
                let (b, s2) = other.parts();
                cmp_dec(&a.abs(), s1, &b.abs(), s2)
            }
            o => o,
        };
        if sa < 0 {
            ord_abs.reverse()
        } else {
            ord_abs
        }
    }
}
impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// cty's text for a number: plain decimal notation, integers without a decimal point,
/// no exponent, minimal digits.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, s) = self.parts();
        if i.is_zero() {
            return f.write_str("0");
        }
        let neg = i.sign() == Sign::Minus;
        let digits = i.abs().to_string();
        let len = digits.len() as i128;
        let plain_len = if s <= 0 {
            len - s as i128
        } else if (s as i128) >= len {
            s as i128 + 2
        } else {
            len + 1
        };
        if neg {
            f.write_str("-")?;
        }
        if plain_len > MAX_PLAIN_LEN as i128 {
            // Scientific notation (only for absurd magnitudes).
            let exp = len - 1 - s as i128;
            let (first, rest) = digits.split_at(1);
            f.write_str(first)?;
            if !rest.is_empty() {
                write!(f, ".{rest}")?;
            }
            return write!(f, "e{}{exp}", if exp >= 0 { "+" } else { "" });
        }
        if s <= 0 {
            f.write_str(&digits)?;
            for _ in 0..s.unsigned_abs() {
                f.write_str("0")?;
            }
            Ok(())
        } else if s as i128 >= len {
            f.write_str("0.")?;
            for _ in 0..(s as i128 - len) {
                f.write_str("0")?;
            }
            f.write_str(&digits)
        } else {
            let (a, b) = digits.split_at((len - s as i128) as usize);
            write!(f, "{a}.{b}")
        }
    }
}

impl std::str::FromStr for Number {
    type Err = String;
    fn from_str(s: &str) -> Result<Number, String> {
        Number::parse(s).ok_or_else(|| format!("invalid number {s:?}"))
    }
}

impl From<i64> for Number {
    fn from(v: i64) -> Number {
        Number::from_i64(v)
    }
}
impl From<i32> for Number {
    fn from(v: i32) -> Number {
        Number::from_i64(v.into())
    }
}
impl From<u64> for Number {
    fn from(v: u64) -> Number {
        Number::from_u64(v)
    }
}
impl From<u32> for Number {
    fn from(v: u32) -> Number {
        Number::from_u64(v.into())
    }
}
impl From<usize> for Number {
    fn from(v: usize) -> Number {
        Number::from_u64(v as u64)
    }
}
impl From<BigInt> for Number {
    fn from(v: BigInt) -> Number {
        Number::from_bigint(v)
    }
}
impl From<&Number> for Number {
    fn from(v: &Number) -> Number {
        v.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::any;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap_or_else(|| panic!("bad number {s}"))
    }

    #[test]
    fn parse_and_display() {
        assert_eq!(n("1e3").to_string(), "1000");
        assert_eq!(n("1E+3").to_string(), "1000");
        assert_eq!(n("2.50").to_string(), "2.5");
        assert_eq!(n("1.5e-3").to_string(), "0.0015");
        assert_eq!(n("-0").to_string(), "0");
        assert_eq!(n("-0.0"), Number::zero());
        assert_eq!(n(".5").to_string(), "0.5");
        assert_eq!(n("5.").to_string(), "5");
        assert_eq!(n("+7").to_string(), "7");
        assert_eq!(n("00012").to_string(), "12");
        assert_eq!(n("1e0").to_string(), "1");
        assert_eq!(
            n("123456789012345678901234567890").to_string(),
            "123456789012345678901234567890"
        );
        assert_eq!(n("-12.3400e2").to_string(), "-1234");
        assert_eq!(n("1e-7").to_string(), "0.0000001");
        for bad in [
            "", "-", ".", "e3", "1e", "1e+", "1.2.3", " 1", "1 ", "0x10", "Inf", "NaN", "1_000",
            "--1",
        ] {
            assert_eq!(Number::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Number::parse("1e99999999999"), None);
    }

    #[test]
    fn exact_arithmetic() {
        assert_eq!(n("0.1").add(&n("0.2")), n("0.3"));
        assert_eq!(n("0.3").sub(&n("0.1")).to_string(), "0.2");
        assert_eq!(n("1.5").mul(&n("-4")).to_string(), "-6");
        let big = n("9223372036854775807");
        assert_eq!(big.add(&Number::one()).to_string(), "9223372036854775808");
        assert_eq!(
            big.mul(&big).to_string(),
            "85070591730234615847396907784232501249"
        );
        assert_eq!(n("1e-5").add(&n("1e5")).to_string(), "100000.00001");
    }

    #[test]
    fn division() {
        assert_eq!(n("10").div(&n("4")), Some(n("2.5")));
        assert_eq!(n("1").div(&n("0")), None);
        assert_eq!(n("0").div(&n("5")), Some(Number::zero()));
        assert_eq!(
            n("-9").div(&n("3")).map(|x| x.to_string()),
            Some("-3".into())
        );
        // A 512-bit binary quotient printed as the shortest decimal that rounds back to it
        // (big.Float.Quo then Text('f', -1)); expectations computed independently with
        // exact rational arithmetic.
        let q = |a: &str, b: &str| n(a).div(&n(b)).unwrap_or_else(Number::zero).to_string();
        assert_eq!(q("1", "3"), format!("0.{}5", "3".repeat(154)));
        assert_eq!(q("2", "3"), format!("0.{}7", "6".repeat(153)));
        assert_eq!(q("10", "3"), format!("3.{}2", "3".repeat(153)));
        assert_eq!(q("1", "10"), "0.1");
        assert_eq!(q("1", "7"), format!("0.{}14285", "142857".repeat(25)));
        assert_eq!(q("-1", "8"), "-0.125");
        // Huge exact quotient stays exact.
        assert_eq!(
            n("1e400").div(&n("1e200")).unwrap_or_else(Number::zero),
            n("1e200")
        );
        // Extreme exponents use the decimal fallback.
        let q = n("1e-100000").div(&n("3")).unwrap_or_else(Number::zero);
        assert!(q > Number::zero());
    }

    #[test]
    fn modulo_floor_ceil() {
        assert_eq!(n("7").rem(&n("3")), Some(n("1")));
        assert_eq!(n("-7").rem(&n("3")), Some(n("-1")));
        assert_eq!(n("7").rem(&n("-3")), Some(n("1")));
        assert_eq!(n("5.5").rem(&n("2")), Some(n("1.5")));
        assert_eq!(n("5").rem(&n("0")), None);
        assert_eq!(n("1.5").floor(), n("1"));
        assert_eq!(n("-1.5").floor(), n("-2"));
        assert_eq!(n("1.5").ceil(), n("2"));
        assert_eq!(n("-1.5").ceil(), n("-1"));
        assert_eq!(n("-0.001").ceil(), n("0"));
        assert_eq!(n("0.001").ceil(), n("1"));
        assert_eq!(n("-0.001").floor(), n("-1"));
        assert_eq!(n("3").floor(), n("3"));
        assert_eq!(n("1e-1000000").ceil(), n("1"));
    }

    #[test]
    fn pow_and_conversions() {
        assert_eq!(n("2").pow(&n("10")), Some(n("1024")));
        assert_eq!(n("2").pow(&n("-2")), Some(n("0.25")));
        assert_eq!(n("1.5").pow(&n("2")), Some(n("2.25")));
        assert_eq!(n("0").pow(&n("-1")), None);
        assert_eq!(n("4").pow(&n("0.5")), Some(n("2")));
        assert_eq!(n("-1").pow(&n("1e15")), Some(n("1")));
        assert_eq!(
            n("2").pow(&n("100")).map(|x| x.to_string()),
            Some("1267650600228229401496703205376".into())
        );
        assert_eq!(n("42").to_i64(), Some(42));
        assert_eq!(n("4.2").to_i64(), None);
        assert_eq!(n("1e30").to_i64(), None);
        assert_eq!(n("1e30").to_u64(), None);
        assert_eq!(n("1e3").to_i64(), Some(1000));
        assert_eq!(n("0.1").to_f64(), 0.1);
        assert_eq!(Number::from_f64(0.1), Some(n("0.1")));
        assert_eq!(
            Number::from_f64(1e21).map(|x| x.to_string()),
            Some("1000000000000000000000".into())
        );
        assert_eq!(Number::from_f64(f64::NAN), None);
        assert_eq!(Number::from_f64(f64::INFINITY), None);
        assert!(n("1e3").is_integer());
        assert!(!n("1.25").is_integer());
    }

    #[test]
    fn ordering_equality_hash() {
        use std::collections::HashSet;
        assert!(n("1.5") < n("2"));
        assert!(n("-2") < n("-1.5"));
        assert!(n("-1") < n("0"));
        assert!(n("0.001") < n("0.01"));
        assert!(n("99") < n("100"));
        assert!(n("1e-1000000") > Number::zero());
        assert_eq!(n("1.0"), n("1"));
        let set: HashSet<Number> = [n("1.0"), n("1"), n("100"), n("1e2")].into_iter().collect();
        assert_eq!(set.len(), 2);
        // A hand-built unnormalized number still compares and hashes equal.
        let raw = Number(BigDecimal::new(BigInt::from(100), 2));
        assert_eq!(raw, Number::one());
        assert_eq!(raw.to_string(), "1");
    }

    proptest::proptest! {
        #[test]
        fn text_round_trips_and_arithmetic_is_exact(
            a in any::<i64>(), sa in 0u32..30, b in any::<i64>(), sb in 0u32..30,
        ) {
            let x = n(&format!("{a}e-{sa}"));
            let y = n(&format!("{b}e-{sb}"));
            proptest::prop_assert_eq!(Number::parse(&x.to_string()), Some(x.clone()));
            proptest::prop_assert_eq!(x.add(&y).sub(&y), x.clone());
            proptest::prop_assert_eq!(x.add(&y), y.add(&x));
            proptest::prop_assert_eq!(x.cmp(&y), x.to_string().parse::<f64>().ok()
                .zip(y.to_string().parse::<f64>().ok())
                .and_then(|(p, q)| if p == q { None } else { p.partial_cmp(&q) })
                .unwrap_or_else(|| x.cmp(&y)));
            if !y.is_zero() {
                let r = x.rem(&y).unwrap_or_else(Number::zero);
                // Fractional operands are 512-bit binary floats to cty: the remainder is
                // within a hair of the exact one, possibly a hair below zero.
                proptest::prop_assert!(r.abs() <= y.abs());
                if x.is_integer() && y.is_integer() {
                    proptest::prop_assert!(r.abs() < y.abs());
                    proptest::prop_assert!(r.is_zero() || r.is_negative() == x.is_negative());
                    let q = x.sub(&r).div(&y).unwrap_or_else(Number::zero);
                    proptest::prop_assert!(q.is_integer());
                }
            }
        }
    }

    #[test]
    fn modulo_of_fractions_is_ctys_binary_modulo() {
        // `terraform plan` (1.11) outputs for these expressions.
        let long = "0.80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000024";
        assert_eq!(
            n("7.5").rem(&n("2")).map(|r| r.to_string()),
            Some("1.5".into())
        );
        assert_eq!(
            n("-7.5").rem(&n("2")).map(|r| r.to_string()),
            Some("-1.5".into())
        );
        assert_eq!(
            n("11").rem(&n("5.1")).map(|r| r.to_string()),
            Some(long.into())
        );
        assert_eq!(
            n("-11").rem(&n("5.1")).map(|r| r.to_string()),
            Some(format!("-{long}"))
        );
        assert_eq!(
            n("0.3").rem(&n("0.1")).map(|r| r.to_string()),
            Some("0".into())
        );
        assert_eq!(
            n("11").rem(&n("5")).map(|r| r.to_string()),
            Some("1".into())
        );
    }

    #[test]
    fn hostile_magnitudes_stay_cheap() {
        let huge = n("1e10000000");
        assert_eq!(huge.add(&Number::one()), huge);
        let s = huge.to_string();
        assert_eq!(s, "1e+10000000");
        let tiny = n("1e-10000000");
        assert_eq!(tiny.to_string(), "1e-10000000");
        assert_eq!(huge.mul(&huge).to_string(), "1e+20000000");
        assert!(n("10").pow(&n("1e12")).is_none());
    }
}
