//! Go's `math.Pow` (with the `Modf`, `Frexp` and `Ldexp` it is built on), as Terraform's
//! `pow` shows it.
//!
//! Why not `f64::powf`: it calls the platform's libm `pow`, while Go computes `Pow` with its
//! own algorithm (`Frexp` of the base, repeated squaring, `Ldexp` of the result), whose
//! rounding in the last bit need not agree with libm's; Terraform prints the float64 it
//! gets in full, so the algorithm is copied rather than approximated.

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

    #[test]
    fn go_pow_matches_go_for_integer_powers() {
        // Values Go's math.Pow produces (its repeated squaring differs from libm's pow).
        assert_eq!(go_pow(3.0, 40.0), 1.2157665459056929e19);
        assert_eq!(go_pow(10.0, 22.0), 1e22);
        assert_eq!(go_pow(10.0, -2.0), 0.01);
        assert_eq!(go_pow(-2.0, 3.0), -8.0);
        assert!(go_pow(-2.0, 0.5).is_nan());
    }
}
