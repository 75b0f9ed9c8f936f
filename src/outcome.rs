//! What an evaluation produced: plain data that reports read. Nothing here evaluates.

use std::sync::Arc;

use cloudspec_model::Text;
use serde::Serialize;

/// A verdict, for a resource or a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Unknown,
    Skip,
    Error,
    Waived,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Unknown => "unknown",
            Status::Skip => "skip",
            Status::Error => "error",
            Status::Waived => "waived",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in a file, 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// The outcome of a whole run: one or more spec files against one inventory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunOutcome {
    pub specs: Vec<SpecOutcome>,
    /// The inventory's `collected_at`, when it had one.
    pub collected_at: Option<String>,
    /// The reference time time predicates were judged against (RFC 3339, UTC, `Z`), when a
    /// rule uses one (report.md: `"now"`).
    pub now: Option<String>,
    /// Warnings met while evaluating (dangling references...), for the console and logs.
    pub warnings: Vec<String>,
    /// What the scheduled-audit steps (waivers, baseline) added to the run.
    pub audit: Audit,
}

/// The run-level results of `--waivers` and `--baseline`; empty without them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Audit {
    /// Set with `--waivers`: what the waiver file did in this run.
    pub waivers: Option<WaiverSummary>,
    /// Set with `--baseline`: drift against the previous report.
    pub baseline: Option<BaselineSummary>,
    /// Set with `--controls` (or a rule pack's default controls): every control of a
    /// benchmark with the verdict of the rules that reference it.
    pub controls: Option<ControlsView>,
}

/// Whether a benchmark checks a control by machine or by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Assessment {
    Automated,
    Manual,
}

impl Assessment {
    pub fn as_str(self) -> &'static str {
        match self {
            Assessment::Automated => "automated",
            Assessment::Manual => "manual",
        }
    }
}

/// A control's verdict: the rule statuses that reference it, aggregated (`docs/reports.md`,
/// "Controls"), or why there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlStatus {
    /// Every rule passes (some may have had nothing in scope).
    Pass,
    /// A rule fails.
    Fail,
    /// No rule fails, but one could not be evaluated.
    Error,
    /// No rule fails or errs, but one could not be decided.
    Unknown,
    /// Every failure of its rules is waived.
    Waived,
    /// No rule had a resource in scope.
    Skip,
    /// A manual control that no rule checks: assessed by hand.
    Manual,
    /// An automated control that no rule of the run checks.
    NotCovered,
}

impl ControlStatus {
    /// Every status, in the order reports count them.
    pub const ALL: [ControlStatus; 8] = [
        ControlStatus::Pass,
        ControlStatus::Fail,
        ControlStatus::Error,
        ControlStatus::Unknown,
        ControlStatus::Waived,
        ControlStatus::Skip,
        ControlStatus::Manual,
        ControlStatus::NotCovered,
    ];

    /// As the JSON report writes it: `not_covered`.
    pub fn as_str(self) -> &'static str {
        match self {
            ControlStatus::Pass => "pass",
            ControlStatus::Fail => "fail",
            ControlStatus::Error => "error",
            ControlStatus::Unknown => "unknown",
            ControlStatus::Waived => "waived",
            ControlStatus::Skip => "skip",
            ControlStatus::Manual => "manual",
            ControlStatus::NotCovered => "not_covered",
        }
    }

    /// In words, for people: `not covered`.
    pub fn label(self) -> &'static str {
        match self {
            ControlStatus::NotCovered => "not covered",
            other => other.as_str(),
        }
    }

    /// The rule status it shares a colour with, if any.
    pub fn as_status(self) -> Option<Status> {
        match self {
            ControlStatus::Pass => Some(Status::Pass),
            ControlStatus::Fail => Some(Status::Fail),
            ControlStatus::Error => Some(Status::Error),
            ControlStatus::Unknown => Some(Status::Unknown),
            ControlStatus::Waived => Some(Status::Waived),
            ControlStatus::Skip => Some(Status::Skip),
            ControlStatus::Manual | ControlStatus::NotCovered => None,
        }
    }

    /// The verdict of a control from the statuses of the rules that reference it:
    /// fail > error > unknown > waived > pass > skip; without rules, `manual` or
    /// `not_covered` by the control's assessment.
    pub fn aggregate(assessment: Assessment, rules: impl IntoIterator<Item = Status>) -> Self {
        let mut any = [false; 6];
        let mut none = true;
        for status in rules {
            none = false;
            any[status as usize] = true;
        }
        let has = |s: Status| any[s as usize];
        if none {
            match assessment {
                Assessment::Manual => ControlStatus::Manual,
                Assessment::Automated => ControlStatus::NotCovered,
            }
        } else if has(Status::Fail) {
            ControlStatus::Fail
        } else if has(Status::Error) {
            ControlStatus::Error
        } else if has(Status::Unknown) {
            ControlStatus::Unknown
        } else if has(Status::Waived) {
            ControlStatus::Waived
        } else if has(Status::Pass) {
            ControlStatus::Pass
        } else {
            ControlStatus::Skip
        }
    }
}

/// A benchmark's controls with their verdicts, in benchmark order, by section.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ControlsView {
    /// The controls file as given (or found).
    pub file: String,
    /// `CIS Amazon Web Services Foundations Benchmark`.
    pub benchmark: String,
    /// `7.0.0`.
    pub version: String,
    /// What a rule's reference starts with to name a control of this benchmark:
    /// `CIS-AWS-7.0` (then `-`, then the control's id).
    pub reference_prefix: String,
    pub sections: Vec<ControlSection>,
}

impl ControlsView {
    /// Every control, in benchmark order.
    pub fn controls(&self) -> impl Iterator<Item = (&ControlSection, &ControlVerdict)> {
        self.sections
            .iter()
            .flat_map(|s| s.controls.iter().map(move |c| (s, c)))
    }

    /// How many controls ended in each status, in [`ControlStatus::ALL`] order.
    pub fn counts(&self) -> [(ControlStatus, usize); 8] {
        let mut out = ControlStatus::ALL.map(|s| (s, 0));
        for (_, control) in self.controls() {
            for (status, n) in &mut out {
                if *status == control.status {
                    *n += 1;
                }
            }
        }
        out
    }
}

/// A section of the benchmark: `2 Identity and Access Management`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlSection {
    pub id: String,
    pub title: String,
    pub controls: Vec<ControlVerdict>,
}

/// One control and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlVerdict {
    /// `2.4`.
    pub id: String,
    /// The reference rules give it: `CIS-AWS-7.0-2.4`.
    pub reference: String,
    pub title: String,
    pub assessment: Assessment,
    pub status: ControlStatus,
    /// The rules that reference it, in run order.
    pub rules: Vec<ControlRule>,
}

/// A rule that references a control, with its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlRule {
    /// The name of the spec the rule belongs to.
    pub spec: String,
    pub group: String,
    pub name: String,
    pub status: Status,
    /// Resources in scope.
    pub resources: usize,
    /// Resources that fail.
    pub failing: usize,
    pub location: Location,
}

/// What the waiver file did: how many failures it waived, and which waivers did nothing.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WaiverSummary {
    /// The waiver file as given on the command line.
    pub file: String,
    /// Failing resources whose status became `waived`.
    pub applied: usize,
    /// Waivers past their expiry (they no longer apply), in file order.
    pub expired: Vec<AppliedWaiver>,
    /// Waivers in force that matched no failing resource, in file order.
    pub unused: Vec<AppliedWaiver>,
}

/// A waiver as recorded in the outcome: what it matches, why, whose, and until when.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AppliedWaiver {
    /// The `rule` glob, matched against `"<group>/<rule>"`.
    pub rule: String,
    /// The resource id glob, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// Tags a resource must carry, when given (sorted by key).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub tags: std::collections::BTreeMap<String, String>,
    pub reason: String,
    pub owner: String,
    /// The expiry as written in the file (`2027-03-31` or an RFC 3339 time).
    pub expires: String,
    /// The line of the waiver in its file (1-based).
    pub line: usize,
}

/// Whether a failure was already failing in the baseline report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Drift {
    /// Not failing in the baseline.
    New,
    /// Failing (or waived) in the baseline too.
    Persisting,
}

impl Drift {
    pub fn as_str(self) -> &'static str {
        match self {
            Drift::New => "new",
            Drift::Persisting => "persisting",
        }
    }
}

/// Drift against `--baseline`: counts, and the failures fixed since.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BaselineSummary {
    /// The baseline report as given on the command line.
    pub file: String,
    /// Failing (or waived) resources not failing in the baseline.
    pub new: usize,
    /// Failing (or waived) resources that were failing in the baseline too.
    pub persisting: usize,
    /// Failures of the baseline that now pass or are gone, sorted.
    pub fixed: Vec<FailureKey>,
}

/// What identifies a failure across runs: group, rule, resource type and id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FailureKey {
    pub group: String,
    pub rule: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpecOutcome {
    /// The `Spec "..."` description.
    pub name: String,
    /// The spec file as given on the command line.
    pub file: String,
    pub groups: Vec<GroupOutcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupOutcome {
    pub name: String,
    pub rules: Vec<RuleOutcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleOutcome {
    pub name: String,
    /// The resource type: `aws:ec2:instance`.
    pub on: String,
    pub status: Status,
    /// Set when `status` is `error`: why.
    pub error: Option<String>,
    pub severity: Option<String>,
    pub references: Vec<String>,
    pub remediation: Option<String>,
    /// Where the rule is written.
    pub location: Location,
    /// The rule's source text, for SARIF and docs.
    pub text: String,
    /// Resources in scope, sorted by id (then type).
    pub resources: Vec<ResourceOutcome>,
    /// Seconds spent evaluating this rule (JUnit `time`; never in the JSON report).
    #[serde(skip)]
    pub elapsed_secs: f64,
}

#[cfg(test)]
impl RuleOutcome {
    /// A rule of `s.cloudspec` (line 2, column 3) with these resources, taking 0.75 s; an
    /// `error` rule says "collection failed".
    pub(crate) fn for_test(
        name: &str,
        on: &str,
        status: Status,
        resources: Vec<ResourceOutcome>,
    ) -> Self {
        RuleOutcome {
            name: name.into(),
            on: on.into(),
            status,
            error: (status == Status::Error).then(|| "collection failed".into()),
            severity: None,
            references: Vec::new(),
            remediation: None,
            location: Location {
                file: "s.cloudspec".into(),
                line: 2,
                column: 3,
            },
            text: String::new(),
            resources,
            elapsed_secs: 0.75,
        }
    }
}

/// The verdict on one resource in scope of a rule.
///
/// Kept small: an evaluation makes one per (rule, resource), and most are passing live
/// resources with nothing to say beyond their status. Everything else lives in
/// [`Details`], behind one box that stays `None` when it would be empty.
#[derive(Debug, Clone)]
pub struct ResourceOutcome {
    pub type_name: Text,
    pub id: Text,
    pub status: Status,
    pub region: Option<Text>,
    /// Set with `--baseline` on a failing or waived resource: new or persisting.
    pub drift: Option<Drift>,
    /// Everything most outcomes (passing live resources) do not have; `None` when all empty.
    /// Read it through the accessors ([`ResourceOutcome::failures`]...), write it through
    /// [`ResourceOutcome::details_mut`].
    pub details: Option<Box<Details>>,
}

/// The rarely-set parts of a [`ResourceOutcome`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Details {
    /// Set when `status` is `error`: why this resource could not be evaluated.
    pub error: Option<String>,
    pub failures: Vec<Failure>,
    pub unknowns: Vec<UnknownPath>,
    pub notes: Vec<String>,
    /// Where the resource was read from; none for live resources.
    pub source: Option<ResourceSource>,
    /// Set when `status` is `waived`: the waiver that accepts the failures.
    /// Boxed: rare, and as large as the rest of the details.
    pub waiver: Option<Box<AppliedWaiver>>,
}

/// The details of an outcome without any: what the accessors read when the box is absent.
static NO_DETAILS: Details = Details {
    error: None,
    failures: Vec::new(),
    unknowns: Vec::new(),
    notes: Vec::new(),
    source: None,
    waiver: None,
};

impl Details {
    /// Whether there is nothing here (no error, failure, unknown, note, source or waiver).
    pub fn is_empty(&self) -> bool {
        self.error.is_none()
            && self.failures.is_empty()
            && self.unknowns.is_empty()
            && self.notes.is_empty()
            && self.source.is_none()
            && self.waiver.is_none()
    }
}

impl ResourceOutcome {
    /// An outcome with no details and no drift.
    pub fn new(
        type_name: impl Into<Text>,
        id: impl Into<Text>,
        status: Status,
        region: Option<Text>,
    ) -> Self {
        ResourceOutcome {
            type_name: type_name.into(),
            id: id.into(),
            status,
            region,
            drift: None,
            details: None,
        }
    }

    /// Whether the resource is a failure for drift purposes: failing, or failing but waived.
    pub fn is_failure(&self) -> bool {
        matches!(self.status, Status::Fail | Status::Waived)
    }

    /// The details, empty ones when the outcome has none.
    fn details(&self) -> &Details {
        self.details.as_deref().unwrap_or(&NO_DETAILS)
    }

    /// The details to write, boxed on first use.
    pub fn details_mut(&mut self) -> &mut Details {
        self.details.get_or_insert_with(Box::default)
    }

    /// Set when `status` is `error`: why this resource could not be evaluated.
    pub fn error(&self) -> Option<&str> {
        self.details().error.as_deref()
    }

    /// The failing paths.
    pub fn failures(&self) -> &[Failure] {
        &self.details().failures
    }

    /// The paths whose values are not known yet.
    pub fn unknowns(&self) -> &[UnknownPath] {
        &self.details().unknowns
    }

    /// Notes for the reader (vacuous passes, waivers...).
    pub fn notes(&self) -> &[String] {
        &self.details().notes
    }

    /// Where the resource was read from; none for live resources.
    pub fn source(&self) -> Option<&ResourceSource> {
        self.details().source.as_ref()
    }

    /// Set when `status` is `waived`: the waiver that accepts the failures.
    pub fn waiver(&self) -> Option<&AppliedWaiver> {
        self.details().waiver.as_deref()
    }
}

/// Equal when every field is, an absent box counting as empty details.
impl PartialEq for ResourceOutcome {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name
            && self.id == other.id
            && self.status == other.status
            && self.region == other.region
            && self.drift == other.drift
            && self.details() == other.details()
    }
}

/// The flat shape the outcome always had: `type`, `id`, `status`, `error`, `failures`,
/// `unknowns`, `notes`, `source`, `region`, `waiver`, `drift`, in that order.
impl Serialize for ResourceOutcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let details = self.details();
        let mut s = serializer.serialize_struct("ResourceOutcome", 11)?;
        s.serialize_field("type", &self.type_name)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("status", &self.status)?;
        s.serialize_field("error", &details.error)?;
        s.serialize_field("failures", &details.failures)?;
        s.serialize_field("unknowns", &details.unknowns)?;
        s.serialize_field("notes", &details.notes)?;
        s.serialize_field("source", &details.source)?;
        s.serialize_field("region", &self.region)?;
        s.serialize_field("waiver", &details.waiver)?;
        s.serialize_field("drift", &self.drift)?;
        s.end()
    }
}

/// One failing path of a resource.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The concrete path: `devices[0] > volume.size`.
    pub path: String,
    /// The predicate as written: `gte 50` (shared by the failures of one predicate).
    pub predicate: Arc<str>,
    /// What the predicate asked for, in words: `>= 50` (shared likewise).
    pub expected: Arc<str>,
    /// The value found (JSON; `null` when missing).
    pub actual: serde_json::Value,
    /// A readable sentence: `size is 30, expected >= 50`.
    pub message: String,
}

/// A path whose value is not known yet, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownPath {
    pub path: String,
    pub reason: String,
}

/// Where a resource read from a file was declared (the inventory's `source`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceSource {
    /// As the inventory names it (JSON reports carry it so).
    pub file: String,
    pub line: Option<u64>,
    /// The directory `file` is relative to, as given on the command line.
    #[serde(skip)]
    pub root: Option<std::sync::Arc<str>>,
}

impl ResourceSource {
    /// The file as opened from where cloudspec runs (console, JUnit and SARIF name it).
    pub fn located(&self) -> String {
        cloudspec_model::located_source(self.root.as_deref(), &self.file)
    }
}

/// Rule counts per status, as reports show them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub rules: usize,
    /// Rules per status.
    pub counts: StatusCounts,
    /// Distinct resources in scope of any rule.
    pub resources_evaluated: usize,
}

impl RunOutcome {
    /// Every rule with its spec and group.
    pub fn rules(&self) -> impl Iterator<Item = (&SpecOutcome, &GroupOutcome, &RuleOutcome)> {
        self.specs.iter().flat_map(|s| {
            s.groups
                .iter()
                .flat_map(move |g| g.rules.iter().map(move |r| (s, g, r)))
        })
    }

    /// Counts rules per status; `resources_evaluated` counts distinct resources in scope of
    /// any rule.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        // The rules of each type. Resources of different types never coincide, so each type
        // counts on its own: one rule judges a resource once, and several rules' ids (each
        // rule's sorted already) are merged. Only if a rule held resources of another type
        // than its own would (type, id) pairs of all rules be merged.
        let mut by_type: rustc_hash::FxHashMap<&str, Vec<&RuleOutcome>> = Default::default();
        let mut mixed = false;
        for (_, _, rule) in self.rules() {
            s.rules += 1;
            s.counts.add(rule.status);
            mixed |= rule.resources.iter().any(|r| r.type_name != rule.on);
            by_type.entry(rule.on.as_str()).or_default().push(rule);
        }
        s.resources_evaluated = if mixed {
            distinct(by_type.values().flatten().map(|rule| {
                rule.resources
                    .iter()
                    .map(|r| (r.type_name.as_str(), r.id.as_str()))
                    .collect()
            }))
        } else {
            by_type
                .values()
                .map(|rules| match rules.as_slice() {
                    // A rule judges each resource once: the inventory holds one resource
                    // per (type, id) and the evaluator one outcome per resource.
                    [rule] => rule.resources.len(),
                    rules => distinct(
                        rules
                            .iter()
                            .map(|rule| rule.resources.iter().map(|r| r.id.as_str()).collect()),
                    ),
                })
                .sum()
        };
        s
    }
}

/// How many distinct values the lists hold together: each sorted (if it is not already) and
/// merged into the union of those before it.
fn distinct<T: Ord + Copy>(lists: impl Iterator<Item = Vec<T>>) -> usize {
    let mut union: Vec<T> = Vec::new();
    for mut list in lists {
        if !list.is_sorted() {
            list.sort_unstable();
        }
        list.dedup();
        let mut merged = Vec::with_capacity(union.len() + list.len());
        let (mut a, mut b) = (union.iter().peekable(), list.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => match x.cmp(y) {
                    std::cmp::Ordering::Less => a.next(),
                    std::cmp::Ordering::Greater => b.next(),
                    std::cmp::Ordering::Equal => {
                        b.next();
                        a.next()
                    }
                },
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            merged.extend(next.copied());
        }
        union = merged;
    }
    union.len()
}

/// How many verdicts ended in each status (of rules for [`Summary`], of a rule's resources
/// for the console report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub pass: usize,
    pub fail: usize,
    pub unknown: usize,
    pub skip: usize,
    pub error: usize,
    pub waived: usize,
}

impl StatusCounts {
    /// Counts one verdict.
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Pass => self.pass += 1,
            Status::Fail => self.fail += 1,
            Status::Unknown => self.unknown += 1,
            Status::Skip => self.skip += 1,
            Status::Error => self.error += 1,
            Status::Waived => self.waived += 1,
        }
    }
}

#[cfg(test)]
mod size {
    /// An outcome stays small: there is one per (rule, resource), ~1M on a large account.
    #[test]
    fn resource_outcome_is_small() {
        assert!(std::mem::size_of::<super::ResourceOutcome>() <= 88);
    }
}

#[cfg(test)]
mod serialize {
    use super::*;

    /// Without details the outcome serializes as it did with flat fields: empty ones shown.
    #[test]
    fn outcome_without_details_keeps_the_flat_shape() {
        let outcome = ResourceOutcome::new("aws:ec2:instance", "i-1", Status::Pass, None);
        assert_eq!(
            serde_json::to_string(&outcome).ok().as_deref(),
            Some(
                r#"{"type":"aws:ec2:instance","id":"i-1","status":"pass","error":null,"failures":[],"unknowns":[],"notes":[],"source":null,"region":null,"waiver":null,"drift":null}"#
            )
        );
    }

    /// With details, their fields sit where they always did, between `status` and `drift`.
    #[test]
    fn outcome_with_details_keeps_the_flat_shape() {
        let mut outcome = ResourceOutcome::new(
            "aws:ec2:instance",
            "i-1",
            Status::Waived,
            Some("us-east-1".into()),
        );
        outcome.drift = Some(Drift::New);
        let details = outcome.details_mut();
        details.error = Some("e".into());
        details.unknowns.push(UnknownPath {
            path: "p".into(),
            reason: "r".into(),
        });
        details.notes.push("n".into());
        details.source = Some(ResourceSource {
            file: "f.json".into(),
            line: Some(3),
            root: None,
        });
        details.waiver = Some(Box::new(AppliedWaiver {
            rule: "*".into(),
            reason: "r".into(),
            owner: "o".into(),
            expires: "2027-01-01".into(),
            line: 2,
            ..AppliedWaiver::default()
        }));
        assert_eq!(
            serde_json::to_string(&outcome).ok().as_deref(),
            Some(concat!(
                r#"{"type":"aws:ec2:instance","id":"i-1","status":"waived","error":"e","#,
                r#""failures":[],"unknowns":[{"path":"p","reason":"r"}],"notes":["n"],"#,
                r#""source":{"file":"f.json","line":3},"region":"us-east-1","#,
                r#""waiver":{"rule":"*","reason":"r","owner":"o","expires":"2027-01-01","line":2},"#,
                r#""drift":"new"}"#
            ))
        );
    }

    /// An absent box and an empty one are the same outcome.
    #[test]
    fn empty_details_equal_none() {
        let plain = ResourceOutcome::new("t", "i", Status::Pass, None);
        let mut boxed = plain.clone();
        boxed.details_mut();
        assert_eq!(plain, boxed);
        boxed.details_mut().notes.push("n".into());
        assert_ne!(plain, boxed);
        assert_eq!(boxed.notes(), ["n".to_string()]);
        assert!(plain.notes().is_empty() && plain.error().is_none() && plain.waiver().is_none());
    }
}

#[cfg(test)]
mod summary {
    use super::*;

    fn rule(on: &str, status: Status, resources: &[(&str, &str)]) -> RuleOutcome {
        let resources = resources
            .iter()
            .map(|(t, id)| ResourceOutcome::new(*t, *id, Status::Pass, None))
            .collect();
        RuleOutcome::for_test(&format!("r-{on}"), on, status, resources)
    }

    fn run(rules: Vec<RuleOutcome>) -> Summary {
        RunOutcome {
            specs: vec![SpecOutcome {
                name: "s".into(),
                file: "s.cloudspec".into(),
                groups: vec![GroupOutcome {
                    name: "g".into(),
                    rules,
                }],
            }],
            collected_at: None,
            now: None,
            warnings: Vec::new(),
            audit: Audit::default(),
        }
        .summary()
    }

    /// A resource in scope of several rules counts once; equal ids of two types count twice.
    #[test]
    fn distinct_resources_are_counted_once() {
        let s = run(vec![
            rule("a", Status::Pass, &[("a", "1"), ("a", "2")]),
            rule("a", Status::Fail, &[("a", "3"), ("a", "2")]),
            rule("b", Status::Pass, &[("b", "1")]),
            rule("c", Status::Skip, &[]),
        ]);
        assert_eq!((s.rules, s.resources_evaluated), (4, 4));
        assert_eq!((s.counts.pass, s.counts.fail, s.counts.skip), (2, 1, 1));
    }

    /// A rule holding resources of another type than its own is counted by type and id too.
    #[test]
    fn resources_of_another_type_are_counted_by_type_and_id() {
        let s = run(vec![
            rule("a", Status::Pass, &[("a", "1"), ("b", "1")]),
            rule("b", Status::Pass, &[("b", "1"), ("b", "2")]),
        ]);
        assert_eq!(s.resources_evaluated, 3);
    }
}
