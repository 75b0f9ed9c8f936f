//! Baselines and drift: which failures are new since a previous JSON report, which
//! persist, and which were fixed. A failure is identified by its [`FailureKey`] (group,
//! rule, resource type and id); a `waived` resource counts as failing, so a waiver that
//! expires does not make an old failure look new.
//!
//! No I/O: the CLI reads the reports and hands their text to [`Snapshot::from_report`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::outcome::{BaselineSummary, Drift, FailureKey, RunOutcome, Status};

/// The version of the JSON report shape this module reads.
const REPORT_VERSION: u64 = 1;

/// A report that could not be read as a cloudspec JSON report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BaselineError(pub String);

/// The verdicts of one run, by rule and resource: what drift compares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    rules: BTreeMap<RuleKey, RuleSnapshot>,
}

/// A rule, by group and name.
type RuleKey = (String, String);

/// A rule's status and its resources' statuses, by type and id.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RuleSnapshot {
    status: Status,
    resources: BTreeMap<(String, String), Status>,
}

/// A resource in a drift listing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ResourceKey {
    #[serde(rename = "type")]
    pub type_name: String,
    pub id: String,
}

/// New, fixed and persisting failures of one rule (each list sorted by type, then id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleDrift {
    pub group: String,
    pub rule: String,
    pub new: Vec<ResourceKey>,
    pub fixed: Vec<ResourceKey>,
    pub persisting: Vec<ResourceKey>,
}

/// The drift between two runs: every rule with a new, fixed or persisting failure, sorted
/// by group and rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DriftReport {
    pub rules: Vec<RuleDrift>,
}

impl DriftReport {
    /// Total new, fixed and persisting failures.
    pub fn totals(&self) -> (usize, usize, usize) {
        self.rules.iter().fold((0, 0, 0), |(n, f, p), r| {
            (n + r.new.len(), f + r.fixed.len(), p + r.persisting.len())
        })
    }
}

impl Snapshot {
    /// The verdicts of a finished run.
    pub fn from_outcome(outcome: &RunOutcome) -> Snapshot {
        let mut snapshot = Snapshot::default();
        for (_, group, rule) in outcome.rules() {
            let entry = snapshot.rule(&group.name, &rule.name, rule.status);
            for r in &rule.resources {
                entry.put((r.type_name.to_string(), r.id.to_string()), r.status);
            }
        }
        snapshot
    }

    /// Reads the text of a JSON report (`cloudspec run --format json`). Errors give the
    /// line, column and JSON path of what is wrong; a field written twice, or a resource
    /// listed twice in one rule, is an error (which one would count?).
    pub fn from_report(text: &str) -> Result<Snapshot, BaselineError> {
        let header: HeaderDoc = serde_json::from_str(text)
            .map_err(|e| BaselineError(format!("is not a cloudspec JSON report: {e}")))?;
        match header.cloudspec_report {
            None => {
                return Err(BaselineError(
                    "is not a cloudspec JSON report (it has no \"cloudspec_report\" key; write one with `cloudspec run --format json`)".into(),
                ))
            }
            Some(v) if v.as_u64() == Some(REPORT_VERSION) => {}
            Some(v) => {
                return Err(BaselineError(format!(
                    "is a cloudspec report of version {}, but this cloudspec reads version {REPORT_VERSION}",
                    crate::text::escape_control(&excerpt_json(&v))
                )))
            }
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let doc: ReportDoc = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            BaselineError(format!(
                "{}:{}: is not a valid cloudspec JSON report: at $.{path}: {}",
                inner.line(),
                inner.column(),
                crate::text::escape_control(&strip_position(&inner.to_string()))
            ))
        })?;
        let mut snapshot = Snapshot::default();
        for (g, group) in doc.groups.into_iter().enumerate() {
            for (r, rule) in group.rules.into_iter().enumerate() {
                let at = |what: String| format!("$.groups[{g}].rules[{r}]{what}");
                let status = parse_status(&rule.status)
                    .map_err(|e| BaselineError(format!("{} (at {})", e.0, at(".status".into()))))?;
                let entry = snapshot.rule(&group.name, &rule.name, status);
                let mut listed = BTreeSet::new();
                for (k, res) in rule.resources.into_iter().enumerate() {
                    let status = parse_status(&res.status).map_err(|e| {
                        BaselineError(format!(
                            "{} (at {})",
                            e.0,
                            at(format!(".resources[{k}].status"))
                        ))
                    })?;
                    let key = (res.type_name, res.id);
                    if !listed.insert(key.clone()) {
                        return Err(BaselineError(format!(
                            "is not a valid cloudspec JSON report: the resource {} {} is listed twice in one rule (at {})",
                            crate::text::escape_control(&key.0),
                            crate::text::escape_control(&key.1),
                            at(format!(".resources[{k}]"))
                        )));
                    }
                    entry.put(key, status);
                }
            }
        }
        Ok(snapshot)
    }

    /// The entry of a rule, created with `status` when new. With several specs, rules of the
    /// same group and name share an entry; the worse status stands.
    fn rule(&mut self, group: &str, name: &str, status: Status) -> &mut RuleSnapshot {
        let entry = self
            .rules
            .entry((group.to_string(), name.to_string()))
            .or_insert_with(|| RuleSnapshot {
                status,
                resources: BTreeMap::new(),
            });
        if status == Status::Error {
            entry.status = Status::Error;
        }
        entry
    }

    /// Every failing (or waived) resource.
    fn failures(&self) -> BTreeSet<FailureKey> {
        let mut out = BTreeSet::new();
        for ((group, rule), snap) in &self.rules {
            for ((type_name, id), status) in &snap.resources {
                if is_failure(*status) {
                    out.insert(FailureKey {
                        group: group.clone(),
                        rule: rule.clone(),
                        type_name: type_name.clone(),
                        id: id.clone(),
                    });
                }
            }
        }
        out
    }

    /// Whether a failure of `old` is fixed here: its resource now passes, or is gone while
    /// its rule could be evaluated (a rule in `error` may have lost resources it could not
    /// load; those are not fixed). A rule no longer in the run has nothing left failing.
    fn fixes(&self, key: &FailureKey) -> bool {
        let Some(rule) = self.rules.get(&(key.group.clone(), key.rule.clone())) else {
            return true;
        };
        match rule.resources.get(&(key.type_name.clone(), key.id.clone())) {
            Some(status) => *status == Status::Pass,
            None => rule.status != Status::Error,
        }
    }
}

impl RuleSnapshot {
    /// Records a resource's status. With several specs, rules of the same group and name
    /// share an entry, and a resource in more than one keeps the worse status (a failure
    /// over anything, anything over a pass): the verdict does not depend on the order of
    /// the specs, nor on whether the report listed its passing resources
    /// (`--report-passing none`).
    fn put(&mut self, key: (String, String), status: Status) {
        let rank = |s: Status| match s {
            Status::Pass => 0,
            Status::Skip => 1,
            Status::Unknown => 2,
            Status::Error => 3,
            Status::Waived => 4,
            Status::Fail => 5,
        };
        let slot = self.resources.entry(key).or_insert(status);
        if rank(status) > rank(*slot) {
            *slot = status;
        }
    }
}

fn is_failure(status: Status) -> bool {
    matches!(status, Status::Fail | Status::Waived)
}

/// A status word of the report.
fn parse_status(word: &str) -> Result<Status, BaselineError> {
    Ok(match word {
        "pass" => Status::Pass,
        "fail" => Status::Fail,
        "unknown" => Status::Unknown,
        "skip" => Status::Skip,
        "error" => Status::Error,
        "waived" => Status::Waived,
        other => {
            return Err(BaselineError(format!(
                "is not a valid cloudspec JSON report: unknown status \"{}\"",
                crate::text::escape_control(&excerpt_text(other))
            )))
        }
    })
}

/// serde_json's message without the ` at line L column C` it appends (given before it).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// At most 40 characters of a text from the report, for messages.
fn excerpt_text(text: &str) -> String {
    cloudspec_model::input::truncate_chars(text, 40).into_owned()
}

/// A JSON value as a short text, for messages.
fn excerpt_json(value: &serde_json::Value) -> String {
    excerpt_text(&value.to_string())
}

/// The version key of a report, read before the rest.
#[derive(Deserialize)]
struct HeaderDoc {
    cloudspec_report: Option<serde_json::Value>,
}

/// The parts of the JSON report that drift reads.
#[derive(Deserialize)]
struct ReportDoc {
    groups: Vec<GroupDoc>,
}

#[derive(Deserialize)]
struct GroupDoc {
    name: String,
    rules: Vec<RuleDoc>,
}

#[derive(Deserialize)]
struct RuleDoc {
    name: String,
    status: String,
    resources: Vec<ResourceDoc>,
}

#[derive(Deserialize)]
struct ResourceDoc {
    #[serde(rename = "type")]
    type_name: String,
    id: String,
    status: String,
}

/// The drift from `old` to `new`.
pub fn compare(old: &Snapshot, new: &Snapshot) -> DriftReport {
    let before = old.failures();
    let after = new.failures();
    let mut rules: BTreeMap<RuleKey, RuleDrift> = BTreeMap::new();
    for key in &after {
        let list = if before.contains(key) {
            Bucket::Persisting
        } else {
            Bucket::New
        };
        drift_entry(&mut rules, key, list);
    }
    for key in before.iter().filter(|k| new.fixes(k)) {
        drift_entry(&mut rules, key, Bucket::Fixed);
    }
    DriftReport {
        rules: rules.into_values().collect(),
    }
}

/// Which list of a [`RuleDrift`] a failure goes into.
#[derive(Clone, Copy)]
enum Bucket {
    New,
    Fixed,
    Persisting,
}

/// Adds `key`'s resource to the `bucket` list of its rule's drift.
fn drift_entry(rules: &mut BTreeMap<RuleKey, RuleDrift>, key: &FailureKey, bucket: Bucket) {
    let drift = rules
        .entry((key.group.clone(), key.rule.clone()))
        .or_insert_with(|| RuleDrift {
            group: key.group.clone(),
            rule: key.rule.clone(),
            new: Vec::new(),
            fixed: Vec::new(),
            persisting: Vec::new(),
        });
    let list = match bucket {
        Bucket::New => &mut drift.new,
        Bucket::Fixed => &mut drift.fixed,
        Bucket::Persisting => &mut drift.persisting,
    };
    list.push(ResourceKey {
        type_name: key.type_name.clone(),
        id: key.id.clone(),
    });
}

/// Marks each failing (or waived) resource of `outcome` new or persisting against
/// `baseline`, and lists the failures of the baseline fixed since (sorted). `file` is the
/// baseline as given on the command line.
pub fn apply(baseline: &Snapshot, outcome: &mut RunOutcome, file: &str) -> BaselineSummary {
    let before = baseline.failures();
    let mut summary = BaselineSummary {
        file: file.to_string(),
        ..BaselineSummary::default()
    };
    for spec in &mut outcome.specs {
        for group in &mut spec.groups {
            for rule in &mut group.rules {
                for resource in rule.resources.iter_mut().filter(|r| r.is_failure()) {
                    let key = FailureKey {
                        group: group.name.clone(),
                        rule: rule.name.clone(),
                        type_name: resource.type_name.to_string(),
                        id: resource.id.to_string(),
                    };
                    let drift = if before.contains(&key) {
                        summary.persisting += 1;
                        Drift::Persisting
                    } else {
                        summary.new += 1;
                        Drift::New
                    };
                    resource.drift = Some(drift);
                }
            }
        }
    }
    let now = Snapshot::from_outcome(outcome);
    summary.fixed = before.into_iter().filter(|k| now.fixes(k)).collect();
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_a_report() {
        assert_eq!(
            Snapshot::from_report("{\"resources\": []}").unwrap_err().0,
            "is not a cloudspec JSON report (it has no \"cloudspec_report\" key; write one with `cloudspec run --format json`)"
        );
        assert_eq!(
            Snapshot::from_report("{\"cloudspec_report\": 2}")
                .unwrap_err()
                .0,
            "is a cloudspec report of version 2, but this cloudspec reads version 1"
        );
        assert!(Snapshot::from_report("<xml/>")
            .unwrap_err()
            .0
            .starts_with("is not a cloudspec JSON report: expected value at line 1 column 1"));
    }

    /// Two specs with the same group and rule judge one resource: the failure stands
    /// whichever spec comes last, and whether or not the passing verdict was listed.
    #[test]
    fn a_resource_in_rules_that_share_an_entry_keeps_its_worse_status() {
        let report = |statuses: &[&str]| {
            let rules: Vec<String> = (statuses.iter())
                .map(|s| {
                    let resources = match *s {
                        "" => String::new(),
                        s => format!(r#"{{"type": "t", "id": "r-1", "status": "{s}"}}"#),
                    };
                    format!(r#"{{"name": "R", "status": "fail", "resources": [{resources}]}}"#)
                })
                .collect();
            let groups: Vec<String> = (rules.iter())
                .map(|r| format!(r#"{{"name": "G", "rules": [{r}]}}"#))
                .collect();
            let text = format!(
                r#"{{"cloudspec_report": 1, "groups": [{}]}}"#,
                groups.join(", ")
            );
            Snapshot::from_report(&text).unwrap()
        };
        let failing = report(&["fail", ""]);
        assert_eq!(report(&["fail", "pass"]), failing);
        assert_eq!(report(&["pass", "fail"]), failing);
        assert_eq!(report(&["", "fail"]), failing);
        assert_eq!(report(&["waived", "fail"]), failing);
        assert_ne!(report(&["pass", "waived"]), failing);
        assert_eq!(report(&["unknown", "pass"]), report(&["unknown", ""]));
    }
}
