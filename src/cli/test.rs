//! STUB: `cloudspec test`.
use super::{TestArgs, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "";

pub(super) fn test(_args: TestArgs) -> u8 {
    eprintln!("error: `cloudspec test` is not available yet");
    EXIT_USAGE
}
