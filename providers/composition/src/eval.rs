//! One call of the function: blocks, scopes, incomplete values, merging.

use crate::analyze::Program;
use crate::request::Request;
use crate::response::State;
use crate::Failure;

pub(crate) fn run(program: &Program, req: &Request) -> Result<State, Failure> {
    let _ = (program, req);
    Err(Failure::message("not yet implemented"))
}
