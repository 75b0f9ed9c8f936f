//! Go's `strconv` quoting, as `fmt`'s `%q` verb uses it: [`go_quote`] is `strconv.Quote`
//! of a string, [`go_quote_rune`] `strconv.QuoteRune`. HCL, cty and Terraform put names
//! and values into their messages with `%q`, so every diagnostic that quotes something
//! goes through here.
//!
//! No Rust crate writes Go's escapes: `{:?}` (Rust's `escape_debug`) writes `\u{1}` where Go
//! writes `\x01`, and `\'` in strings; Go's `\a`, `\b`, `\f`, `\v` and `\UXXXXXXXX` forms exist
//! only in Go.

/// Go's `%q` quoting (`strconv.Quote`) for a string.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => {
                let n = c as u32;
                if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.QuoteRune` (`%q` of a rune).
pub(crate) fn go_quote_rune(c: char) -> String {
    let body = match c {
        '\'' => "\\'".to_string(),
        '\\' => "\\\\".to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        '\u{7}' => "\\a".to_string(),
        '\u{8}' => "\\b".to_string(),
        '\u{c}' => "\\f".to_string(),
        '\u{b}' => "\\v".to_string(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("\\x{:02x}", c as u32),
        c if c.is_control() => {
            if (c as u32) <= 0xffff {
                format!("\\u{:04x}", c as u32)
            } else {
                format!("\\U{:08x}", c as u32)
            }
        }
        c => c.to_string(),
    };
    format!("'{body}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\x01é\"");
        assert_eq!(go_quote(""), "\"\"");
        assert_eq!(go_quote("\u{7f}\u{85}\u{7}"), "\"\\x7f\\u0085\\a\"");
    }

    #[test]
    fn go_rune_quoting() {
        assert_eq!(go_quote_rune('a'), "'a'");
        assert_eq!(go_quote_rune('\''), "'\\''");
        assert_eq!(go_quote_rune('\n'), "'\\n'");
        assert_eq!(go_quote_rune('é'), "'é'");
    }
}
