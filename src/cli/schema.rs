//! STUB: `cloudspec schema`.
use super::{SchemaArgs, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "";

pub(super) fn schema(_args: SchemaArgs) -> u8 {
    eprintln!("error: `cloudspec schema` is not available yet");
    EXIT_USAGE
}
