//! A small string- and comment-aware scan of the raw text, used where the grammar cannot
//! help: finding comments for the formatter, rejecting absurd nesting before pest recurses,
//! and decoding string literals (escapes) with exact error locations.

use super::ast::Span;
use crate::diagnostic::{quoted, Collector, Diagnostic};
use cloudspec_model::input::escape_control;

/// Deepest `(`, `[` or `{` nesting accepted. Real specs stay below 10; the limit keeps the
/// recursive parser, builder and formatter far from the end of the stack.
pub const MAX_NESTING: usize = 64;

/// A `#` comment: the span covers `#` up to (not including) the line break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    /// `true` when nothing but whitespace precedes it on its line.
    pub own_line: bool,
}

/// What the scan sees, in source order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Comment { span: Span, own_line: bool },
    Str(Span),
    Open(Span),
    Close,
}

/// Walks `source`, calling `visit` for comments, strings and brackets.
fn scan(source: &str, mut visit: impl FnMut(Item)) {
    let bytes = source.as_bytes();
    let mut i = 0;
    let mut line_has_token = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'#' => {
                let end = find_line_end(bytes, i);
                visit(Item::Comment {
                    span: Span::new(i, end),
                    own_line: !line_has_token,
                });
                i = end;
            }
            b'"' => {
                let end = string_end(bytes, i);
                visit(Item::Str(Span::new(i, end)));
                line_has_token = true;
                i = end;
            }
            b'\n' | b'\r' => {
                line_has_token = false;
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                visit(Item::Open(Span::new(i, i + 1)));
                line_has_token = true;
                i += 1;
            }
            b')' | b']' | b'}' => {
                visit(Item::Close);
                line_has_token = true;
                i += 1;
            }
            b' ' | b'\t' => i += 1,
            _ => {
                line_has_token = true;
                i += 1;
            }
        }
    }
}

/// Offset of the `\n` or `\r` ending the line that contains `from` (or the end of the text).
fn find_line_end(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    rest.iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |p| from + p)
}

/// End of the string literal opening at `start` (same rules as the grammar's `string`):
/// after the closing quote, or before the line break / end of text when it is unterminated.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => return i + 1,
            b'\n' | b'\r' => return i,
            b'\\' => match bytes.get(i + 1) {
                Some(b'\n' | b'\r') | None => i += 1,
                Some(_) => i += 2,
            },
            _ => i += 1,
        }
    }
    bytes.len().max(start + 1)
}

/// Every comment of `source`, in order.
pub fn comments(source: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    scan(source, |item| {
        if let Item::Comment { span, own_line } = item {
            out.push(Comment { span, own_line });
        }
    });
    out
}

/// An error at the first bracket nested deeper than [`MAX_NESTING`], if any.
pub fn nesting_error(source: &str) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut found = None;
    scan(source, |item| match item {
        Item::Open(span) => {
            depth += 1;
            if depth > MAX_NESTING && found.is_none() {
                found = Some(span);
            }
        }
        Item::Close => depth = depth.saturating_sub(1),
        _ => {}
    });
    found.map(|span| {
        Diagnostic::error(
            "nesting-too-deep",
            format!("brackets are nested more than {MAX_NESTING} levels deep"),
            span,
        )
        .with_label("this bracket is too deep")
        .with_help("split the statement; real specs never need this much nesting")
    })
}

/// Problems of the string literals that start before `limit` (used when the grammar failed,
/// since an unclosed string is often what confused it).
pub fn string_errors_before(source: &str, limit: usize, diags: &mut Collector) {
    scan(source, |item| {
        if let Item::Str(span) = item {
            if span.start < limit {
                let raw = source.get(span.start..span.end).unwrap_or_default();
                decode_string_into(raw, span.start, diags);
            }
        }
    });
}

/// Decodes a string literal as written (`raw` starts with `"`; `offset` is its position in
/// the file). Returns the text and every problem (bad escape, missing closing quote), at
/// most [`MAX_DIAGNOSTICS`](crate::diagnostic::MAX_DIAGNOSTICS) of them and a count of the
/// rest.
pub fn decode_string(raw: &str, offset: usize) -> (String, Vec<Diagnostic>) {
    let mut diags = Collector::default();
    let text = decode_string_into(raw, offset, &mut diags);
    (text, diags.finish())
}

/// [`decode_string`], adding the problems to `diags`.
pub(super) fn decode_string_into(raw: &str, offset: usize, diags: &mut Collector) -> String {
    decode_literal_into(raw, offset, diags, Literal::Text).0
}

/// What a string literal holds, for the help of an unknown escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Literal {
    Text,
    /// The pattern of `matching`: a regex escape such as `\d` is written with two
    /// backslashes, and the help says so.
    Pattern,
}

/// [`decode_string_into`] for a literal holding `kind`; also whether it decoded without
/// a problem.
pub(super) fn decode_literal_into(
    raw: &str,
    offset: usize,
    diags: &mut Collector,
    kind: Literal,
) -> (String, bool) {
    let before = diags.count();
    let text = decode(raw, offset, diags, kind);
    let ok = diags.count() == before;
    (text, ok)
}

fn decode(raw: &str, offset: usize, diags: &mut Collector, kind: Literal) -> String {
    let mut out = String::new();
    let mut unterminated_reported = false;
    let body = raw.strip_prefix('"').unwrap_or(raw);
    let closed = body.ends_with('"') && !ends_with_escaped_quote(body);
    let body = if closed {
        body.get(..body.len() - 1).unwrap_or_default()
    } else {
        body
    };
    let mut chars = body.char_indices().peekable();
    let base = offset + 1;
    let mut pending_high: Option<(u32, usize)> = None;
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            flush_surrogate(&mut pending_high, diags);
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else {
            diags.push(unterminated(raw, offset));
            unterminated_reported = true;
            break;
        };
        let simple = match e {
            '"' => Some('"'),
            '\\' => Some('\\'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = simple {
            flush_surrogate(&mut pending_high, diags);
            out.push(ch);
        } else if e == 'u' {
            let hex: String = body
                .get(i + 2..)
                .unwrap_or_default()
                .chars()
                .take(4)
                .collect();
            let valid = hex.len() == 4 && hex.chars().all(|h| h.is_ascii_hexdigit());
            let code = if valid {
                u32::from_str_radix(&hex, 16).ok()
            } else {
                None
            };
            let Some(code) = code else {
                let end = base
                    + i
                    + 2
                    + hex
                        .chars()
                        .take_while(char::is_ascii_hexdigit)
                        .map(char::len_utf8)
                        .sum::<usize>();
                diags.push(bad_unicode(Span::new(base + i, end)));
                continue;
            };
            for _ in 0..4 {
                chars.next();
            }
            unicode_escape(code, base + i, &mut pending_high, &mut out, diags);
        } else {
            flush_surrogate(&mut pending_high, diags);
            let span = Span::new(base + i, base + i + 1 + e.len_utf8());
            diags.push(
                Diagnostic::error(
                    "invalid-escape",
                    format!(
                        "unknown escape \"{}\" in a string",
                        quoted(&format!("\\{e}"))
                    ),
                    span,
                )
                .with_label("unknown escape")
                .with_help(escape_help(kind, e)),
            );
        }
    }
    flush_surrogate(&mut pending_high, diags);
    if !closed && !unterminated_reported {
        diags.push(unterminated(raw, offset));
    }
    out
}

/// The help of an unknown escape `\{e}`: in a pattern, most likely a regex escape whose
/// backslash was written once.
fn escape_help(kind: Literal, e: char) -> String {
    match kind {
        Literal::Text => {
            "the escapes are \\\" \\\\ \\n \\r \\t and \\uXXXX; write \\\\ for a backslash".into()
        }
        Literal::Pattern => format!(
            "string escapes apply before the pattern is read, so write a regex backslash twice: \"\\\\{}\" for the regex escape \\{}, as in matching \"^\\\\d+$\"",
            escape_control(&e.to_string()),
            escape_control(&e.to_string()),
        ),
    }
}

/// Whether the final `"` of `body` is itself escaped (`"abc\"`).
fn ends_with_escaped_quote(body: &str) -> bool {
    let without = body.strip_suffix('"').unwrap_or(body);
    let slashes = without.bytes().rev().take_while(|&b| b == b'\\').count();
    slashes % 2 == 1
}

/// Appends the character of a `\uXXXX` escape, pairing UTF-16 surrogates.
fn unicode_escape(
    code: u32,
    at: usize,
    pending_high: &mut Option<(u32, usize)>,
    out: &mut String,
    diags: &mut Collector,
) {
    if (0xDC00..0xE000).contains(&code) {
        if let Some((high, _)) = pending_high.take() {
            let combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00);
            if let Some(ch) = char::from_u32(combined) {
                out.push(ch);
                return;
            }
        }
        diags.push(bad_unicode(Span::new(at, at + 6)));
        return;
    }
    flush_surrogate(pending_high, diags);
    if (0xD800..0xDC00).contains(&code) {
        *pending_high = Some((code, at));
        return;
    }
    match char::from_u32(code) {
        Some(ch) => out.push(ch),
        None => diags.push(bad_unicode(Span::new(at, at + 6))),
    }
}

/// Reports a high surrogate that no low surrogate followed.
fn flush_surrogate(pending_high: &mut Option<(u32, usize)>, diags: &mut Collector) {
    if let Some((_, at)) = pending_high.take() {
        diags.push(bad_unicode(Span::new(at, at + 6)));
    }
}

fn bad_unicode(span: Span) -> Diagnostic {
    Diagnostic::error("invalid-escape", "invalid unicode escape in a string", span)
        .with_label("expected \\u and four hex digits naming a character")
        .with_help("write \\u00e9 for é; characters outside the basic plane take a surrogate pair (\\ud83d\\ude00) or can be typed directly")
}

fn unterminated(raw: &str, offset: usize) -> Diagnostic {
    let span = Span::new(offset, offset + raw.len().max(1));
    Diagnostic::error(
        "unterminated-string",
        "string is not closed on its line",
        span,
    )
    .with_label("this string has no closing quote")
    .with_help("strings stay on one line: add the closing \" or write \\n for a line break")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_skip_strings() {
        let c = comments("a \"# not\" # yes\n# own\n");
        assert_eq!(c.len(), 2);
        assert!(!c[0].own_line);
        assert!(c[1].own_line);
    }

    #[test]
    fn decodes_escapes() {
        let (s, d) = decode_string(r#""a\"b\\c\n\r\t\u00e9\ud83d\ude00""#, 0);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s, "a\"b\\c\n\r\té😀");
    }

    #[test]
    fn reports_unterminated_and_bad_escapes() {
        assert_eq!(decode_string("\"abc", 0).1[0].code, "unterminated-string");
        assert_eq!(
            decode_string("\"abc\\\"", 0).1[0].code,
            "unterminated-string"
        );
        assert_eq!(decode_string("\"a\\qb\"", 0).1[0].code, "invalid-escape");
        assert_eq!(decode_string("\"a\\u12\"", 0).1[0].code, "invalid-escape");
        assert_eq!(decode_string("\"\\ud800\"", 0).1[0].code, "invalid-escape");
    }

    #[test]
    fn nesting_limit() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(nesting_error(&deep).is_some());
        assert!(nesting_error(&"(".repeat(MAX_NESTING)).is_none());
        assert!(nesting_error("\"((((((\"").is_none());
    }
}
