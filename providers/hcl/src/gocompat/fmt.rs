//! Go's `fmt` verbs on numbers, as cty's `format`/`formatlist` apply them to the 512-bit
//! `big.Float` (or `big.Int`) a cty number is: `%d`, `%b`, `%o`, `%x`, `%X` of a `*big.Int`
//! and `%e`, `%E`, `%f`, `%g`, `%G` of a `*big.Float` with Go's flags, width and
//! precision, and `big.Float.Text('g', -1)` for `%v` and number-to-string.
//!
//! Why not Rust's `format!`: Rust has no `%g`, writes exponents as `e5` where Go writes
//! `e+05`, and rounds the decimal value where Go rounds the 512-bit binary one (a tie in
//! decimal is above or below half in binary); Go's flag rules (`+`, space, `#`, `0` with
//! precision) differ too. The scanner for the format string itself is cty's and stays in
//! `functions::string`.

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::number::Number;

/// One `%` sequence of a format string.
#[derive(Clone, Debug, Default)]
pub(crate) struct Verb {
    pub(crate) raw: String,
    pub(crate) offset: usize,
    pub(crate) arg_num: usize,
    pub(crate) mode: char,
    pub(crate) zero: bool,
    pub(crate) sharp: bool,
    pub(crate) plus: bool,
    pub(crate) minus: bool,
    pub(crate) space: bool,
    pub(crate) has_prec: bool,
    pub(crate) prec: usize,
    pub(crate) has_width: bool,
    pub(crate) width: usize,
}

/// Go's `fmt` of a `*big.Int` with the verb's flags, width and precision.
pub(crate) fn go_format_int(i: &BigInt, verb: &Verb) -> String {
    let base = match verb.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = i.magnitude().to_str_radix(base);
    if verb.mode == 'X' {
        digits = digits.to_ascii_uppercase();
    }
    let sign = if i.sign() == Sign::Minus {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = if verb.sharp {
        match verb.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let mut zeros = 0usize;
    if verb.has_prec {
        if digits.len() < verb.prec {
            zeros = verb.prec - digits.len();
        } else if digits == "0" && verb.prec == 0 {
            return String::new();
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0usize, 0usize);
    if verb.has_width && length < verb.width {
        let d = verb.width - length;
        if verb.minus {
            right = d;
        } else if verb.zero && !verb.has_prec {
            zeros = d;
        } else {
            left = d;
        }
    }
    format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    )
}

/// Go's `fmt` of a `*big.Float` (verbs e, E, f, g, G) with the verb's flags, width and
/// precision. `%f` of a number with more than `max_int_digits` integer digits is refused
/// (`number too large to format`) rather than written out.
pub(crate) fn go_format_float(
    n: &Number,
    verb: &Verb,
    max_int_digits: usize,
) -> Result<String, String> {
    let (neg, mut d) = GoDecimal::from_number(n);
    let fmt = verb.mode as u8;
    let prec: i64 = if verb.has_prec {
        verb.prec as i64
    } else if matches!(fmt, b'g' | b'G') {
        -1
    } else {
        6
    };
    if fmt == b'f' && d.exp > max_int_digits as i64 {
        return Err("number too large to format".into());
    }
    let body = go_float_text(&mut d, fmt, prec);
    let sign = if neg {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let width = if verb.has_width { verb.width } else { 0 };
    let padding = width.saturating_sub(sign.len() + body.len());
    Ok(if verb.zero && !verb.minus {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    })
}

/// `big.Float.Text('g', -1)` of a number: the shortest representation, in %e form for
/// exponents below -4 or from 21... precisely Go's rule (exponent < -4 or >= the number of
/// digits, with 6 standing in for the shortest precision).
pub(crate) fn go_text_g(n: &Number) -> String {
    let (neg, mut d) = GoDecimal::from_number(n);
    let body = go_float_text(&mut d, b'g', -1);
    if neg {
        format!("-{body}")
    } else {
        body
    }
}

/// A decimal as math/big's `decimal`: value = 0.mant × 10^exp, `mant` without trailing
/// zeros. It also remembers the exact value so that a rounding tie can be decided the
/// way Go decides it on the 512-bit binary number cty holds.
struct GoDecimal {
    mant: Vec<u8>,
    exp: i64,
    coef: BigUint,
    scale: i64,
}

impl GoDecimal {
    fn from_number(n: &Number) -> (bool, GoDecimal) {
        let (int, scale) = n.0.as_bigint_and_exponent();
        let neg = int.sign() == Sign::Minus;
        let coef = int.magnitude().clone();
        if coef.is_zero() {
            return (
                neg,
                GoDecimal {
                    mant: Vec::new(),
                    exp: 0,
                    coef,
                    scale: 0,
                },
            );
        }
        let mut mant = coef.to_string().into_bytes();
        let mut s = scale;
        while mant.last() == Some(&b'0') {
            mant.pop();
            s -= 1;
        }
        let exp = mant.len() as i64 - s;
        (
            neg,
            GoDecimal {
                mant,
                exp,
                coef,
                scale,
            },
        )
    }

    fn at(&self, i: i64) -> u8 {
        if i >= 0 && (i as usize) < self.mant.len() {
            self.mant[i as usize]
        } else {
            b'0'
        }
    }

    fn len(&self) -> i64 {
        self.mant.len() as i64
    }

    fn should_round_up(&self, n: usize) -> bool {
        if self.mant[n] == b'5' && n + 1 == self.mant.len() {
            // Exactly halfway in decimal: Go sees the binary value, which is above, below
            // or exactly on the tie (then it rounds to even).
            return match binary512_cmp(&self.coef, self.scale) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => n > 0 && (self.mant[n - 1] - b'0') & 1 != 0,
            };
        }
        self.mant[n] >= b'5'
    }

    fn round(&mut self, n: i64) {
        if n < 0 || n >= self.len() {
            return;
        }
        let n = n as usize;
        if self.should_round_up(n) {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    fn round_up(&mut self, mut n: usize) {
        while n > 0 && self.mant[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.mant.clear();
            self.mant.push(b'1');
            self.exp += 1;
            return;
        }
        self.mant[n - 1] += 1;
        self.mant.truncate(n);
    }

    fn round_down(&mut self, n: usize) {
        self.mant.truncate(n);
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
    }
}

/// Where the 512-bit binary float nearest to `coef × 10^-scale` (round half to even, as
/// `big.ParseFloat` does) lies relative to that exact value.
fn binary512_cmp(coef: &BigUint, scale: i64) -> Ordering {
    if coef.is_zero() || scale.unsigned_abs() > 20_000 {
        return Ordering::Equal;
    }
    let ten = BigUint::from(10u8);
    let (num, den) = if scale <= 0 {
        (coef * ten.pow(scale.unsigned_abs() as u32), BigUint::one())
    } else {
        (coef.clone(), ten.pow(scale as u32))
    };
    let mut t: i64 = 512 - (num.bits() as i64 - den.bits() as i64);
    for _ in 0..4 {
        let (n2, d2) = if t >= 0 {
            (&num << (t as usize), den.clone())
        } else {
            (num.clone(), &den << (t.unsigned_abs() as usize))
        };
        let (q, r) = n2.div_rem(&d2);
        let bits = q.bits();
        if bits > 512 {
            t -= 1;
            continue;
        }
        if bits < 512 {
            t += 1;
            continue;
        }
        if r.is_zero() {
            return Ordering::Equal;
        }
        return match (&r << 1usize).cmp(&d2) {
            Ordering::Greater => Ordering::Greater,
            Ordering::Less => Ordering::Less,
            Ordering::Equal => {
                if q.is_odd() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
        };
    }
    Ordering::Equal
}

/// math/big's `Float.Append` for formats e, E, f, g, G (`prec` < 0: shortest).
fn go_float_text(d: &mut GoDecimal, fmt: u8, prec: i64) -> String {
    let mut prec = prec;
    let shortest = prec < 0;
    if shortest {
        // Our digits are the shortest decimal that identifies the value.
        prec = match fmt {
            b'e' | b'E' => d.len() - 1,
            b'f' => (d.len() - d.exp).max(0),
            _ => d.len(),
        };
    } else {
        match fmt {
            b'e' | b'E' => d.round(1 + prec),
            b'f' => d.round(d.exp + prec),
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                d.round(prec);
            }
        }
    }
    match fmt {
        b'e' | b'E' => fmt_e(fmt, prec, d),
        b'f' => fmt_f(prec, d),
        _ => {
            let mut eprec = prec;
            if eprec > d.len() && d.len() >= d.exp {
                eprec = d.len();
            }
            if shortest {
                eprec = 6;
            }
            let exp = d.exp - 1;
            if exp < -4 || exp >= eprec {
                if prec > d.len() {
                    prec = d.len();
                }
                let efmt = if fmt == b'G' { b'E' } else { b'e' };
                return fmt_e(efmt, prec - 1, d);
            }
            if prec > d.exp {
                prec = d.len();
            }
            fmt_f((prec - d.exp).max(0), d)
        }
    }
}

fn fmt_e(fmt: u8, prec: i64, d: &GoDecimal) -> String {
    let mut buf = String::new();
    buf.push(char::from(d.mant.first().copied().unwrap_or(b'0')));
    if prec > 0 {
        buf.push('.');
        let mut i: i64 = 1;
        let m = d.len().min(prec + 1);
        while i < m {
            buf.push(char::from(d.mant[i as usize]));
            i += 1;
        }
        while i <= prec {
            buf.push('0');
            i += 1;
        }
    }
    buf.push(char::from(fmt));
    let mut exp = if d.mant.is_empty() { 0 } else { d.exp - 1 };
    if exp < 0 {
        buf.push('-');
        exp = -exp;
    } else {
        buf.push('+');
    }
    if exp < 10 {
        buf.push('0');
    }
    buf.push_str(&exp.to_string());
    buf
}

fn fmt_f(prec: i64, d: &GoDecimal) -> String {
    let mut buf = String::new();
    if d.exp > 0 {
        let m = d.len().min(d.exp);
        for &c in &d.mant[..m as usize] {
            buf.push(char::from(c));
        }
        for _ in m..d.exp {
            buf.push('0');
        }
    } else {
        buf.push('0');
    }
    if prec > 0 {
        buf.push('.');
        for i in 0..prec {
            buf.push(char::from(d.at(d.exp + i)));
        }
    }
    buf
}
