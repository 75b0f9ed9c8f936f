//! Diagnostics as text, laid out as HCL's `DiagnosticTextWriter` writes them (what hcldec
//! prints without `--diags json`):
//!
//! ```text
//! Error: Unsupported argument
//!
//!   on config.hcl line 1:
//!    1: namme = "Juan"
//!
//! An argument named "namme" is not expected here. Did you mean "name"?
//!
//! ```
//!
//! The detail is word-wrapped at the given width (as `go-wordwrap` does; 0 disables it).
//! With colour, the severity is red or yellow and the subject is underlined. Not shown
//! (HCL shows them): the "in <block>" context after the line number and the values of the
//! variables an erroneous expression refers to.

use std::collections::BTreeMap;

use cloudspec_model::input;

use crate::diag::{Diagnostic, Range, Severity};

/// Writes `diags`; `files` maps file names to their text for the source snippets.
pub fn write_diagnostics(
    diags: &[Diagnostic],
    files: &BTreeMap<String, String>,
    width: usize,
    color: bool,
) -> String {
    let mut out = String::new();
    for d in diags {
        write_one(d, files, width, color, &mut out);
    }
    out
}

fn write_one(
    d: &Diagnostic,
    files: &BTreeMap<String, String>,
    width: usize,
    color: bool,
    out: &mut String,
) {
    let (severity, code) = match d.severity {
        Severity::Error => ("Error", "\x1b[31m"),
        Severity::Warning => ("Warning", "\x1b[33m"),
    };
    let (code, highlight, reset) = if color {
        (code, "\x1b[1;4m", "\x1b[0m")
    } else {
        ("", "", "")
    };
    out.push_str(&format!("{code}{severity}{reset}: {}\n\n", d.summary));
    if let Some(subject) = &d.subject {
        match files.get(&subject.filename) {
            None => out.push_str(&format!(
                "  on {} line {}:\n  (source code not available)\n\n",
                input::escape_control(&subject.filename),
                subject.start.line
            )),
            Some(src) => {
                out.push_str(&format!(
                    "  on {} line {}:\n",
                    input::escape_control(&subject.filename),
                    subject.start.line
                ));
                write_snippet(src, subject, highlight, reset, out);
                out.push('\n');
            }
        }
    }
    if !d.detail.is_empty() {
        let detail = bounded_detail(&d.detail);
        let detail = if width > 0 {
            wrap(&detail, width)
        } else {
            detail.into_owned()
        };
        out.push_str(&detail);
        out.push_str("\n\n");
    }
}

/// At most this many characters of a detail are shown (details may quote names and values
/// of any size from the input); a cut is marked with `…`.
pub const MAX_DETAIL_CHARS: usize = 2000;

/// `detail` cut to [`MAX_DETAIL_CHARS`].
pub fn bounded_detail(detail: &str) -> std::borrow::Cow<'_, str> {
    cloudspec_model::input::truncate_chars(detail, MAX_DETAIL_CHARS)
}

/// At most this many characters of a source line are shown: a longer line (or one with
/// control characters) is cut to a window around the subject, control characters escaped
/// (`input::excerpt`), so a message never quotes a whole file.
pub const MAX_SNIPPET_CHARS: usize = 120;
/// At most this many lines of a subject spanning lines are shown.
pub const MAX_SNIPPET_LINES: usize = 20;

/// The source lines overlapping `subject`, numbered, the subject highlighted.
fn write_snippet(src: &str, subject: &Range, highlight: &str, reset: &str, out: &mut String) {
    let (start, mut end) = (subject.start.byte, subject.end.byte);
    if end <= start {
        // An empty range is shown as one character.
        end = start + 1;
    }
    let mut line_start = 0usize;
    let mut shown = 0usize;
    for (i, line) in src.split('\n').enumerate() {
        let line_no = i + 1;
        let content = line.strip_suffix('\r').unwrap_or(line);
        let line_end = line_start + content.len();
        let overlaps = if line_start == line_end {
            line_start >= start && line_start < end
        } else {
            line_start < end && start < line_end
        };
        if overlaps {
            if shown == MAX_SNIPPET_LINES {
                out.push_str("      …\n");
                break;
            }
            shown += 1;
            let from = start.clamp(line_start, line_end) - line_start;
            let to = end.clamp(line_start, line_end) - line_start;
            let (before, mid, after) = snippet_line(content, from, to);
            if mid.is_empty() {
                out.push_str(&format!("{line_no:>4}: {before}{after}\n"));
            } else {
                out.push_str(&format!(
                    "{line_no:>4}: {before}{highlight}{mid}{reset}{after}\n"
                ));
            }
        }
        line_start += line.len() + 1;
        if line_start > end && line_start > start {
            break;
        }
    }
}

/// The line `content` as shown: the text before the subject's bytes `from..to`, the
/// subject, and the text after it. A short line without control characters is shown as it
/// is (as HCL shows it); any other is cut to [`MAX_SNIPPET_CHARS`] around the subject with
/// its control characters escaped.
fn snippet_line(content: &str, from: usize, to: usize) -> (String, String, String) {
    let plain = content.chars().count() <= MAX_SNIPPET_CHARS
        && matches!(
            input::escape_control(content),
            std::borrow::Cow::Borrowed(_)
        );
    let parts = (
        content.get(..from),
        content.get(from..to),
        content.get(to..),
    );
    let (Some(before), Some(mid), Some(_)) = parts else {
        // Not on character boundaries (never for parser ranges): the line, unhighlighted.
        let (text, _) = input::excerpt(content, 1, MAX_SNIPPET_CHARS);
        return (text, String::new(), String::new());
    };
    if plain {
        let after = content.get(to..).unwrap_or_default();
        return (before.to_string(), mid.to_string(), after.to_string());
    }
    let column = before.chars().count() + 1;
    let (text, at) = input::excerpt(content, column, MAX_SNIPPET_CHARS);
    let chars: Vec<char> = text.chars().collect();
    let cut_end = usize::from(text.ends_with('…') && !content.ends_with('…'));
    let first = at.saturating_sub(1).min(chars.len());
    let last = (first + input::escape_control(mid).chars().count())
        .min(chars.len().saturating_sub(cut_end));
    let last = last.max(first);
    let piece = |r: std::ops::Range<usize>| chars.get(r).unwrap_or_default().iter().collect();
    (
        piece(0..first),
        piece(first..last),
        piece(last..chars.len()),
    )
}

/// `wordwrap.WrapString`: wraps at white space so lines stay within `limit` bytes where
/// words allow.
pub fn wrap(s: &str, limit: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut current = 0usize;
    let mut word = String::new();
    let mut space = String::new();
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space.len() <= limit {
                    out.push_str(&space);
                }
                space.clear();
            } else {
                out.push_str(&space);
                space.clear();
                out.push_str(&word);
                word.clear();
            }
            out.push(c);
            current = 0;
        } else if c.is_whitespace() {
            if space.is_empty() || !word.is_empty() {
                current += space.len() + word.len();
                out.push_str(&space);
                space.clear();
                out.push_str(&word);
                word.clear();
            }
            space.push(c);
        } else {
            word.push(c);
            if current + space.len() + word.len() > limit && word.len() < limit {
                out.push('\n');
                current = 0;
                space.clear();
            }
        }
    }
    if word.is_empty() {
        if current + space.len() <= limit {
            out.push_str(&space);
        }
    } else {
        out.push_str(&space);
        out.push_str(&word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;

    fn range(file: &str, start: (usize, usize, usize), end: (usize, usize, usize)) -> Range {
        Range {
            filename: file.into(),
            start: Pos {
                line: start.0,
                column: start.1,
                byte: start.2,
            },
            end: Pos {
                line: end.0,
                column: end.1,
                byte: end.2,
            },
        }
    }

    #[test]
    fn hcl_text_layout() {
        let files = BTreeMap::from([(
            "in.hcl".to_string(),
            "a = 1\nnamme = \"Juan\"\n".to_string(),
        )]);
        let d = Diagnostic::error(
            "Unsupported argument",
            "An argument named \"namme\" is not expected here.",
            Some(range("in.hcl", (2, 1, 6), (2, 6, 11))),
        );
        assert_eq!(
            write_diagnostics(std::slice::from_ref(&d), &files, 80, false),
            "Error: Unsupported argument\n\n  on in.hcl line 2:\n   2: namme = \"Juan\"\n\nAn argument named \"namme\" is not expected here.\n\n"
        );
        assert_eq!(
            write_diagnostics(&[d], &files, 80, true),
            "\x1b[31mError\x1b[0m: Unsupported argument\n\n  on in.hcl line 2:\n   2: \x1b[1;4mnamme\x1b[0m = \"Juan\"\n\nAn argument named \"namme\" is not expected here.\n\n"
        );
        let no_source = Diagnostic::error("X", "", Some(range("other", (3, 1, 0), (3, 1, 0))));
        assert_eq!(
            write_diagnostics(&[no_source], &files, 80, false),
            "Error: X\n\n  on other line 3:\n  (source code not available)\n\n"
        );
        let plain = Diagnostic {
            severity: Severity::Warning,
            summary: "W".into(),
            detail: "d".into(),
            subject: None,
            expression: None,
        };
        assert_eq!(
            write_diagnostics(&[plain], &files, 80, false),
            "Warning: W\n\nd\n\n"
        );
    }

    #[test]
    fn multi_line_and_empty_subjects() {
        let files = BTreeMap::from([("f".to_string(), "x {\n  y = 1\n}\n".to_string())]);
        let d = Diagnostic::error("S", "", Some(range("f", (1, 3, 2), (3, 2, 13))));
        assert_eq!(
            write_diagnostics(&[d], &files, 0, false),
            "Error: S\n\n  on f line 1:\n   1: x {\n   2:   y = 1\n   3: }\n\n"
        );
        let empty = Diagnostic::error("E", "", Some(range("f", (3, 2, 13), (3, 2, 13))));
        assert_eq!(
            write_diagnostics(&[empty], &files, 0, false),
            "Error: E\n\n  on f line 3:\n\n"
        );
    }

    #[test]
    fn word_wrap_like_go_wordwrap() {
        assert_eq!(wrap("aaa bbb ccc", 7), "aaa bbb\nccc");
        assert_eq!(wrap("aaa bbb ccc", 80), "aaa bbb ccc");
        assert_eq!(wrap("a verylongword b", 4), "a\nverylongword\nb");
        assert_eq!(wrap("one\ntwo three", 6), "one\ntwo\nthree");
    }
}
