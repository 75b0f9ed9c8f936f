//! STUB: `cloudspec run`.
use super::RunArgs;

pub(super) const AFTER_HELP: &str = "";

pub(super) fn run(_args: RunArgs) -> u8 {
    0
}
