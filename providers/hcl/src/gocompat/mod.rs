//! Reproductions of Go standard-library (and Go ecosystem) behaviour that Terraform's and
//! HCL's output shows byte for byte: one file per Go package. Each file says which Go
//! functions it mirrors and why a Rust crate cannot stand in for it: the point of this code
//! is to write exactly Go's bytes (escapes, error texts, offsets, float digits, compressed
//! streams), which general-purpose Rust crates do differently, if equally correctly.
//!
//! Nothing here depends on the evaluator or on the function table: `functions`, `json`,
//! `types` and `hcldec` call into these modules, never the other way round.

pub(crate) mod base64;
pub(crate) mod cidr;
pub(crate) mod csv;
pub(crate) mod flate;
pub(crate) mod fmt;
pub(crate) mod gzip;
pub(crate) mod ianaindex;
pub(crate) mod json;
pub(crate) mod json_indent;
pub(crate) mod math;
pub(crate) mod net;
pub(crate) mod pem;
pub(crate) mod quote;
pub(crate) mod regexp;
pub(crate) mod rsa;
pub(crate) mod time;
pub(crate) mod unicode;
pub(crate) mod yaml;
