//! What an evaluation produced: plain data that reports read. Nothing here evaluates.

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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResourceOutcome {
    #[serde(rename = "type")]
    pub type_name: Text,
    pub id: Text,
    pub status: Status,
    /// Set when `status` is `error`: why this resource could not be evaluated.
    pub error: Option<String>,
    pub failures: Vec<Failure>,
    pub unknowns: Vec<UnknownPath>,
    pub notes: Vec<String>,
    /// Boxed: most resources (all live ones) have none, and outcomes are many.
    pub source: Option<Box<ResourceSource>>,
    pub region: Option<Text>,
    /// Set when `status` is `waived`: the waiver that accepts the failures.
    /// Boxed: rare, and large next to the rest of an outcome.
    pub waiver: Option<Box<AppliedWaiver>>,
    /// Set with `--baseline` on a failing or waived resource: new or persisting.
    pub drift: Option<Drift>,
}

impl ResourceOutcome {
    /// Whether the resource is a failure for drift purposes: failing, or failing but waived.
    pub fn is_failure(&self) -> bool {
        matches!(self.status, Status::Fail | Status::Waived)
    }
}

/// One failing path of a resource.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The concrete path: `devices[0] > volume.size`.
    pub path: String,
    /// The predicate as written: `gte 50`.
    pub predicate: String,
    /// What the predicate asked for, in words: `>= 50`.
    pub expected: String,
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceSource {
    pub file: String,
    pub line: Option<u64>,
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
        let mut seen = std::collections::HashSet::new();
        for (_, _, rule) in self.rules() {
            s.rules += 1;
            s.counts.add(rule.status);
            for r in &rule.resources {
                seen.insert((r.type_name.as_str(), r.id.as_str()));
            }
        }
        s.resources_evaluated = seen.len();
        s
    }
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
