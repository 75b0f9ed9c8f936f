//! STUB: `cloudspec diff`.
use super::{DiffArgs, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "";

pub(super) fn diff(_args: DiffArgs) -> u8 {
    eprintln!("error: `cloudspec diff` is not available yet");
    EXIT_USAGE
}
