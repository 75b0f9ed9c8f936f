//! Live collection for `cloudspec run` without `--inventory`: the specs give a collection
//! plan (`crate::plan`), the AWS provider collects it. Progress and the closing summary go
//! to stderr; failures of single calls are in the inventory's errors, not here.
use super::RunArgs;
use crate::model::Inventory;
use crate::syntax::ast::Spec;

/// Collects what `specs` need from the live account. `Err` carries the exit status after
/// the error has been printed.
#[cfg(feature = "live-aws")]
pub(super) fn live(args: &RunArgs, specs: &[&Spec]) -> Result<Inventory, u8> {
    use std::io::IsTerminal;

    let schemas = cloudspec_aws::schemas();
    if specs.iter().any(|s| {
        crate::check::check(s, &schemas)
            .iter()
            .any(|d| d.is_error())
    }) {
        // Invalid specs: collect nothing; `run` checks them against the AWS schemas next
        // and reports every problem.
        let mut builder = crate::model::InventoryBuilder::new();
        builder.set_provider(Some("aws".to_string()));
        return Ok(builder.finish());
    }
    init_debug_log();
    let plan = crate::plan::plan(specs, &schemas);
    let options = cloudspec_aws::collect::Options {
        regions: args.regions.clone(),
        all_regions: args.all_regions,
        profile: args.profile.clone(),
        concurrency: usize::try_from(args.concurrency).unwrap_or(16),
        progress: !args.quiet && std::io::stderr().is_terminal(),
    };
    match cloudspec_aws::collect::collect_blocking(&plan, &options) {
        Ok((inventory, stats)) => {
            if !args.quiet {
                eprintln!("{stats}");
            }
            Ok(inventory)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(super::EXIT_USAGE)
        }
    }
}

/// `CLOUDSPEC_LOG=debug` logs every AWS API call (and collection error) on stderr.
#[cfg(feature = "live-aws")]
fn init_debug_log() {
    let Ok(filter) = std::env::var("CLOUDSPEC_LOG") else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::new(format!("cloudspec_aws={filter}"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// Built without the `live-aws` feature: only saved inventories can be evaluated.
#[cfg(not(feature = "live-aws"))]
pub(super) fn live(_args: &RunArgs, _specs: &[&Spec]) -> Result<Inventory, u8> {
    eprintln!(
        "error: no inventory given: pass --inventory FILE (this build has no live AWS \
         collection; build with the `live-aws` feature)"
    );
    Err(super::EXIT_USAGE)
}
