//! Go's `encoding/json`, where Terraform's output or messages show it byte for byte:
//!
//! - [`quote`] / [`quote_into`]: `json.Marshal`'s string encoder (HTML-safe: `<`, `>`, `&`
//!   as `\u003c`..., U+2028/U+2029 escaped, other control characters as `\u00XX` except
//!   `\n`, `\r`, `\t`). serde_json escapes differently (`<` and U+2028 raw, `\b`/`\f` short).
//! - [`decode_string`]: `json.Unmarshal` of a string token (lone surrogates become U+FFFD,
//!   errors at Go's `SyntaxError` offsets).
//! - [`decode_go`]: the `json.Decoder` token scanner as cty's `jsondecode` drives it, with
//!   Go's error texts (`invalid character 'x' looking for beginning of value`,
//!   `unexpected EOF`...). serde_json accepts and rejects the same documents but reports
//!   `expected value at line 1 column 2`-style errors and has no token-level API that
//!   ignores trailing `]`/`}` as cty does.

use std::collections::BTreeMap;

use crate::gocompat::quote::go_quote;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// A JSON string literal as Go's `encoding/json` writes it (HTML-safe escaping).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(s, &mut out);
    out
}

/// [`quote`], appending to `out`.
pub(crate) fn quote_into(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' => {
                let b = c as u32;
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize & 0xf] as char);
                out.push(HEX[b as usize & 0xf] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Decodes a JSON string token as Go's `json.Unmarshal` does. On error, the byte offset
/// Go's `SyntaxError` reports (one past the offending byte, or the length at the end).
pub(crate) fn decode_string(tok: &str) -> Result<String, usize> {
    let b = tok.as_bytes();
    if b.first() != Some(&b'"') {
        return Err(1);
    }
    let mut out = String::with_capacity(tok.len());
    let mut i = 1;
    let hex4 = |i: usize| -> Result<u32, usize> {
        let mut v = 0u32;
        for k in 0..4 {
            match b.get(i + k) {
                Some(c) if c.is_ascii_hexdigit() => {
                    v = v * 16 + (*c as char).to_digit(16).unwrap_or(0);
                }
                Some(_) => return Err(i + k + 1),
                None => return Err(b.len()),
            }
        }
        Ok(v)
    };
    loop {
        let Some(&c) = b.get(i) else {
            return Err(b.len());
        };
        match c {
            b'"' => {
                if i + 1 != b.len() {
                    return Err(i + 2);
                }
                return Ok(out);
            }
            b'\\' => {
                let Some(&e) = b.get(i + 1) else {
                    return Err(b.len());
                };
                match e {
                    b'"' => out.push('"'),
                    b'\\' => out.push('\\'),
                    b'/' => out.push('/'),
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let r = hex4(i + 2)?;
                        i += 6;
                        if (0xD800..0xDC00).contains(&r)
                            && b.get(i) == Some(&b'\\')
                            && b.get(i + 1) == Some(&b'u')
                        {
                            if let Ok(r2) = hex4(i + 2) {
                                if (0xDC00..0xE000).contains(&r2) {
                                    let cp = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
                                    out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                                    i += 6;
                                    continue;
                                }
                            }
                        }
                        out.push(char::from_u32(r).unwrap_or('\u{fffd}'));
                        continue;
                    }
                    _ => return Err(i + 2),
                }
                i += 2;
            }
            c if c < 0x20 => return Err(i + 1),
            _ => {
                // Copy one UTF-8 character.
                let ch = tok
                    .get(i..)
                    .and_then(|r| r.chars().next())
                    .unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Go-compatible decoding (what Terraform's `jsondecode` reports)

/// Decodes JSON as cty's `json.ImpliedType` + `json.Unmarshal` do through Go's
/// `encoding/json` token decoder, with the same error texts
/// (`invalid character '}' looking for beginning of object key string`, `unexpected EOF`,
/// `EOF`, `extraneous data after JSON object`, `duplicate "a" property in JSON object`...).
/// Like cty, trailing `]` or `}` after the value are ignored. This is what the `jsondecode`
/// function needs; `crate::json::decode` reports HCL's JSON-syntax diagnostics instead.
/// Arrays and objects nested deeper than `max_depth` are an error (`exceeded max depth`).
pub(crate) fn decode_go(src: &str, max_depth: usize) -> Result<Value, String> {
    let mut d = GoDecoder {
        max_depth,
        buf: src.as_bytes(),
        scanp: 0,
        state: TokState::TopValue,
        stack: Vec::new(),
        err: None,
    };
    let tok = d.token()?;
    let v = d.value_for(tok, 0)?;
    if d.more() {
        return Err("extraneous data after JSON object".into());
    }
    Ok(v)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TokState {
    TopValue,
    ArrayStart,
    ArrayValue,
    ArrayComma,
    ObjectStart,
    ObjectKey,
    ObjectColon,
    ObjectValue,
    ObjectComma,
}

enum GoTok {
    Delim(u8),
    Str(String),
    Num(String),
    Bool(bool),
    Null,
}

struct GoDecoder<'a> {
    max_depth: usize,
    buf: &'a [u8],
    scanp: usize,
    state: TokState,
    stack: Vec<TokState>,
    /// A sticky read error (Go's `dec.err`).
    err: Option<String>,
}

fn is_go_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`.
fn go_quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        _ => {
            let q = go_quote(&char::from(c).to_string());
            format!("'{}'", q.get(1..q.len().saturating_sub(1)).unwrap_or(""))
        }
    }
}

/// Go scanner states for one scalar value.
#[derive(Clone, Copy)]
enum Scan {
    Begin,
    InString,
    Esc,
    EscU(u8),
    Neg,
    Zero,
    One,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Lit(&'static [u8], usize),
    End,
}

enum Step {
    Continue(Scan),
    /// The value ended before this byte.
    End,
    Error(String),
}

fn scan_step(s: Scan, c: u8) -> Step {
    use Scan::*;
    let err = |ctx: &str| Step::Error(format!("invalid character {} {ctx}", go_quote_char(c)));
    match s {
        Begin => match c {
            b'"' => Step::Continue(InString),
            b'-' => Step::Continue(Neg),
            b'0' => Step::Continue(Zero),
            b'1'..=b'9' => Step::Continue(One),
            b't' => Step::Continue(Lit(b"true", 1)),
            b'f' => Step::Continue(Lit(b"false", 1)),
            b'n' => Step::Continue(Lit(b"null", 1)),
            _ => err("looking for beginning of value"),
        },
        InString => match c {
            b'"' => Step::Continue(End),
            b'\\' => Step::Continue(Esc),
            c if c < 0x20 => err("in string literal"),
            _ => Step::Continue(InString),
        },
        Esc => match c {
            b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => Step::Continue(InString),
            b'u' => Step::Continue(EscU(0)),
            _ => err("in string escape code"),
        },
        EscU(k) => {
            if c.is_ascii_hexdigit() {
                Step::Continue(if k == 3 { InString } else { EscU(k + 1) })
            } else {
                err("in \\u hexadecimal character escape")
            }
        }
        Neg => match c {
            b'0' => Step::Continue(Zero),
            b'1'..=b'9' => Step::Continue(One),
            _ => err("in numeric literal"),
        },
        One if c.is_ascii_digit() => Step::Continue(One),
        One | Zero => match c {
            b'.' => Step::Continue(Dot),
            b'e' | b'E' => Step::Continue(E),
            _ => Step::End,
        },
        Dot => {
            if c.is_ascii_digit() {
                Step::Continue(Dot0)
            } else {
                err("after decimal point in numeric literal")
            }
        }
        Dot0 => match c {
            b'0'..=b'9' => Step::Continue(Dot0),
            b'e' | b'E' => Step::Continue(E),
            _ => Step::End,
        },
        E if c == b'+' || c == b'-' => Step::Continue(ESign),
        E | ESign => {
            if c.is_ascii_digit() {
                Step::Continue(E0)
            } else {
                err("in exponent of numeric literal")
            }
        }
        E0 => {
            if c.is_ascii_digit() {
                Step::Continue(E0)
            } else {
                Step::End
            }
        }
        Lit(word, i) => match word.get(i) {
            Some(&want) if want == c => Step::Continue(if i + 1 == word.len() {
                End
            } else {
                Lit(word, i + 1)
            }),
            Some(&want) => {
                let name = std::str::from_utf8(word).unwrap_or("");
                err(&format!(
                    "in literal {name} (expecting {})",
                    go_quote_char(want)
                ))
            }
            None => Step::End,
        },
        End => Step::End,
    }
}

impl GoDecoder<'_> {
    fn peek(&mut self) -> Result<u8, String> {
        while let Some(&c) = self.buf.get(self.scanp) {
            if !is_go_space(c) {
                return Ok(c);
            }
            self.scanp += 1;
        }
        Err("EOF".into())
    }

    fn more(&mut self) -> bool {
        matches!(self.peek(), Ok(c) if c != b']' && c != b'}')
    }

    fn value_allowed(&self) -> bool {
        matches!(
            self.state,
            TokState::TopValue
                | TokState::ArrayStart
                | TokState::ArrayValue
                | TokState::ObjectValue
        )
    }

    fn value_end(&mut self) {
        self.state = match self.state {
            TokState::ArrayStart | TokState::ArrayValue => TokState::ArrayComma,
            TokState::ObjectValue => TokState::ObjectComma,
            s => s,
        };
    }

    fn token_error(&self, c: u8) -> String {
        let ctx = match self.state {
            TokState::TopValue
            | TokState::ArrayStart
            | TokState::ArrayValue
            | TokState::ObjectValue => " looking for beginning of value",
            TokState::ArrayComma => " after array element",
            TokState::ObjectKey => " looking for beginning of object key string",
            TokState::ObjectColon => " after object key",
            TokState::ObjectComma => " after object key:value pair",
            TokState::ObjectStart => "",
        };
        format!("invalid character {}{ctx}", go_quote_char(c))
    }

    /// Go's `Decoder.Token`.
    fn token(&mut self) -> Result<GoTok, String> {
        if let Some(e) = &self.err {
            return Err(e.clone());
        }
        loop {
            let c = self.peek()?;
            match c {
                b'[' | b'{' => {
                    if !self.value_allowed() {
                        return Err(self.token_error(c));
                    }
                    self.scanp += 1;
                    self.stack.push(self.state);
                    self.state = if c == b'[' {
                        TokState::ArrayStart
                    } else {
                        TokState::ObjectStart
                    };
                    return Ok(GoTok::Delim(c));
                }
                b']' | b'}' => {
                    let ok = if c == b']' {
                        matches!(self.state, TokState::ArrayStart | TokState::ArrayComma)
                    } else {
                        matches!(self.state, TokState::ObjectStart | TokState::ObjectComma)
                    };
                    if !ok {
                        return Err(self.token_error(c));
                    }
                    self.scanp += 1;
                    self.state = self.stack.pop().unwrap_or(TokState::TopValue);
                    self.value_end();
                    return Ok(GoTok::Delim(c));
                }
                b':' => {
                    if self.state != TokState::ObjectColon {
                        return Err(self.token_error(c));
                    }
                    self.scanp += 1;
                    self.state = TokState::ObjectValue;
                }
                b',' => match self.state {
                    TokState::ArrayComma => {
                        self.scanp += 1;
                        self.state = TokState::ArrayValue;
                    }
                    TokState::ObjectComma => {
                        self.scanp += 1;
                        self.state = TokState::ObjectKey;
                    }
                    _ => return Err(self.token_error(c)),
                },
                b'"' if matches!(self.state, TokState::ObjectStart | TokState::ObjectKey) => {
                    let text = self.read_value()?;
                    self.state = TokState::ObjectColon;
                    return match text {
                        GoTok::Str(s) => Ok(GoTok::Str(s)),
                        _ => Err("expected string".into()),
                    };
                }
                _ => {
                    if !self.value_allowed() {
                        return Err(self.token_error(c));
                    }
                    let t = self.read_value()?;
                    self.value_end();
                    return Ok(t);
                }
            }
        }
    }

    /// Go's `readValue` + unmarshal into `any` (with `UseNumber`) for one scalar.
    fn read_value(&mut self) -> Result<GoTok, String> {
        let start = self.scanp;
        let mut st = Scan::Begin;
        let mut i = start;
        let mut ended = false;
        while let Some(&c) = self.buf.get(i) {
            match scan_step(st, c) {
                Step::Continue(n) => st = n,
                Step::End => {
                    ended = true;
                    break;
                }
                Step::Error(e) => {
                    self.err = Some(e.clone());
                    return Err(e);
                }
            }
            i += 1;
        }
        if !ended {
            // At EOF: the value is complete only if a space would end it.
            if !matches!(scan_step(st, b' '), Step::End) {
                let e = "unexpected EOF".to_string();
                self.err = Some(e.clone());
                return Err(e);
            }
        }
        let text = std::str::from_utf8(self.buf.get(start..i).unwrap_or(b"")).unwrap_or("");
        self.scanp = i;
        Ok(match text.as_bytes().first() {
            Some(b'"') => GoTok::Str(decode_string(text).unwrap_or_default()),
            Some(b't') => GoTok::Bool(true),
            Some(b'f') => GoTok::Bool(false),
            Some(b'n') => GoTok::Null,
            _ => GoTok::Num(text.to_string()),
        })
    }

    /// cty's `impliedTypeForTok` and `unmarshal`, building the value directly.
    fn value_for(&mut self, tok: GoTok, depth: usize) -> Result<Value, String> {
        if depth > self.max_depth {
            return Err("exceeded max depth".into());
        }
        Ok(match tok {
            GoTok::Null => Value::Null(Type::Dynamic),
            GoTok::Bool(b) => Value::Bool(b),
            GoTok::Str(s) => Value::string(s),
            GoTok::Num(n) => {
                Value::Number(Number::parse(&n).ok_or_else(|| "a number is required".to_string())?)
            }
            GoTok::Delim(b'[') => {
                let mut elems = Vec::new();
                loop {
                    let t = self.token()?;
                    if let GoTok::Delim(b']') = t {
                        break;
                    }
                    elems.push(self.value_for(t, depth + 1)?);
                }
                Value::Tuple(elems)
            }
            GoTok::Delim(b'{') => {
                let mut attrs = BTreeMap::new();
                loop {
                    let key = match self.token()? {
                        GoTok::Delim(b'}') => break,
                        GoTok::Str(k) => k,
                        GoTok::Delim(d) => {
                            return Err(format!("unexpected delimiter {}", go_quote_char(d)))
                        }
                        _ => return Err("expected string but found something else".into()),
                    };
                    let t = self.token()?;
                    let v = self.value_for(t, depth + 1)?;
                    let key = crate::value::nfc(key);
                    if attrs.contains_key(&key) {
                        return Err(format!(
                            "duplicate {} property in JSON object",
                            go_quote(&key)
                        ));
                    }
                    attrs.insert(key, v);
                }
                Value::Object(attrs)
            }
            GoTok::Delim(d) => return Err(format!("unexpected token {}", go_quote_char(d))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_compatible_decoding() {
        let ok = |src: &str| {
            decode_go(src, crate::json::MAX_DEPTH).unwrap_or_else(|e| panic!("{src}: {e}"))
        };
        assert_eq!(
            ok(r#" {"a": [1, "x", null, true]} "#),
            Value::object_from([(
                "a",
                Value::tuple(vec![
                    Value::from(1),
                    Value::from("x"),
                    Value::Null(Type::Dynamic),
                    Value::from(true)
                ])
            )])
        );
        assert_eq!(ok("{}]"), Value::empty_object());
        assert_eq!(ok("1.5e2"), Value::from(150));
        let cases = [
            ("", "EOF"),
            ("   ", "EOF"),
            ("{", "EOF"),
            ("[1,", "EOF"),
            ("\"abc", "unexpected EOF"),
            ("tru", "unexpected EOF"),
            ("1.", "unexpected EOF"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            ("[}", "invalid character '}' looking for beginning of value"),
            (
                "[!]",
                "invalid character '!' looking for beginning of value",
            ),
            (
                "{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\":1 \"b\":2}",
                "invalid character '\"' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            ("{1:2}", "invalid character '1'"),
            ("[01]", "invalid character '1' after array element"),
            (
                "trux",
                "invalid character 'x' in literal true (expecting 'e')",
            ),
            ("nul", "unexpected EOF"),
            (
                "nulL",
                "invalid character 'L' in literal null (expecting 'l')",
            ),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("\"a\\q\"", "invalid character 'q' in string escape code"),
            (
                "\"\\u12x4\"",
                "invalid character 'x' in \\u hexadecimal character escape",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("{}boop", "extraneous data after JSON object"),
            ("1 2", "extraneous data after JSON object"),
            (
                "{\"a\": \"hello\", \"a\": true}",
                "duplicate \"a\" property in JSON object",
            ),
            (
                "'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
        ];
        for (src, want) in cases {
            assert_eq!(
                decode_go(src, crate::json::MAX_DEPTH),
                Err(want.to_string()),
                "{src:?}"
            );
        }
    }
}
