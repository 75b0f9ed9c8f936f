//! Benchmark controls (`docs/reports.md`, "Controls"): a controls file lists a benchmark's
//! sections and every control in benchmark order; [`apply`] gives each control the verdict
//! of the rules whose `Reference` names it, for the reports' controls view. This module
//! parses text (with the line and column of every mistake) and reads a finished
//! [`RunOutcome`]; it does no I/O.
//!
//! ```yaml
//! benchmark: CIS Amazon Web Services Foundations Benchmark
//! version: "7.0.0"
//! reference_prefix: CIS-AWS-7.0      # a rule's `Reference "CIS-AWS-7.0-2.4"` is control 2.4
//! sections:
//!   - id: "2"
//!     title: Identity and Access Management
//!     controls:
//!       - id: "2.4"
//!         title: Ensure no 'root' user account access key exists
//!         assessment: automated      # or manual
//! ```

use std::collections::{HashMap, HashSet};

use crate::outcome::{
    Assessment, ControlRule, ControlSection, ControlStatus, ControlVerdict, ControlsView,
    RunOutcome, Status,
};
use crate::waivers::marked::{self, Fields, Node, Pos};

/// The fields of the file, of a section and of a control.
const TOP_FIELDS: [&str; 4] = ["benchmark", "version", "reference_prefix", "sections"];
const SECTION_FIELDS: [&str; 3] = ["id", "title", "controls"];
const CONTROL_FIELDS: [&str; 3] = ["id", "title", "assessment"];

/// A controls file, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    pub benchmark: String,
    pub version: String,
    pub reference_prefix: String,
    pub sections: Vec<Section>,
}

/// A section of the benchmark and its controls, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub controls: Vec<Control>,
}

/// One control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Control {
    pub id: String,
    pub title: String,
    pub assessment: Assessment,
}

/// A mistake in a controls file, at a line and column (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ControlsError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ControlsError {
    fn at(pos: Pos, message: impl Into<String>) -> Self {
        ControlsError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }
}

/// Parses a controls file. Every mistake is an error with its line and column: YAML syntax,
/// an unknown, repeated or missing field, a value of the wrong kind, an assessment other
/// than `automated` or `manual`, a section or control id given twice.
pub fn parse(text: &str) -> Result<Catalog, ControlsError> {
    let root = marked::parse_one(text, "a controls file")
        .map_err(|e| ControlsError::at(e.pos, format!("invalid YAML: {}", e.message)))?;
    let Some(root) = root else {
        return Err(ControlsError::at(
            Pos { line: 1, column: 1 },
            "the controls file is empty; expected `benchmark`, `version`, `reference_prefix` and `sections`",
        ));
    };
    let what = "the controls file";
    let fields = mapping(&root, what, &TOP_FIELDS)?;
    let (_, benchmark) = required(&fields, &root, "benchmark", what)?;
    let (_, version) = required(&fields, &root, "version", what)?;
    let (prefix_pos, reference_prefix) = required(&fields, &root, "reference_prefix", what)?;
    if reference_prefix.is_empty() || reference_prefix.chars().any(char::is_whitespace) {
        return Err(ControlsError::at(
            prefix_pos,
            format!("`reference_prefix` is \"{reference_prefix}\"; expected a word such as CIS-AWS-7.0 (no spaces)"),
        ));
    }
    let sections_node = field(&fields, &root, "sections", what)?;
    let items = list(sections_node, "sections", "sections")?;
    if items.is_empty() {
        return Err(ControlsError::at(
            sections_node.pos(),
            "`sections` is empty; list the benchmark's sections and their controls",
        ));
    }
    let mut section_ids: HashMap<String, usize> = HashMap::new();
    let mut control_ids: HashMap<String, usize> = HashMap::new();
    let mut sections = Vec::with_capacity(items.len());
    for node in items {
        let (id_pos, section) = section(node, &mut control_ids)?;
        if let Some(first) = section_ids.insert(section.id.clone(), id_pos.line) {
            return Err(ControlsError::at(
                id_pos,
                format!(
                    "section {} is listed twice (first at line {first})",
                    section.id
                ),
            ));
        }
        sections.push(section);
    }
    Ok(Catalog {
        benchmark,
        version,
        reference_prefix,
        sections,
    })
}

/// One entry of `sections`, with the position of its id; its controls' ids go into
/// `control_ids` (id to line), which must not hold them yet.
fn section(
    node: &Node,
    control_ids: &mut HashMap<String, usize>,
) -> Result<(Pos, Section), ControlsError> {
    let what = "a section";
    let fields = mapping(node, what, &SECTION_FIELDS)?;
    let (id_pos, id) = identifier(&fields, node, what)?;
    let (_, title) = required(&fields, node, "title", what)?;
    let controls_node = field(&fields, node, "controls", what)?;
    let items = list(controls_node, "controls", "controls")?;
    let mut controls = Vec::with_capacity(items.len());
    for item in items {
        let what = "a control";
        let fields = mapping(item, what, &CONTROL_FIELDS)?;
        let (control_pos, control_id) = identifier(&fields, item, what)?;
        if let Some(first) = control_ids.insert(control_id.clone(), control_pos.line) {
            return Err(ControlsError::at(
                control_pos,
                format!("control {control_id} is listed twice (first at line {first})"),
            ));
        }
        let (_, title) = required(&fields, item, "title", what)?;
        let (assessment_pos, assessment) = required(&fields, item, "assessment", what)?;
        let assessment = match assessment.as_str() {
            "automated" => Assessment::Automated,
            "manual" => Assessment::Manual,
            other => {
                return Err(ControlsError::at(
                    assessment_pos,
                    format!("`assessment` is \"{other}\"; expected `automated` or `manual`"),
                ))
            }
        };
        controls.push(Control {
            id: control_id,
            title,
            assessment,
        });
    }
    Ok((
        id_pos,
        Section {
            id,
            title,
            controls,
        },
    ))
}

/// The `id` of a section or control: text (a plain `2.4` is taken as written), not empty,
/// without spaces.
fn identifier(
    fields: &Fields<'_>,
    node: &Node,
    what: &str,
) -> Result<(Pos, String), ControlsError> {
    let (pos, id) = required(fields, node, "id", what)?;
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        return Err(ControlsError::at(
            pos,
            format!("the id of {what} is \"{id}\"; expected a word such as 2.4 (no spaces)"),
        ));
    }
    Ok((pos, id))
}

/// A mapping's entries by key ([`marked::mapping`]).
fn mapping<'a>(node: &'a Node, what: &str, known: &[&str]) -> Result<Fields<'a>, ControlsError> {
    marked::mapping(node, what, known).map_err(|(pos, message)| ControlsError::at(pos, message))
}

/// A required field's value.
fn field<'a>(
    fields: &Fields<'a>,
    node: &Node,
    name: &str,
    what: &str,
) -> Result<&'a Node, ControlsError> {
    match fields.get(name) {
        Some((_, value)) => Ok(value),
        None => Err(ControlsError::at(
            node.pos(),
            format!("{what} is missing the required field `{name}`"),
        )),
    }
}

/// A required field's text, with its position: a scalar, quoted or plain (a version
/// `7.0` or an id `2.10` is kept as written), but not nothing or a boolean.
fn required(
    fields: &Fields<'_>,
    node: &Node,
    name: &str,
    what: &str,
) -> Result<(Pos, String), ControlsError> {
    let value = field(fields, node, name, what)?;
    match value {
        Node::Scalar {
            text, null: false, ..
        } if value.kind() != "a boolean" => Ok((value.pos(), text.trim().to_string())),
        other => Err(ControlsError::at(
            other.pos(),
            format!("`{name}` must be text, found {}", other.kind()),
        )),
    }
}

/// A list field's items (nothing counts as an empty list).
fn list<'a>(node: &'a Node, name: &str, of: &str) -> Result<&'a [Node], ControlsError> {
    match node {
        Node::Seq { items, .. } => Ok(items),
        Node::Scalar { null: true, .. } => Ok(&[]),
        other => Err(ControlsError::at(
            other.pos(),
            format!("`{name}` must be a list of {of}, found {}", other.kind()),
        )),
    }
}

/// The controls view of `catalog` (read from `file`) over `outcome`: each control's rules
/// are those with a reference `PREFIX-ID`, its status their statuses aggregated
/// ([`ControlStatus::aggregate`]). A reference with the prefix but an id the file does not
/// list is a warning of the run; references with other prefixes are not this benchmark's.
pub fn apply(catalog: &Catalog, file: &str, outcome: &mut RunOutcome) {
    let mut index: HashMap<&str, (usize, usize)> = HashMap::new();
    for (s, section) in catalog.sections.iter().enumerate() {
        for (c, control) in section.controls.iter().enumerate() {
            index.insert(control.id.as_str(), (s, c));
        }
    }
    let mut rules: Vec<Vec<Vec<ControlRule>>> = catalog
        .sections
        .iter()
        .map(|s| vec![Vec::new(); s.controls.len()])
        .collect();
    let mut warnings = Vec::new();
    for (spec, group, rule) in outcome.rules() {
        let mut seen = HashSet::new();
        for reference in &rule.references {
            let Some(id) = reference
                .strip_prefix(catalog.reference_prefix.as_str())
                .and_then(|rest| rest.strip_prefix('-'))
            else {
                continue;
            };
            if !seen.insert(reference.as_str()) {
                continue;
            }
            let Some(&(s, c)) = index.get(id) else {
                warnings.push(format!(
                    "{}:{}:{}: rule \"{}\" references {reference}, but {file} ({} {}) has no control {id}",
                    rule.location.file,
                    rule.location.line,
                    rule.location.column,
                    rule.name,
                    catalog.benchmark,
                    catalog.version
                ));
                continue;
            };
            let failing = rule
                .resources
                .iter()
                .filter(|r| r.status == Status::Fail)
                .count();
            if let Some(slot) = rules.get_mut(s).and_then(|v| v.get_mut(c)) {
                slot.push(ControlRule {
                    spec: spec.name.clone(),
                    group: group.name.clone(),
                    name: rule.name.clone(),
                    status: rule.status,
                    resources: rule.resources.len(),
                    failing,
                    location: rule.location.clone(),
                });
            }
        }
    }
    let sections = catalog
        .sections
        .iter()
        .zip(rules)
        .map(|(section, rules)| ControlSection {
            id: section.id.clone(),
            title: section.title.clone(),
            controls: section
                .controls
                .iter()
                .zip(rules)
                .map(|(control, rules)| ControlVerdict {
                    id: control.id.clone(),
                    reference: format!("{}-{}", catalog.reference_prefix, control.id),
                    title: control.title.clone(),
                    assessment: control.assessment,
                    status: ControlStatus::aggregate(
                        control.assessment,
                        rules.iter().map(|r| r.status),
                    ),
                    rules,
                })
                .collect(),
        })
        .collect();
    outcome.warnings.extend(warnings);
    outcome.audit.controls = Some(ControlsView {
        file: file.to_string(),
        benchmark: catalog.benchmark.clone(),
        version: catalog.version.clone(),
        reference_prefix: catalog.reference_prefix.clone(),
        sections,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{Assessment::*, ControlStatus as C, Status::*};

    #[test]
    fn a_control_takes_the_worst_verdict_of_its_rules() {
        let cases: [(&[Status], ControlStatus); 9] = [
            (&[Pass, Fail, Error, Unknown], C::Fail),
            (&[Pass, Error, Unknown, Waived], C::Error),
            (&[Pass, Unknown, Waived, Skip], C::Unknown),
            (&[Pass, Waived, Skip], C::Waived),
            (&[Pass, Skip], C::Pass),
            (&[Pass], C::Pass),
            (&[Skip, Skip], C::Skip),
            (&[Fail], C::Fail),
            (&[Error], C::Error),
        ];
        for (rules, want) in cases {
            for assessment in [Automated, Manual] {
                assert_eq!(
                    C::aggregate(assessment, rules.iter().copied()),
                    want,
                    "{rules:?}"
                );
            }
        }
        assert_eq!(C::aggregate(Automated, []), C::NotCovered);
        assert_eq!(C::aggregate(Manual, []), C::Manual);
    }

    #[test]
    fn ids_and_versions_are_kept_as_written() {
        let catalog = parse(
            "benchmark: B\nversion: 7.0\nreference_prefix: B-7.0\nsections:\n  - id: 2\n    title: S\n    controls:\n      - id: 2.10\n        title: T\n        assessment: manual\n",
        )
        .expect("parses");
        assert_eq!(catalog.version, "7.0");
        assert_eq!(catalog.sections[0].id, "2");
        assert_eq!(catalog.sections[0].controls[0].id, "2.10");
    }
}
