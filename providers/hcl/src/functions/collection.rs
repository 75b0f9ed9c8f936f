//! collection functions.

use super::FunctionTable;

pub fn register(_t: &mut FunctionTable) {}
