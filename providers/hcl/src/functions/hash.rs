//! Hash and crypto functions, as Terraform 1.5 defines them (`internal/lang/funcs/crypto.go`):
//! `base64sha256`, `base64sha512`, `md5`, `sha1`, `sha256`, `sha512`, `uuidv5` and
//! `rsadecrypt`.
//!
//! Strings are hashed as their UTF-8 bytes; hex digests are lowercase; Base64 uses the
//! standard alphabet with padding. The impure `uuid` and `bcrypt` and the file-reading
//! `file*` variants are not provided.

use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};
use uuid::{Builder, Uuid};

use super::conversion::str_arg;
use super::{FuncError, Function, FunctionTable, Param};
use crate::gocompat::base64::{decode as base64_decode, encode as base64_encode};
use crate::gocompat::rsa::{decrypt_pkcs1v15, parse_raw_private_key, KeyError};
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
    t.add(Function::new(
        "rsadecrypt",
        vec![
            Param::new("ciphertext", Type::String),
            Param::new("privatekey", Type::String),
        ],
        Type::String,
        rsadecrypt,
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
    Ok(Value::String(hex::encode(Md5::digest(s.as_bytes()))))
}

fn sha1(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex::encode(Sha1::digest(s.as_bytes()))))
}

fn sha256(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex::encode(Sha256::digest(s.as_bytes()))))
}

fn sha512(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(hex::encode(Sha512::digest(s.as_bytes()))))
}

/// `uuidv5(namespace, name)`: a name-based (SHA-1) UUID. The namespace is `dns`, `url`,
/// `oid`, `x500` or a UUID in any form `github.com/google/uuid.Parse` accepts.
fn uuidv5(args: &[Value]) -> Result<Value, FuncError> {
    let ns = str_arg(args, 0)?;
    let name = str_arg(args, 1)?;
    let namespace = match ns {
        "dns" => Uuid::NAMESPACE_DNS,
        "url" => Uuid::NAMESPACE_URL,
        "oid" => Uuid::NAMESPACE_OID,
        "x500" => Uuid::NAMESPACE_X500,
        other => Uuid::from_bytes(parse_uuid(other).map_err(|e| {
            FuncError::new(format!("uuidv5() doesn't support namespace {other} ({e})"))
        })?),
    };
    Ok(Value::String(uuid_v5(&namespace, name.as_bytes())))
}

/// RFC 4122 version 5 (as `uuid.NewSHA1`), lowercase and hyphenated as Go's `UUID.String`.
/// The SHA-1 is the `sha1` crate already used for `sha1()`; `uuid::Builder` sets the
/// version and variant bits (so the `uuid` crate needs no hashing feature of its own).
fn uuid_v5(namespace: &Uuid, name: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(namespace.as_bytes());
    h.update(name);
    let sum = h.finalize();
    let mut bytes = [0u8; 16];
    for (d, s) in bytes.iter_mut().zip(sum.iter()) {
        *d = *s;
    }
    Builder::from_sha1_bytes(bytes)
        .into_uuid()
        .hyphenated()
        .to_string()
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
/// Hand-written because `Uuid::parse_str` checks the braces, other lengths (and the error
/// texts, which Terraform shows: `invalid UUID length: 5`) are its own.
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

// ---------------------------------------------------------------------------------------
// rsadecrypt

/// `rsadecrypt(ciphertext, privatekey)`: Terraform 1.5's `RsaDecryptFunc`. The ciphertext is
/// standard Base64; the key is found as `ssh.ParseRawPrivateKey` finds it (Go's lenient
/// `pem.Decode`, then PKCS#1 for `RSA PRIVATE KEY` and PKCS#8 for `PRIVATE KEY`); decryption
/// is Go's `rsa.DecryptPKCS1v15`, which reports any padding failure as an error (all in
/// `gocompat::{pem,rsa}`; this function words the errors as Terraform does).
fn rsadecrypt(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let key = str_arg(args, 1)?;
    let ciphertext = base64_decode(s.as_bytes()).map_err(|_| {
        FuncError::arg(
            0,
            format!(
                "failed to decode input {}: cipher text must be base64-encoded",
                crate::types::go_quote(s)
            ),
        )
    })?;
    let private_key = parse_raw_private_key(key.as_bytes()).map_err(|e| {
        let text = match e {
            KeyError::Asn1Syntax(msg) => {
                format!("invalid ASN1 data in the given private key: {msg}")
            }
            KeyError::Other(msg) => format!("invalid private key: {msg}"),
            KeyError::NotRsa(go_type) => format!("invalid private key type {go_type}"),
        };
        FuncError::arg(1, text)
    })?;
    let out = decrypt_pkcs1v15(&private_key, &ciphertext)
        .map_err(|e| FuncError::new(format!("failed to decrypt: {e}")))?;
    Ok(Value::String(String::from_utf8_lossy(&out).into_owned()))
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

    /// The hand-written hex and UUID formatting this module used before the `hex` and
    /// `uuid` crates.
    fn hex_by_hand(bytes: &[u8]) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            out.push(char::from(DIGITS[usize::from(b >> 4)]));
            out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
        }
        out
    }

    fn uuidv5_by_hand(namespace: [u8; 16], name: &[u8]) -> String {
        let mut h = Sha1::new();
        h.update(namespace);
        h.update(name);
        let sum = h.finalize();
        let mut u = [0u8; 16];
        for (d, s) in u.iter_mut().zip(sum.iter()) {
            *d = *s;
        }
        u[6] = (u[6] & 0x0f) | 0x50;
        u[8] = (u[8] & 0x3f) | 0x80;
        let h = hex_by_hand(&u);
        format!(
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        )
    }

    #[test]
    fn crates_match_the_hand_written_hex_and_uuid() {
        let all: Vec<u8> = (0..=255u8).collect();
        let inputs: [&[u8]; 5] = [b"", b"\0", "é日本".as_bytes(), &[0xff, 0x0f, 0xf0], &all];
        for input in inputs {
            assert_eq!(hex::encode(input), hex_by_hand(input));
            for ns in [
                Uuid::NAMESPACE_DNS,
                Uuid::NAMESPACE_X500,
                Uuid::nil(),
                Uuid::max(),
            ] {
                assert_eq!(
                    uuid_v5(&ns, input),
                    uuidv5_by_hand(*ns.as_bytes(), input),
                    "{ns} {input:?}"
                );
            }
        }
        // Go's uuid.Parse does not look at the brace characters; Uuid::parse_str does.
        assert_eq!(
            call(
                "uuidv5",
                &["(6ba7b810-9dad-11d1-80b4-00c04fd430c8)", "tada"]
            )
            .unwrap(),
            "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"
        );
        assert!(Uuid::parse_str("(6ba7b810-9dad-11d1-80b4-00c04fd430c8)").is_err());
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

    const KEY_PKCS1: &str = r"-----BEGIN RSA PRIVATE KEY-----
MIICXAIBAAKBgQDP3h4FdAQUKrvshdeNqDltD12NMsElQzIRB6wgXH0/z9P+HMdZ
kf24vuD6cOkdMrmjyXdxpnTvHvoXZ0yNSS0giUjeoOc4VgIw673XLLemib8uuXfa
9qh8BOEZJjXzDbEn3/qDiy/npCYznlL3AbvFf3/wcvXdENkXLC45kjZanwIDAQAB
AoGABJ1qzzYvLP9x4qNqELQOalRwAEWDMj+WqfggoytKgJMtorOi3WM3XdWnCwhc
tJA+vNspMrW+XNy0MrbRZUWdodQL9HS3E3DEl1rVmsnI/yUzxrjhU/hZJoJJEKBq
EOxumEDLhNvKQnQXLIO6ww3YczjZtni5THMtKO7jsktbntkCQQDqGK7gheClKYrb
dVuSKalEZRJ4qeMyfiTlD2YSCkYLURmdsa+NS+2GBh1XE4HdmgRx+Xg61lHdAh9N
GdNhx21jAkEA41Es/pI6VeCLa8gb/zuoyETVlWzfXeuNly9RWFC9ouv8xZRelQGr
O5LfZoR3UlESSVuohvytE4jUUmOKxrSQlQJAZGTVisCfiPV58YgxD0wCpaxa8Zia
MStcE0g5U/9H7s6HF9P+H7CyWsoAhzl8dlb5FRAR+dm0Hf4tAlnTB5oJVQJBAIVY
HPjIdofhzGdRX3r9WCkCl/ergevqPYiuLR2NX3Cu1fxg6IqoC/ZKVdohYo1bGUsH
BXkJx81puoMJ+WJOkXECQHiPQ/a8i9pC8CcZS69B7bEnzUVJdtWQA2IMwaHiq70p
N2xpQ1QbjULO6KIl9fiQvaPOUDMLBfYa+DxDZRTh0tQ=
-----END RSA PRIVATE KEY-----
";
    const KEY_PKCS8: &str = r"-----BEGIN PRIVATE KEY-----
MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAM/eHgV0BBQqu+yF
142oOW0PXY0ywSVDMhEHrCBcfT/P0/4cx1mR/bi+4Ppw6R0yuaPJd3GmdO8e+hdn
TI1JLSCJSN6g5zhWAjDrvdcst6aJvy65d9r2qHwE4RkmNfMNsSff+oOLL+ekJjOe
UvcBu8V/f/By9d0Q2RcsLjmSNlqfAgMBAAECgYAEnWrPNi8s/3Hio2oQtA5qVHAA
RYMyP5ap+CCjK0qAky2is6LdYzdd1acLCFy0kD682ykytb5c3LQyttFlRZ2h1Av0
dLcTcMSXWtWaycj/JTPGuOFT+FkmgkkQoGoQ7G6YQMuE28pCdBcsg7rDDdhzONm2
eLlMcy0o7uOyS1ue2QJBAOoYruCF4KUpitt1W5IpqURlEnip4zJ+JOUPZhIKRgtR
GZ2xr41L7YYGHVcTgd2aBHH5eDrWUd0CH00Z02HHbWMCQQDjUSz+kjpV4ItryBv/
O6jIRNWVbN9d642XL1FYUL2i6/zFlF6VAas7kt9mhHdSURJJW6iG/K0TiNRSY4rG
tJCVAkBkZNWKwJ+I9XnxiDEPTAKlrFrxmJoxK1wTSDlT/0fuzocX0/4fsLJaygCH
OXx2VvkVEBH52bQd/i0CWdMHmglVAkEAhVgc+Mh2h+HMZ1Ffev1YKQKX96uB6+o9
iK4tHY1fcK7V/GDoiqgL9kpV2iFijVsZSwcFeQnHzWm6gwn5Yk6RcQJAeI9D9ryL
2kLwJxlLr0HtsSfNRUl21ZADYgzBoeKrvSk3bGlDVBuNQs7ooiX1+JC9o85QMwsF
9hr4PENlFOHS1A==
-----END PRIVATE KEY-----
";
    const WRONG_KEY: &str = r"-----BEGIN RSA PRIVATE KEY-----
MIICXQIBAAKBgQC2vz4XpFLSwUNfojOo5ZoS1UNQb1S9/aTPZAnvj6U/rmQu5cO7
UeQMqN4em5ANa1TIeAIFU8AeLF6kkKYnX1j/4RyYDXofwIx4M4YNoY/s3zHTUsOo
ecXGyCNFzrjWF9S2c+9uXnPdJcf5U7L8zWf/ZBex7PbY0OGMhQAoHJeqPQIDAQAB
AoGALGoedTCC0KYX8c5CL/Jdl+YtDgeA2QwkWiM+JvMKfoer4ZoGECi+/DSuh1HX
mOtVF8PS+eh48NxnxCdDup35yw1tbzwpMwO2MP2E7HqO+qyGo9/95Z+i8GsZhvBV
Wevs/9YmwbT+nE8R3FITZ1ez9650hmaRMto7lQCavpckkCECQQDjiRsXz86vHiGl
/Aw6O1HJcZ072dSwU+hyI5ro98cGgP8jfvaPAXdtatLP2E1lYcF2jO+9zqYAjRgD
0kpP0x53AkEAzZvFUuC3+wn4oYCWTlSmeN0ikUqvcFSuJoWdHBLtXAxsTWBE9iTX
72zIVQ5Z2gU5Ia1ljtNxP3JtG7wWWBil6wJBAJ3b1WwjxGVCJl4eC+2qkgeMR2Xq
ruDWlgH6KdNPdElS3bAmubBleBH1duS0UJ3xwGMbTIkHAayINw0PrHbNJekCQFCs
F8Ym6ckT5nvnqhHd4Nt3WILNXPykHRh8QGKtgnglX7EUXrp9RkRo2EmXMeX7Oqle
EYTyrXKJgQnqyJGUSjUCQQCc4TOGB1vQ1H2Ogok77V7DYynR7y/xFOkMqTkz+jXI
HeJUU7RlOFVc5eRTRqJXxSTth0c0VyvWSl1e1nkUz6Lm
-----END RSA PRIVATE KEY-----
";
    const CIPHERTEXT: &str = "d3wGTQa7wi3iH5DH7w9G1/3rjHrsTp4WXeTMjJPalgRbpjgpwnbJufVn+Oe1ZfxXNwow5GG1KFVfJI76S7hpCkbQZy54F8h91VHJ+p7P0S3EQ7+HBybvZJl9095s5kSrsV6ySbzaneZ24+l2ccTyakpU9FaEnGK+eK57LrTrLng=";

    #[test]
    fn rsadecrypt_decrypts() {
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, KEY_PKCS1]).unwrap(),
            "message"
        );
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, KEY_PKCS8]).unwrap(),
            "message"
        );
        // Go's pem.Decode skips text before the block and trailing spaces on its lines.
        let noisy = format!("junk\n{}", KEY_PKCS1.replace('\n', " \r\n"));
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &noisy]).unwrap(),
            "message"
        );
        // Base64 line breaks in the ciphertext are ignored, as by Go's decoder.
        let wrapped = format!("{}\n{}", &CIPHERTEXT[..60], &CIPHERTEXT[60..]);
        assert_eq!(
            call("rsadecrypt", &[&wrapped, KEY_PKCS1]).unwrap(),
            "message"
        );
    }

    #[test]
    fn rsadecrypt_errors() {
        assert_eq!(
            call("rsadecrypt", &["bad", KEY_PKCS1]).unwrap_err(),
            "failed to decode input \"bad\": cipher text must be base64-encoded"
        );
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, WRONG_KEY]).unwrap_err(),
            "failed to decrypt: crypto/rsa: decryption error"
        );
        assert_eq!(
            call("rsadecrypt", &["", KEY_PKCS1]).unwrap_err(),
            "failed to decrypt: crypto/rsa: decryption error"
        );
        assert_eq!(
            call("rsadecrypt", &["AAAA", KEY_PKCS1]).unwrap_err(),
            "failed to decrypt: crypto/rsa: decryption error"
        );
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, ""]).unwrap_err(),
            "invalid private key: ssh: no key found"
        );
        let mut lines: Vec<&str> = KEY_PKCS1.lines().collect();
        lines.remove(8);
        let truncated = lines.join("\n");
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &truncated]).unwrap_err(),
            "invalid ASN1 data in the given private key: data truncated"
        );
        let encrypted = KEY_PKCS1.replace(
            "-----\n",
            "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n",
        );
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &encrypted]).unwrap_err(),
            "invalid private key: ssh: this private key is passphrase protected"
        );
        let other = KEY_PKCS1.replace("RSA PRIVATE KEY", "FOO KEY");
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &other]).unwrap_err(),
            "invalid private key: ssh: unsupported key type \"FOO KEY\""
        );
        let swapped = KEY_PKCS8.replace("PRIVATE KEY", "RSA PRIVATE KEY");
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &swapped]).unwrap_err(),
            "invalid private key: x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)"
        );
        let swapped = KEY_PKCS1.replace("RSA PRIVATE KEY", "PRIVATE KEY");
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, &swapped]).unwrap_err(),
            "invalid private key: x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)"
        );
        let ec = "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n";
        assert_eq!(
            call("rsadecrypt", &[CIPHERTEXT, ec]).unwrap_err(),
            "invalid private key type *ecdsa.PrivateKey"
        );
    }
}
