//! Evaluating a root module and the modules it calls, with Terraform's semantics.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::vars::VarArg;
use crate::{Evaluated, Failure};

/// What to evaluate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The root module's directory.
    pub root: PathBuf,
    /// `--var` and `--var-file`, in command order.
    pub vars: Vec<VarArg>,
    /// The environment's `TF_VAR_*` variables, by name without the prefix.
    pub env: BTreeMap<String, String>,
}

/// Evaluates the root module at `options.root`.
pub fn evaluate(options: &Options) -> Result<Evaluated, Failure> {
    let _ = options;
    Err(Failure::message("not yet implemented"))
}
