//! AST + inventory to outcomes (`shared/design/language.md`). The evaluator does no I/O:
//! it reads a finished [`Inventory`] and returns a [`RunOutcome`].
//!
//! - `compile`: statements with member names resolved and operands parsed once.
//! - `walk`: member paths, quantifiers and correlation over one resource.
//! - `compare`: values as reports show them.
//! - [`projection`]: the properties the rules read, to load only those.
//!
//! What each predicate does to a value is its row of [`crate::predicates::PREDICATES`].

mod compare;
mod compile;
mod projection;
mod walk;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::time::Instant;

use crate::model::{CollectionError, Dangling, Inventory, Resource};
use crate::outcome::{
    Details, GroupOutcome, Location, ResourceOutcome, ResourceSource, RuleOutcome, RunOutcome,
    SpecOutcome, Status,
};
use crate::predicates::Applies;
use crate::syntax::ast::{Quantifier, Rule, Spec, Statement, Tail};
use crate::truth::Truth;
use walk::{Elem, Trail, Walker};

pub use projection::projection;

/// Steps one resource may take under one rule: each statement applied to an element and
/// each list element visited is one step (docs/language.md, "Evaluation limits").
pub const MAX_STEPS: u64 = 1_000_000;

/// Failing paths recorded per resource and rule (likewise unknown paths and notes); the rest
/// are counted, and a note says how many were left out.
pub const MAX_FINDINGS: usize = 100;

/// A walk into a referenced resource that took at least this many steps is remembered for
/// the rest of the rule. Ordinary walks into references take a handful of steps, so ordinary
/// runs remember nothing and pay nothing for it.
pub const MEMO_MIN_STEPS: u64 = 32;

/// How far an evaluation may go. A resource that needs more than `max_steps` steps under a
/// rule is an `error` for that rule; the run goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Steps per resource and rule.
    pub max_steps: u64,
    /// Failing paths, unknown paths and notes recorded per resource and rule (each).
    pub max_findings: usize,
    /// Walks into a referenced resource that take at least this many steps are remembered
    /// for the rest of the rule (`u64::MAX`: never). Remembering changes no verdict and no
    /// finding, only the work done (and so which resources run out of steps).
    pub memo_min_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: MAX_STEPS,
            max_findings: MAX_FINDINGS,
            memo_min_steps: MEMO_MIN_STEPS,
        }
    }
}

/// One parsed spec file to evaluate.
#[derive(Debug, Clone, Copy)]
pub struct SpecInput<'a> {
    /// The file name as the user gave it (for locations in reports).
    pub file: &'a str,
    /// Its text (for line numbers and rule text).
    pub source: &'a str,
    pub spec: &'a Spec,
}

/// Evaluates every rule of `specs` against `inventory`, rules spread over the available
/// cores (at most 8).
pub fn evaluate(specs: &[SpecInput<'_>], inventory: &Inventory) -> RunOutcome {
    let threads = default_threads();
    evaluate_with_threads(specs, inventory, threads)
}

/// [`evaluate`] on at most `threads` threads (1: on the calling thread). The outcome does not
/// depend on `threads`.
pub fn evaluate_with_threads(
    specs: &[SpecInput<'_>],
    inventory: &Inventory,
    threads: usize,
) -> RunOutcome {
    evaluate_with_limits(specs, inventory, threads, Limits::default())
}

/// [`evaluate_with_threads`] within `limits` (the defaults are [`MAX_STEPS`] and
/// [`MAX_FINDINGS`]).
pub fn evaluate_with_limits(
    specs: &[SpecInput<'_>],
    inventory: &Inventory,
    threads: usize,
    limits: Limits,
) -> RunOutcome {
    let clock = crate::predicates::instant_of(&chrono::Utc::now());
    evaluate_at(
        specs,
        inventory,
        threads,
        limits,
        reference_time(inventory, clock),
    )
}

/// The threads an evaluation uses by default: the available cores, at most 8.
pub use crate::default_threads;

/// The reference time ("now") of time predicates when the caller gives none: the
/// inventory's `collected_at`, else `clock`, the time the run started (language.md).
/// Nanoseconds since the Unix epoch.
pub fn reference_time(inventory: &Inventory, clock: i128) -> i128 {
    inventory
        .collected_at
        .as_deref()
        .and_then(crate::predicates::parse_instant)
        .unwrap_or(clock)
}

/// [`evaluate_with_limits`] with the reference time of time predicates given (`--now`),
/// nanoseconds since the Unix epoch. The outcome's `now` records it (RFC 3339, UTC) when a
/// rule uses a time predicate.
pub fn evaluate_at(
    specs: &[SpecInput<'_>],
    inventory: &Inventory,
    threads: usize,
    limits: Limits,
    now: i128,
) -> RunOutcome {
    let mut failed: HashMap<&str, Vec<&CollectionError>> = HashMap::new();
    for error in &inventory.errors {
        failed
            .entry(error.type_name.as_str())
            .or_default()
            .push(error);
    }
    let rules: Vec<(&SpecInput<'_>, &Rule, (usize, usize))> = specs
        .iter()
        .flat_map(|input| {
            let rules: Vec<&Rule> = input.spec.groups.iter().flat_map(|g| &g.rules).collect();
            let at = positions(input.source, rules.iter().map(|r| r.span.start));
            rules
                .into_iter()
                .zip(at)
                .map(move |(rule, at)| (input, rule, at))
        })
        .collect();
    let mut results = parallel_map(&rules, threads, |(input, rule, at)| {
        let walker = Walker::new(inventory, &failed, limits);
        evaluate_rule(&walker, input, rule, *at, now)
    })
    .into_iter();
    let specs = specs
        .iter()
        .map(|input| SpecOutcome {
            name: input.spec.description.value.clone(),
            file: input.file.to_string(),
            groups: input
                .spec
                .groups
                .iter()
                .map(|group| GroupOutcome {
                    name: group.name.value.clone(),
                    rules: results.by_ref().take(group.rules.len()).collect(),
                })
                .collect(),
        })
        .collect();
    let warnings = dangling_warnings(inventory);
    let timed = rules
        .iter()
        .any(|(_, rule, _)| rule.statements().any(uses_time));
    RunOutcome {
        specs,
        collected_at: inventory.collected_at.clone(),
        now: timed.then(|| instant_text(now)),
        warnings,
        audit: Default::default(),
    }
}

/// Most references to resources outside an inventory whose dangling targets are unknown
/// that its one warning names.
const OUTSIDE_NAMED: usize = 5;

/// The run's warnings about dangling references: one per reference when a missing target
/// is null (each is likely a collection gap); one line in all when dangling targets are
/// unknown (`"dangling": "unknown"`: Terraform code refers to things it does not manage
/// all the time, and each such reference is already an unknown path where a rule reads
/// through it).
fn dangling_warnings(inventory: &Inventory) -> Vec<String> {
    let refs = inventory.dangling_refs();
    match inventory.dangling {
        Dangling::Null => refs
            .iter()
            .map(|r| format!("dangling reference: {r} is not in the inventory"))
            .collect(),
        Dangling::Unknown if refs.is_empty() => Vec::new(),
        Dangling::Unknown => {
            let named: Vec<&str> = refs
                .iter()
                .take(OUTSIDE_NAMED)
                .map(String::as_str)
                .collect();
            let more = refs.len() - named.len();
            let mut line = match refs.len() {
                1 => "1 reference points outside the configuration; its target's members are unknown: ".to_string(),
                n => format!("{n} references point outside the configuration; their targets' members are unknown: "),
            };
            line.push_str(&named.join(", "));
            if more > 0 {
                // Writing to a String cannot fail.
                let _ = write!(line, " and {more} more");
            }
            vec![line]
        }
    }
}

/// Whether a statement, or one inside it, uses a time predicate (`older than`, `before`...).
fn uses_time(s: &Statement) -> bool {
    match &s.tail {
        Tail::Predicate(p) => crate::predicates::def(p.kind).applies == Applies::Timestamp,
        Tail::Nested(body) => body.statements().any(uses_time),
    }
}

/// The reference time as reports record it (`"now"`): RFC 3339 in UTC with `Z`, whole
/// seconds when the time has no fraction (`2026-11-22T07:00:00Z`), else as many fractional
/// digits as it needs, in groups of three (`...07:00:00.250Z`): chrono's
/// `SecondsFormat::AutoSi`, so a `--now` or `collected_at` is written back exactly.
pub fn instant_text(at: i128) -> String {
    crate::predicates::datetime_of(at)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
        .unwrap_or_default()
}

/// The line and column of each offset: one index of line starts per file, then a binary
/// search per offset (a file of many rules must not be scanned from its start once per
/// rule).
fn positions(source: &str, offsets: impl Iterator<Item = usize>) -> Vec<(usize, usize)> {
    let index = crate::diagnostic::LineIndex::new(source);
    offsets.map(|offset| index.line_col(offset)).collect()
}

/// `items.iter().map(f)` on up to `threads` scoped threads, results in input order.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

fn evaluate_rule(
    walker: &Walker<'_>,
    input: &SpecInput<'_>,
    rule: &Rule,
    (line, column): (usize, usize),
    now: i128,
) -> RuleOutcome {
    let started = Instant::now();
    let inventory = walker.inventory;
    let ctx = compile::Ctx {
        interner: &inventory.interner,
        source: input.source,
        now,
    };
    let with = compile::statements(&rule.with, Quantifier::Any, ctx);
    let assert = compile::statements(&rule.assert, Quantifier::Every, ctx);
    let candidates = inventory.of_type(&rule.on.value);
    // Exact: a rule may have 100k resources in scope, which should not grow by doubling.
    let mut resources = Vec::with_capacity(candidates.len());
    let mut touched_failed: Option<String> = None;
    let cap = walker.limits.max_findings;
    for &idx in candidates {
        let Some(resource) = inventory.resource(idx) else {
            continue;
        };
        walker.start_resource();
        let elem = Elem::Obj(&resource.properties);
        let mut trail = Trail::fast();
        let scope = walker.statements(elem, &with, &mut trail);
        if let Some(t) = trail.touched_failed.take() {
            touched_failed.get_or_insert(t);
        }
        let outcome = match scope {
            _ if walker.exhausted() => out_of_steps(resource, walker.limits),
            Truth::False => continue,
            Truth::Unknown => {
                let mut detail = Trail::detailed(cap);
                walker.statements(elem, &with, &mut detail);
                if walker.exhausted() {
                    out_of_steps(resource, walker.limits)
                } else {
                    let mut out = resource_outcome(resource, Status::Unknown, detail);
                    out.details_mut().notes.insert(
                        0,
                        "the With clause is unknown, so the scope is undetermined".into(),
                    );
                    out
                }
            }
            Truth::True => {
                let mut fast = Trail::fast();
                let verdict = walker.statements(elem, &assert, &mut fast);
                if let Some(t) = fast.touched_failed.take() {
                    touched_failed.get_or_insert(t);
                }
                if walker.exhausted() {
                    out_of_steps(resource, walker.limits)
                } else if verdict == Truth::True && !fast.saw_empty && fast.error.is_none() {
                    resource_outcome(resource, Status::Pass, fast)
                } else {
                    let mut detail = Trail::detailed(cap);
                    walker.statements(elem, &assert, &mut detail);
                    let status = match (&detail.error, verdict) {
                        (Some(_), _) => Status::Error,
                        (None, Truth::False) => Status::Fail,
                        (None, Truth::Unknown) => Status::Unknown,
                        (None, Truth::True) => Status::Pass,
                    };
                    if walker.exhausted() {
                        out_of_steps(resource, walker.limits)
                    } else {
                        resource_outcome(resource, status, detail)
                    }
                }
            }
        };
        resources.push(outcome);
    }
    let by_id = |a: &ResourceOutcome, b: &ResourceOutcome| {
        a.id.cmp(&b.id).then_with(|| a.type_name.cmp(&b.type_name))
    };
    // Inventories are usually saved sorted: skip the stable sort (and its scratch buffer of
    // up to half the outcomes) when the outcomes are in order already.
    if !resources.is_sorted_by(|a, b| by_id(a, b).is_le()) {
        resources.sort_by(by_id);
    }
    let (status, error) = rule_status(walker, rule, &resources, touched_failed);
    RuleOutcome {
        name: rule.name.value.clone(),
        on: rule.on.value.clone(),
        status,
        error,
        severity: rule.severity.as_ref().map(|s| s.value.as_str().to_string()),
        references: rule.references.iter().map(|r| r.value.clone()).collect(),
        remediation: rule.remediation.as_ref().map(|r| r.value.clone()),
        location: Location {
            file: input.file.to_string(),
            line,
            column,
        },
        text: input
            .source
            .get(rule.span.start..rule.span.end)
            .unwrap_or_default()
            .trim_end()
            .to_string(),
        resources,
        elapsed_secs: started.elapsed().as_secs_f64(),
    }
}

/// A rule's verdict from its resources', overridden by failed collections.
fn rule_status(
    walker: &Walker<'_>,
    rule: &Rule,
    resources: &[ResourceOutcome],
    touched_failed: Option<String>,
) -> (Status, Option<String>) {
    if let Some(errors) = walker.failed.get(rule.on.value.as_str()) {
        let errors = reaching(errors, rule, false);
        if !errors.is_empty() {
            return (
                Status::Error,
                Some(collection_message(&rule.on.value, &errors)),
            );
        }
    }
    if let Some(t) = touched_failed {
        let errors = walker
            .failed
            .get(t.as_str())
            .map(|e| reaching(e, rule, true))
            .unwrap_or_default();
        if !errors.is_empty() {
            return (
                Status::Error,
                Some(format!(
                    "the rule follows references into {}",
                    collection_message(&t, &errors)
                )),
            );
        }
    }
    let has = |s: Status| resources.iter().any(|r| r.status == s);
    let status = if resources.is_empty() {
        Status::Skip
    } else if has(Status::Fail) {
        Status::Fail
    } else if has(Status::Error) {
        Status::Error
    } else if has(Status::Unknown) {
        Status::Unknown
    } else {
        Status::Pass
    };
    let error = (status == Status::Error).then(|| {
        resources
            .iter()
            .find_map(|r| r.error().map(str::to_string))
            .unwrap_or_else(|| "a resource could not be evaluated".into())
    });
    (status, error)
}

/// The collection errors that void `rule`: failures of a whole type, and failures of the
/// calls that fill members the rule reads (at its top level, or at any depth when `deep`:
/// a type reached through references, whose members are not told apart by depth).
fn reaching<'e>(
    errors: &[&'e CollectionError],
    rule: &Rule,
    deep: bool,
) -> Vec<&'e CollectionError> {
    let mut names = HashSet::new();
    for s in rule.statements() {
        member_names(s, deep, &mut names);
    }
    errors
        .iter()
        .copied()
        .filter(|e| e.members.is_empty() || e.members.iter().any(|m| names.contains(m.as_str())))
        .collect()
}

/// The member names a statement reads: its own, and with `deep` those of its body.
fn member_names<'s>(s: &'s Statement, deep: bool, out: &mut HashSet<&'s str>) {
    out.insert(s.path.name.value.as_str());
    if let (true, Tail::Nested(body)) = (deep, &s.tail) {
        for b in body.statements() {
            member_names(b, deep, out);
        }
    }
}

fn collection_message(type_name: &str, errors: &[&CollectionError]) -> String {
    let details: Vec<String> = errors
        .iter()
        .map(|e| match &e.region {
            Some(region) => format!("{region}: {}", e.message),
            None => e.message.clone(),
        })
        .collect();
    let members: Vec<&str> = errors
        .iter()
        .flat_map(|e| e.members.iter().map(String::as_str))
        .collect();
    if !members.is_empty() && errors.iter().all(|e| !e.members.is_empty()) {
        return format!(
            "{type_name}, whose {} could not be collected ({})",
            members.join(", "),
            details.join("; ")
        );
    }
    format!(
        "{type_name}, whose collection failed ({})",
        details.join("; ")
    )
}

/// The outcome of a resource whose walk ran out of steps: an error, never a guess.
fn out_of_steps(resource: &Resource, limits: Limits) -> ResourceOutcome {
    let mut trail = Trail::fast();
    trail.error = Some(format!(
        "not evaluated: the rule needs more than {} steps on this resource (the evaluation \
         limit per rule and resource)",
        limits.max_steps
    ));
    resource_outcome(resource, Status::Error, trail)
}

/// The outcome of one resource from its walk; details are boxed only when there are any
/// (never for a passing live resource without notes).
fn resource_outcome(resource: &Resource, status: Status, trail: Trail) -> ResourceOutcome {
    let mut out = ResourceOutcome::new(
        resource.type_name.clone(),
        resource.id.clone(),
        status,
        resource.region.clone(),
    );
    let plain = trail.failures.total == 0
        && trail.unknowns.total == 0
        && trail.notes.total == 0
        && trail.error.is_none()
        && resource.source.is_none();
    if plain {
        // Most outcomes: nothing to tell beyond the status.
        return out;
    }
    let keep_notes = status == Status::Pass || status == Status::Unknown;
    let omitted_notes = trail.notes.omitted();
    let mut notes = trail.notes.items;
    if !keep_notes {
        notes.clear();
    }
    notes.dedup();
    let cap = trail.cap;
    let mut left_out = |n: u64, what: &str| {
        if n > 0 {
            notes.push(format!(
                "... and {n} more {what}, not listed (at most {cap} are listed per resource)"
            ));
        }
    };
    left_out(trail.failures.omitted(), "failing paths");
    left_out(trail.unknowns.omitted(), "unknown paths");
    if keep_notes {
        left_out(omitted_notes, "notes");
    }
    // Exact capacities: failing outcomes are many, and a vector grown by `push` keeps room
    // for four failures where one is usual.
    let failures: Vec<_> = trail.failures.items.into_iter().map(|(f, _)| f).collect();
    let mut unknowns = trail.unknowns.items;
    unknowns.shrink_to_fit();
    notes.shrink_to_fit();
    let details = Details {
        error: trail.error,
        failures,
        unknowns,
        notes,
        source: resource.source.as_ref().map(|s| ResourceSource {
            file: s.file.clone(),
            line: s.line,
            root: s.root.clone(),
        }),
        waiver: None,
    };
    if !details.is_empty() {
        out.details = Some(Box::new(details));
    }
    out
}

#[cfg(test)]
mod new_forms_tests;
#[cfg(test)]
mod or_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass over the file finds what `line_col` finds for each offset on its own.
    #[test]
    fn positions_match_line_col() {
        use crate::model::input::line_col;
        let source = "ab\ncd\r\nef\rgh\u{e9}ij\n\nk";
        let offsets: Vec<usize> = source.char_indices().map(|(i, _)| i).collect();
        let expected: Vec<(usize, usize)> = offsets.iter().map(|&o| line_col(source, o)).collect();
        assert_eq!(positions(source, offsets.iter().copied()), expected);
        // Out of order or inside a character: each found on its own.
        assert_eq!(
            positions(source, [9, 3, 14].into_iter()),
            vec![line_col(source, 9), (2, 1), line_col(source, 14)]
        );
    }

    fn with_dangling(n: usize, dangling: Dangling) -> Inventory {
        use crate::model::{InventoryBuilder, Object, Reference, Value};
        let mut b = InventoryBuilder::new();
        b.set_dangling(dangling);
        let key = b.interner().intern("subnet");
        for i in 0..n {
            let target = format!("aws:ec2:subnet/subnet-{i}");
            b.push(Resource {
                type_name: "aws:ec2:instance".into(),
                id: format!("i-{i}").into(),
                region: None,
                account: None,
                source: None,
                properties: Object::new(vec![(key, Value::Ref(Box::new(Reference::new(target))))]),
            })
            .unwrap();
        }
        b.finish()
    }

    #[test]
    fn references_outside_a_configuration_are_one_warning() {
        assert!(dangling_warnings(&with_dangling(0, Dangling::Unknown)).is_empty());
        assert_eq!(
            dangling_warnings(&with_dangling(1, Dangling::Unknown)),
            ["1 reference points outside the configuration; its target's members are unknown: aws:ec2:subnet/subnet-0"]
        );
        assert_eq!(
            dangling_warnings(&with_dangling(7, Dangling::Unknown)),
            ["7 references point outside the configuration; their targets' members are unknown: \
              aws:ec2:subnet/subnet-0, aws:ec2:subnet/subnet-1, aws:ec2:subnet/subnet-2, \
              aws:ec2:subnet/subnet-3, aws:ec2:subnet/subnet-4 and 2 more"]
        );
        assert_eq!(
            dangling_warnings(&with_dangling(2, Dangling::Null)),
            [
                "dangling reference: aws:ec2:subnet/subnet-0 is not in the inventory",
                "dangling reference: aws:ec2:subnet/subnet-1 is not in the inventory"
            ]
        );
    }
}
