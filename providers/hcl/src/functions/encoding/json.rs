//! `jsonencode`, `jsondecode` (cty's stdlib, through `crate::json`).

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::types::Type;
use crate::value::Value;

// ---------------------------------------------------------------------------------------
// JSON (cty's json package, via crate::json).

pub(super) fn jsonencode(args: &[Value]) -> Result<Value, FuncError> {
    let v = args
        .first()
        .ok_or_else(|| FuncError::new("missing argument"))?;
    if !v.is_wholly_known() {
        return Ok(Value::Unknown(Type::String));
    }
    if v.is_null() {
        return Ok(Value::String("null".to_string()));
    }
    crate::json::encode(v)
        .map(Value::String)
        .map_err(FuncError::new)
}

pub(super) fn jsondecode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    crate::json::decode_go(s).map_err(FuncError::new)
}
