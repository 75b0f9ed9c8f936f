//! STUB: `cloudspec fmt`.
use super::FmtArgs;

pub(super) const AFTER_HELP: &str = "";

pub(super) fn fmt(_args: FmtArgs) -> u8 {
    0
}
