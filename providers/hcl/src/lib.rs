//! cloudspec-hcl: an HCL engine with HashiCorp's semantics (cty values and types, native
//! syntax via hcl-edit, expression evaluation, the standard function library).
#![forbid(unsafe_code)]

pub mod body;
pub mod budget;
pub mod convert;
pub mod diag;
pub mod eval;
pub mod functions;
mod gocompat;
pub mod hcldec;
pub mod json;
pub mod number;
mod suggest;
pub use suggest::name_suggestion;
pub mod syntax;
pub mod types;
pub mod value;

pub use diag::{Diagnostic, Diagnostics, Pos, Range, Severity};
pub use number::Number;
pub use types::Type;
pub use value::Value;
