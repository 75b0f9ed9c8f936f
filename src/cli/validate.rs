//! STUB: `cloudspec validate`.
use super::ValidateArgs;

pub(super) const AFTER_HELP: &str = "";

pub(super) fn validate(_args: ValidateArgs) -> u8 {
    0
}
