//! The native syntax: source files, positions as HCL counts them, and parsing through
//! hcl-edit with its errors turned into diagnostics.
//!
//! Positions: `line` counts from 1 (a line ends at `\n`), `column` counts Unicode grapheme
//! clusters from 1, `byte` is the 0-based byte offset. A [`SourceFile`] may start at a
//! `base` position other than the start of a file (the JSON syntax parses templates found
//! inside JSON strings): positions on the first line of the text are shifted by the base
//! column, positions on later lines by the base line, and every byte offset by the base byte.
//!
//! Parsing differences from hcl-edit that are corrected here:
//! - hcl-edit reads number literals through `u64`/`f64`, so integers above `u64::MAX` and
//!   numbers beyond the `f64` range fail to parse. HCL numbers are arbitrary precision: such a
//!   literal is replaced, for hcl-edit only, by zeros of the same length, and the evaluator
//!   reads every number literal again from the original text (see [`number_literal`]).
//! - hcl-edit's recursive-descent parser limits nesting to 64 levels; deeply nested input is
//!   parsed on a helper thread with a large stack so that reaching that limit is a diagnostic,
//!   never a stack overflow (whatever the caller's stack size).

// Diagnostics are plain data returned by value, as everywhere in this crate.
#![allow(clippy::result_large_err)]

use std::ops::Range as Span;
use std::sync::OnceLock;

use hcl_edit::expr::Expression;
use hcl_edit::structure::Body;
use hcl_edit::template::Template;
use unicode_segmentation::UnicodeSegmentation;

use crate::diag::{Diagnostic, Pos, Range};
use crate::number::Number;

/// One source text with the name diagnostics report it under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// The position of the first byte of `text` in the file it comes from.
    pub base: Pos,
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// A whole file: positions start at line 1, column 1, byte 0.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile::with_base(
            name,
            text,
            Pos {
                line: 1,
                column: 1,
                byte: 0,
            },
        )
    }

    /// A text that starts at `base` in the file `name` (e.g. a template inside a JSON string).
    pub fn with_base(name: impl Into<String>, text: impl Into<String>, base: Pos) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            base,
            line_starts: OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(
                self.text
                    .bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            starts
        })
    }

    /// The position of byte `offset` of the text (clamped to the text's length).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let starts = self.line_starts();
        let line_index = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line_start = starts.get(line_index).copied().unwrap_or(0);
        let columns = match self.text.get(line_start..offset) {
            // ASCII without a line feed (none before `offset` on its line): one grapheme
            // cluster per byte, counted without the segmentation tables.
            Some(prefix) if prefix.is_ascii() => prefix.len(),
            Some(prefix) => prefix.graphemes(true).count(),
            // Not on a character boundary (never for parser spans): count bytes instead.
            None => offset - line_start,
        };
        if line_index == 0 {
            Pos {
                line: self.base.line,
                column: self.base.column + columns,
                byte: self.base.byte + offset,
            }
        } else {
            Pos {
                line: self.base.line + line_index,
                column: 1 + columns,
                byte: self.base.byte + offset,
            }
        }
    }

    /// The range of the byte span `span` of the text.
    pub fn range(&self, span: Span<usize>) -> Range {
        Range {
            filename: self.name.clone(),
            start: self.pos(span.start),
            end: self.pos(span.end.max(span.start)),
        }
    }

    /// The text of `span`, if it is a valid span of the text.
    pub fn slice(&self, span: Span<usize>) -> Option<&str> {
        self.text.get(span)
    }
}

/// Inputs with at most this many nesting characters are parsed on the caller's stack.
const INLINE_NESTING_BUDGET: usize = 16;
/// The stack size of the helper thread that parses input which may nest deeply.
const PARSER_STACK_SIZE: usize = 64 << 20;
/// At most this many oversized number literals are worked around in one input.
const MAX_NUMBER_FIXES: usize = 256;

/// Parses a configuration file body.
pub fn parse_body(src: &SourceFile) -> Result<Body, Diagnostic> {
    parse_with(src, hcl_edit::parser::parse_body)
}

/// Parses one expression (the whole text). As in HCL, a standalone expression may be
/// surrounded by whitespace and comments and, when it starts after some, may span lines
/// ("as if wrapped in parentheses").
pub fn parse_expr(src: &SourceFile) -> Result<Expression, Diagnostic> {
    let err = match parse_with(src, hcl_edit::parser::parse_expr) {
        Ok(e) => return Ok(e),
        Err(err) => err,
    };
    let lead = skip_trivia(&src.text, 0);
    if lead > 0 && lead < src.text.len() {
        // Wrap in parentheses without moving the expression: the first byte of the leading
        // trivia becomes `(`, the rest blanks (same byte length), and `)` is appended.
        let mut wrapped = String::with_capacity(src.text.len() + 1);
        wrapped.push('(');
        wrapped.extend(std::iter::repeat_n(' ', lead - 1));
        wrapped.push_str(src.text.get(lead..).unwrap_or_default());
        wrapped.push_str("\n)");
        let shadow = SourceFile::with_base(src.name.clone(), wrapped, src.base);
        return match parse_with(&shadow, hcl_edit::parser::parse_expr) {
            Ok(Expression::Parenthesis(p)) => Ok(p.into_inner()),
            Ok(other) => Ok(other),
            Err(_) => Err(err),
        };
    }
    // Trailing trivia only: parse the text before it.
    let at = err
        .subject
        .as_ref()
        .map(|r| r.start.byte.saturating_sub(src.base.byte))
        .unwrap_or(0);
    if at > 0 && at < src.text.len() && skip_trivia(&src.text, at) == src.text.len() {
        let head = SourceFile::with_base(
            src.name.clone(),
            src.text.get(..at).unwrap_or_default(),
            src.base,
        );
        if let Ok(e) = parse_with(&head, hcl_edit::parser::parse_expr) {
            return Ok(e);
        }
    }
    Err(err)
}

/// The offset of the first byte at or after `from` that is not whitespace or a comment.
fn skip_trivia(text: &str, from: usize) -> usize {
    let mut i = from;
    loop {
        let Some(rest) = text.get(i..) else {
            return i;
        };
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        if trimmed.starts_with('#') || trimmed.starts_with("//") {
            i += trimmed.find('\n').map_or(trimmed.len(), |n| n + 1);
        } else if let Some(body) = trimmed.strip_prefix("/*") {
            match body.find("*/") {
                Some(n) => i += 2 + n + 2,
                None => return i,
            }
        } else {
            return i;
        }
    }
}

/// Parses a standalone template (the whole text is template source, as in a template file).
pub fn parse_template(src: &SourceFile) -> Result<Template, Diagnostic> {
    parse_with(src, hcl_edit::parser::parse_template)
}

fn parse_with<T: Send>(
    src: &SourceFile,
    parse: fn(&str) -> Result<T, hcl_edit::parser::Error>,
) -> Result<T, Diagnostic> {
    let nesting_chars = src
        .text
        .bytes()
        .filter(|b| matches!(b, b'(' | b'[' | b'{' | b'-' | b'!' | b'?'))
        .count();
    if nesting_chars <= INLINE_NESTING_BUDGET {
        return parse_fixing_numbers(src, parse);
    }
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("hcl-parser".into())
            .stack_size(PARSER_STACK_SIZE)
            .spawn_scoped(scope, || parse_fixing_numbers(src, parse));
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(Diagnostic::error(
                    "Parser failure",
                    "The parser stopped unexpectedly on this input.",
                    Some(src.range(0..0)),
                ))
            }),
            Err(e) => Err(Diagnostic::error(
                "Parser unavailable",
                format!("Cannot start the parser thread: {e}."),
                Some(src.range(0..0)),
            )),
        }
    })
}

fn parse_fixing_numbers<T>(
    src: &SourceFile,
    parse: fn(&str) -> Result<T, hcl_edit::parser::Error>,
) -> Result<T, Diagnostic> {
    let mut text: Option<String> = None;
    for _ in 0..=MAX_NUMBER_FIXES {
        let current = text.as_deref().unwrap_or(&src.text);
        match parse(current) {
            Ok(parsed) => return Ok(parsed),
            Err(err) => {
                let offset = err.location().offset();
                match oversized_number_at(current, offset) {
                    Some(span) => {
                        let mut fixed = current.to_string();
                        fixed.replace_range(span.clone(), &"0".repeat(span.len()));
                        text = Some(fixed);
                    }
                    None => return Err(parse_error_diagnostic(src, &err)),
                }
            }
        }
    }
    Err(Diagnostic::error(
        "Too many large numbers",
        format!(
            "At most {MAX_NUMBER_FIXES} number literals beyond 64-bit range are supported in one input."
        ),
        Some(src.range(0..0)),
    ))
}

/// The span of an HCL number literal around byte `offset` (where hcl-edit reported an error)
/// that hcl-edit cannot represent, if there is one.
fn oversized_number_at(text: &str, offset: usize) -> Option<Span<usize>> {
    let bytes = text.as_bytes();
    let mut start = offset.min(bytes.len());
    while start > 0
        && bytes
            .get(start - 1)
            .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
    {
        start -= 1;
    }
    // Skip a leading fraction part (`.5` is not a literal) and find a literal start.
    while start < bytes.len() && !bytes.get(start).is_some_and(u8::is_ascii_digit) {
        start += 1;
    }
    if start > 0 {
        let before = bytes.get(start - 1).copied().unwrap_or(b' ');
        if before.is_ascii_alphanumeric() || before == b'_' || before == b'.' || before >= 0x80 {
            return None;
        }
    }
    let len = number_literal_len(bytes.get(start..)?);
    if len == 0 || start + len < offset {
        return None;
    }
    let literal = text.get(start..start + len)?;
    let representable = if literal.bytes().all(|b| b.is_ascii_digit()) {
        literal.parse::<u64>().is_ok()
    } else {
        literal.parse::<f64>().is_ok_and(f64::is_finite)
    };
    (!representable).then_some(start..start + len)
}

/// The length of the HCL number literal at the start of `bytes`:
/// `digits ["." digits] [("e"|"E") ["+"|"-"] digits]`, 0 if there is none.
fn number_literal_len(bytes: &[u8]) -> usize {
    let digits = |from: usize| {
        bytes.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let mut len = digits(0);
    if len == 0 {
        return 0;
    }
    if bytes.get(len) == Some(&b'.') {
        let frac = digits(len + 1);
        if frac > 0 {
            len += 1 + frac;
        }
    }
    if matches!(bytes.get(len), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(len + 1), Some(b'+' | b'-')));
        let exp = digits(len + 1 + sign);
        if exp > 0 {
            len += 1 + sign + exp;
        }
    }
    len
}

fn parse_error_diagnostic(src: &SourceFile, err: &hcl_edit::parser::Error) -> Diagnostic {
    let offset = err.location().offset().min(src.text.len());
    // hcl-edit reports a quoted string left open at the start of the construct it could not
    // parse (column 1 of an attribute); HCL's scanner reports it where the string breaks.
    let line_start = src
        .text
        .get(..offset)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |n| n + 1);
    if let Some(open) = unterminated_string(&src.text) {
        if open.at >= line_start {
            return open.diagnostic(src);
        }
    }
    let end = src
        .text
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(offset, |c| offset + c.len_utf8());
    let message = err.message();
    let (summary, detail) = if message.contains("nesting depth") {
        (
            "Nesting too deep",
            "Expressions, templates and blocks may be nested at most 64 levels deep.".to_string(),
        )
    } else if message.contains("chained binary operators") {
        (
            "Too many operators",
            "An expression may chain at most 128 binary operators.".to_string(),
        )
    } else {
        ("Invalid syntax", sentence(message))
    };
    Diagnostic::error(summary, detail, Some(src.range(offset..end)))
}

/// A quoted string that a newline or the end of the input interrupts.
struct OpenString {
    /// The byte where it breaks: its newline, or the end of the text.
    at: usize,
    newline: bool,
}

impl OpenString {
    /// HCL's diagnostic: "Invalid multi-line string" at the newline (its scanner's
    /// `TokenQuotedNewline`), "Unterminated template string" at the end of the file.
    fn diagnostic(&self, src: &SourceFile) -> Diagnostic {
        if self.newline {
            Diagnostic::error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                Some(src.range(self.at..self.at + 1)),
            )
        } else {
            Diagnostic::error(
                "Unterminated template string",
                "No closing marker was found for the string.",
                Some(src.range(self.at..self.at)),
            )
        }
    }
}

/// The first quoted string of `text` (native syntax) that is not closed on its line, found
/// by a small scan: comments, heredocs (skipped to their closing marker), and quoted
/// templates with their escapes and `${...}`/`%{...}` interpolations (which may hold quoted
/// strings in turn).
fn unterminated_string(text: &str) -> Option<OpenString> {
    let b = text.as_bytes();
    let mut i = 0usize;
    // One entry per open construct: `true` for a quoted string, `false` for an
    // interpolation (counting its own braces in the `usize`).
    let mut stack: Vec<(bool, usize)> = Vec::new();
    while i < b.len() {
        let c = b[i];
        let in_string = matches!(stack.last(), Some((true, _)));
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    stack.pop();
                }
                b'\n' => {
                    return Some(OpenString {
                        at: i,
                        newline: true,
                    })
                }
                b'$' | b'%' if b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&b'{') => i += 2,
                b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                    stack.push((false, 0));
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => stack.push((true, 0)),
            b'{' => {
                if let Some((false, depth)) = stack.last_mut() {
                    *depth += 1;
                }
            }
            b'}' => match stack.last_mut() {
                Some((false, 0)) => {
                    stack.pop();
                }
                Some((false, depth)) => *depth -= 1,
                _ => {}
            },
            b'#' => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text
                    .get(i + 2..)
                    .and_then(|rest| rest.find("*/"))
                    .map_or(b.len(), |n| i + 2 + n + 1);
            }
            b'<' if b.get(i + 1) == Some(&b'<') => {
                // A heredoc: `<<ID` or `<<-ID`, its lines up to one that is just `ID`.
                let start = i + 2 + usize::from(b.get(i + 2) == Some(&b'-'));
                let id_len = b.get(start..).map_or(0, |r| {
                    r.iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                        .count()
                });
                let id = text.get(start..start + id_len).unwrap_or_default();
                if !id.is_empty() && matches!(b.get(start + id_len), Some(b'\n' | b'\r')) {
                    let mut j = line_end(b, start);
                    loop {
                        if j >= b.len() {
                            return None;
                        }
                        let next = line_end(b, j + 1);
                        let line = text.get(j + 1..next).unwrap_or_default();
                        if line.trim() == id {
                            i = next;
                            break;
                        }
                        j = next;
                    }
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    match stack.last() {
        Some((true, _)) => Some(OpenString {
            at: b.len(),
            newline: false,
        }),
        _ => None,
    }
}

/// The offset of the `\n` ending the line that `i` is on (or the end of `b`).
fn line_end(b: &[u8], i: usize) -> usize {
    b.get(i..)
        .and_then(|rest| rest.iter().position(|&c| c == b'\n'))
        .map_or(b.len(), |n| i + n)
}

/// `message` as a sentence: first letter upper case, a final period.
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "The input is not valid HCL".to_string(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// The exact value of the number literal whose source is `raw` (the text of an hcl-edit
/// `Expression::Number` span, which may start with `-` and blanks or comments for a
/// negative literal).
pub fn number_literal(raw: &str) -> Option<Number> {
    let negative = raw.starts_with('-');
    let digits_start = raw
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        .last()
        .map(|(i, _)| i)?;
    let literal = raw.get(digits_start..)?.trim_start_matches(['-', '+']);
    let n = Number::parse(literal)?;
    Some(if negative { n.neg() } else { n })
}

/// Whether the number literal `raw` (as [`number_literal`] takes it) is well formed but
/// has a decimal exponent beyond [`crate::number::MAX_EXPONENT`] in magnitude (HCL's
/// `big.Float` reads it; cloudspec gives a diagnostic rather than a wrong value).
pub fn exponent_out_of_range(raw: &str) -> bool {
    let Some(at) = raw.rfind(['e', 'E']) else {
        return false;
    };
    let digits = raw
        .get(at + 1..)
        .unwrap_or_default()
        .trim_start_matches(['+', '-'])
        .trim_start_matches('0');
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits.len() > 12
            || digits
                .parse::<i64>()
                .is_ok_and(|e| e > crate::number::MAX_EXPONENT))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize, column: usize, byte: usize) -> Pos {
        Pos { line, column, byte }
    }

    #[test]
    fn positions_count_lines_and_grapheme_columns() {
        let src = SourceFile::new("f.hcl", "ab\nñe\u{301}x = 1\n");
        assert_eq!(src.pos(0), pos(1, 1, 0));
        assert_eq!(src.pos(2), pos(1, 3, 2));
        assert_eq!(src.pos(3), pos(2, 1, 3));
        // "ñ" is 2 bytes, "e\u{301}" one grapheme of 3 bytes.
        assert_eq!(src.pos(8), pos(2, 3, 8));
        assert_eq!(src.pos(100), pos(3, 1, 14));
    }

    #[test]
    fn base_shifts_the_first_line_only() {
        let src = SourceFile::with_base("f.json", "a\nb", pos(4, 10, 50));
        assert_eq!(src.pos(1), pos(4, 11, 51));
        assert_eq!(src.pos(2), pos(5, 1, 52));
        let r = src.range(0..3);
        assert_eq!(r.filename, "f.json");
        assert_eq!((r.start, r.end), (pos(4, 10, 50), pos(5, 2, 53)));
    }

    #[test]
    fn parse_errors_become_diagnostics() {
        let src = SourceFile::new("t.hcl", "a = \n");
        let err = parse_body(&src).unwrap_err();
        assert_eq!(err.summary, "Invalid syntax");
        let subject = err.subject.unwrap();
        assert_eq!(subject.start.line, 1);
    }

    #[test]
    fn standalone_expressions_may_have_trivia_around_and_newlines_inside() {
        use hcl_edit::Span as _;
        for (text, start) in [
            (" 1 + 2 ", 1),
            ("\n  # comment\n  a.b /* c */\n", 15),
            ("a # trailing comment\n", 0),
            ("  [1,\n 2] ", 2),
            ("  1 +\n  2", 2),
        ] {
            let src = SourceFile::new("t", text);
            let e = parse_expr(&src).unwrap_or_else(|d| panic!("{text:?}: {d:?}"));
            assert_eq!(e.span().map(|s| s.start), Some(start), "{text:?}");
        }
        assert!(parse_expr(&SourceFile::new("t", "1 +\n2")).is_err());
        assert!(parse_expr(&SourceFile::new("t", " ")).is_err());
        assert!(parse_expr(&SourceFile::new("t", "1 2")).is_err());
    }

    #[test]
    fn huge_number_literals_parse() {
        for text in [
            "18446744073709551616",
            "1e400",
            "[1, 123456789012345678901234567890, 1.5e999]",
            "-99999999999999999999",
        ] {
            let src = SourceFile::new("t", text);
            assert!(parse_expr(&src).is_ok(), "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_a_diagnostic() {
        let text = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let err = parse_expr(&SourceFile::new("t", text)).unwrap_err();
        assert_eq!(err.summary, "Nesting too deep");
        let text = format!("{}[1]{}", "[for x in ".repeat(100), " : x]".repeat(100));
        let err = parse_expr(&SourceFile::new("t", text)).unwrap_err();
        assert_eq!(err.summary, "Nesting too deep");
    }

    #[test]
    fn number_literals_read_exactly() {
        let n = |s: &str| number_literal(s).map(|n| n.to_string());
        assert_eq!(n("1.50e3").as_deref(), Some("1500"));
        assert_eq!(n("- /* c */ 7").as_deref(), Some("-7"));
        assert_eq!(n("-1e-2").as_deref(), Some("-0.01"));
        assert_eq!(
            n("123456789012345678901234567890").as_deref(),
            Some("123456789012345678901234567890")
        );
    }
}
