//! The SARIF 2.1.0 report (`--format sarif`), for code-scanning dashboards.
//!
//! One run; `tool.driver.rules` holds one reporting descriptor per rule (id: a stable
//! slug of group and rule); one `result` per failing resource (and per waived one, as a
//! suppressed result, and per unknown one, as a `note`). A result is located first at the
//! resource when it was read from a file (the `.tf` line a pull request annotates), then
//! at the rule in its spec file. Rules in `error` and the run's warnings become tool
//! execution notifications. Output is deterministic: no time, structs in a fixed key
//! order.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;
use serde_json::value::RawValue;

use super::{pieces, sorted_resources};
use crate::outcome::{
    ControlsView, Drift, Location, ResourceOutcome, RuleOutcome, RunOutcome, Status,
};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SARIF_VERSION: &str = "2.1.0";
/// The key of the fingerprint in `partialFingerprints`.
const FINGERPRINT_KEY: &str = "cloudspecResource/v1";
/// The longest slug of a group or rule name in a rule id.
const MAX_SLUG: usize = 60;

/// The depth of a result in the log: log, `runs`, run, `results`.
const RESULT_DEPTH: usize = 4;

/// Writes `outcome` as a SARIF 2.1.0 log to `out` as it is serialized; the results are
/// rendered on every core, piece by piece, and written in order (`pieces`).
pub fn write(outcome: &RunOutcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let rules = indexed_rules(outcome);
    let results: Vec<(&IndexedRule<'_>, &ResourceOutcome)> = rules
        .iter()
        .flat_map(|entry| rule_results(entry).map(move |resource| (entry, resource)))
        .collect();
    let slots = pieces::Slots::new(1).map_err(std::io::Error::other)?;
    let log = Log {
        schema: SCHEMA,
        version: SARIF_VERSION,
        runs: [Run::new(outcome, &rules, slots.slot(0))],
    };
    let item = |_: usize, index: usize, buffer: &mut Vec<u8>| match results.get(index) {
        Some((entry, resource)) => {
            pieces::pretty_at(&result(entry, resource), RESULT_DEPTH, buffer)
        }
        None => Ok(()),
    };
    pieces::write(
        &mut *out,
        &[results.len()],
        RESULT_DEPTH,
        crate::default_threads(),
        &item,
        |ser| log.serialize(ser),
    )?;
    out.write_all(b"\n")
}

/// Renders `outcome` as a SARIF 2.1.0 log.
pub fn render(outcome: &RunOutcome) -> String {
    let mut out = Vec::new();
    match write(outcome, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        // Unreachable with these types; a report is never worth a panic.
        Err(err) => format!(
            "{{\"$schema\": \"{SCHEMA}\", \"version\": \"{SARIF_VERSION}\", \"runs\": [], \
             \"properties\": {{\"error\": {}}}}}\n",
            serde_json::Value::String(err.to_string())
        ),
    }
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    invocations: [Invocation; 1],
    /// Where the results go (`pieces`); `null` only if the slot was missing.
    results: Option<&'a RawValue>,
    /// With `--controls`: the benchmark as a taxonomy, one taxon per control.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    taxonomies: Vec<Taxonomy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<RunProperties>,
}

/// A `toolComponent` of `run.taxonomies`: the benchmark and its controls.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Taxonomy {
    name: String,
    version: String,
    short_description: Message,
    taxa: Vec<Taxon>,
    properties: TaxonomyProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TaxonomyProperties {
    reference_prefix: String,
    controls_file: String,
}

/// A control as a `reportingDescriptor` of the taxonomy, with its verdict.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Taxon {
    id: String,
    short_description: Message,
    properties: TaxonProperties,
}

#[derive(Serialize)]
struct TaxonProperties {
    reference: String,
    section: String,
    assessment: &'static str,
    status: &'static str,
}

/// A descriptor's link to a control of the taxonomy.
#[derive(Serialize)]
struct Relationship {
    target: RelationshipTarget,
    kinds: [&'static str; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelationshipTarget {
    id: String,
    index: usize,
    tool_component: ToolComponentReference,
}

#[derive(Serialize)]
struct ToolComponentReference {
    name: String,
    index: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunProperties {
    collected_at: String,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<Descriptor>,
}

/// A `reportingDescriptor`: one rule.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    id: String,
    name: String,
    short_description: Message,
    full_description: Message,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Message>,
    default_configuration: Configuration,
    /// With `--controls`: the controls of the benchmark the rule references.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    relationships: Vec<Relationship>,
    properties: DescriptorProperties,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct DescriptorProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<String>,
    /// GitHub code scanning ranks security results by this CVSS-like score.
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    references: Vec<String>,
    tags: Vec<String>,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<SarifLocation>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    /// With `--baseline`: `new` or `unchanged` (SARIF's words for new and persisting).
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    name: String,
    fully_qualified_name: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<SarifLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    associated_rule: Option<RuleReference>,
}

#[derive(Serialize)]
struct RuleReference {
    id: String,
    index: usize,
}

/// A rule with the group it belongs to and its SARIF id and index.
struct IndexedRule<'a> {
    group: &'a str,
    rule: &'a RuleOutcome,
    id: String,
    index: usize,
}

impl<'a> Run<'a> {
    fn new(outcome: &RunOutcome, rules: &[IndexedRule<'_>], results: Option<&'a RawValue>) -> Self {
        let controls = outcome.audit.controls.as_ref();
        Run {
            tool: Tool {
                driver: Driver {
                    name: "cloudspec",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: information_uri(),
                    rules: rules.iter().map(|r| descriptor(r, controls)).collect(),
                },
            },
            invocations: [invocation(outcome, rules)],
            results,
            taxonomies: controls.map(taxonomy).into_iter().collect(),
            properties: outcome.collected_at.as_ref().map(|at| RunProperties {
                collected_at: at.clone(),
            }),
        }
    }
}

/// The project's web address, when the package declares one.
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|uri| !uri.is_empty())
}

/// Every rule of the run in order, with a unique id.
fn indexed_rules(outcome: &RunOutcome) -> Vec<IndexedRule<'_>> {
    let mut taken = HashSet::new();
    outcome
        .rules()
        .enumerate()
        .map(|(index, (_, group, rule))| IndexedRule {
            group: &group.name,
            rule,
            id: unique_id(&mut taken, &group.name, &rule.name),
            index,
        })
        .collect()
}

/// `group-slug/rule-slug`, with `-2`, `-3`... appended when already taken.
fn unique_id(taken: &mut HashSet<String>, group: &str, rule: &str) -> String {
    let base = format!("{}/{}", slug(group, "group"), slug(rule, "rule"));
    let mut id = base.clone();
    let mut n = 2;
    while !taken.insert(id.clone()) {
        id = format!("{base}-{n}");
        n += 1;
    }
    id
}

/// Lower-case ASCII letters and digits, every other run of characters one `-`, at most
/// [`MAX_SLUG`] characters; `fallback` when nothing is left.
fn slug(text: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(MAX_SLUG);
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}

/// The benchmark of the controls view as a SARIF taxonomy: one taxon per control, in
/// benchmark order, with its section, assessment and verdict.
fn taxonomy(view: &ControlsView) -> Taxonomy {
    Taxonomy {
        name: view.benchmark.clone(),
        version: view.version.clone(),
        short_description: Message {
            text: format!("{} {}", view.benchmark, view.version),
        },
        taxa: view
            .controls()
            .map(|(section, control)| Taxon {
                id: control.id.clone(),
                short_description: Message {
                    text: control.title.clone(),
                },
                properties: TaxonProperties {
                    reference: control.reference.clone(),
                    section: format!("{} {}", section.id, section.title),
                    assessment: control.assessment.as_str(),
                    status: control.status.as_str(),
                },
            })
            .collect(),
        properties: TaxonomyProperties {
            reference_prefix: view.reference_prefix.clone(),
            controls_file: view.file.clone(),
        },
    }
}

/// The controls of `view` that `rule` references, in the rule's order: each as a tag
/// (its reference, `CIS-AWS-7.0-2.4`) and a relationship to its taxon.
fn rule_controls(rule: &RuleOutcome, view: &ControlsView) -> (Vec<String>, Vec<Relationship>) {
    let index: HashMap<&str, (usize, &str)> = view
        .controls()
        .enumerate()
        .map(|(i, (_, c))| (c.reference.as_str(), (i, c.id.as_str())))
        .collect();
    let mut tags = Vec::new();
    let mut relationships = Vec::new();
    for reference in &rule.references {
        let Some(&(i, id)) = index.get(reference.as_str()) else {
            continue;
        };
        if tags.contains(reference) {
            continue;
        }
        tags.push(reference.clone());
        relationships.push(Relationship {
            target: RelationshipTarget {
                id: id.to_string(),
                index: i,
                tool_component: ToolComponentReference {
                    name: view.benchmark.clone(),
                    index: 0,
                },
            },
            kinds: ["relevant"],
        });
    }
    (tags, relationships)
}

fn descriptor(entry: &IndexedRule<'_>, controls: Option<&ControlsView>) -> Descriptor {
    let rule = entry.rule;
    let mut tags = vec![entry.group.to_string()];
    if !tags.contains(&rule.on) {
        tags.push(rule.on.clone());
    }
    let (control_tags, relationships) = match controls {
        Some(view) => rule_controls(rule, view),
        None => (Vec::new(), Vec::new()),
    };
    tags.extend(control_tags);
    Descriptor {
        id: entry.id.clone(),
        name: rule.name.clone(),
        short_description: Message {
            text: rule.name.clone(),
        },
        full_description: Message {
            text: if rule.text.is_empty() {
                rule.name.clone()
            } else {
                rule.text.clone()
            },
        },
        help: rule
            .remediation
            .as_ref()
            .map(|text| Message { text: text.clone() }),
        default_configuration: Configuration {
            level: level(rule.severity.as_deref()),
        },
        relationships,
        properties: DescriptorProperties {
            severity: rule.severity.clone(),
            security_severity: security_severity(rule.severity.as_deref()),
            references: rule.references.clone(),
            tags,
        },
    }
}

/// SARIF level from the rule's severity: critical and high are errors, medium a
/// warning, low a note; none or an unrecognised one a warning.
fn level(severity: Option<&str>) -> &'static str {
    match severity.map(str::to_ascii_lowercase).as_deref() {
        Some("critical" | "high") => "error",
        Some("low" | "info" | "informational") => "note",
        _ => "warning",
    }
}

/// The `security-severity` score GitHub code scanning reads, from the rule's severity.
fn security_severity(severity: Option<&str>) -> Option<&'static str> {
    match severity.map(str::to_ascii_lowercase).as_deref() {
        Some("critical") => Some("9.5"),
        Some("high") => Some("8.0"),
        Some("medium") => Some("5.5"),
        Some("low") => Some("3.0"),
        _ => None,
    }
}

/// The resources of the rule that have a result: failing, waived or unknown ones.
fn rule_results<'a>(entry: &IndexedRule<'a>) -> impl Iterator<Item = &'a ResourceOutcome> {
    sorted_resources(entry.rule)
        .into_iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Waived | Status::Unknown))
}

/// A resource's result: located first where the resource was read from, when it came
/// from a file (the primary location is the one code-scanning viewers annotate: the line
/// of the `.tf` file to change), then at the rule in its spec file; the resource is the
/// primary location's logical location.
fn result(entry: &IndexedRule<'_>, resource: &ResourceOutcome) -> SarifResult {
    let mut locations: Vec<SarifLocation> = source_location(resource).into_iter().collect();
    locations.push(spec_location(&entry.rule.location));
    if let Some(primary) = locations.first_mut() {
        primary.logical_locations.push(LogicalLocation {
            name: resource.id.to_string(),
            fully_qualified_name: format!("{}/{}", resource.type_name, resource.id),
            kind: "resource",
        });
    }
    let mut fingerprints = BTreeMap::new();
    fingerprints.insert(FINGERPRINT_KEY, fingerprint(&entry.id, resource));
    let (level, text) = match resource.status {
        Status::Unknown => ("note", unknown_message(entry.rule, resource)),
        _ => (
            level(entry.rule.severity.as_deref()),
            result_message(entry.rule, resource),
        ),
    };
    SarifResult {
        rule_id: entry.id.clone(),
        rule_index: entry.index,
        level,
        message: Message { text },
        locations,
        partial_fingerprints: fingerprints,
        suppressions: suppressions(resource),
        baseline_state: resource.drift.map(|d| match d {
            Drift::New => "new",
            Drift::Persisting => "unchanged",
        }),
    }
}

/// `TYPE ID does not comply with "RULE": PATH: MESSAGE; PATH: MESSAGE`.
fn result_message(rule: &RuleOutcome, resource: &ResourceOutcome) -> String {
    let mut text = format!(
        "{} {} does not comply with \"{}\"",
        resource.type_name, resource.id, rule.name
    );
    let messages: Vec<String> = resource
        .failures()
        .iter()
        .map(|f| format!("{}: {}", f.path, f.message))
        .collect();
    if !messages.is_empty() {
        text.push_str(": ");
        text.push_str(&messages.join("; "));
    }
    text
}

/// `TYPE ID: whether it complies with "RULE" is unknown: PATH (REASON); PATH (REASON)`.
fn unknown_message(rule: &RuleOutcome, resource: &ResourceOutcome) -> String {
    let mut text = format!(
        "{} {}: whether it complies with \"{}\" is unknown",
        resource.type_name, resource.id, rule.name
    );
    let reasons: Vec<String> = resource
        .unknowns()
        .iter()
        .map(|u| format!("{} ({})", u.path, u.reason))
        .chain(resource.notes().iter().cloned())
        .collect();
    if !reasons.is_empty() {
        text.push_str(": ");
        text.push_str(&reasons.join("; "));
    }
    text
}

/// A waived resource's result is suppressed externally, with the waiver as justification.
fn suppressions(resource: &ResourceOutcome) -> Vec<Suppression> {
    if resource.status != Status::Waived {
        return Vec::new();
    }
    let justification = if resource.notes().is_empty() {
        "waived".to_string()
    } else {
        resource.notes().join("; ")
    };
    vec![Suppression {
        kind: "external",
        justification,
    }]
}

/// The rule's position in its spec file.
fn spec_location(location: &Location) -> SarifLocation {
    let region = (location.line >= 1).then(|| Region {
        start_line: location.line as u64,
        start_column: (location.column >= 1).then_some(location.column as u64),
    });
    SarifLocation {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: path_to_uri(&location.file),
            },
            region,
        },
        logical_locations: Vec::new(),
    }
}

/// Where the resource was read from, when it came from a file.
fn source_location(resource: &ResourceOutcome) -> Option<SarifLocation> {
    let source = resource.source()?;
    Some(SarifLocation {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: path_to_uri(&source.located()),
            },
            region: source.line.filter(|line| *line >= 1).map(|line| Region {
                start_line: line,
                start_column: None,
            }),
        },
        logical_locations: Vec::new(),
    })
}

/// A path as given on the command line as a URI reference: `/` separators, leading `./`
/// dropped (`./main.tf` is `main.tf`: viewers resolve it against the repository root),
/// bytes other than unreserved ones percent-encoded; an absolute path becomes a `file://`
/// URI.
fn path_to_uri(path: &str) -> String {
    let mut path = path.replace('\\', "/");
    while path.starts_with("./") && path.len() > 2 {
        path = path
            .trim_start_matches("./")
            .trim_start_matches('/')
            .to_string();
    }
    let encoded: String = path.bytes().map(encode_byte).collect();
    if path.starts_with('/') {
        format!("file://{encoded}")
    } else if path.as_bytes().get(1) == Some(&b':') {
        // A Windows drive path such as `C:/specs/prod.cs`.
        format!("file:///{encoded}")
    } else {
        encoded
    }
}

fn encode_byte(byte: u8) -> String {
    if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
        char::from(byte).to_string()
    } else {
        format!("%{byte:02X}")
    }
}

/// A stable fingerprint of rule id and resource: 64-bit FNV-1a, as 16 hex digits.
fn fingerprint(rule_id: &str, resource: &ResourceOutcome) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [rule_id, &resource.type_name, &resource.id] {
        for byte in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The run's invocation: unsuccessful when a rule is in `error`; each such rule and each
/// warning of the run a notification.
fn invocation(outcome: &RunOutcome, rules: &[IndexedRule<'_>]) -> Invocation {
    let mut notifications: Vec<Notification> = rules
        .iter()
        .filter(|entry| entry.rule.status == Status::Error)
        .map(error_notification)
        .collect();
    notifications.extend(outcome.warnings.iter().map(|warning| Notification {
        level: "warning",
        message: Message {
            text: warning.clone(),
        },
        locations: Vec::new(),
        associated_rule: None,
    }));
    Invocation {
        execution_successful: rules.iter().all(|e| e.rule.status != Status::Error),
        tool_execution_notifications: notifications,
    }
}

fn error_notification(entry: &IndexedRule<'_>) -> Notification {
    let why = entry
        .rule
        .error
        .as_deref()
        .unwrap_or("the rule could not be evaluated");
    Notification {
        level: "error",
        message: Message {
            text: format!("\"{}\" could not be evaluated: {why}", entry.rule.name),
        },
        locations: vec![spec_location(&entry.rule.location)],
        associated_rule: Some(RuleReference {
            id: entry.id.clone(),
            index: entry.index,
        }),
    }
}
