//! `cloudspec run`: parse and check the specs, load the inventory, evaluate, report.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::audit::Audit;
use super::output_dir;
use super::sources::{Registry, Selected};
use super::specs;
use super::{RunArgs, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, EXIT_USAGE};
use crate::eval::{self, SpecInput};
use crate::model::schema::SchemaSet;
use crate::model::{Inventory, LoadRequest, Part};
use crate::outcome::{Drift, RuleOutcome, RunOutcome, Status};
use crate::report::{self, Format, Passing, RenderOptions};
use crate::syntax::ast::{Severity, Spec};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec run examples/prod.cloudspec --inventory examples/inventory.json
  cloudspec run specs/ --inventory inv.json --format json=report.json --format junit=report.xml
  cloudspec run prod.cloudspec --inventory inv.json --format sarif --output results.sarif
  cloudspec run specs/ --inventory inv.json --format json=failures.json --report-passing none
  cloudspec run examples/composition/buckets.cloudspec \
    --composition examples/composition/composition --xr examples/composition/xr.yaml
  cloudspec run specs/ --waivers waivers.yaml --baseline audits/latest.report.json \
    --fail-on-new --output-dir audits
  cloudspec run examples/prod.cloudspec --terraform examples/terraform
  cloudspec run rules/aws-cis --inventory inv.json --controls rules/aws-cis/controls/cis-6.0.0.yaml
  cloudspec run specs/ --terraform infra --var-file prod.tfvars --var region=eu-west-1 \
    --format sarif=results.sarif --fail-on-unknown

Scheduled audits (docs/audits.md): --waivers accepts known failures until they expire;
--baseline marks failures new or persisting and lists what was fixed; --output-dir keeps
every run's reports and latest.* copies, written atomically under a lock.

Benchmark controls (docs/reports.md, \"Controls\"): --controls FILE adds every control of a
benchmark to each report, by section, with the verdict of the rules whose Reference names it
(fail > error > unknown > waived > pass > skip; manual or not covered without rules). A SPEC
directory with a controls/default file (one line naming a file of controls/) brings that
file unless --controls names another or --no-controls: `cloudspec run rules/aws-cis` reports
the CIS v7.0 controls.

Crossplane compositions (docs/compositions.md): --composition renders a function-hcl
composition for --xr and judges each desired resource as k8s:<group>:<Kind>.

Terraform code (docs/terraform.md): --terraform judges a root module before apply with the
rules that judge the account after it. A value only AWS can decide (an id, an unset setting
AWS defaults) is unknown, and so is a resource the code refers to but does not manage;
a rule that cannot be decided is `unknown`, which fails the run only with --fail-on-unknown.

Reports go to stdout or to the files named; warnings and diagnostics go to stderr.
Exit status: 0 every rule passes, is skipped, unknown or waived; 1 a rule fails (or is unknown,
with --fail-on-unknown; only a new failure, with --fail-on-new); 2 the command could not run;
3 a rule is `error` (outranks 1).";

/// Where one report goes.
#[derive(Debug, Clone, PartialEq)]
struct Target {
    format: Format,
    file: Option<PathBuf>,
}

pub(super) fn run(args: RunArgs, registry: &Registry) -> u8 {
    match run_steps(&args, registry) {
        Ok(status) | Err(status) => status,
    }
}

/// The run's steps; `Err` carries the exit status of a step that could not go on, after
/// its error has been logged. The output directory's lock, when taken, is released when
/// this returns, whichever way.
fn run_steps(args: &RunArgs, registry: &Registry) -> Result<u8, u8> {
    let targets = targets(&args.formats, args.output.as_deref()).map_err(|m| usage(&m))?;
    let fail_on = match args.fail_on.as_deref().map(Severity::parse) {
        Some(None) => return Err(usage("--fail-on takes low, medium, high or critical")),
        Some(Some(sev)) => Some(sev),
        None => None,
    };
    let now = super::audit::now(args.now.as_deref())?;
    let audit = Audit::load(args)?;
    let _lock = match &args.output_dir {
        Some(dir) => Some(output_dir::Lock::acquire(dir, now).map_err(|m| usage(&m))?),
        None => None,
    };
    let color_err = super::use_color(&args.color, std::io::stderr().is_terminal());
    let sources = registry.select(args);
    // Specs are checked against the schemas of the sources that declare them before
    // anything is loaded (no API call for an invalid spec)...
    // Each source's schemas, built once for the checks and the collection plans.
    let schemas: Vec<Option<SchemaSet>> = sources.iter().map(|s| s.provider.schemas()).collect();
    let declared: Vec<SchemaSet> = schemas.iter().flatten().cloned().collect();
    let mut loaded = specs::load(&args.specs, &declared, color_err)?;
    if !loaded.all_valid() {
        return Err(EXIT_USAGE);
    }
    let parsed: Vec<&Spec> = loaded
        .files
        .iter()
        .filter_map(|f| f.spec.as_ref())
        .collect();
    let started = std::time::Instant::now();
    let (inventory, named) = load_inventory(args, &sources, &schemas, &parsed)?;
    tracing::debug!(
        "loaded {} resources in {:.3} s",
        inventory.resources.len(),
        started.elapsed().as_secs_f64()
    );
    // ...and against the schemas a loaded inventory names (`"provider": "aws"`) after.
    let more: Vec<SchemaSet> = named
        .iter()
        .filter(|name| !declared.iter().any(|d| &d.provider == *name))
        .filter_map(|name| registry.schemas_of(name))
        .collect();
    if !specs::check_more(&mut loaded.files, &more, color_err) {
        return Err(EXIT_USAGE);
    }
    let specs = loaded.files;
    if let Some(path) = &args.save_inventory {
        super::files::write_file(path, |out| inventory.write_json(out).map(drop))
            .map_err(|e| usage(&format!("cannot save the inventory: {e}")))?;
    }
    let inputs: Vec<SpecInput<'_>> = specs
        .iter()
        .filter_map(|l| {
            Some(SpecInput {
                file: &l.file,
                source: &l.source,
                spec: l.spec.as_ref()?,
            })
        })
        .collect();
    // Time predicates are judged at --now, else at the inventory's collected_at, else at
    // the clock when the run started (language.md).
    let started = crate::predicates::instant_of(&now);
    let reference = match &args.now {
        Some(_) => started,
        None => eval::reference_time(&inventory, started),
    };
    let started = std::time::Instant::now();
    let mut outcome = eval::evaluate_at(
        &inputs,
        &inventory,
        eval::default_threads(),
        eval::Limits::default(),
        reference,
    );
    tracing::debug!(
        "evaluated {} rules in {:.3} s",
        outcome.rules().count(),
        started.elapsed().as_secs_f64()
    );
    audit.apply(&mut outcome, &inventory, now)?;
    if !args.quiet {
        for warning in &outcome.warnings {
            tracing::warn!("{warning}");
        }
    }
    write_reports(args, &targets, &outcome)?;
    if let Some(dir) = &args.output_dir {
        write_output_dir(dir, now, &outcome, &inventory, passing(args), args.quiet)?;
    }
    let status = exit_status(
        &outcome,
        &ExitPolicy {
            fail_on_unknown: args.fail_on_unknown,
            fail_on,
            only_new: args.fail_on_new,
        },
    );
    // The process ends next: leave the inventory and the outcome (millions of small
    // allocations on a big account) to the operating system rather than freeing them one
    // by one (bench/README.md).
    std::mem::forget(outcome);
    std::mem::forget(inventory);
    Ok(status)
}

/// Loads every selected source through the provider seam and joins them into one
/// inventory; also returns the providers the loaded inventories name.
///
/// Sources that can read only part of their input are given the properties the specs read
/// (and `tags` for `--waivers`), unless the run writes the inventory out again
/// (`--save-inventory`, `--output-dir`): most of a big inventory is properties no rule
/// looks at, and the outcome is the same (ARCHITECTURE.md, "A projected load evaluates as
/// a full one").
fn load_inventory(
    args: &RunArgs,
    sources: &[Selected<'_>],
    schemas: &[Option<SchemaSet>],
    specs: &[&Spec],
) -> Result<(Inventory, Vec<String>), u8> {
    let keep = (args.save_inventory.is_none() && args.output_dir.is_none()).then(|| {
        let mut keep = eval::projection(specs.iter().copied());
        if args.waivers.is_some() {
            keep.keep_whole("tags");
        }
        keep
    });
    let mut parts = Vec::with_capacity(sources.len());
    let mut named = Vec::new();
    for (source, schemas) in sources.iter().zip(schemas) {
        let plan = match schemas {
            Some(schemas) => crate::plan::plan(specs, schemas),
            None => crate::plan::plan(specs, &SchemaSet::new(source.provider.name())),
        };
        let request = LoadRequest {
            plan: &plan,
            keep: keep.as_ref(),
            options: &source.options,
        };
        let inventory = source
            .provider
            .load(&request)
            .map_err(|e| usage(&e.message))?;
        if let Some(provider) = &inventory.provider {
            named.push(provider.clone());
        }
        parts.push(Part {
            label: source.label(),
            inventory,
        });
    }
    let inventory = cloudspec_model::merge(parts).map_err(|e| usage(&e.to_string()))?;
    Ok((inventory, named))
}

/// Renders and writes every `--format` target.
fn write_reports(args: &RunArgs, targets: &[Target], outcome: &RunOutcome) -> Result<(), u8> {
    let color_out = super::use_color(&args.color, std::io::stdout().is_terminal());
    for target in targets {
        let options = RenderOptions {
            color: color_out && target.file.is_none(),
            passing: passing(args),
        };
        let started = std::time::Instant::now();
        write_report(target, |out| {
            report::write(target.format, outcome, &options, out)
        })
        .map_err(|m| usage(&m))?;
        tracing::debug!(
            "wrote the {} report in {:.3} s",
            target.format.name(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `--report-passing`: clap accepts only `all` and `none`.
fn passing(args: &RunArgs) -> Passing {
    match args.report_passing.as_str() {
        "none" => Passing::Omitted,
        _ => Passing::Listed,
    }
}

/// Writes the JSON report, JUnit, SARIF and the inventory into the output directory.
fn write_output_dir(
    dir: &Path,
    now: DateTime<Utc>,
    outcome: &RunOutcome,
    inventory: &Inventory,
    passing: Passing,
    quiet: bool,
) -> Result<(), u8> {
    let plain = &RenderOptions {
        color: false,
        passing,
    };
    let report =
        |format: Format| move |out: &mut dyn Write| report::write(format, outcome, plain, out);
    let (json, junit, sarif) = (
        report(Format::Json),
        report(Format::Junit),
        report(Format::Sarif),
    );
    let saved = |out: &mut dyn Write| inventory.write_json(out).map(drop);
    let files = output_dir::RunFiles {
        report_json: &json,
        junit: &junit,
        sarif: &sarif,
        inventory: &saved,
    };
    let (stamp, written) = output_dir::write_run(dir, now, &files, output_dir::crash_after())
        .map_err(|m| usage(&m))?;
    if !quiet {
        tracing::info!(
            "wrote {} files to {} ({stamp}.* and latest.*)",
            written.len(),
            dir.display()
        );
    }
    Ok(())
}

/// What sets exit status 1.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExitPolicy {
    /// An unknown rule counts as a failure.
    pub fail_on_unknown: bool,
    /// Only rules at or above this severity count (a rule without one counts as medium).
    pub fail_on: Option<Severity>,
    /// Only failures marked `new` against the baseline count (`--fail-on-new`).
    pub only_new: bool,
}

/// The exit status of a finished evaluation (language.md): 3 when a rule is `error`, else
/// 1 when a rule that counts fails, else 0.
pub fn exit_status(outcome: &RunOutcome, policy: &ExitPolicy) -> u8 {
    let counts = |severity: Option<&str>| match policy.fail_on {
        None => true,
        Some(min) => {
            severity
                .and_then(Severity::parse)
                .unwrap_or(Severity::Medium)
                >= min
        }
    };
    let any = |s: Status| {
        outcome
            .rules()
            .any(|(_, _, r)| r.status == s && counts(r.severity.as_deref()))
    };
    let new_failure = |r: &RuleOutcome| {
        r.resources
            .iter()
            .any(|x| x.status == Status::Fail && x.drift == Some(Drift::New))
    };
    let fails = if policy.only_new {
        outcome.rules().any(|(_, _, r)| {
            r.status == Status::Fail && new_failure(r) && counts(r.severity.as_deref())
        })
    } else {
        any(Status::Fail)
    };
    if outcome.rules().any(|(_, _, r)| r.status == Status::Error) {
        EXIT_INCOMPLETE
    } else if fails || (policy.fail_on_unknown && any(Status::Unknown)) {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}

/// Logs an error; returns exit status 2.
fn usage(message: &str) -> u8 {
    super::fail(message)
}

/// Parses `--format F[=FILE]` values; no format means the console report on stdout.
fn targets(formats: &[String], output: Option<&Path>) -> Result<Vec<Target>, String> {
    let mut out = Vec::new();
    for spec in formats {
        let (name, file) = match spec.split_once('=') {
            Some((name, file)) if !file.is_empty() => (name, Some(PathBuf::from(file))),
            Some((name, _)) => {
                return Err(format!(
                    "--format {spec}: the file name after \"{name}=\" is empty"
                ))
            }
            None => (spec.as_str(), None),
        };
        let format = Format::parse(name).ok_or_else(|| {
            format!("--format {spec}: unknown format \"{name}\" (expected console, json, junit or sarif)")
        })?;
        out.push(Target { format, file });
    }
    if out.is_empty() {
        out.push(Target {
            format: Format::Console,
            file: None,
        });
    }
    let to_stdout = out.iter().filter(|t| t.file.is_none()).count();
    if let Some(path) = output {
        if to_stdout != 1 {
            return Err(
                "--output names one file, but there is not exactly one --format without =FILE"
                    .into(),
            );
        }
        for t in out.iter_mut().filter(|t| t.file.is_none()) {
            t.file = Some(path.to_path_buf());
        }
    } else if to_stdout > 1 {
        return Err("several formats would go to stdout: give each but one a file (--format json=report.json)".into());
    }
    Ok(out)
}

fn write_report(
    target: &Target,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    match &target.file {
        None => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut stdout)
                .and_then(|_| stdout.flush())
                .map_err(|e| {
                    format!(
                        "cannot write the {} report to stdout: {e}",
                        target.format.name()
                    )
                })
        }
        Some(path) => super::files::write_file(path, write)
            .map_err(|e| format!("cannot write the {} report: {e}", target.format.name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_target_is_console_on_stdout() {
        assert_eq!(
            targets(&[], None).unwrap(),
            vec![Target {
                format: Format::Console,
                file: None
            }]
        );
    }

    #[test]
    fn format_with_file() {
        let t = targets(&["junit=out.xml".into(), "console".into()], None).unwrap();
        assert_eq!(
            t[0],
            Target {
                format: Format::Junit,
                file: Some("out.xml".into())
            }
        );
        assert_eq!(t[1].file, None);
    }

    #[test]
    fn bad_formats_are_errors() {
        assert_eq!(
            targets(&["xml".into()], None).unwrap_err(),
            "--format xml: unknown format \"xml\" (expected console, json, junit or sarif)"
        );
        assert_eq!(
            targets(&["json".into(), "junit".into()], None).unwrap_err(),
            "several formats would go to stdout: give each but one a file (--format json=report.json)"
        );
        assert_eq!(
            targets(&["json=".into()], None).unwrap_err(),
            "--format json=: the file name after \"json=\" is empty"
        );
    }
}
