//! Loads an inventory and evaluates a spec against it, as `cloudspec run` does, and prints
//! load time, evaluation time, rule x resource evaluations per second and peak memory.
//!
//! `bench-eval INVENTORY [SPEC] [--runs 3] [--threads N] [--rules] [--full]` (SPEC defaults
//! to `bench/rules/typical.cloudspec`; `--threads 1` loads on one thread; `--rules` prints
//! each rule's own evaluation time, on stderr). Like `cloudspec run --inventory`, the load
//! keeps only the properties the spec reads; `--full` loads every property. `--load-only`
//! loads and evaluates nothing, for profiling the load alone (the last run's inventory is
//! not dropped, so that a profile of one run holds no drop).
//!
//! Time predicates are judged against the inventory's `collected_at`, else against
//! [`BENCH_NOW`] (the generator writes no `collected_at`), never the clock, so the verdicts
//! and the work do not depend on the day of the run.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use cloudspec::eval::{evaluate_at, Limits, SpecInput};
use cloudspec::model::Inventory;
use cloudspec_bench::{arg_parsed, arg_value, peak_rss_bytes};

/// The reference time of time predicates for an inventory without `collected_at`.
const BENCH_NOW: &str = "2026-11-22T07:00:00Z";

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positional: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with("--")
                && (*i == 0 || !matches!(args[i - 1].as_str(), "--runs" | "--threads"))
        })
        .map(|(_, a)| a)
        .collect();
    let Some(inventory) = positional.first() else {
        eprintln!("usage: bench-eval INVENTORY [SPEC] [--runs N] [--threads N] [--rules] [--full] [--load-only]");
        return ExitCode::from(2);
    };
    let spec_path = positional.get(1).map(|s| s.as_str()).unwrap_or(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/typical.cloudspec"
    ));
    let runs: usize = arg_parsed(&args, "--runs", 3);
    let threads: Option<usize> = arg_value(&args, "--threads").and_then(|s| s.parse().ok());
    let options = Options {
        runs,
        threads,
        per_rule: args.iter().any(|a| a == "--rules"),
        full: args.iter().any(|a| a == "--full"),
        load_only: args.iter().any(|a| a == "--load-only"),
    };
    match bench(Path::new(inventory), Path::new(spec_path), &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

struct Options {
    runs: usize,
    threads: Option<usize>,
    per_rule: bool,
    /// Load every property instead of the spec's projection.
    full: bool,
    /// Load only: no evaluation, and the last run's inventory is not dropped.
    load_only: bool,
}

fn bench(inventory: &Path, spec_path: &Path, options: &Options) -> Result<(), String> {
    let &Options {
        runs,
        threads,
        per_rule,
        full,
        load_only,
    } = options;
    let source =
        std::fs::read_to_string(spec_path).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let parsed = cloudspec::syntax::parse(&source);
    let spec = parsed
        .ok()
        .filter(|_| !parsed.has_errors())
        .ok_or_else(|| format!("{}: the spec has errors", spec_path.display()))?;
    let rules: usize = spec.groups.iter().map(|g| g.rules.len()).sum();
    let size = std::fs::metadata(inventory)
        .map_err(|e| e.to_string())?
        .len() as f64;
    let mut loads = Vec::new();
    let mut evals = Vec::new();
    let mut rule_times = Vec::new();
    let mut evaluations = 0usize;
    let mut load_peak = 0u64;
    let mut resources = 0usize;
    for run in 1..=runs.max(1) {
        let started = Instant::now();
        let keep = cloudspec::eval::projection([spec]);
        let threads = threads.unwrap_or_else(cloudspec::eval::default_threads);
        let inv = if full {
            Inventory::load_with_threads(inventory, threads)
        } else {
            Inventory::load_projected_with_threads(inventory, threads, &keep)
        }
        .map_err(|e| e.to_string())?;
        loads.push(started.elapsed().as_secs_f64());
        load_peak = load_peak.max(peak_rss_bytes().unwrap_or(0));
        resources = inv.resources.len();
        if load_only {
            // Earlier runs' inventories are dropped as in a full run: memory stays that of
            // one inventory, and each run's peak is its own.
            if run == runs.max(1) {
                std::mem::forget(inv);
            }
            continue;
        }
        let started = Instant::now();
        let input = SpecInput {
            file: "typical.cloudspec",
            source: &source,
            spec,
        };
        let now = inv
            .collected_at
            .as_deref()
            .and_then(cloudspec::predicates::parse_instant)
            .or_else(|| cloudspec::predicates::parse_instant(BENCH_NOW))
            .ok_or("the reference time is not a timestamp")?;
        // As `cloudspec::eval::evaluate`: rules spread over the cores (at most 8).
        let eval_threads = cloudspec::eval::default_threads();
        let outcome = evaluate_at(&[input], &inv, eval_threads, Limits::default(), now);
        evals.push(started.elapsed().as_secs_f64());
        evaluations = rules_x_resources(&outcome, &inv, spec);
        if per_rule {
            for r in outcome
                .specs
                .iter()
                .flat_map(|s| &s.groups)
                .flat_map(|g| &g.rules)
            {
                eprintln!("{:.3} s  {}", r.elapsed_secs, r.name);
            }
        }
        rule_times.push(
            outcome
                .specs
                .iter()
                .flat_map(|s| &s.groups)
                .flat_map(|g| &g.rules)
                .map(|r| r.elapsed_secs)
                .sum::<f64>(),
        );
        resources = inv.resources.len();
        std::hint::black_box(&outcome);
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (load, eval) = (best(&loads), best(&evals));
    if load_only {
        println!(
            "load            best {load:.3} s ({:.0} MB/s; {resources} resources, runs {:.3?})",
            size / 1e6 / load,
            loads
        );
        return Ok(());
    }
    println!(
        "inventory       {} ({:.1} MB, {resources} resources)",
        inventory.display(),
        size / 1e6
    );
    println!("rules           {rules}");
    println!(
        "load            best {load:.3} s ({:.0} MB/s)",
        size / 1e6 / load
    );
    println!(
        "evaluate        best {eval:.3} s ({evaluations} rule x resource evaluations, {:.2} M/s)",
        evaluations as f64 / eval / 1e6
    );
    println!(
        "rules' own time {:.3} s summed over rules (the evaluation's work on all threads)",
        best(&rule_times)
    );
    println!("load + evaluate best {:.3} s", load + eval);
    println!(
        "peak memory     {:.1} MB ({:.2}x the file)",
        peak_rss_bytes().unwrap_or(0) as f64 / 1e6,
        peak_rss_bytes().unwrap_or(0) as f64 / size
    );
    let kept = if full {
        "every property"
    } else {
        "the properties the spec reads"
    };
    println!(
        "  after load    {:.1} MB (the inventory, {kept}; the rest is evaluation)",
        load_peak as f64 / 1e6
    );
    Ok(())
}

/// Resources of each rule's type, summed over the rules: the evaluations the run made.
fn rules_x_resources(
    _outcome: &cloudspec::outcome::RunOutcome,
    inv: &Inventory,
    spec: &cloudspec::syntax::ast::Spec,
) -> usize {
    spec.groups
        .iter()
        .flat_map(|g| &g.rules)
        .map(|r| inv.of_type(&r.on.value).len())
        .sum()
}
