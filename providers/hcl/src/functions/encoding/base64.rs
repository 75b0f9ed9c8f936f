//! `base64decode`, `base64encode`, `base64gzip` (Terraform's `encoding.go`).

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::gocompat::base64 as b64;
use crate::gocompat::quote::go_quote;
use crate::value::Value;

pub(super) fn base64decode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let bytes = b64::decode(s.as_bytes())
        .map_err(|_| FuncError::new(format!("failed to decode base64 data {}", go_quote(s))))?;
    String::from_utf8(bytes).map(Value::String).map_err(|_| {
        FuncError::new("the result of decoding the provided string is not valid UTF-8")
    })
}

pub(super) fn base64encode(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::String(b64::encode(str_arg(args, 0)?.as_bytes())))
}

pub(super) fn base64gzip(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(b64::encode(&crate::gocompat::gzip::gzip_go(
        s.as_bytes(),
    ))))
}
