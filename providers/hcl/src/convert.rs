//! Type conversion and unification as cty defines them.
//!
//! (Skeleton: the values helper completes this module; the signatures are the contract.)

use crate::types::Type;
use crate::value::Value;

/// Why a conversion failed, worded like cty ("a number is required", "string required",
/// "attribute \"x\" is required", "element 2: number required"...). `path` locates the
/// failing element inside the value (e.g. `[2]`, `.name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Converts `v` to type `want` with cty's standard (unsafe-included) conversions.
pub fn convert(v: &Value, want: &Type) -> Result<Value, ConvertError> {
    if want == &Type::Dynamic || &v.ty() == want {
        return Ok(v.clone());
    }
    Err(ConvertError {
        path: String::new(),
        message: "conversion not implemented yet".into(),
    })
}

/// The single type all of `types` can convert to, if any (cty's `convert.UnifyUnsafe`).
pub fn unify(types: &[Type]) -> Option<Type> {
    let first = types.first()?;
    types.iter().all(|t| t == first).then(|| first.clone())
}
