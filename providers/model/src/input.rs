//! Reading input files within limits, the same way for every loader (`docs/security.md`).
//!
//! cloudspec reads files that anyone can put in a pull request, often with cloud
//! credentials in its environment. Every loader reads through this module, so that:
//! - no read is endless: at most `limit` bytes are read (plus one, to tell that there was
//!   more), from a regular file, a pipe or a device alike (`/dev/zero` stops at the limit);
//! - a file that is not text (a NUL byte, as in `/proc/self/environ`) is refused with its
//!   position and no excerpt, so binary content never reaches a message;
//! - invalid UTF-8 is reported with a line and a column; a leading UTF-8 byte-order mark
//!   is dropped (editors on Windows write one);
//! - every message names the path with its control characters escaped ([`escape_control`]).
//!
//! Lines are counted the way [`line_col`] counts them: `\n`, `\r\n` and a lone `\r` each
//! end a line, and columns count characters from 1.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

/// Spec files (`*.cloudspec`).
pub const MAX_SPEC_BYTES: u64 = 16 << 20;
/// YAML files: waivers and rule tests (`*.test.yaml`).
pub const MAX_YAML_BYTES: u64 = 16 << 20;
/// HCL files, hcldec specs and variable files.
pub const MAX_HCL_BYTES: u64 = 16 << 20;
/// JSON reports read back (`--baseline`, `cloudspec diff`).
pub const MAX_REPORT_BYTES: u64 = 4 << 30;
/// Inventories read from a pipe or a device (a regular file is read in blocks and is
/// limited only by memory).
pub const MAX_INVENTORY_STREAM_BYTES: u64 = 16 << 30;

/// Why an input could not be read. Its text names the path and, where there is one, the
/// line and column; it never quotes the input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The operating system refused (missing file, permission, a directory, ...).
    #[error("{path}: cannot read: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// More than `limit` bytes.
    #[error("{path}: larger than the {limit_text} limit for {what}")]
    TooLarge {
        path: String,
        what: &'static str,
        limit: u64,
        limit_text: String,
    },
    /// A NUL byte: not a text file.
    #[error("{path}:{line}:{column}: not a text file (a NUL byte); {what} must be UTF-8 text")]
    Binary {
        path: String,
        what: &'static str,
        line: usize,
        column: usize,
    },
    /// Bytes that are not UTF-8.
    #[error("{path}:{line}:{column}: invalid UTF-8; {what} must be UTF-8 text")]
    NotUtf8 {
        path: String,
        what: &'static str,
        line: usize,
        column: usize,
    },
}

/// The path as messages show it: `-` for standard input, control characters escaped.
pub fn display_path(path: &Path) -> String {
    escape_control(&path.to_string_lossy()).into_owned()
}

/// A byte count as people read it: `16 MiB`, `4 GiB`, `1000 bytes`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [(&str, u32); 3] = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// Reads at most `limit` bytes from `path` (a file, a pipe or a device); more is an
/// error, found after reading one byte past the limit, never after reading everything.
pub fn read_bytes(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, InputError> {
    let name = display_path(path);
    let file = std::fs::File::open(path).map_err(|source| InputError::Io {
        path: name.clone(),
        source,
    })?;
    read_limited(file, &name, limit, what)
}

/// Reads at most `limit` bytes from `reader` (standard input, say); `name` names it.
pub fn read_limited(
    reader: impl Read,
    name: &str,
    limit: u64,
    what: &'static str,
) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Io {
            path: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            path: name.to_string(),
            what,
            limit,
            limit_text: human_bytes(limit),
        });
    }
    Ok(bytes)
}

/// Reads a text file: [`read_bytes`], then [`into_text`].
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, InputError> {
    into_text(read_bytes(path, limit, what)?, &display_path(path), what)
}

/// Checks that `bytes` are text: no NUL byte, valid UTF-8 (each with its position); drops
/// a leading UTF-8 byte-order mark.
pub fn into_text(mut bytes: Vec<u8>, name: &str, what: &'static str) -> Result<String, InputError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    if let Some(at) = memchr::memchr(0, &bytes) {
        let (line, column) = byte_line_col(&bytes, at);
        return Err(InputError::Binary {
            path: name.to_string(),
            what,
            line,
            column,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, column) = byte_line_col(e.as_bytes(), at);
        InputError::NotUtf8 {
            path: name.to_string(),
            what,
            line,
            column,
        }
    })
}

/// The 1-based line and column (in characters) of byte `offset` of `text`: `\n`, `\r\n`
/// and a lone `\r` each end a line. An offset inside a character counts as that character.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    byte_line_col(text.as_bytes(), offset.min(text.len()))
}

/// [`line_col`] over bytes whose prefix up to `offset` is UTF-8 (continuation bytes are not
/// counted as columns).
pub(crate) fn byte_line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    while let Some(rel) = memchr::memchr2(b'\n', b'\r', &before[i..]) {
        let at = i + rel;
        if before[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            // `\r\n`: the line ends at the `\n`.
            i = at + 1;
            continue;
        }
        line += 1;
        line_start = at + 1;
        i = at + 1;
    }
    // A `\r` right before `offset` whose `\n` is at `offset` ends the line there too, but the
    // offset is still on the line it ends.
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    (line, column)
}

/// `text` with every control character (C0, DEL, C1) and every Unicode bidirectional
/// override written as an escape (`\u{1b}`), so data never drives a terminal or forges a
/// line in a log. Tabs are escaped too (`\t`); nothing else changes.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether [`escape_control`] escapes `c`.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first `max` characters of `text`, and whether anything was cut off.
pub fn cut_chars(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (text.get(..at).unwrap_or(text), true),
        None => (text, false),
    }
}

/// `text` cut to at most `max` characters, a cut marked with `…`: how a message bounds
/// what it quotes.
pub fn truncate_chars(text: &str, max: usize) -> Cow<'_, str> {
    match cut_chars(text, max) {
        (head, true) => Cow::Owned(format!("{head}…")),
        (_, false) => Cow::Borrowed(text),
    }
}

/// At most `max` characters of `line` around character `column` (1-based), control
/// characters escaped: what a diagnostic may quote of an input line. Returns the excerpt
/// and the column of the same character inside it. A cut is marked with `…`.
pub fn excerpt(line: &str, column: usize, max: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    let col = column.max(1) - 1;
    let (start, end) = if chars.len() <= max {
        (0, chars.len())
    } else {
        let start = col
            .saturating_sub(max / 3)
            .min(chars.len().saturating_sub(max));
        (start, (start + max).min(chars.len()))
    };
    let mut out = String::new();
    let mut new_col = 1;
    if start > 0 {
        out.push('…');
        new_col += 1;
    }
    for (i, c) in chars[start..end].iter().enumerate() {
        let piece = escape_control(c.encode_utf8(&mut [0; 4])).into_owned();
        if start + i < col {
            new_col += piece.chars().count();
        }
        out.push_str(&piece);
    }
    if end < chars.len() {
        out.push('…');
    }
    (out, new_col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        assert_eq!(line_col("a\nb", 2), (2, 1));
        assert_eq!(line_col("a\r\nb", 3), (2, 1));
        // The `\n` of a `\r\n` is on the line the pair ends.
        assert_eq!(line_col("a\r\nb", 2), (1, 3));
        assert_eq!(line_col("a\rb\rc", 4), (3, 1));
        assert_eq!(line_col("éx", 2), (1, 2));
        assert_eq!(line_col("ab", 99), (1, 3));
    }

    #[test]
    fn nul_and_invalid_utf8_have_positions() {
        let e = into_text(b"ab\ncd\0ef".to_vec(), "f", "a spec").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f:2:3: not a text file (a NUL byte); a spec must be UTF-8 text"
        );
        let e = into_text(b"x\r\xC3(".to_vec(), "f", "a spec").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f:2:1: invalid UTF-8; a spec must be UTF-8 text"
        );
        assert_eq!(
            into_text(b"\xEF\xBB\xBFok".to_vec(), "f", "x").unwrap(),
            "ok"
        );
    }

    #[test]
    fn reads_stop_at_the_limit() {
        let e = read_limited(std::io::repeat(0), "/dev/zero", 1 << 20, "a spec").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: larger than the 1 MiB limit for a spec"
        );
        assert_eq!(read_limited(&b"abc"[..], "-", 3, "x").unwrap(), b"abc");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_control("ok"), "ok");
        assert_eq!(escape_control("a\x1b[31mb\nc"), "a\\u{1b}[31mb\\nc");
        assert_eq!(escape_control("\u{202E}x"), "\\u{202e}x");
    }

    #[test]
    fn excerpts_are_bounded_and_keep_the_column() {
        let line = "x".repeat(1000) + "HERE" + &"y".repeat(1000);
        let (text, col) = excerpt(&line, 1001, 80);
        assert!(text.chars().count() <= 82, "{text}");
        let at: String = text.chars().skip(col - 1).take(4).collect();
        assert_eq!(at, "HERE");
        assert_eq!(excerpt("short", 2, 80), ("short".to_string(), 2));
    }
}
