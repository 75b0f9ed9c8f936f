//! Three-valued logic: true, false, unknown.

/// A verdict that may be unknown. Ordered `False < Unknown < True`, so `and` is `min` and
/// `or` is `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Truth {
    False,
    Unknown,
    True,
}

impl Truth {
    pub(crate) fn and(self, other: Truth) -> Truth {
        self.min(other)
    }

    pub(crate) fn or(self, other: Truth) -> Truth {
        self.max(other)
    }

    pub(crate) fn not(self) -> Truth {
        match self {
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
            Truth::True => Truth::False,
        }
    }
}

impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        if b {
            Truth::True
        } else {
            Truth::False
        }
    }
}

/// The verdict of a counting quantifier (language.md, "Counting, time and pattern
/// predicates") over elements of which `t` are true and `u` unknown: the true count lies
/// somewhere in `t..=t + u`, and the verdict is what every count in that interval gives
/// alike, else unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// `at least N`: true when `t >= N`, false when `t + u < N`.
    AtLeast(u64),
    /// `at most N`: true when `t + u <= N`, false when `t > N`.
    AtMost(u64),
    /// `exactly N`: `at least N` and `at most N`.
    Exactly(u64),
}

impl Bound {
    /// The verdict for `t` true and `u` unknown elements.
    pub(crate) fn judge(self, t: u64, u: u64) -> Truth {
        let high = t.saturating_add(u);
        match self {
            Bound::AtLeast(n) => at_least(n, t, high),
            Bound::AtMost(n) => at_most(n, t, high),
            Bound::Exactly(n) => at_least(n, t, high).and(at_most(n, t, high)),
        }
    }

    /// The verdict when the number of elements is itself unknown (a list of unknown
    /// length): unknown, except that `at least 0` always holds.
    pub(crate) fn judge_unknown_length(self) -> Truth {
        match self {
            Bound::AtLeast(0) => Truth::True,
            _ => Truth::Unknown,
        }
    }

    /// Whether the verdict is settled once `t` elements are true, whatever the elements
    /// not seen yet give (more elements only raise `t` and `u`): `at least N` once
    /// `t >= N` (true), `at most N` and `exactly N` once `t > N` (false).
    pub(crate) fn settled(self, t: u64) -> bool {
        match self {
            Bound::AtLeast(n) => t >= n,
            Bound::AtMost(n) | Bound::Exactly(n) => t > n,
        }
    }

    /// The bound.
    pub(crate) fn n(self) -> u64 {
        match self {
            Bound::AtLeast(n) | Bound::AtMost(n) | Bound::Exactly(n) => n,
        }
    }

    /// The quantifier's words: `at least 2`.
    pub(crate) fn words(self) -> String {
        match self {
            Bound::AtLeast(n) => format!("at least {n}"),
            Bound::AtMost(n) => format!("at most {n}"),
            Bound::Exactly(n) => format!("exactly {n}"),
        }
    }
}

fn at_least(n: u64, t: u64, high: u64) -> Truth {
    if t >= n {
        Truth::True
    } else if high < n {
        Truth::False
    } else {
        Truth::Unknown
    }
}

fn at_most(n: u64, t: u64, high: u64) -> Truth {
    if high <= n {
        Truth::True
    } else if t > n {
        Truth::False
    } else {
        Truth::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Truth::{False as F, True as T, Unknown as U};

    /// Every verdict of the interval rule against its definition: the verdict of each
    /// possible true count `c` in `t..=t+u` taken alone, agreed on by all, else unknown.
    /// (For `exactly`, the contract's "at least N and at most N" gives the same.)
    #[test]
    fn counting_follows_the_interval_rule() {
        for n in 0..6u64 {
            for t in 0..6u64 {
                for u in 0..6u64 {
                    for bound in [Bound::AtLeast(n), Bound::AtMost(n), Bound::Exactly(n)] {
                        let each: Vec<bool> = (t..=t + u)
                            .map(|c| match bound {
                                Bound::AtLeast(n) => c >= n,
                                Bound::AtMost(n) => c <= n,
                                Bound::Exactly(n) => c == n,
                            })
                            .collect();
                        let want = if each.iter().all(|&b| b) {
                            T
                        } else if each.iter().all(|&b| !b) {
                            F
                        } else {
                            U
                        };
                        assert_eq!(bound.judge(t, u), want, "{bound:?} t={t} u={u}");
                    }
                }
            }
        }
    }

    #[test]
    fn counting_boundaries() {
        // at least 2: N-1, N, N+1 true elements, no unknowns.
        assert_eq!(Bound::AtLeast(2).judge(1, 0), F);
        assert_eq!(Bound::AtLeast(2).judge(2, 0), T);
        assert_eq!(Bound::AtLeast(2).judge(3, 0), T);
        assert_eq!(Bound::AtMost(2).judge(1, 0), T);
        assert_eq!(Bound::AtMost(2).judge(2, 0), T);
        assert_eq!(Bound::AtMost(2).judge(3, 0), F);
        assert_eq!(Bound::Exactly(2).judge(1, 0), F);
        assert_eq!(Bound::Exactly(2).judge(2, 0), T);
        assert_eq!(Bound::Exactly(2).judge(3, 0), F);
        // With unknowns.
        assert_eq!(Bound::AtLeast(2).judge(1, 1), U);
        assert_eq!(Bound::AtLeast(2).judge(0, 1), F);
        assert_eq!(Bound::AtLeast(2).judge(2, 5), T);
        assert_eq!(Bound::AtMost(1).judge(1, 1), U);
        assert_eq!(Bound::AtMost(1).judge(0, 1), T);
        assert_eq!(Bound::AtMost(1).judge(2, 1), F);
        assert_eq!(Bound::Exactly(1).judge(0, 1), U);
        assert_eq!(Bound::Exactly(1).judge(1, 1), U);
        assert_eq!(Bound::Exactly(1).judge(1, 0), T);
        assert_eq!(Bound::Exactly(1).judge(2, 0), F);
        assert_eq!(Bound::Exactly(1).judge(0, 0), F);
        // Zero elements.
        assert_eq!(Bound::AtLeast(0).judge(0, 0), T);
        assert_eq!(Bound::AtLeast(1).judge(0, 0), F);
        assert_eq!(Bound::AtMost(0).judge(0, 0), T);
        assert_eq!(Bound::Exactly(0).judge(0, 0), T);
        // Saturation.
        assert_eq!(Bound::AtMost(u64::MAX).judge(u64::MAX, u64::MAX), T);
        assert_eq!(Bound::AtLeast(u64::MAX).judge(1, u64::MAX), U);
    }

    #[test]
    fn unknown_length_is_unknown_except_at_least_zero() {
        assert_eq!(Bound::AtLeast(0).judge_unknown_length(), T);
        assert_eq!(Bound::AtLeast(1).judge_unknown_length(), U);
        assert_eq!(Bound::AtMost(0).judge_unknown_length(), U);
        assert_eq!(Bound::AtMost(5).judge_unknown_length(), U);
        assert_eq!(Bound::Exactly(0).judge_unknown_length(), U);
    }

    #[test]
    fn settled_only_when_no_further_element_can_change_the_verdict() {
        for n in 0..5u64 {
            for t in 0..7u64 {
                for bound in [Bound::AtLeast(n), Bound::AtMost(n), Bound::Exactly(n)] {
                    if bound.settled(t) {
                        let v = bound.judge(t, 0);
                        for more_t in 0..4 {
                            for more_u in 0..4 {
                                assert_eq!(bound.judge(t + more_t, more_u), v, "{bound:?} {t}");
                            }
                        }
                    }
                }
            }
        }
    }
}
