//! Walking member paths over one resource: With is "any", Assert is "every", explicit
//! quantifiers override, statements inside one `( ... )` apply to the same element.
//! Counting quantifiers (`at least N`, `at most N`, `exactly N`) count the elements that
//! hold and those that are unknown, null elements counting as none, and judge the counts
//! by the interval rule ([`Walker::count`], [`Bound`]).
//!
//! Every resource is first evaluated fast (no paths, no messages, short-circuits); only a
//! resource that does not plainly pass is walked again in detail to collect its failing
//! paths, unknown paths and notes. Both walks compute the same verdict.
//!
//! Bounds (docs/language.md, "Evaluation limits"): every statement applied to an element and
//! every list element visited is a step, counted per resource and rule against
//! [`Limits::max_steps`]; a walk that runs out stops, and the resource is an error. What a
//! body of statements gives on a referenced resource depends only on that resource and that
//! body, not on the path that reached it, so walks into references that took many steps are
//! remembered per rule ([`Memo`]): a resource reached through many paths is walked once, and
//! fan-out times nesting stays polynomial. Recorded findings are capped per resource
//! ([`Limits::max_findings`]); the rest are counted.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::rc::Rc;

use super::compare::{display, to_json};
use super::compile::{CBody, CPredicate, CStmt, CTail};
use super::Limits;
use crate::model::{CollectionError, Dangling, Inventory, Object, ResourceIdx, Sym, Value};
use crate::outcome::{Failure, UnknownPath};
use crate::predicates::{Test, Why};
use crate::syntax::ast::{PredicateKind, Quantifier};
use crate::truth::{Bound, Truth};

/// What a path stands on: a nested property or resource, or an element whose members are
/// all null (missing, dangling) or all unknown (an unknown value, or the target of a
/// reference outside the inventory when its header says `"dangling": "unknown"`).
#[derive(Clone, Copy)]
pub(crate) enum Elem<'a> {
    Obj(&'a Object),
    Null(NullWhy<'a>),
    Unknown(UnknownWhy<'a>),
}

/// Why a value is null.
#[derive(Clone, Copy)]
pub(crate) enum NullWhy<'a> {
    Missing,
    /// Reached through a reference whose target is not in the inventory.
    Dangling(&'a str),
}

/// Why a value is unknown.
#[derive(Clone, Copy)]
pub(crate) enum UnknownWhy<'a> {
    /// An `$unknown` value, with its reason.
    Said(&'a str),
    /// Reached through a reference whose target is not in an inventory whose dangling
    /// targets are unknown (`"dangling": "unknown"`): it exists outside the configuration.
    Outside(&'a str),
}

impl std::fmt::Display for UnknownWhy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownWhy::Said(reason) => f.write_str(reason),
            UnknownWhy::Outside(raw) => write!(f, "outside the configuration: {raw}"),
        }
    }
}

/// A value a path reaches.
#[derive(Clone, Copy)]
enum Leaf<'a> {
    Val(&'a Value),
    Null(NullWhy<'a>),
    /// Unknown, and whether it is known not to be null.
    Unknown(UnknownWhy<'a>, bool),
}

/// What one resource's walk collected.
#[derive(Default)]
pub(crate) struct Trail {
    /// Collect paths and messages (the detailed walk).
    pub detail: bool,
    path: String,
    /// Failing paths, each with whether its message starts with its path (`<path> matches,
    /// expected no ...`), which a remembered walk rewrites for the path that reaches it.
    pub failures: Findings<(Failure, bool)>,
    pub unknowns: Findings<UnknownPath>,
    /// Notes; each starts with its path.
    pub notes: Findings<String>,
    /// Some `every` statement met zero elements (the verdict may be vacuous).
    pub saw_empty: bool,
    /// The resource could not be evaluated: why.
    pub error: Option<String>,
    /// A reference led into a type whose collection failed.
    pub touched_failed: Option<String>,
    /// How many findings of each kind are recorded; the rest are only counted.
    pub cap: usize,
}

impl Trail {
    pub(crate) fn fast() -> Trail {
        Trail::default()
    }

    /// A detailed walk that records up to `cap` failures, unknowns and notes.
    pub(crate) fn detailed(cap: usize) -> Trail {
        Trail {
            detail: true,
            // Room for most paths, so that it is allocated once.
            path: String::with_capacity(64),
            cap,
            ..Trail::default()
        }
    }

    fn merge_flags(
        &mut self,
        saw_empty: bool,
        error: Option<String>,
        touched_failed: Option<String>,
    ) {
        self.saw_empty |= saw_empty;
        if self.error.is_none() {
            self.error = error;
        }
        if self.touched_failed.is_none() {
            self.touched_failed = touched_failed;
        }
    }

    /// Adds what a remembered walk found, its paths moved from its own prefix to this
    /// trail's path.
    fn replay(&mut self, entry: &Entry) {
        let cap = self.cap;
        let prefix = self.path.as_str();
        let moved = |text: &str| {
            let mut out = String::with_capacity(prefix.len() + text.len());
            out.push_str(prefix);
            out.push_str(text.get(entry.prefix_len..).unwrap_or_default());
            out
        };
        self.failures
            .append_mapped(&entry.failures, cap, |(f, path_first)| {
                let mut f = f.clone();
                f.path = moved(&f.path);
                if *path_first {
                    f.message = moved(&f.message);
                }
                (f, *path_first)
            });
        self.unknowns
            .append_mapped(&entry.unknowns, cap, |u| UnknownPath {
                path: moved(&u.path),
                reason: u.reason.clone(),
            });
        self.notes.append_mapped(&entry.notes, cap, |n| moved(n));
        self.merge_flags(
            entry.saw_empty,
            entry.error.clone(),
            entry.touched_failed.clone(),
        );
    }
}

/// Findings of one kind: the first `cap` recorded, all counted.
#[derive(Debug, Clone)]
pub(crate) struct Findings<T> {
    pub items: Vec<T>,
    /// How many there are, recorded or not (`items.len() == min(total, cap)`).
    pub total: u64,
}

impl<T> Default for Findings<T> {
    fn default() -> Self {
        Findings {
            items: Vec::new(),
            total: 0,
        }
    }
}

impl<T> Findings<T> {
    fn push(&mut self, cap: usize, item: T) {
        self.total = self.total.saturating_add(1);
        if self.items.len() < cap {
            self.items.push(item);
        }
    }

    /// Forgets every finding after the first `mark` (a `total` read earlier).
    fn truncate(&mut self, mark: u64, cap: usize) {
        if mark < self.total {
            self.total = mark;
            self.items
                .truncate(usize::try_from(mark).unwrap_or(usize::MAX).min(cap));
        }
    }

    /// The findings after `(total, len)` (read earlier), when none were dropped since.
    fn since(&self, (total, len): (u64, usize)) -> Findings<T>
    where
        T: Clone,
    {
        Findings {
            items: self.items.get(len..).unwrap_or_default().to_vec(),
            total: self.total.saturating_sub(total),
        }
    }

    /// How many were counted but not recorded.
    pub fn omitted(&self) -> u64 {
        self.total.saturating_sub(self.items.len() as u64)
    }

    fn append_mapped<U>(&mut self, other: &Findings<U>, cap: usize, f: impl FnMut(&U) -> T) {
        let room = cap.saturating_sub(self.items.len());
        self.items.extend(other.items.iter().take(room).map(f));
        self.total = self.total.saturating_add(other.total);
    }
}

/// What a walk of a body of statements over a referenced resource gave: its verdict and
/// everything it put in its trail (paths starting with a prefix `prefix_len` bytes long).
struct Entry {
    truth: Truth,
    saw_empty: bool,
    error: Option<String>,
    touched_failed: Option<String>,
    prefix_len: usize,
    failures: Findings<(Failure, bool)>,
    unknowns: Findings<UnknownPath>,
    notes: Findings<String>,
}

/// Walks into referenced resources remembered for one rule, by (resource, body), one map
/// for fast walks and one for detailed walks.
#[derive(Default)]
struct Memo {
    fast: HashMap<(ResourceIdx, usize), Rc<Entry>>,
    detail: HashMap<(ResourceIdx, usize), Rc<Entry>>,
}

/// Accumulates element verdicts under `any`, `every` or `no`. (Counting quantifiers count
/// instead: [`Walker::count`].)
struct Acc {
    quantifier: Quantifier,
    any: Truth,
    all: Truth,
    count: usize,
}

impl Acc {
    fn new(quantifier: Quantifier) -> Acc {
        Acc {
            quantifier,
            any: Truth::False,
            all: Truth::True,
            count: 0,
        }
    }

    /// Adds one element's verdict; true once the result cannot change.
    fn push(&mut self, t: Truth) -> bool {
        self.count += 1;
        self.any = self.any.or(t);
        self.all = self.all.and(t);
        match self.quantifier {
            Quantifier::Every => self.all == Truth::False,
            Quantifier::Any | Quantifier::No => self.any == Truth::True,
            // Never accumulated here (`Walker::count`).
            Quantifier::AtLeast(_) | Quantifier::AtMost(_) | Quantifier::Exactly(_) => false,
        }
    }

    fn finish(&self) -> Truth {
        match self.quantifier {
            Quantifier::Every => self.all,
            Quantifier::Any => self.any,
            Quantifier::No => self.any.not(),
            // Never accumulated here (`Walker::count`).
            Quantifier::AtLeast(_) | Quantifier::AtMost(_) | Quantifier::Exactly(_) => {
                Truth::Unknown
            }
        }
    }
}

/// Walks the resources of one inventory for one rule.
pub(crate) struct Walker<'a> {
    pub inventory: &'a Inventory,
    pub failed: &'a HashMap<&'a str, Vec<&'a CollectionError>>,
    pub limits: Limits,
    /// Steps taken for the current resource.
    steps: Cell<u64>,
    memo: RefCell<Memo>,
}

impl<'a> Walker<'a> {
    pub(crate) fn new(
        inventory: &'a Inventory,
        failed: &'a HashMap<&'a str, Vec<&'a CollectionError>>,
        limits: Limits,
    ) -> Walker<'a> {
        Walker {
            inventory,
            failed,
            limits,
            steps: Cell::new(0),
            memo: RefCell::default(),
        }
    }

    /// Starts the step count of a new resource.
    pub(crate) fn start_resource(&self) {
        self.steps.set(0);
    }

    /// Whether the current resource has run out of steps.
    pub(crate) fn exhausted(&self) -> bool {
        self.steps.get() > self.limits.max_steps
    }

    /// Counts one step; false once the budget is spent.
    #[inline]
    fn step(&self) -> bool {
        let n = self.steps.get().saturating_add(1);
        self.steps.set(n);
        n <= self.limits.max_steps
    }

    /// The statements hold on `elem` (they are correlated: the same element): all of them,
    /// or with `or`, all of those of some alternative ([`Walker::disjunction`]).
    pub(crate) fn statements(&self, elem: Elem<'a>, body: &'a CBody, t: &mut Trail) -> Truth {
        match body.alternatives.as_slice() {
            [only] => self.conjunction(elem, only, t),
            [] => Truth::True,
            alternatives => self.disjunction(elem, alternatives, t),
        }
    }

    /// Statements joined by `or` (docs/language.md, "Either of two statements: or"): true
    /// when some alternative holds, false when every one fails, else unknown (Kleene, as
    /// `any` over elements). The fast walk stops at the first alternative that holds without
    /// resting on an empty list; the detailed walk tries them all, as `any` tries every
    /// element. An error (a reference into a type whose collection failed) counts only when
    /// it is what stops the disjunction: when some alternative holds, what the others met is
    /// forgotten (the verdict does not rest on it, and so it does not depend on the order of
    /// the alternatives); otherwise the resource is an error, as under `and`.
    ///
    /// What the detailed walk keeps: when every alternative fails, the failures of each
    /// (what each one found); when the result is unknown, the unknown paths and not the
    /// failures of the alternatives that failed; when it holds, nothing from any
    /// alternative, and no note of an alternative that held vacuously if another held
    /// outright. (Kept out of line, like the counting walks, so that rules without `or`
    /// walk as they did.)
    #[inline(never)]
    fn disjunction(&self, elem: Elem<'a>, alternatives: &'a [Vec<CStmt>], t: &mut Trail) -> Truth {
        let cap = t.cap;
        let marks = (t.failures.total, t.unknowns.total, t.notes.total);
        let saw_empty = std::mem::replace(&mut t.saw_empty, false);
        let error = t.error.take();
        let touched_failed = t.touched_failed.take();
        let mut result = Truth::False;
        // Some alternative held only vacuously / some held outright.
        let (mut vacuous, mut outright) = (false, false);
        for alternative in alternatives {
            t.saw_empty = false;
            let r = self.conjunction(elem, alternative, t);
            vacuous |= t.saw_empty;
            outright |= r == Truth::True && !t.saw_empty;
            result = result.or(r);
            if outright && !t.detail {
                break;
            }
        }
        t.saw_empty = saw_empty || (vacuous && !outright);
        let own_error = std::mem::replace(&mut t.error, error);
        let own_touched_failed = std::mem::replace(&mut t.touched_failed, touched_failed);
        if result != Truth::True {
            t.merge_flags(false, own_error, own_touched_failed);
        }
        if t.detail {
            if result != Truth::False {
                t.failures.truncate(marks.0, cap);
            }
            if result == Truth::True {
                t.unknowns.truncate(marks.1, cap);
            }
            if outright {
                t.notes.truncate(marks.2, cap);
            }
        }
        result
    }

    /// All statements hold on `elem`.
    #[inline(always)]
    fn conjunction(&self, elem: Elem<'a>, stmts: &'a [CStmt], t: &mut Trail) -> Truth {
        let mut acc = Truth::True;
        for s in stmts {
            acc = acc.and(self.statement(elem, s, t));
            if acc == Truth::False && !t.detail {
                break;
            }
        }
        acc
    }

    /// [`Walker::statements`] on a referenced resource, remembered when it took many steps:
    /// the verdict and findings of `body` on `target` do not depend on the path that got
    /// there (only the paths' prefix does, which a replay rewrites).
    ///
    /// `referenced`, `enter` and `test` are inlined into each walk that calls them (the
    /// closures of `quantify` and of the out-of-line counting walks): called from two places,
    /// the compiler stopped inlining them into the hot walks on its own, which cost the
    /// benchmark's ten rules 5-10% (measured with cachegrind: +15.6M instructions on 10k
    /// instances, all in calls to these three).
    #[inline(always)]
    fn referenced(
        &self,
        target: ResourceIdx,
        elem: Elem<'a>,
        body: &'a CBody,
        t: &mut Trail,
    ) -> Truth {
        let key = (target, std::ptr::from_ref(body) as usize);
        let hit = {
            let memo = self.memo.borrow();
            let map = if t.detail { &memo.detail } else { &memo.fast };
            if map.is_empty() {
                None
            } else {
                map.get(&key).cloned()
            }
        };
        if let Some(entry) = hit {
            if !self.step() {
                return Truth::Unknown;
            }
            t.replay(&entry);
            return entry.truth;
        }
        // Walk in place (most walks are short and remembered by nobody), with the flags
        // taken aside so that the walk's own can be told apart.
        let before = self.steps.get();
        let marks = [
            (t.failures.total, t.failures.items.len()),
            (t.unknowns.total, t.unknowns.items.len()),
            (t.notes.total, t.notes.items.len()),
        ];
        let saw_empty = std::mem::replace(&mut t.saw_empty, false);
        let error = t.error.take();
        let touched_failed = t.touched_failed.take();
        let truth = self.statements(elem, body, t);
        let own_saw_empty = std::mem::replace(&mut t.saw_empty, saw_empty);
        let own_error = std::mem::replace(&mut t.error, error);
        let own_touched_failed = std::mem::replace(&mut t.touched_failed, touched_failed);
        if self.steps.get().saturating_sub(before) < self.limits.memo_min_steps || self.exhausted()
        {
            t.merge_flags(own_saw_empty, own_error, own_touched_failed);
            return truth;
        }
        // Remember it. What the walk recorded here is all it found unless the caps dropped
        // some; then walk it again on its own, with room for everything.
        let counts = [
            (t.failures.total, t.failures.items.len()),
            (t.unknowns.total, t.unknowns.items.len()),
            (t.notes.total, t.notes.items.len()),
        ];
        let complete = marks
            .iter()
            .zip(&counts)
            .all(|((total, len), (now_total, now_len))| {
                now_total - total == (now_len - len) as u64
            });
        let entry = if complete {
            Entry {
                truth,
                saw_empty: own_saw_empty,
                error: own_error.clone(),
                touched_failed: own_touched_failed.clone(),
                prefix_len: t.path.len(),
                failures: t.failures.since(marks[0]),
                unknowns: t.unknowns.since(marks[1]),
                notes: t.notes.since(marks[2]),
            }
        } else {
            let mut sub = Trail {
                detail: t.detail,
                path: t.path.clone(),
                cap: t.cap,
                ..Trail::default()
            };
            let again = self.statements(elem, body, &mut sub);
            if self.exhausted() {
                t.merge_flags(own_saw_empty, own_error, own_touched_failed);
                return truth;
            }
            Entry {
                truth: again,
                saw_empty: sub.saw_empty,
                error: sub.error,
                touched_failed: sub.touched_failed,
                prefix_len: sub.path.len(),
                failures: sub.failures,
                unknowns: sub.unknowns,
                notes: sub.notes,
            }
        };
        t.merge_flags(own_saw_empty, own_error, own_touched_failed);
        let mut memo = self.memo.borrow_mut();
        let map = if t.detail {
            &mut memo.detail
        } else {
            &mut memo.fast
        };
        map.insert(key, Rc::new(entry));
        truth
    }

    fn statement(&self, elem: Elem<'a>, s: &'a CStmt, t: &mut Trail) -> Truth {
        if !self.step() {
            return Truth::Unknown;
        }
        let mark = t.path.len();
        if t.detail {
            push_segment(&mut t.path, s);
        }
        let mut leaf = member(elem, s);
        for (key, _) in &s.keys {
            leaf = match leaf {
                Leaf::Val(Value::Object(o)) => key
                    .and_then(|k| o.get(k))
                    .map(norm)
                    .unwrap_or(Leaf::Null(NullWhy::Missing)),
                Leaf::Val(_) => Leaf::Null(NullWhy::Missing),
                Leaf::Null(why) => Leaf::Null(why),
                Leaf::Unknown(reason, _) => Leaf::Unknown(reason, false),
            };
        }
        let result = match (&s.tail, &s.bound) {
            (CTail::Predicate(p), None) => self.quantify_predicate(leaf, s, p, t),
            (CTail::Nested(body), None) => self.quantify_nested(leaf, s, body, t),
            (CTail::Predicate(p), Some(bound)) => self.count_predicate(leaf, s, p, *bound, t),
            (CTail::Nested(body), Some(bound)) => self.count_nested(leaf, s, body, *bound, t),
        };
        t.path.truncate(mark);
        result
    }

    fn quantify_nested(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        body: &'a CBody,
        t: &mut Trail,
    ) -> Truth {
        self.quantify(leaf, s, true, t, |w, item, t| {
            match w.enter(item, s.association, t) {
                (elem, Some(target)) => w.referenced(target, elem, body, t),
                (elem, None) => w.statements(elem, body, t),
            }
        })
    }

    fn quantify_predicate(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        p: &'a CPredicate,
        t: &mut Trail,
    ) -> Truth {
        self.quantify(leaf, s, !p.whole, t, |w, item, t| w.test(item, s, p, t))
    }

    /// A counting quantifier before `( ... )` or `>`. An element that is null, missing or
    /// dangling, or that `( ... )` or `>` cannot enter (a scalar, a value that is not a
    /// reference), is no element to count. (Kept out of line, as is
    /// [`Walker::count_predicate`], so that the walks of `any`, `every` and `no` stay as
    /// small as they were.)
    #[inline(never)]
    fn count_nested(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        body: &'a CBody,
        bound: Bound,
        t: &mut Trail,
    ) -> Truth {
        self.count(leaf, s, true, bound, t, |w, item, t| {
            match w.enter(item, s.association, t) {
                (Elem::Null(_), _) => None,
                (elem, Some(target)) => Some(w.referenced(target, elem, body, t)),
                (elem, None) => Some(w.statements(elem, body, t)),
            }
        })
    }

    /// A counting quantifier before a predicate: a leaf member counts its values that
    /// satisfy the predicate; a null value is no value to count.
    #[inline(never)]
    fn count_predicate(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        p: &'a CPredicate,
        bound: Bound,
        t: &mut Trail,
    ) -> Truth {
        self.count(leaf, s, !p.whole, bound, t, |w, item, t| match item {
            Leaf::Null(_) => None,
            other => Some(w.test(other, s, p, t)),
        })
    }

    /// A counting quantifier (language.md, "Counting, time and pattern predicates"): applies
    /// `each` to every element of a list (when `split` allows) or to the value itself, counts
    /// the elements that hold (`T`) and those that are unknown (`U`), and judges the counts
    /// by the interval rule ([`Bound::judge`]). `each` gives `None` for an element that
    /// counts as none (null, missing, dangling). A value unknown as a whole is a list of
    /// unknown length: an unknown count (`at least 0` still holds). The fast walk stops as
    /// soon as no further element can change the verdict; every element is a step.
    fn count(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        split: bool,
        bound: Bound,
        t: &mut Trail,
        each: impl Fn(&Self, Leaf<'a>, &mut Trail) -> Option<Truth>,
    ) -> Truth {
        let marks = (t.failures.total, t.unknowns.total);
        let (mut yes, mut maybe) = (0u64, 0u64);
        let tally = |r: Option<Truth>, yes: &mut u64, maybe: &mut u64| match r {
            Some(Truth::True) => *yes += 1,
            Some(Truth::Unknown) => *maybe += 1,
            Some(Truth::False) | None => {}
        };
        let result = match leaf {
            Leaf::Unknown(reason, _) => {
                if t.detail {
                    let unknown = UnknownPath {
                        path: display_path(&t.path),
                        reason: reason.to_string(),
                    };
                    t.unknowns.push(t.cap, unknown);
                }
                bound.judge_unknown_length()
            }
            Leaf::Val(Value::List(items)) if split => {
                for (i, item) in items.iter().enumerate() {
                    if !self.step() {
                        break;
                    }
                    let mark = t.path.len();
                    if t.detail {
                        // Writing to a String cannot fail.
                        let _ = write!(t.path, "[{i}]");
                    }
                    tally(each(self, norm(item), t), &mut yes, &mut maybe);
                    t.path.truncate(mark);
                    if !t.detail && bound.settled(yes) {
                        break;
                    }
                }
                bound.judge(yes, maybe)
            }
            other => {
                tally(each(self, other, t), &mut yes, &mut maybe);
                bound.judge(yes, maybe)
            }
        };
        if t.detail {
            self.settle_count(s, bound, result, marks, (yes, maybe), t);
        }
        result
    }

    /// [`Walker::settle`] for a counting quantifier: keeps the findings that explain
    /// `result` and, when it is false, adds one failure that gives the count found and the
    /// bound: `2 of access_keys match, expected at most 1`.
    fn settle_count(
        &self,
        s: &CStmt,
        bound: Bound,
        result: Truth,
        (failures, unknowns): (u64, u64),
        (yes, maybe): (u64, u64),
        t: &mut Trail,
    ) {
        let cap = t.cap;
        // Too many: the elements that did not match are not why it failed.
        let too_many = yes > bound.n();
        if result != Truth::False || too_many {
            t.failures.truncate(failures, cap);
        }
        if result == Truth::True {
            t.unknowns.truncate(unknowns, cap);
        }
        if result != Truth::False {
            return;
        }
        let words = bound.words();
        let verb = if yes == 1 { "matches" } else { "match" };
        let mut message = format!("{yes} of {} {verb}", s.subject);
        if maybe > 0 {
            // Writing to a String cannot fail.
            let _ = write!(message, " (and {maybe} unknown)");
        }
        let _ = write!(message, ", expected {words}");
        let failure = Failure {
            path: display_path(&t.path),
            predicate: format!("{words} {}", s.name_text).into(),
            expected: format!("{words} {} to match", s.name_text).into(),
            actual: serde_json::Value::from(yes),
            message,
        };
        t.failures.push(cap, (failure, false));
    }

    /// Applies `each` to every element of a list (when `split` allows) or to the value
    /// itself, and combines the verdicts under the statement's quantifier.
    fn quantify(
        &self,
        leaf: Leaf<'a>,
        s: &'a CStmt,
        split: bool,
        t: &mut Trail,
        each: impl Fn(&Self, Leaf<'a>, &mut Trail) -> Truth,
    ) -> Truth {
        let marks = (t.failures.total, t.unknowns.total);
        let mut acc = Acc::new(s.quantifier);
        // The paths that matched a `no`: the first `cap` of them, and how many in all.
        let mut matched = Vec::new();
        let mut matched_count = 0u64;
        let mut one = |item: Leaf<'a>, t: &mut Trail, acc: &mut Acc| {
            let r = each(self, item, t);
            if t.detail && r == Truth::True && s.quantifier == Quantifier::No {
                matched_count = matched_count.saturating_add(1);
                if matched.len() < t.cap {
                    matched.push(t.path.clone());
                }
            }
            acc.push(r)
        };
        match leaf {
            Leaf::Val(Value::List(items)) if split => {
                for (i, item) in items.iter().enumerate() {
                    if !self.step() {
                        break;
                    }
                    let mark = t.path.len();
                    if t.detail {
                        // Writing to a String cannot fail.
                        let _ = write!(t.path, "[{i}]");
                    }
                    let decided = one(norm(item), t, &mut acc);
                    t.path.truncate(mark);
                    if decided && !t.detail {
                        break;
                    }
                }
            }
            other => {
                one(other, t, &mut acc);
            }
        }
        let result = acc.finish();
        self.settle(s, &acc, result, marks, (matched, matched_count), t);
        result
    }

    /// Keeps only the findings that explain `result`, and adds the statement's own.
    fn settle(
        &self,
        s: &CStmt,
        acc: &Acc,
        result: Truth,
        (failures, unknowns): (u64, u64),
        (matched, matched_count): (Vec<String>, u64),
        t: &mut Trail,
    ) {
        let cap = t.cap;
        if acc.count == 0 && s.quantifier == Quantifier::Every {
            t.saw_empty = true;
            if t.detail {
                let note = format!(
                    "{} has no elements: checked zero elements, so it holds vacuously",
                    display_path(&t.path)
                );
                t.notes.push(cap, note);
            }
        }
        if !t.detail {
            return;
        }
        if result != Truth::False || s.quantifier == Quantifier::No {
            t.failures.truncate(failures, cap);
        }
        if result == Truth::True {
            t.unknowns.truncate(unknowns, cap);
        }
        if result != Truth::False {
            return;
        }
        match s.quantifier {
            Quantifier::No => {
                let unrecorded = matched_count.saturating_sub(matched.len() as u64);
                for path in matched {
                    let failure = Failure {
                        path: display_path(&path),
                        predicate: format!("no {}", s.name_text).into(),
                        expected: format!("no {} to match", s.name_text).into(),
                        actual: serde_json::Value::Null,
                        message: format!(
                            "{} matches, expected no {} to match",
                            display_path(&path),
                            s.name_text
                        ),
                    };
                    t.failures.push(cap, (failure, true));
                }
                // Counted, not recorded: the list is full (`matched` kept `cap` of them).
                t.failures.total = t.failures.total.saturating_add(unrecorded);
            }
            Quantifier::Any if acc.count == 0 => {
                let path = display_path(&t.path);
                let failure = Failure {
                    path: path.clone(),
                    predicate: format!("any {}", s.name_text).into(),
                    expected: "at least one element".into(),
                    actual: serde_json::Value::Array(vec![]),
                    message: format!("{path} has no elements, expected at least one to match"),
                };
                t.failures.push(cap, (failure, true));
            }
            _ => {}
        }
    }

    /// Enters `( ... )` on a value: a nested property, or the target of a reference (with
    /// its index).
    #[inline(always)]
    fn enter(
        &self,
        leaf: Leaf<'a>,
        association: bool,
        t: &mut Trail,
    ) -> (Elem<'a>, Option<ResourceIdx>) {
        let elem = match leaf {
            Leaf::Unknown(reason, _) => Elem::Unknown(reason),
            Leaf::Null(why) => Elem::Null(why),
            Leaf::Val(Value::Ref(r)) if association => {
                // Most runs have no failed collection: spare splitting the reference then.
                let target_type = if self.failed.is_empty() {
                    ""
                } else {
                    r.target_type()
                };
                let errors = if self.failed.is_empty() {
                    None
                } else {
                    self.failed.get(target_type)
                };
                if errors.is_some() && t.touched_failed.is_none() {
                    t.touched_failed = Some(target_type.to_string());
                }
                // Only a failure of the whole type explains a missing target.
                let failed = errors.is_some_and(|e| e.iter().any(|e| e.members.is_empty()));
                let target = r
                    .target
                    .and_then(|idx| Some((idx, self.inventory.resource(idx)?)));
                match target {
                    Some((idx, resource)) => return (Elem::Obj(&resource.properties), Some(idx)),
                    None => {
                        if failed && t.error.is_none() {
                            t.error = Some(format!(
                                "{} could not be checked: the collection of {target_type} failed",
                                r.raw
                            ));
                        }
                        match self.inventory.dangling {
                            Dangling::Unknown if !failed => {
                                Elem::Unknown(UnknownWhy::Outside(&r.raw))
                            }
                            _ => Elem::Null(NullWhy::Dangling(&r.raw)),
                        }
                    }
                }
            }
            Leaf::Val(Value::Object(o)) if !association => Elem::Obj(o),
            Leaf::Val(Value::Unknown(u)) => Elem::Unknown(UnknownWhy::Said(&u.reason)),
            Leaf::Val(_) => Elem::Null(NullWhy::Missing),
        };
        (elem, None)
    }

    /// Tests one value against a predicate; in detail, records why it failed or is unknown.
    #[inline(always)]
    fn test(&self, leaf: Leaf<'a>, s: &CStmt, p: &CPredicate, t: &mut Trail) -> Truth {
        match leaf {
            Leaf::Unknown(reason, not_null) => {
                let r = match (p.def.kind, not_null) {
                    (PredicateKind::Null, true) => Truth::False,
                    (PredicateKind::NotNull, true) => Truth::True,
                    _ => Truth::Unknown,
                };
                if t.detail {
                    match r {
                        Truth::Unknown => {
                            let unknown = UnknownPath {
                                path: display_path(&t.path),
                                reason: reason.to_string(),
                            };
                            t.unknowns.push(t.cap, unknown);
                        }
                        Truth::False => self.fail(t, s, p, Found::NotKnownYet),
                        Truth::True => {}
                    }
                }
                r
            }
            Leaf::Null(why) => {
                let r = Truth::from(p.def.on_null);
                if t.detail && r == Truth::False {
                    self.fail(t, s, p, Found::Null(why));
                }
                r
            }
            Leaf::Val(value) => {
                let test = (p.def.test)(value, &p.operand);
                if t.detail {
                    match test {
                        Test::Holds => {}
                        Test::Unknown => {
                            let unknown = UnknownPath {
                                path: display_path(&t.path),
                                reason: first_unknown(value)
                                    .unwrap_or("holds an unknown value")
                                    .to_string(),
                            };
                            t.unknowns.push(t.cap, unknown);
                        }
                        Test::Fails(why) => self.fail(t, s, p, Found::Value(why, value)),
                    }
                }
                test.truth()
            }
        }
    }

    /// Records a failure: `<subject> <found>, expected <expected>`, written in one string.
    fn fail(&self, t: &mut Trail, s: &CStmt, p: &CPredicate, found: Found<'_>) {
        if t.failures.items.len() >= t.cap {
            // Only counted: spare building a message nobody will read.
            t.failures.total = t.failures.total.saturating_add(1);
            return;
        }
        let actual = match found {
            Found::Value(_, value) => to_json(value, &self.inventory.interner),
            _ => serde_json::Value::Null,
        };
        let mut message = String::with_capacity(s.subject.len() + p.expected.len() + 48);
        message.push_str(&s.subject);
        message.push(' ');
        // Writing to a String cannot fail.
        let _ = match found {
            Found::NotKnownYet => message.write_str("is present but not known yet"),
            Found::Null(NullWhy::Missing) => message.write_str("is missing"),
            Found::Null(NullWhy::Dangling(raw)) => write!(
                message,
                "is missing: the reference to {raw} is dangling (not in the inventory)"
            ),
            Found::Value(why, value) => {
                let shown = display(value, &actual);
                match why {
                    Why::Mismatch => write!(message, "is {shown}"),
                    Why::WrongType => write!(
                        message,
                        "is {} {shown}, not {}",
                        article(value.type_name()),
                        p.def.applies.noun()
                    ),
                    Why::NotAnAddress => write!(
                        message,
                        "is {shown}, which is not an IP address or CIDR block"
                    ),
                    Why::OtherFamily => write!(
                        message,
                        "is {shown}: IPv4 and IPv6 addresses do not compare"
                    ),
                }
            }
        };
        message.push_str(", expected ");
        message.push_str(&p.expected);
        let failure = Failure {
            path: display_path(&t.path),
            predicate: p.text.clone(),
            message,
            expected: p.expected.clone(),
            actual,
        };
        t.failures.push(t.cap, (failure, false));
    }
}

/// What a failing value was found to be, for its message.
enum Found<'a> {
    /// Present but unknown, where the predicate needed it absent.
    NotKnownYet,
    Null(NullWhy<'a>),
    Value(Why, &'a Value),
}

fn norm(value: &Value) -> Leaf<'_> {
    match value {
        Value::Null => Leaf::Null(NullWhy::Missing),
        Value::Unknown(u) => Leaf::Unknown(UnknownWhy::Said(&u.reason), u.not_null),
        v => Leaf::Val(v),
    }
}

fn member<'a>(elem: Elem<'a>, s: &CStmt) -> Leaf<'a> {
    match elem {
        Elem::Obj(o) => s
            .name
            .and_then(|n| get_hinted(o, n, &s.hint))
            .map(norm)
            .unwrap_or(Leaf::Null(NullWhy::Missing)),
        Elem::Null(why) => Leaf::Null(why),
        Elem::Unknown(reason) => Leaf::Unknown(reason, false),
    }
}

/// `o.get(key)`, looking first where the key was last found (`hint`), which spares
/// scanning the entries (and the memory they sit in) for most objects.
fn get_hinted<'a>(o: &'a Object, key: Sym, hint: &Cell<usize>) -> Option<&'a Value> {
    if let Some((k, v)) = o.entries.get(hint.get()) {
        if *k == key {
            return Some(v);
        }
    }
    let at = o.entries.iter().position(|(k, _)| *k == key)?;
    hint.set(at);
    o.entries.get(at).map(|(_, v)| v)
}

fn push_segment(path: &mut String, s: &CStmt) {
    if s.association {
        if !path.is_empty() {
            path.push(' ');
        }
        path.push_str("> ");
    } else if !path.is_empty() {
        path.push('.');
    }
    path.push_str(&s.subject);
}

fn display_path(path: &str) -> String {
    if path.is_empty() {
        "(resource)".into()
    } else {
        path.to_string()
    }
}

fn article(type_name: &str) -> String {
    match type_name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}

fn first_unknown(value: &Value) -> Option<&str> {
    match value {
        Value::Unknown(u) => Some(&u.reason),
        Value::List(items) => items.iter().find_map(first_unknown),
        Value::Object(o) => o.iter().find_map(|(_, v)| first_unknown(v)),
        _ => None,
    }
}
