//! STUB: scheduled-audit steps of `cloudspec run`: waivers and baselines.
use super::RunArgs;
use crate::outcome::RunOutcome;

/// Applies `--waivers` and `--baseline` to a finished outcome. `Err` carries the exit
/// status after the error has been printed.
pub(super) fn apply(_args: &RunArgs, _outcome: &mut RunOutcome) -> Result<(), u8> {
    Ok(())
}
