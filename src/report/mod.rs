//! Outcomes to formats: console table, JSON, JUnit XML and SARIF 2.1.0
//! (`shared/design/report.md`). Reports read a [`RunOutcome`] only; they never evaluate.

pub mod console;
pub mod json;
pub mod junit;
mod pieces;
pub mod sarif;

use crate::outcome::{ResourceOutcome, RuleOutcome, RunOutcome, StatusCounts};

/// The report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Console,
    Json,
    Junit,
    Sarif,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Console, Format::Json, Format::Junit, Format::Sarif];

    pub fn name(self) -> &'static str {
        match self {
            Format::Console => "console",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Sarif => "sarif",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// ANSI colours (console only): on a terminal and without `NO_COLOR`.
    pub color: bool,
    /// Whether the JSON report lists passing resources (`--report-passing`).
    pub passing: Passing,
}

/// Whether the JSON report lists the resources that pass (`--report-passing all|none`).
/// The other reports do not change: SARIF and the console list only what did not pass
/// anyway, and JUnit keeps a testcase per resource, which CI servers count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Passing {
    /// Every resource in scope, as `shared/design/report.md` shows (the default).
    #[default]
    Listed,
    /// Only the resources that did not pass (a rule in `error` keeps them all); each rule
    /// says how many it left out (`passing_omitted`), and the summary still counts every
    /// resource.
    Omitted,
}

/// Renders `outcome` in `format`.
pub fn render(format: Format, outcome: &RunOutcome, options: &RenderOptions) -> String {
    match format {
        Format::Console => console::render(outcome, options),
        Format::Json => json::render(outcome, options.passing),
        Format::Junit => junit::render(outcome),
        Format::Sarif => sarif::render(outcome),
    }
}

/// Writes `outcome` in `format` to `out` as it is rendered: the bulk of each report (the
/// resources, results or testcases) in pieces on every core, written in order.
pub fn write(
    format: Format,
    outcome: &RunOutcome,
    options: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Json => json::write(outcome, options.passing, out),
        Format::Junit => junit::write(outcome, out),
        Format::Sarif => sarif::write(outcome, out),
        Format::Console => console::write(outcome, options, out),
    }
}

/// A rule's resources sorted by id, then type: reports sort again so that their output
/// never depends on the order the evaluator happened to produce (which is this order
/// already, so usually nothing moves).
pub(crate) fn sorted_resources(rule: &RuleOutcome) -> Vec<&ResourceOutcome> {
    let mut resources: Vec<&ResourceOutcome> = rule.resources.iter().collect();
    let order = |a: &&ResourceOutcome, b: &&ResourceOutcome| {
        (&a.id, &a.type_name).cmp(&(&b.id, &b.type_name))
    };
    if !resources.is_sorted_by(|a, b| order(a, b).is_le()) {
        resources.sort_by(order);
    }
    resources
}

/// How many of a rule's resources ended in each status.
pub(crate) fn resource_counts(rule: &RuleOutcome) -> StatusCounts {
    let mut counts = StatusCounts::default();
    for resource in &rule.resources {
        counts.add(resource.status);
    }
    counts
}

/// The group's name as reports show it: prefixed with the spec's name when the run has
/// several specs, so that equal group names in two specs stay apart.
pub(crate) fn group_label(outcome: &RunOutcome, spec: &str, group: &str) -> String {
    if outcome.specs.len() > 1 {
        format!("{spec} / {group}")
    } else {
        group.to_string()
    }
}
