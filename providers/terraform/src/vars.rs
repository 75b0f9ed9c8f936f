//! The root module's input variables (`design/terraform.md` section 7): declared type and
//! `optional()` defaults, then in increasing precedence: default, `TF_VAR_name`,
//! `terraform.tfvars`, `terraform.tfvars.json`, `*.auto.tfvars[.json]` in lexical order,
//! `--var`/`--var-file` in command order.

use std::path::PathBuf;

/// One `--var NAME=VALUE` or `--var-file FILE`, in command order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarArg {
    Value { name: String, value: String },
    File(PathBuf),
}
