//! The console report: a table of rules with status and resource counts, then the
//! details of every resource that did not pass (failing paths with expected and actual
//! values, unknown paths, errors, waivers), then a summary line and the run's warnings.
//!
//! The table has a fixed width so that the output does not depend on the terminal, and
//! holds no ANSI code unless [`RenderOptions::color`] is set. Every text that came from
//! data (names, ids, values, messages) has its control characters escaped, so an inventory
//! can neither drive the terminal nor forge a line of the report.

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table};

use super::{group_label, pieces, resource_counts, sorted_resources, RenderOptions};
use crate::outcome::{
    ControlStatus, ControlsView, GroupOutcome, ResourceOutcome, RuleOutcome, RunOutcome,
    SpecOutcome, Status,
};
use crate::text::escape_control as e;

/// The table's width in columns, whatever the terminal.
const TABLE_WIDTH: u16 = 120;

/// Renders `outcome` for a person at a terminal.
pub fn render(outcome: &RunOutcome, options: &RenderOptions) -> String {
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = write(outcome, options, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the console report to `out`; the resources' details, most of a big run's report,
/// are rendered on every core, piece by piece, and written in order (`pieces`).
pub fn write(
    outcome: &RunOutcome,
    options: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let color = options.color;
    let mut head = String::new();
    if let Some(at) = &outcome.collected_at {
        head.push_str(&format!("Inventory collected at {}\n", e(at)));
    }
    head.push_str(&rules_table(outcome, color).to_string());
    head.push('\n');
    head.push('\n');
    if let Some(view) = &outcome.audit.controls {
        head.push_str(&controls_section(outcome, view, color));
    }
    out.write_all(head.as_bytes())?;
    // Each rule that did not pass with its resources that did not pass; each rule's
    // details end with a blank line, which then separates the summary.
    let rules: Vec<_> = outcome
        .rules()
        .map(|(spec, group, rule)| {
            let listed: Vec<&ResourceOutcome> = if listed(rule.status) {
                sorted_resources(rule)
                    .into_iter()
                    .filter(|r| r.status != Status::Pass)
                    .collect()
            } else {
                Vec::new()
            };
            (spec, group, rule, listed)
        })
        .collect();
    let lens: Vec<usize> = rules.iter().map(|(.., listed)| listed.len()).collect();
    let piece = |k: usize, items: std::ops::Range<usize>, buffer: &mut Vec<u8>| {
        if let Some((.., listed)) = rules.get(k) {
            for resource in listed.get(items).unwrap_or_default() {
                buffer.extend_from_slice(resource_details(resource, color).as_bytes());
            }
        }
        Ok(())
    };
    pieces::in_order(&lens, crate::default_threads(), &piece, |stream| {
        for (k, (spec, group, rule, _)) in rules.iter().enumerate() {
            if listed(rule.status) {
                out.write_all(rule_header(outcome, spec, group, rule, color).as_bytes())?;
            }
            stream.write_array(k, out)?;
            if listed(rule.status) {
                out.write_all(b"\n")?;
            }
        }
        Ok::<(), std::io::Error>(())
    })?;
    let mut tail = summary_line(outcome, color);
    tail.push('\n');
    if let Some(view) = &outcome.audit.controls {
        tail.push_str(&controls_summary_line(view, color));
        tail.push('\n');
    }
    tail.push_str(&audit_lines(outcome));
    for warning in &outcome.warnings {
        tail.push_str(&format!(
            "{}: {}\n",
            paint("warning", Some(YELLOW), color),
            e(warning)
        ));
    }
    out.write_all(tail.as_bytes())
}

/// Whether a rule's details are listed: every rule that did not pass.
fn listed(status: Status) -> bool {
    !matches!(status, Status::Pass | Status::Skip)
}

/// The table of rules: group, rule, status, and resource counts per status.
fn rules_table(outcome: &RunOutcome, color: bool) -> Table {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(TABLE_WIDTH);
    if color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    table.set_header([
        "Group", "Rule", "Status", "Pass", "Fail", "Unknown", "Error", "Waived",
    ]);
    for (spec, group, rule) in outcome.rules() {
        let counts = resource_counts(rule);
        let mut row = vec![
            Cell::new(e(&group_label(outcome, &spec.name, &group.name))),
            Cell::new(e(&rule.name)),
            status_cell(rule.status, color),
        ];
        for count in [
            counts.pass,
            counts.fail,
            counts.unknown,
            counts.error,
            counts.waived,
        ] {
            row.push(Cell::new(count).set_alignment(CellAlignment::Right));
        }
        table.add_row(row);
    }
    table
}

fn status_cell(status: Status, color: bool) -> Cell {
    let cell = Cell::new(status.as_str());
    match (color, table_color(status)) {
        (true, Some(c)) => cell.fg(c),
        _ => cell,
    }
}

/// The colour of a status word in the table.
fn table_color(status: Status) -> Option<Color> {
    match status {
        Status::Pass => Some(Color::Green),
        Status::Fail | Status::Error => Some(Color::Red),
        Status::Unknown => Some(Color::Yellow),
        Status::Waived => Some(Color::Cyan),
        Status::Skip => None,
    }
}

/// ANSI colour codes for text outside the table.
const GREEN: &str = "32";
const RED: &str = "31";
const YELLOW: &str = "33";
const CYAN: &str = "36";

/// The ANSI colour of a status word outside the table.
fn ansi_color(status: Status) -> Option<&'static str> {
    match status {
        Status::Pass => Some(GREEN),
        Status::Fail | Status::Error => Some(RED),
        Status::Unknown => Some(YELLOW),
        Status::Waived => Some(CYAN),
        Status::Skip => None,
    }
}

/// `text` in `code`'s colour when colours are on; unchanged otherwise.
fn paint(text: &str, code: Option<&str>, color: bool) -> String {
    match code {
        Some(code) if color => format!("\u{1b}[{code}m{text}\u{1b}[0m"),
        _ => text.to_string(),
    }
}

/// The width of a rule's status word under a control (`unknown`).
const RULE_STATUS_WIDTH: usize = 7;

/// The controls view: the benchmark, then each section and its controls in benchmark
/// order (id, status, title), each control's rules under it (status, group and rule, and
/// how many resources fail), ending with a blank line.
fn controls_section(outcome: &RunOutcome, view: &ControlsView, color: bool) -> String {
    let mut out = format!(
        "Controls of {} {} ({})\n",
        e(&view.benchmark),
        e(&view.version),
        e(&view.file)
    );
    let id_width = view
        .controls()
        .map(|(_, c)| e(&c.id).chars().count())
        .max()
        .unwrap_or(0);
    let status_width = ControlStatus::ALL
        .iter()
        .map(|s| s.label().len())
        .max()
        .unwrap_or(0);
    for section in &view.sections {
        out.push_str(&format!("\n{} {}\n", e(&section.id), e(&section.title)));
        for control in &section.controls {
            let status = format!("{:<status_width$}", control.status.label());
            let code = control.status.as_status().and_then(ansi_color);
            out.push_str(&format!(
                "  {:<id_width$}  {}  {}\n",
                e(&control.id),
                paint(&status, code, color),
                e(&control.title)
            ));
            for rule in &control.rules {
                let failing = match rule.failing {
                    0 => String::new(),
                    n => format!(" ({n} of {} failing)", rule.resources),
                };
                let status = format!("{:<RULE_STATUS_WIDTH$}", rule.status.as_str());
                out.push_str(&format!(
                    "  {:<id_width$}    {} {} › {}{failing}\n",
                    "",
                    paint(&status, ansi_color(rule.status), color),
                    e(&group_label(outcome, &rule.spec, &rule.group)),
                    e(&rule.name)
                ));
            }
        }
    }
    out.push('\n');
    out
}

/// `CIS ... 7.0.0: 70 controls: 2 pass, 6 fail, ...`: every status with a control in it.
fn controls_summary_line(view: &ControlsView, color: bool) -> String {
    let parts: Vec<String> = view
        .counts()
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(status, n)| {
            let code = status.as_status().and_then(ansi_color);
            format!("{n} {}", paint(status.label(), code, color))
        })
        .collect();
    let total = view.controls().count();
    let controls = if total == 1 { "control" } else { "controls" };
    format!(
        "{} {}: {total} {controls}: {}",
        e(&view.benchmark),
        e(&view.version),
        parts.join(", ")
    )
}

/// A listed rule's first lines: group, rule and status, where it is written, its error.
fn rule_header(
    outcome: &RunOutcome,
    spec: &SpecOutcome,
    group: &GroupOutcome,
    rule: &RuleOutcome,
    color: bool,
) -> String {
    let mut out = format!(
        "{} › {} [{}]\n",
        e(&group_label(outcome, &spec.name, &group.name)),
        e(&rule.name),
        paint(rule.status.as_str(), ansi_color(rule.status), color)
    );
    out.push_str(&format!(
        "  at {}:{}:{}\n",
        e(&rule.location.file),
        rule.location.line,
        rule.location.column
    ));
    if let (Status::Error, Some(error)) = (rule.status, &rule.error) {
        out.push_str(&format!("  error: {}\n", e(error)));
    }
    out
}

/// One resource's lines: its header, then failing paths, unknown paths and notes.
fn resource_details(resource: &ResourceOutcome, color: bool) -> String {
    let drift = resource
        .drift
        .map_or(String::new(), |d| format!(" [{}]", d.as_str()));
    let mut out = format!(
        "  {} {} {}{}{drift}\n",
        paint(resource.status.as_str(), ansi_color(resource.status), color),
        e(&resource.type_name),
        e(&resource.id),
        source_suffix(resource)
    );
    if let Some(error) = resource.error() {
        out.push_str(&format!("    error: {}\n", e(error)));
    }
    for failure in resource.failures() {
        out.push_str(&format!(
            "    {}: expected {}, actual {}\n      {}\n",
            e(&failure.path),
            e(&failure.expected),
            failure.actual,
            e(&failure.message)
        ));
    }
    for unknown in resource.unknowns() {
        out.push_str(&format!(
            "    {}: unknown ({})\n",
            e(&unknown.path),
            e(&unknown.reason)
        ));
    }
    for note in resource.notes() {
        out.push_str(&format!("    note: {}\n", e(note)));
    }
    out
}

/// ` (file:line)` for a resource read from a file; empty otherwise.
fn source_suffix(resource: &ResourceOutcome) -> String {
    match resource.source() {
        Some(source) => match source.line {
            Some(line) => format!(" ({}:{line})", e(&source.located())),
            None => format!(" ({})", e(&source.located())),
        },
        None => String::new(),
    }
}

/// `3 rules: 1 pass, 1 fail, 1 skip, 0 error` (unknown and waived counts when any), and
/// the number of resources evaluated.
fn summary_line(outcome: &RunOutcome, color: bool) -> String {
    let summary = outcome.summary();
    let s = summary.counts;
    let mut parts = vec![
        count(s.pass, Status::Pass, color),
        count(s.fail, Status::Fail, color),
        count(s.skip, Status::Skip, color),
        count(s.error, Status::Error, color),
    ];
    if s.unknown > 0 {
        parts.push(count(s.unknown, Status::Unknown, color));
    }
    if s.waived > 0 {
        parts.push(count(s.waived, Status::Waived, color));
    }
    let rules = if summary.rules == 1 { "rule" } else { "rules" };
    let resources = if summary.resources_evaluated == 1 {
        "resource"
    } else {
        "resources"
    };
    format!(
        "{} {rules}: {} ({} {resources} evaluated)",
        summary.rules,
        parts.join(", "),
        summary.resources_evaluated
    )
}

/// With `--baseline`, the drift counts and every failure fixed since; with `--waivers`,
/// what the waiver file did (its expired and unused waivers are among the warnings).
fn audit_lines(outcome: &RunOutcome) -> String {
    let mut out = String::new();
    if let Some(b) = &outcome.audit.baseline {
        out.push_str(&format!(
            "Baseline {}: {} new, {} persisting, {} fixed\n",
            e(&b.file),
            b.new,
            b.persisting,
            b.fixed.len()
        ));
        for f in &b.fixed {
            out.push_str(&format!(
                "  fixed: {} › {}: {} {}\n",
                e(&f.group),
                e(&f.rule),
                e(&f.type_name),
                e(&f.id)
            ));
        }
    }
    if let Some(w) = &outcome.audit.waivers {
        out.push_str(&format!(
            "Waivers {}: {} applied, {} expired, {} unused\n",
            e(&w.file),
            w.applied,
            w.expired.len(),
            w.unused.len()
        ));
    }
    out
}

/// `N status`, the status word coloured when `n` is not zero.
fn count(n: usize, status: Status, color: bool) -> String {
    let code = if n > 0 { ansi_color(status) } else { None };
    format!("{n} {}", paint(status.as_str(), code, color))
}
