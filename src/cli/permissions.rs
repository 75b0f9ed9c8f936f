//! STUB: `cloudspec permissions`.
use super::{PermissionsArgs, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "";

pub(super) fn permissions(_args: PermissionsArgs) -> u8 {
    eprintln!("error: `cloudspec permissions` is not available yet");
    EXIT_USAGE
}
