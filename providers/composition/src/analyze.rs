//! Parsing and the static passes (contract section 3, "Static checks").

use crate::{Composition, Failure};

/// A parsed, checked composition, ready to evaluate.
pub(crate) struct Program {}

pub(crate) fn compile(composition: &Composition) -> Result<Program, Failure> {
    let _ = composition;
    Err(Failure::message("not yet implemented"))
}
