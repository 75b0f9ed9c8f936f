//! `cloudspec diff OLD.json NEW.json`: the drift between two JSON reports, as new, fixed
//! and persisting failures per rule, in a table or as JSON.

use std::io::Write;

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, CellAlignment, ContentArrangement, Table};
use serde::Serialize;

use super::{DiffArgs, EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use crate::baseline::{self, DriftReport, ResourceKey, Snapshot};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec diff audits/2026-11-22T071500Z.report.json audits/latest.report.json
  cloudspec diff old.json new.json --format json

A failure is a resource with status fail or waived, identified by group, rule, resource
type and id. new: failing now, not before; fixed: failing before, now passing or gone
(not when its rule is now `error`); persisting: failing in both.
Exit status: 0 no new failure; 1 at least one new failure; 2 a report could not be read.";

/// The version of the `--format json` output's shape.
const DIFF_VERSION: u32 = 1;

/// The table's width in columns, whatever the terminal.
const TABLE_WIDTH: u16 = 120;

pub(super) fn diff(args: DiffArgs) -> u8 {
    let (old, new) = match (read(&args.old), read(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(status), _) | (_, Err(status)) => return status,
    };
    let drift = baseline::compare(&old, &new);
    let text = match args.format.as_str() {
        "json" => json(&args, &drift),
        _ => table(&drift),
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        tracing::error!("cannot write the diff to stdout: {e}");
        return EXIT_USAGE;
    }
    if drift.totals().0 > 0 {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}

/// Reads one report, or logs why not.
fn read(path: &std::path::Path) -> Result<Snapshot, u8> {
    let text = cloudspec_model::input::read_text(
        path,
        cloudspec_model::input::MAX_REPORT_BYTES,
        "a JSON report",
    )
    .map_err(|e| {
        tracing::error!("{e}");
        EXIT_USAGE
    })?;
    Snapshot::from_report(&text).map_err(|e| {
        tracing::error!("{}: {e}", cloudspec_model::input::display_path(path));
        EXIT_USAGE
    })
}

/// The `--format json` document.
#[derive(Serialize)]
struct DiffDoc<'a> {
    cloudspec_diff: u32,
    old: String,
    new: String,
    summary: Totals,
    rules: &'a [baseline::RuleDrift],
}

#[derive(Serialize)]
struct Totals {
    new: usize,
    fixed: usize,
    persisting: usize,
}

/// The drift as pretty JSON with a trailing newline.
fn json(args: &DiffArgs, drift: &DriftReport) -> String {
    let (new, fixed, persisting) = drift.totals();
    let doc = DiffDoc {
        cloudspec_diff: DIFF_VERSION,
        old: args.old.display().to_string(),
        new: args.new.display().to_string(),
        summary: Totals {
            new,
            fixed,
            persisting,
        },
        rules: &drift.rules,
    };
    match serde_json::to_string_pretty(&doc) {
        Ok(mut text) => {
            text.push('\n');
            text
        }
        Err(e) => format!(
            "{{\"cloudspec_diff\": {DIFF_VERSION}, \"error\": {:?}}}\n",
            e.to_string()
        ),
    }
}

/// A table of rules with their counts, then the new and fixed resources of each rule,
/// then a summary line.
fn table(drift: &DriftReport) -> String {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(TABLE_WIDTH)
        .force_no_tty();
    table.set_header(["Group", "Rule", "New", "Fixed", "Persisting"]);
    for rule in &drift.rules {
        let mut row = vec![Cell::new(&rule.group), Cell::new(&rule.rule)];
        for n in [rule.new.len(), rule.fixed.len(), rule.persisting.len()] {
            row.push(Cell::new(n).set_alignment(CellAlignment::Right));
        }
        table.add_row(row);
    }
    let mut out = String::new();
    if !drift.rules.is_empty() {
        out.push_str(&table.to_string());
        out.push_str("\n\n");
    }
    for rule in &drift.rules {
        if rule.new.is_empty() && rule.fixed.is_empty() {
            continue;
        }
        out.push_str(&format!("{} › {}\n", rule.group, rule.rule));
        push_resources(&mut out, "new", &rule.new);
        push_resources(&mut out, "fixed", &rule.fixed);
        out.push('\n');
    }
    let (new, fixed, persisting) = drift.totals();
    out.push_str(&format!(
        "{new} new, {fixed} fixed, {persisting} persisting\n"
    ));
    out
}

/// `  new aws:ec2:instance i-0abc` lines.
fn push_resources(out: &mut String, word: &str, resources: &[ResourceKey]) {
    for r in resources {
        out.push_str(&format!("  {word} {} {}\n", r.type_name, r.id));
    }
}
