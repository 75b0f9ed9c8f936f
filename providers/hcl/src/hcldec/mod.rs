//! hcldec: HCL's spec-driven decoding (the `hcldec` package and the `hcldec` command of
//! HashiCorp's HCL), used by `cloudspec hcldec`.
//!
//! A *spec file* (native syntax) has one root spec block saying how the input body maps to
//! a value (see `docs/hcldec.md` and HCL's `cmd/hcldec/spec-format.md`), plus optional
//! `variables` blocks (values for the input's variables) and `function` blocks (functions
//! the input may call). [`load_spec`] reads it into a [`SpecFile`]; [`decode`] applies its
//! [`Spec`] to a [`crate::body::Body`]; [`cmd::run`] is the whole command.
//!
//! ```
//! use cloudspec_hcl::eval::EvalContext;
//! use cloudspec_hcl::hcldec::{decode, load_spec};
//!
//! let spec_text = "object {\n  attr \"name\" {\n    type = string\n  }\n}\n";
//! let (spec, diags) = load_spec("spec.hcldec", spec_text);
//! assert!(diags.is_empty());
//! let (body, _) = cloudspec_hcl::body::parse_native("in.hcl", "name = \"x\"");
//! let body = body.expect("parsed");
//! let (value, diags) = decode(&body, &spec.root, &EvalContext::empty());
//! assert!(diags.is_empty());
//! let json = cloudspec_hcl::hcldec::cmd::result_json(&value, false, false);
//! assert_eq!(json.as_deref(), Ok(r#"{"name":"x"}"#));
//! ```
//!
//! Differences from HashiCorp's hcldec, all deliberate:
//! - `block_attrs` spec blocks are accepted (hcldec documents and decodes them but leaves
//!   them out of its spec schema, so it rejects them as unsupported).
//! - Type expressions (`type`, `element_type`) are read as HCL's `typeexpr` reads type
//!   constraints, with its "Invalid type specification" errors (hcldec evaluates them as
//!   expressions, so a misspelt `strin` is "Unknown variable" there).
//! - A `default` block with a single spec warns "Useless default block" pointing at that
//!   spec (hcldec points at a second, missing, block and crashes).
//! - Dynamic blocks in the input are expanded (`cmd::run`).
//! - Where cty would panic building a map of values of different types (`block_attrs`
//!   of `any`, or a `block_map` whose nested `transform` gives values of different types),
//!   the values are converted to their unified type, or an error diagnostic is given.
//! - Object specs, and so their diagnostics, go by property name in sorted order (Go's map
//!   order is random).
//! - A call of a user function with an unknown argument gives an unknown value of type
//!   `any` (cty computes the result's type by evaluating the function).

pub mod cmd;
mod funcs;
pub mod gojson;
mod load;
mod spec;
pub mod text;

pub use funcs::spec_functions;
pub use load::{decode_user_functions, load_spec, load_spec_body, spec_context, SpecFile};
pub use spec::{
    decode, implied_schema, implied_type, partial_decode, range_string, source_range, variables,
    AttrSpec, BlockAttrsSpec, BlockListSpec, BlockMapSpec, BlockSpec, Spec, TransformSpec, VarRef,
};
