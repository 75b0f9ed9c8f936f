//! One budget per evaluation: steps, values and bytes counted together for everything one
//! run evaluates (one `cloudspec hcl eval`; one `cloudspec hcldec` with all its input
//! files, variables and `dynamic` block expansion), so that no input, however it combines
//! calls that are each within their own limits, runs away with time or memory.
//!
//! What is counted:
//! - a **step** for every expression evaluated, every iteration of a `for` expression or a
//!   template `%{for}` directive, and every block a `dynamic` block generates;
//! - the **values** and **bytes** of what is built: every expression's result (its
//!   elements, attributes and string bytes: values are copied when referred to, so this
//!   counts the copying), and, as they are built, the elements and strings of function
//!   results that could be large (`split`, `formatlist`, `yamldecode`, ...).
//!
//! The budget of a run is installed for the thread evaluating ([`Budget::enter`]); helper
//! threads (deep expressions, the parser) enter the same budget. Evaluation outside any
//! budget gets a fresh one per call (the library's entry points).
//!
//! Spent, a budget stays spent: every later evaluation of the run fails at once, with one
//! "Evaluation too expensive" diagnostic for the run, at the first expression that went
//! beyond it.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::value::Value;

/// Steps one evaluation may take (1M: a 1024 × 1024 nested `for`). Chosen so that a
/// configuration built to spend it all stops within seconds (at 16M, a nested `%{for}`
/// took a minute and nested `dynamic` blocks 4.7 GB before they stopped; fuzz/regressions).
pub const MAX_STEPS: u64 = 1 << 20;
/// Values one evaluation may build (1M; counted again for each expression a value passes
/// through).
pub const MAX_VALUES: u64 = 1 << 20;
/// String bytes one evaluation may build (256 MiB; counted as values are; above the
/// 64 MiB a single string may have).
pub const MAX_BYTES: u64 = 256 << 20;

/// The limits of one budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub steps: u64,
    pub values: u64,
    pub bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps: MAX_STEPS,
            values: MAX_VALUES,
            bytes: MAX_BYTES,
        }
    }
}

/// Which limit was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    Steps(u64),
    Values(u64),
    Bytes(u64),
}

impl Exceeded {
    /// The sentence diagnostics give as their detail.
    pub fn detail(self) -> String {
        match self {
            Exceeded::Steps(n) => format!(
                "Evaluation stopped after {n} steps: nested 'for' expressions, splats, \
                 templates or dynamic blocks repeat too much work."
            ),
            Exceeded::Values(n) => format!(
                "Evaluation stopped after building {n} values: the configuration builds \
                 (or copies) too many values."
            ),
            Exceeded::Bytes(n) => format!(
                "Evaluation stopped after building {} of strings: the configuration \
                 builds (or copies) too much text.",
                cloudspec_model::input::human_bytes(n)
            ),
        }
    }
}

/// The counters of one evaluation (shared between threads).
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    steps: AtomicU64,
    values: AtomicU64,
    bytes: AtomicU64,
    reported: AtomicBool,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Budget>>> = const { RefCell::new(None) };
}

impl Budget {
    /// A budget with the default limits.
    pub fn new() -> Arc<Budget> {
        Budget::with_limits(Limits::default())
    }

    /// A budget with `limits`.
    pub fn with_limits(limits: Limits) -> Arc<Budget> {
        Arc::new(Budget {
            limits,
            steps: AtomicU64::new(0),
            values: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            reported: AtomicBool::new(false),
        })
    }

    /// The budget this thread evaluates in, if any.
    pub fn current() -> Option<Arc<Budget>> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// The current budget, or a new one.
    pub fn current_or_new() -> Arc<Budget> {
        Budget::current().unwrap_or_else(Budget::new)
    }

    /// Runs `f` with this budget as the thread's current budget (restoring the previous
    /// one afterwards).
    pub fn enter<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Arc<Budget>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        let _restore = Restore(previous);
        f()
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Counts `n` steps.
    pub fn step(&self, n: u64) -> Result<(), Exceeded> {
        add(&self.steps, n, self.limits.steps).map_err(Exceeded::Steps)
    }

    /// Counts `values` values and `bytes` bytes.
    pub fn charge(&self, values: u64, bytes: u64) -> Result<(), Exceeded> {
        add(&self.values, values, self.limits.values).map_err(Exceeded::Values)?;
        add(&self.bytes, bytes, self.limits.bytes).map_err(Exceeded::Bytes)
    }

    /// Counts the values and bytes of `v` (walking it, at most until the budget is spent).
    pub fn charge_value(&self, v: &Value) -> Result<(), Exceeded> {
        match v {
            Value::String(s) => return self.charge(1, s.len() as u64),
            Value::List(..)
            | Value::Set(..)
            | Value::Tuple(..)
            | Value::Map(..)
            | Value::Object(..) => {}
            _ => return self.charge(1, 0),
        }
        let mut stack = vec![v];
        let (mut values, mut bytes) = (0u64, 0u64);
        while let Some(v) = stack.pop() {
            values += 1;
            match v {
                Value::String(s) => bytes += s.len() as u64,
                Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => stack.extend(vs),
                Value::Map(_, m) | Value::Object(m) => {
                    for (k, v) in m {
                        bytes += k.len() as u64;
                        stack.push(v);
                    }
                }
                _ => {}
            }
            if values >= 4096 {
                self.charge(values, bytes)?;
                (values, bytes) = (0, 0);
            }
        }
        self.charge(values, bytes)
    }

    /// Which limit was reached, if any.
    pub fn exceeded(&self) -> Option<Exceeded> {
        let over = |c: &AtomicU64, limit: u64| c.load(Ordering::Relaxed) > limit;
        if over(&self.steps, self.limits.steps) {
            Some(Exceeded::Steps(self.limits.steps))
        } else if over(&self.values, self.limits.values) {
            Some(Exceeded::Values(self.limits.values))
        } else if over(&self.bytes, self.limits.bytes) {
            Some(Exceeded::Bytes(self.limits.bytes))
        } else {
            None
        }
    }

    /// True the first time it is called for this budget: whether a diagnostic about the
    /// spent budget still has to be given.
    pub fn first_report(&self) -> bool {
        !self.reported.swap(true, Ordering::Relaxed)
    }
}

/// Adds `n` to `counter`; past `limit` it is an error (and stays past it).
fn add(counter: &AtomicU64, n: u64, limit: u64) -> Result<(), u64> {
    let before = counter.fetch_add(n, Ordering::Relaxed);
    if before.saturating_add(n) > limit {
        // Saturate so that repeated charges cannot wrap around.
        counter.store(u64::MAX / 2, Ordering::Relaxed);
        return Err(limit);
    }
    Ok(())
}

/// Counts `values` values and `bytes` bytes against the thread's current budget, for
/// functions building large results; outside any budget it counts nothing. The error is
/// the message a function returns.
pub fn charge(values: u64, bytes: u64) -> Result<(), String> {
    match Budget::current() {
        Some(b) => b.charge(values, bytes).map_err(|e| e.detail()),
        None => Ok(()),
    }
}

/// Counts `n` steps against the thread's current budget (see [`charge`]).
pub fn step(n: u64) -> Result<(), String> {
    match Budget::current() {
        Some(b) => b.step(n).map_err(|e| e.detail()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_stop_at_their_limits_and_stay_spent() {
        let b = Budget::with_limits(Limits {
            steps: 10,
            values: 5,
            bytes: 100,
        });
        assert_eq!(b.step(10), Ok(()));
        assert_eq!(b.step(1), Err(Exceeded::Steps(10)));
        assert_eq!(b.step(0), Err(Exceeded::Steps(10)));
        assert_eq!(b.exceeded(), Some(Exceeded::Steps(10)));
        let b = Budget::with_limits(Limits {
            steps: 10,
            values: 5,
            bytes: 100,
        });
        assert_eq!(
            b.charge_value(&Value::string("x".repeat(101))),
            Err(Exceeded::Bytes(100))
        );
        assert!(b.first_report());
        assert!(!b.first_report());
    }

    #[test]
    fn the_current_budget_is_per_thread_and_restored() {
        assert!(Budget::current().is_none());
        let b = Budget::new();
        b.enter(|| {
            assert!(Budget::current().is_some_and(|c| Arc::ptr_eq(&c, &b)));
            assert_eq!(charge(1, 1), Ok(()));
        });
        assert!(Budget::current().is_none());
        assert_eq!(charge(u64::MAX, u64::MAX), Ok(()));
    }
}
