//! YAML as go-cty-yaml v1.0.3 (Terraform 1.5's `yamldecode`/`yamlencode`) does it.
//!
//! Decoding reads events from saphyr-parser (a libyaml-derived parser) and applies
//! go-cty-yaml's two passes: the implied type first, then the value converted to that
//! type (which is how quoted and block scalars become strings). Errors are worded and
//! positioned as go-cty-yaml does: `on line L, column C: ...` with libyaml's zero-based
//! line number and one-based column, and no position for errors on the first line.
//!
//! Encoding is a port of the libyaml emitter (as vendored by go-cty-yaml), limited to
//! the events go-cty-yaml produces: no tags, no anchors, block style collections.

//!
//! Why not a crate: serde_yaml and saphyr emit YAML with other quoting, indentation, folding
//! and document markers, and resolve plain scalars by YAML 1.2 rules (`yes` is a string
//! there, a bool in go-cty-yaml); their errors are not libyaml's. saphyr-parser supplies the
//! event stream; everything on top of it follows go-cty-yaml.

mod decode;
mod emit;
#[cfg(test)]
mod tests;

pub(crate) use decode::decode;
pub(crate) use emit::encode;

use crate::number::Number;

/// Deepest nesting of collections accepted (libyaml allows 10000; values nested that
/// deeply are not useful and would strain recursive consumers).
pub(super) const MAX_DEPTH: usize = 1000;

pub(super) const TAG_STR: &str = "tag:yaml.org,2002:str";
pub(super) const TAG_BOOL: &str = "tag:yaml.org,2002:bool";
pub(super) const TAG_INT: &str = "tag:yaml.org,2002:int";
pub(super) const TAG_FLOAT: &str = "tag:yaml.org,2002:float";
pub(super) const TAG_NULL: &str = "tag:yaml.org,2002:null";
pub(super) const TAG_TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
pub(super) const TAG_BINARY: &str = "tag:yaml.org,2002:binary";
pub(super) const TAG_MAP: &str = "tag:yaml.org,2002:map";
pub(super) const TAG_SEQ: &str = "tag:yaml.org,2002:seq";

/// A number as cty writes it for YAML and for number-to-string conversion.
fn number_text(n: &Number) -> String {
    n.to_string()
}
