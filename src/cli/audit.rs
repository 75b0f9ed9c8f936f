//! The scheduled-audit steps of `cloudspec run`: `--waivers`, `--baseline` and the
//! benchmark controls view (`--controls`, or a rule pack's default controls).
//!
//! [`Audit::load`] reads and checks both files before anything is collected or evaluated,
//! so that a typo fails fast; [`Audit::apply`] then applies them to the finished outcome.
//! Problems are logged here and returned as the exit status.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::{RunArgs, EXIT_USAGE};
use cloudspec_model::input;

use crate::baseline::{self, Snapshot};
use crate::controls::{self, Catalog};
use crate::model::{Inventory, Value};
use crate::outcome::{AppliedWaiver, ResourceOutcome, RunOutcome, WaiverSummary};
use crate::waivers::{self, Waiver};

/// The waiver file and baseline of a run, read and parsed.
#[derive(Debug, Default)]
pub(super) struct Audit {
    waivers: Option<(String, Vec<Waiver>)>,
    baseline: Option<(String, Snapshot)>,
    controls: Option<(String, Catalog)>,
}

impl Audit {
    /// Reads `--waivers` and `--baseline`. `Err` carries the exit status after the error
    /// has been logged.
    pub(super) fn load(args: &RunArgs) -> Result<Audit, u8> {
        let mut audit = Audit::default();
        if let Some(path) = &args.waivers {
            let file = input::display_path(path);
            let text = read(path, "a waiver file", input::MAX_YAML_BYTES)?;
            let list = waivers::parse(&text).map_err(|e| fail(&format!("{file}:{e}")))?;
            audit.waivers = Some((file, list));
        }
        if let Some(path) = &args.baseline {
            let file = input::display_path(path);
            let text = read(path, "a baseline report", input::MAX_REPORT_BYTES)?;
            let snapshot =
                Snapshot::from_report(&text).map_err(|e| fail(&format!("{file}: {e}")))?;
            audit.baseline = Some((file, snapshot));
        }
        let controls = match (&args.controls, args.no_controls) {
            (Some(path), _) => Some(path.clone()),
            (None, true) => None,
            (None, false) => default_controls(&args.specs)?,
        };
        if let Some(path) = controls {
            let file = input::display_path(&path);
            let text = read(&path, "a controls file", input::MAX_YAML_BYTES)?;
            let catalog = controls::parse(&text).map_err(|e| fail(&format!("{file}:{e}")))?;
            audit.controls = Some((file, catalog));
        }
        Ok(audit)
    }

    /// Applies the waivers in force at `now` (their rules must name rules of the run), then
    /// the baseline. Expired and unused waivers become warnings of the run.
    pub(super) fn apply(
        &self,
        outcome: &mut RunOutcome,
        inventory: &Inventory,
        now: DateTime<Utc>,
    ) -> Result<(), u8> {
        if let Some((file, list)) = &self.waivers {
            waivers::check_rules(list, outcome).map_err(|e| fail(&format!("{file}:{e}")))?;
            let tags_of = |r: &ResourceOutcome| resource_tags(inventory, r);
            let applied = waivers::apply(list, outcome, now, &tags_of);
            for (waiver, count) in &applied.expired {
                outcome.warnings.push(expired_warning(file, waiver, *count));
            }
            for waiver in &applied.unused {
                outcome.warnings.push(unused_warning(file, waiver));
            }
            outcome.audit.waivers = Some(WaiverSummary {
                file: file.clone(),
                applied: applied.applied,
                expired: applied.expired.into_iter().map(|(w, _)| w).collect(),
                unused: applied.unused,
            });
        }
        if let Some((file, snapshot)) = &self.baseline {
            outcome.audit.baseline = Some(baseline::apply(snapshot, outcome, file));
        }
        if let Some((file, catalog)) = &self.controls {
            controls::apply(catalog, file, outcome);
        }
        Ok(())
    }
}

/// The name of the file, in a rule pack's `controls/` directory, that names the pack's
/// default controls file.
const DEFAULT_CONTROLS: &str = "default";

/// The default controls of the SPEC directories: a directory given as SPEC whose
/// `controls/default` names a file of `controls/` (one line: `cis-7.0.yaml`). None when no
/// SPEC directory has one; an error when several do, or when the one found names no file
/// there.
fn default_controls(specs: &[PathBuf]) -> Result<Option<PathBuf>, u8> {
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    for spec in specs.iter().filter(|p| p.is_dir()) {
        let dir = spec.join("controls");
        let pointer = dir.join(DEFAULT_CONTROLS);
        if !pointer.is_file() {
            continue;
        }
        let shown = input::display_path(&pointer);
        let text = read(&pointer, "a default controls pointer", 4096)?;
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let name = lines.next().unwrap_or_default();
        let plain = !name.is_empty()
            && !name.contains(['/', '\\'])
            && name != "."
            && name != ".."
            && lines.next().is_none();
        if !plain {
            return Err(fail(&format!(
                "{shown}: expected one line naming a controls file of {} (such as cis-7.0.yaml)",
                input::display_path(&dir)
            )));
        }
        let target = dir.join(name);
        if !target.is_file() {
            return Err(fail(&format!(
                "{shown}: names {name}, which is not a file of {}",
                input::display_path(&dir)
            )));
        }
        if found.iter().all(|(_, t)| t != &target) {
            found.push((pointer, target));
        }
    }
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop().map(|(_, target)| target)),
        _ => {
            let names: Vec<String> = found.iter().map(|(p, _)| input::display_path(p)).collect();
            Err(fail(&format!(
                "several SPEC directories name default controls ({}); choose one with --controls FILE, or none with --no-controls",
                names.join(", ")
            )))
        }
    }
}

/// The run's "now": `--now` (RFC 3339) when given, else the clock.
pub(super) fn now(given: Option<&str>) -> Result<DateTime<Utc>, u8> {
    match given {
        Some(text) => parse_now(text),
        None => Ok(Utc::now()),
    }
}

/// An RFC 3339 time, or a `YYYY-MM-DD` date taken as midnight UTC (as time predicates and
/// test files read them).
fn parse_now(text: &str) -> Result<DateTime<Utc>, u8> {
    crate::predicates::parse_instant(text.trim())
        .and_then(crate::predicates::datetime_of)
        .ok_or_else(|| {
            fail(&format!(
                "--now is \"{}\", which is not an RFC 3339 time such as 2026-11-23T07:15:00Z (or a date such as 2026-11-23)",
                cloudspec_model::input::escape_control(&cloudspec_model::input::truncate_chars(
                    text, 60
                ))
            ))
        })
}

/// Reads a file within its size limit, or logs why not.
fn read(path: &Path, what: &'static str, limit: u64) -> Result<String, u8> {
    input::read_text(path, limit, what).map_err(|e| fail(&e.to_string()))
}

/// Logs an error; returns the exit status for it.
fn fail(message: &str) -> u8 {
    tracing::error!("{message}");
    EXIT_USAGE
}

/// `waivers.yaml:12: the waiver of "G/R" for i-0abc* (owner x) expired at 2026-01-31; ...`
fn expired_warning(file: &str, waiver: &AppliedWaiver, count: usize) -> String {
    let consequence = match count {
        0 => "it matches no failure any more; remove it".to_string(),
        1 => "the failure it matches counts again".to_string(),
        n => format!("the {n} failures it matches count again"),
    };
    format!(
        "{file}:{}: the waiver of {} (owner {}) expired at {}; {consequence}",
        waiver.line,
        describe(waiver),
        waiver.owner,
        waiver.expires
    )
}

/// `waivers.yaml:3: the waiver of "G/R" for i-0abc* matched no failure in this run; ...`
fn unused_warning(file: &str, waiver: &AppliedWaiver) -> String {
    format!(
        "{file}:{}: the waiver of {} (owner {}) matched no failure in this run; remove it if the failure was fixed",
        waiver.line,
        describe(waiver),
        waiver.owner
    )
}

/// `"G/R" for i-0abc* with tags team=data`.
fn describe(waiver: &AppliedWaiver) -> String {
    let mut out = format!("\"{}\"", waiver.rule);
    if let Some(resource) = &waiver.resource {
        out.push_str(&format!(" for {resource}"));
    }
    if !waiver.tags.is_empty() {
        let tags: Vec<String> = waiver
            .tags
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        out.push_str(&format!(" with tags {}", tags.join(", ")));
    }
    out
}

/// The `tags` property of a resource (text values only): a mapping of name to value.
fn resource_tags(inventory: &Inventory, resource: &ResourceOutcome) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let found = inventory.sym("tags").and_then(|sym| {
        let idx = inventory.find(&resource.type_name, &resource.id)?;
        inventory.resource(idx)?.properties.get(sym)
    });
    if let Some(Value::Object(tags)) = found {
        for (key, value) in tags.iter() {
            if let Value::Str(text) = value {
                out.insert(
                    inventory.interner.resolve(*key).to_string(),
                    text.to_string(),
                );
            }
        }
    }
    out
}
