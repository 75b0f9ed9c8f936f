//! `urlencode`: Go's `url.QueryEscape`, with the `percent-encoding` crate.
//!
//! QueryEscape leaves `A-Z a-z 0-9 - _ . ~` alone, writes a space as `+` and every other
//! byte as `%XX` with uppercase hex digits. That is an `AsciiSet` (the crate always escapes
//! bytes from 0x80) plus `%20` → `+`, which cannot clash: a `%` in the input is itself
//! escaped as `%25`.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::value::Value;

/// Everything but `A-Za-z0-9-_.~` (Go's `shouldEscape` in `encodeQueryComponent` mode).
const QUERY_ESCAPE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Go's `url.QueryEscape`.
fn query_escape(s: &str) -> String {
    utf8_percent_encode(s, QUERY_ESCAPE)
        .to_string()
        .replace("%20", "+")
}

pub(super) fn urlencode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(query_escape(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written QueryEscape this crate used before `percent-encoding`.
    fn query_escape_by_hand(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for &b in s.as_bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    out.push(char::from(b))
                }
                b' ' => out.push('+'),
                _ => out.push_str(&format!("%{b:02X}")),
            }
        }
        out
    }

    #[test]
    fn percent_encoding_matches_query_escape() {
        let all_ascii: String = (0u8..0x80).map(char::from).collect();
        let inputs = [
            "",
            " ",
            "a b+c",
            "%20",
            "foo/bar?baz=qux&x=y#frag",
            "é日本\u{1f600}\u{0}\u{7f}",
            "~-_.*'()!",
            all_ascii.as_str(),
        ];
        for s in inputs {
            assert_eq!(query_escape(s), query_escape_by_hand(s), "{s:?}");
        }
        assert_eq!(query_escape("a b%20é"), "a+b%2520%C3%A9");
    }
}
