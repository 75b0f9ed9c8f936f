//! `yamldecode`, `yamlencode` (go-cty-yaml v1.0.3, reproduced in `crate::gocompat::yaml`).

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::value::Value;

// ---------------------------------------------------------------------------------------
// YAML.

pub(super) fn yamldecode(args: &[Value]) -> Result<Value, FuncError> {
    crate::gocompat::yaml::decode(str_arg(args, 0)?).map_err(FuncError::new)
}

pub(super) fn yamlencode(args: &[Value]) -> Result<Value, FuncError> {
    let v = args
        .first()
        .ok_or_else(|| FuncError::new("missing argument"))?;
    crate::gocompat::yaml::encode(v)
        .map(Value::String)
        .map_err(FuncError::new)
}
