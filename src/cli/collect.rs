//! STUB: live collection for `cloudspec run` without `--inventory`.
use super::RunArgs;
use crate::model::Inventory;
use crate::syntax::ast::Spec;

/// Collects what `specs` need from the live account. `Err` carries the exit status after
/// the error has been printed.
pub(super) fn live(_args: &RunArgs, _specs: &[&Spec]) -> Result<Inventory, u8> {
    eprintln!(
        "error: no inventory given: pass --inventory FILE (live collection from an AWS \
         account is not available in this build yet)"
    );
    Err(super::EXIT_USAGE)
}
