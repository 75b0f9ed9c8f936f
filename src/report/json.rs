//! The JSON report (`--format json`): the machine-readable contract of
//! `shared/design/report.md`.
//!
//! The report is built from the borrowed view structs below, whose field order is the
//! key order of the output, and pretty-printed with a trailing newline. It holds no
//! wall-clock time or duration, so the same outcome always gives the same bytes.

use serde::Serialize;
use serde_json::value::RawValue;

use super::{pieces, sorted_resources, Passing};
use crate::outcome::{
    BaselineSummary, ControlSection, ControlStatus, ControlsView, GroupOutcome, Location,
    ResourceOutcome, ResourceSource, RuleOutcome, RunOutcome, SpecOutcome, Status, WaiverSummary,
};

/// The version of the report's shape; bumped only on an incompatible change.
const REPORT_VERSION: u32 = 1;

/// Renders `outcome` as the JSON report.
pub fn render(outcome: &RunOutcome, passing: Passing) -> String {
    let mut out = Vec::new();
    // Writing to a vector fails only as serialization can, which these types never do;
    // should it, still hand over a valid document saying so.
    if let Err(err) = write(outcome, passing, &mut out) {
        return error_document(&err.to_string());
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A still-valid report that says what went wrong.
fn error_document(error: &str) -> String {
    format!(
        "{{\"cloudspec_report\": {REPORT_VERSION}, \"error\": {}}}\n",
        serde_json::Value::String(error.to_string())
    )
}

/// The depth of a resource in the report: report, `groups`, group, `rules`, rule,
/// `resources`.
const RESOURCE_DEPTH: usize = 6;

/// Writes the JSON report to `out` as it is serialized: a big account's report (hundreds of
/// megabytes) is never held in memory whole. The rules' resources are rendered on every
/// core, piece by piece, and written in order (`pieces`). With [`Passing::Omitted`] the
/// rules list only the resources that did not pass.
pub fn write(
    outcome: &RunOutcome,
    passing: Passing,
    mut out: impl std::io::Write,
) -> std::io::Result<()> {
    // Each rule's resources as listed, and with `Passing::Omitted` how many it left out.
    let (rules, omitted): (Vec<Vec<&ResourceOutcome>>, Vec<Option<usize>>) = outcome
        .rules()
        .map(|(_, _, rule)| {
            let mut resources = sorted_resources(rule);
            let all = resources.len();
            if omits_passing(passing, rule) {
                resources.retain(|r| r.status != Status::Pass);
            }
            let omitted = (passing == Passing::Omitted).then(|| all - resources.len());
            (resources, omitted)
        })
        .unzip();
    let slots = pieces::Slots::new(rules.len()).map_err(std::io::Error::other)?;
    let report = Report::from_outcome(outcome, &omitted, &slots);
    let lens: Vec<usize> = rules.iter().map(Vec::len).collect();
    let item = |rule: usize, index: usize, buffer: &mut Vec<u8>| match rules
        .get(rule)
        .and_then(|r| r.get(index))
    {
        Some(resource) => write_resource(resource, buffer),
        None => Ok(()),
    };
    let written = pieces::write(
        &mut out,
        &lens,
        RESOURCE_DEPTH,
        crate::default_threads(),
        &item,
        |ser| report.serialize(ser),
    );
    if let Err(err) = written {
        // The writer's error, or (unreachable with these types: no map has a non-string
        // key) a serialization error, which the pieces hand over as an io error too. The
        // document is cut short either way; `render` replaces it with an error document.
        return Err(err.into());
    }
    out.write_all(b"\n")
}

/// Whether `rule`'s passing resources are left out of the report. A rule in `error` keeps
/// them: its missing resources are ones it could not load, so a reader (`cloudspec diff`)
/// tells a failure fixed under such a rule only by seeing it pass.
fn omits_passing(passing: Passing, rule: &RuleOutcome) -> bool {
    passing == Passing::Omitted && rule.status != Status::Error
}

/// The top-level object.
#[derive(Serialize)]
struct Report<'a> {
    cloudspec_report: u32,
    /// The spec's name; with several specs, their names joined by `", "`.
    spec: String,
    /// Every spec of the run, in command-line order.
    specs: Vec<SpecRef<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    collected_at: Option<&'a str>,
    /// When a spec uses a time predicate: the reference time it was judged against.
    #[serde(skip_serializing_if = "Option::is_none")]
    now: Option<&'a str>,
    summary: Summary,
    /// With `--waivers`: the file, how many failures it waived, its expired and unused
    /// waivers (in file order).
    #[serde(skip_serializing_if = "Option::is_none")]
    waivers: Option<&'a WaiverSummary>,
    /// With `--baseline`: the file, new and persisting counts, the failures fixed since
    /// (sorted by group, rule, type, id).
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineSummary>,
    groups: Vec<Group<'a>>,
    /// With `--controls`: every control of the benchmark by section, with its verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    controls: Option<Controls<'a>>,
}

/// How many controls there are, and how many ended in each status.
#[derive(Serialize, Default)]
struct ControlSummary {
    controls: usize,
    pass: usize,
    fail: usize,
    error: usize,
    unknown: usize,
    waived: usize,
    skip: usize,
    manual: usize,
    not_covered: usize,
}

/// The controls view: the benchmark, counts per control status, its sections in order.
#[derive(Serialize)]
struct Controls<'a> {
    file: &'a str,
    benchmark: &'a str,
    version: &'a str,
    reference_prefix: &'a str,
    summary: ControlSummary,
    sections: &'a [ControlSection],
}

/// A spec file of the run.
#[derive(Serialize)]
struct SpecRef<'a> {
    name: &'a str,
    file: &'a str,
}

/// Rule counts per status, in the contract's key order.
#[derive(Serialize)]
struct Summary {
    rules: usize,
    pass: usize,
    fail: usize,
    skip: usize,
    error: usize,
    unknown: usize,
    waived: usize,
    resources_evaluated: usize,
}

#[derive(Serialize)]
struct Group<'a> {
    name: &'a str,
    /// The name of the spec the group belongs to.
    spec: &'a str,
    /// The file of the spec the group belongs to.
    spec_file: &'a str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
struct Rule<'a> {
    name: &'a str,
    on: &'a str,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    references: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    remediation: Option<&'a str>,
    location: &'a Location,
    /// With `--report-passing none`: how many passing resources `resources` leaves out.
    #[serde(skip_serializing_if = "Option::is_none")]
    passing_omitted: Option<usize>,
    /// Where the rule's resources go (`pieces`); `null` only if the slots were miscounted.
    resources: Option<&'a RawValue>,
}

/// Where a resource was read from; `line` only when known.
#[derive(Serialize)]
struct Source<'a> {
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
}

impl<'a> Report<'a> {
    /// `omitted` holds, in report order, how many passing resources each rule leaves out.
    fn from_outcome(
        outcome: &'a RunOutcome,
        omitted: &[Option<usize>],
        slots: &'a pieces::Slots,
    ) -> Self {
        let mut rule_index = 0..;
        let names: Vec<&str> = outcome.specs.iter().map(|s| s.name.as_str()).collect();
        Report {
            cloudspec_report: REPORT_VERSION,
            spec: names.join(", "),
            specs: outcome
                .specs
                .iter()
                .map(|s| SpecRef {
                    name: &s.name,
                    file: &s.file,
                })
                .collect(),
            collected_at: outcome.collected_at.as_deref(),
            now: outcome.now.as_deref(),
            summary: Summary::from_outcome(outcome),
            waivers: outcome.audit.waivers.as_ref(),
            baseline: outcome.audit.baseline.as_ref(),
            groups: outcome
                .specs
                .iter()
                .flat_map(|spec| spec.groups.iter().map(move |g| (spec, g)))
                .map(|(spec, group)| Group::new(spec, group, omitted, slots, &mut rule_index))
                .collect(),
            controls: outcome.audit.controls.as_ref().map(Controls::new),
        }
    }
}

impl<'a> Controls<'a> {
    fn new(view: &'a ControlsView) -> Self {
        let mut summary = ControlSummary {
            controls: view.controls().count(),
            ..ControlSummary::default()
        };
        for (status, n) in view.counts() {
            *match status {
                ControlStatus::Pass => &mut summary.pass,
                ControlStatus::Fail => &mut summary.fail,
                ControlStatus::Error => &mut summary.error,
                ControlStatus::Unknown => &mut summary.unknown,
                ControlStatus::Waived => &mut summary.waived,
                ControlStatus::Skip => &mut summary.skip,
                ControlStatus::Manual => &mut summary.manual,
                ControlStatus::NotCovered => &mut summary.not_covered,
            } = n;
        }
        Controls {
            file: &view.file,
            benchmark: &view.benchmark,
            version: &view.version,
            reference_prefix: &view.reference_prefix,
            summary,
            sections: &view.sections,
        }
    }
}

impl Summary {
    fn from_outcome(outcome: &RunOutcome) -> Self {
        let s = outcome.summary();
        Summary {
            rules: s.rules,
            pass: s.counts.pass,
            fail: s.counts.fail,
            skip: s.counts.skip,
            error: s.counts.error,
            unknown: s.counts.unknown,
            waived: s.counts.waived,
            resources_evaluated: s.resources_evaluated,
        }
    }
}

impl<'a> Group<'a> {
    /// `next_rule` numbers the run's rules in report order: the slot of each one's resources
    /// and its entry in `omitted`.
    fn new(
        spec: &'a SpecOutcome,
        group: &'a GroupOutcome,
        omitted: &[Option<usize>],
        slots: &'a pieces::Slots,
        next_rule: &mut std::ops::RangeFrom<usize>,
    ) -> Self {
        Group {
            name: &group.name,
            spec: &spec.name,
            spec_file: &spec.file,
            rules: group
                .rules
                .iter()
                .map(|rule| {
                    let k = next_rule.next();
                    let omitted = k.and_then(|k| omitted.get(k).copied().flatten());
                    Rule::new(rule, omitted, k.and_then(|k| slots.slot(k)))
                })
                .collect(),
        }
    }
}

impl<'a> Rule<'a> {
    fn new(
        rule: &'a RuleOutcome,
        passing_omitted: Option<usize>,
        resources: Option<&'a RawValue>,
    ) -> Self {
        Rule {
            name: &rule.name,
            on: &rule.on,
            status: rule.status,
            // The contract: only a rule whose status is `error` carries the message.
            error: match rule.status {
                Status::Error => Some(rule.error.as_deref().unwrap_or("evaluation error")),
                _ => None,
            },
            severity: rule.severity.as_deref(),
            references: &rule.references,
            remediation: rule.remediation.as_deref(),
            location: &rule.location,
            passing_omitted,
            resources,
        }
    }
}

/// One resource of a rule, at [`RESOURCE_DEPTH`]: exactly what serde_json printed for the
/// view struct this replaced, whose fields and their order were:
/// `type`, `id`, `status`, `drift`?, `error`?, `region`?, `failures`, `unknowns`?, `notes`?,
/// `waiver`?, `source`? (`?`: only when set or not empty); and per failure `path`,
/// `predicate`, `actual`, `message`, `expected` (`tests/it/report.rs` pins every field).
fn write_resource(resource: &ResourceOutcome, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let mut object = pieces::Object::begin(out, RESOURCE_DEPTH);
    object.str("type", &resource.type_name)?;
    object.str("id", &resource.id)?;
    object.str("status", resource.status.as_str())?;
    if let Some(drift) = resource.drift {
        object.str("drift", drift.as_str())?;
    }
    // Why the resource could not be evaluated (status `error` only).
    if let Some(error) = resource.error() {
        object.str("error", error)?;
    }
    if let Some(region) = &resource.region {
        object.str("region", region)?;
    }
    object.list("failures", resource.failures(), |failure, out, depth| {
        let mut f = pieces::Object::begin(out, depth);
        f.str("path", &failure.path)?;
        f.str("predicate", &failure.predicate)?;
        f.value("actual", &failure.actual)?;
        f.str("message", &failure.message)?;
        f.str("expected", &failure.expected)?;
        f.end();
        Ok(())
    })?;
    if !resource.unknowns().is_empty() {
        object.value("unknowns", resource.unknowns())?;
    }
    if !resource.notes().is_empty() {
        object.value("notes", resource.notes())?;
    }
    // The waiver that accepts the failures (status `waived` only).
    if let Some(waiver) = resource.waiver() {
        object.value("waiver", waiver)?;
    }
    if let Some(source) = resource.source() {
        object.value("source", &Source::new(source))?;
    }
    object.end();
    Ok(())
}

impl<'a> Source<'a> {
    fn new(source: &'a ResourceSource) -> Self {
        Source {
            file: &source.file,
            line: source.line,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::outcome::{AppliedWaiver, Drift, Failure, UnknownPath};

    /// The serde view `write_resource` replaced, field for field: the reference of its bytes.
    #[derive(Serialize)]
    struct Reference<'a> {
        #[serde(rename = "type")]
        type_name: &'a str,
        id: &'a str,
        status: Status,
        #[serde(skip_serializing_if = "Option::is_none")]
        drift: Option<Drift>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        region: Option<&'a str>,
        failures: Vec<ReferenceFailure<'a>>,
        #[serde(skip_serializing_if = "<[UnknownPath]>::is_empty")]
        unknowns: &'a [UnknownPath],
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        notes: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        waiver: Option<&'a AppliedWaiver>,
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<Source<'a>>,
    }

    #[derive(Serialize)]
    struct ReferenceFailure<'a> {
        path: &'a str,
        predicate: &'a str,
        actual: &'a serde_json::Value,
        message: &'a str,
        expected: &'a str,
    }

    fn reference(r: &ResourceOutcome) -> String {
        let view = Reference {
            type_name: &r.type_name,
            id: &r.id,
            status: r.status,
            drift: r.drift,
            error: r.error(),
            region: r.region.as_deref(),
            failures: r
                .failures()
                .iter()
                .map(|f| ReferenceFailure {
                    path: &f.path,
                    predicate: &f.predicate,
                    actual: &f.actual,
                    message: &f.message,
                    expected: &f.expected,
                })
                .collect(),
            unknowns: r.unknowns(),
            notes: r.notes(),
            waiver: r.waiver(),
            source: r.source().map(Source::new),
        };
        let mut out = Vec::new();
        assert!(pieces::pretty_at(&view, RESOURCE_DEPTH, &mut out).is_ok());
        String::from_utf8(out).unwrap_or_default()
    }

    fn written(r: &ResourceOutcome) -> String {
        let mut out = Vec::new();
        assert!(write_resource(r, &mut out).is_ok());
        String::from_utf8(out).unwrap_or_default()
    }

    fn failure(actual: serde_json::Value) -> Failure {
        Failure {
            path: "devices[0] > volume.\"size\"\n".into(),
            predicate: Arc::from("gte 50"),
            expected: Arc::from(">= 50\u{1}"),
            actual,
            message: "size is 30, expected >= 50 \\ é".into(),
        }
    }

    /// Every field, set and unset, escapes included: the bytes the serde view gave.
    #[test]
    fn resources_are_written_as_the_serde_view_printed_them() {
        let plain = ResourceOutcome::new("aws:ec2:instance", "i-1", Status::Pass, None);
        let mut full = ResourceOutcome::new(
            "aws:ec2:\"volume\"",
            "vol-\t1",
            Status::Waived,
            Some("eu-west-1".into()),
        );
        full.drift = Some(Drift::Persisting);
        let details = full.details_mut();
        details.error = Some("could not \"read\"".into());
        details.failures = vec![
            failure(serde_json::json!({"a": [1, 2.5, null], "b": {}, "c": []})),
            failure(serde_json::Value::Null),
            failure(serde_json::json!("text")),
        ];
        details.unknowns = vec![UnknownPath {
            path: "p".into(),
            reason: "r".into(),
        }];
        details.notes = vec!["checked 0 elements".into(), "n2".into()];
        details.source = Some(ResourceSource {
            file: "main.tf".into(),
            line: Some(12),
            root: None,
        });
        details.waiver = Some(Box::new(AppliedWaiver {
            rule: "EBS/*".into(),
            resource: Some("vol-*".into()),
            tags: [("team".to_string(), "data".to_string())]
                .into_iter()
                .collect(),
            reason: "known".into(),
            owner: "o".into(),
            expires: "2027-01-01".into(),
            line: 4,
        }));
        let mut source_without_line = ResourceOutcome::new("t", "i", Status::Unknown, None);
        source_without_line.drift = Some(Drift::New);
        source_without_line.details_mut().source = Some(ResourceSource {
            file: "f.json".into(),
            line: None,
            root: None,
        });
        for r in [&plain, &full, &source_without_line] {
            assert_eq!(written(r), reference(r));
        }
    }
}
