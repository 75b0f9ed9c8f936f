//! `textencodebase64`, `textdecodebase64`: text encodings by IANA name and alias, as
//! `golang.org/x/text/encoding/ianaindex` finds them (Terraform's `encoding.go`); the
//! index and the encodings are `crate::gocompat::ianaindex`.

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::gocompat::ianaindex::{decode_text, encode_text, lookup_encoding, TextEncoding};
use crate::gocompat::quote::go_quote;
use crate::value::Value;

/// [`lookup_encoding`], with Terraform's error for an unknown name.
fn encoding_arg(name: &str) -> Result<(&'static str, TextEncoding), FuncError> {
    lookup_encoding(name).ok_or_else(|| {
        FuncError::arg(
            1,
            format!(
                "{} is not a supported IANA encoding name or alias in this Terraform version",
                go_quote(name)
            ),
        )
    })
}

pub(super) fn textencodebase64(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let (name, enc) = encoding_arg(str_arg(args, 1)?)?;
    let bytes = encode_text(s, enc).ok_or_else(|| {
        FuncError::arg(
            0,
            format!("the given string contains characters that cannot be represented in {name}"),
        )
    })?;
    Ok(Value::String(crate::gocompat::base64::encode(&bytes)))
}

pub(super) fn textdecodebase64(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let (name, enc) = encoding_arg(str_arg(args, 1)?)?;
    let bytes = crate::gocompat::base64::decode(s.as_bytes()).map_err(|off| {
        FuncError::arg(
            0,
            format!("the given value is has an invalid base64 symbol at offset {off}"),
        )
    })?;
    match decode_text(&bytes, enc) {
        Some(text) if !text.contains('\u{fffd}') => Ok(Value::String(text)),
        _ => Err(FuncError::arg(
            0,
            format!("the given string contains symbols that are not defined for {name}"),
        )),
    }
}
