//! STUB: `cloudspec docs`.
use super::{DocsArgs, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "";

pub(super) fn docs(_args: DocsArgs) -> u8 {
    eprintln!("error: `cloudspec docs` is not available yet");
    EXIT_USAGE
}
