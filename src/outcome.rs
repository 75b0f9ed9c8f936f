//! What an evaluation produced: plain data that reports read. Nothing here evaluates.

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
    pub type_name: String,
    pub id: String,
    pub status: Status,
    /// Set when `status` is `error`: why this resource could not be evaluated.
    pub error: Option<String>,
    pub failures: Vec<Failure>,
    pub unknowns: Vec<UnknownPath>,
    pub notes: Vec<String>,
    pub source: Option<ResourceSource>,
    pub region: Option<String>,
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

/// Counts per status, as reports show them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub rules: usize,
    pub pass: usize,
    pub fail: usize,
    pub unknown: usize,
    pub skip: usize,
    pub error: usize,
    pub waived: usize,
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
            match rule.status {
                Status::Pass => s.pass += 1,
                Status::Fail => s.fail += 1,
                Status::Unknown => s.unknown += 1,
                Status::Skip => s.skip += 1,
                Status::Error => s.error += 1,
                Status::Waived => s.waived += 1,
            }
            for r in &rule.resources {
                seen.insert((r.type_name.as_str(), r.id.as_str()));
            }
        }
        s.resources_evaluated = seen.len();
        s
    }
}
