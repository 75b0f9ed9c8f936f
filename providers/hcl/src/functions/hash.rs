//! Hash and crypto functions, as Terraform 1.5 defines them (`internal/lang/funcs/crypto.go`):
//! `base64sha256`, `base64sha512`, `md5`, `sha1`, `sha256`, `sha512` and `uuidv5`.
//!
//! Strings are hashed as their UTF-8 bytes; hex digests are lowercase; Base64 uses the
//! standard alphabet with padding. The impure `uuid` and `bcrypt` and the file-reading
//! `file*` variants are not provided.

use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

use super::conversion::str_arg;
use super::encoding::base64_encode;
use super::{FuncError, Function, FunctionTable, Param};
use crate::types::Type;
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(string_fn("base64sha256", base64sha256));
    t.add(string_fn("base64sha512", base64sha512));
    t.add(string_fn("md5", md5));
    t.add(string_fn("sha1", sha1));
    t.add(string_fn("sha256", sha256));
    t.add(string_fn("sha512", sha512));
    t.add(Function::new(
        "uuidv5",
        vec![
            Param::new("namespace", Type::String),
            Param::new("name", Type::String),
        ],
        Type::String,
        uuidv5,
    ));
}

/// A function of one string parameter `str` returning a string.
fn string_fn(name: &'static str, imp: fn(&[Value]) -> Result<Value, FuncError>) -> Function {
    Function::new(
        name,
        vec![Param::new("str", Type::String)],
        Type::String,
        imp,
    )
}

/// Lowercase hexadecimal, as Go's `hex.EncodeToString`.
pub(crate) fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

fn base64sha256(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(base64_encode(&Sha256::digest(s.as_bytes()))))
}

fn base64sha512(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(base64_encode(&Sha512::digest(s.as_bytes()))))
}

fn md5(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex_encode(&Md5::digest(s.as_bytes()))))
}

fn sha1(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex_encode(&Sha1::digest(s.as_bytes()))))
}

fn sha256(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex_encode(&Sha256::digest(s.as_bytes()))))
}

fn sha512(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex_encode(&Sha512::digest(s.as_bytes()))))
}

/// The RFC 4122 namespaces Terraform accepts by name.
const NAMESPACE_DNS: [u8; 16] = [
    0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
];
const NAMESPACE_URL: [u8; 16] = [
    0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
];
const NAMESPACE_OID: [u8; 16] = [
    0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
];
const NAMESPACE_X500: [u8; 16] = [
    0x6b, 0xa7, 0xb8, 0x14, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
];

/// `uuidv5(namespace, name)`: a name-based (SHA-1) UUID. The namespace is `dns`, `url`,
/// `oid`, `x500` or a UUID in any form `github.com/google/uuid.Parse` accepts.
fn uuidv5(args: &[Value]) -> Result<Value, FuncError> {
    let ns = str_arg(args, 0)?;
    let name = str_arg(args, 1)?;
    let namespace = match ns {
        "dns" => NAMESPACE_DNS,
        "url" => NAMESPACE_URL,
        "oid" => NAMESPACE_OID,
        "x500" => NAMESPACE_X500,
        other => parse_uuid(other).map_err(|e| {
            FuncError::new(format!("uuidv5() doesn't support namespace {other} ({e})"))
        })?,
    };
    let mut h = Sha1::new();
    h.update(namespace);
    h.update(name.as_bytes());
    let sum = h.finalize();
    let mut u = [0u8; 16];
    for (d, s) in u.iter_mut().zip(sum.iter()) {
        *d = *s;
    }
    u[6] = (u[6] & 0x0f) | 0x50;
    u[8] = (u[8] & 0x3f) | 0x80;
    Ok(Value::String(format_uuid(&u)))
}

fn format_uuid(u: &[u8; 16]) -> String {
    let h = hex_encode(u);
    let part = |a: usize, b: usize| h.get(a..b).unwrap_or_default();
    format!(
        "{}-{}-{}-{}-{}",
        part(0, 8),
        part(8, 12),
        part(12, 16),
        part(16, 20),
        part(20, 32)
    )
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// `github.com/google/uuid.Parse`: 36 characters with dashes, `urn:uuid:` + 36,
/// 38 characters (braces; the brace characters themselves are not checked), or 32 hex digits.
fn parse_uuid(s: &str) -> Result<[u8; 16], String> {
    let b = s.as_bytes();
    let invalid = || "invalid UUID format".to_string();
    let pair = |b: &[u8], i: usize| -> Option<u8> {
        let hi = hex_val(*b.get(i)?)?;
        let lo = hex_val(*b.get(i + 1)?)?;
        Some(hi << 4 | lo)
    };
    let body: &[u8] = match b.len() {
        36 => b,
        45 => {
            let prefix = b.get(..9).unwrap_or_default();
            if !prefix.eq_ignore_ascii_case(b"urn:uuid:") {
                let shown = String::from_utf8_lossy(prefix);
                return Err(format!(
                    "invalid urn prefix: {}",
                    crate::types::go_quote(&shown)
                ));
            }
            b.get(9..).unwrap_or_default()
        }
        38 => b.get(1..).unwrap_or_default(),
        32 => {
            let mut u = [0u8; 16];
            for (i, d) in u.iter_mut().enumerate() {
                *d = pair(b, i * 2).ok_or_else(invalid)?;
            }
            return Ok(u);
        }
        n => return Err(format!("invalid UUID length: {n}")),
    };
    if [8, 13, 18, 23].iter().any(|&i| body.get(i) != Some(&b'-')) {
        return Err(invalid());
    }
    const OFFSETS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    let mut u = [0u8; 16];
    for (d, &x) in u.iter_mut().zip(OFFSETS.iter()) {
        *d = pair(body, x).ok_or_else(invalid)?;
    }
    Ok(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[&str]) -> Result<String, String> {
        let args: Vec<Value> = args.iter().map(|s| Value::String(s.to_string())).collect();
        let mut t = FunctionTable::empty();
        register(&mut t);
        match t.call(name, &args) {
            Ok(Value::String(s)) => Ok(s),
            Ok(other) => Err(format!("not a string: {other:?}")),
            Err(e) => Err(e.message),
        }
    }

    #[test]
    fn digests_match_terraform() {
        assert_eq!(
            call("base64sha256", &["test"]).unwrap(),
            "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="
        );
        assert_eq!(
            call("base64sha512", &["test"]).unwrap(),
            "7iaw3Ur350mqGo7jwQrpkj9hiYB3Lkc/iBml1JQODbJ6wYX4oOHV+E+IvIh/1nsUNzLDBMxfqa2Ob1f1ACio/w=="
        );
        assert_eq!(
            call("md5", &["tada"]).unwrap(),
            "ce47d07243bb6eaf5e1322c81baf9bbf"
        );
        assert_eq!(
            call("sha1", &["test"]).unwrap(),
            "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
        );
        assert_eq!(
            call("sha256", &["test"]).unwrap(),
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        );
        assert_eq!(
            call("sha512", &["test"]).unwrap(),
            "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db27ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff"
        );
        assert_eq!(
            call("md5", &[""]).unwrap(),
            "d41d8cd98f00b204e9800998ecf8427e"
        );
    }

    #[test]
    fn uuidv5_namespaces() {
        let cases = [
            ("dns", "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"),
            ("url", "2c1ff6b4-211f-577e-94de-d978b0caa16e"),
            ("oid", "61eeea26-5176-5288-87fc-232d6ed30d2f"),
            ("x500", "7e12415e-f7c9-57c3-9e43-52dc9950d264"),
            (
                "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                "faa898db-9b9d-5b75-86a9-149e7bb8e3b8",
            ),
            (
                "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                "faa898db-9b9d-5b75-86a9-149e7bb8e3b8",
            ),
            (
                "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
                "faa898db-9b9d-5b75-86a9-149e7bb8e3b8",
            ),
            (
                "6BA7B8109DAD11D180B400C04FD430C8",
                "faa898db-9b9d-5b75-86a9-149e7bb8e3b8",
            ),
        ];
        for (ns, want) in cases {
            assert_eq!(call("uuidv5", &[ns, "tada"]).unwrap(), want, "{ns}");
        }
    }

    #[test]
    fn uuidv5_errors() {
        assert_eq!(
            call("uuidv5", &["bogus", "x"]).unwrap_err(),
            "uuidv5() doesn't support namespace bogus (invalid UUID length: 5)"
        );
        assert_eq!(
            call("uuidv5", &["6ba7b810-9dad-11d1-80b4-00c04fd430cZ", "x"]).unwrap_err(),
            "uuidv5() doesn't support namespace 6ba7b810-9dad-11d1-80b4-00c04fd430cZ (invalid UUID format)"
        );
        assert_eq!(
            call("uuidv5", &["urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x"]).unwrap_err(),
            "uuidv5() doesn't support namespace urx:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8 (invalid urn prefix: \"urx:uuid:\")"
        );
    }
}
