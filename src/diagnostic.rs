//! Diagnostics are data: a code, a severity, a message, a primary span and optional help.
//! Rendering to text (miette) lives in `render_diagnostics`; library code only builds these.

use crate::syntax::ast::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Warning,
    Error,
}

/// One problem found in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Stable identifier, e.g. `syntax`, `unknown-member` (documented in docs/diagnostics.md).
    pub code: &'static str,
    pub level: Level,
    pub message: String,
    /// Where: byte span in the file the diagnostic belongs to.
    pub span: Span,
    /// Short text under the underline.
    pub label: Option<String>,
    /// What would be right, e.g. `did you mean "encrypted"?`.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code,
            level: Level::Error,
            message: message.into(),
            span,
            label: None,
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            level: Level::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

/// At most this many diagnostics are printed for one file (`render_diagnostics`), and the
/// parser keeps at most this many, plus one `too-many-errors` diagnostic counting the rest
/// (docs/diagnostics.md). A file with a million errors costs neither a million messages nor
/// the memory to hold them.
pub const MAX_DIAGNOSTICS: usize = 100;

/// The code of the diagnostic that counts the problems a [`Collector`] dropped.
pub const TOO_MANY_ERRORS: &str = "too-many-errors";

/// At most this many characters of an input token (a name, a number, a string) are quoted
/// in a message or a label; longer ones are cut with `…` (docs/diagnostics.md).
pub const MAX_QUOTED_CHARS: usize = 60;

/// `text` as a message may quote it: control characters escaped
/// ([`escape_control`](cloudspec_model::input::escape_control)) and at most
/// [`MAX_QUOTED_CHARS`] characters, a cut marked with `…`.
pub fn quoted(text: &str) -> String {
    use cloudspec_model::input::{escape_control, truncate_chars};
    escape_control(&truncate_chars(text, MAX_QUOTED_CHARS)).into_owned()
}

/// Diagnostics collected with bounded memory: the first [`MAX_DIAGNOSTICS`] by position are
/// kept, the others only counted. [`Collector::finish`] sorts them and, when some were
/// dropped, adds one `too-many-errors` diagnostic that says how many.
#[derive(Debug, Default)]
pub struct Collector {
    kept: Vec<Diagnostic>,
    dropped: usize,
    /// Where the first dropped diagnostic starts (all kept ones start at or before it).
    first_dropped: Option<usize>,
}

impl Collector {
    pub fn push(&mut self, diag: Diagnostic) {
        self.kept.push(diag);
        if self.kept.len() >= 2 * MAX_DIAGNOSTICS {
            self.trim();
        }
    }

    pub fn has_errors(&self) -> bool {
        self.dropped > 0 || self.kept.iter().any(Diagnostic::is_error)
    }

    /// How many diagnostics were pushed, kept or dropped.
    pub fn count(&self) -> usize {
        self.kept.len() + self.dropped
    }

    /// Keeps the first [`MAX_DIAGNOSTICS`] by position (a stable sort: equal positions keep
    /// the order they were found in).
    fn trim(&mut self) {
        self.kept.sort_by_key(|d| d.span.start);
        if self.kept.len() > MAX_DIAGNOSTICS {
            for d in self.kept.drain(MAX_DIAGNOSTICS..) {
                self.dropped += 1;
                let at = d.span.start;
                self.first_dropped = Some(self.first_dropped.map_or(at, |f| f.min(at)));
            }
        }
    }

    /// The diagnostics in source order, with the `too-many-errors` summary last.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.trim();
        if let Some(at) = self.first_dropped {
            let n = self.dropped;
            let s = if n == 1 { "" } else { "s" };
            self.kept.push(
                Diagnostic::error(
                    TOO_MANY_ERRORS,
                    format!("{n} more problem{s} in this file not shown"),
                    Span::new(at, at),
                )
                .with_label("the first one not shown is here")
                .with_help(format!(
                    "at most {MAX_DIAGNOSTICS} problems are shown per file; fix these and run again"
                )),
            );
        }
        self.kept
    }
}

impl Extend<Diagnostic> for Collector {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

/// 1-based line and column (in characters) of a byte offset: `\n`, `\r\n` and a lone `\r`
/// each end a line (the same count as [`cloudspec_model::input::line_col`], which it is).
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    cloudspec_model::input::line_col(source, offset)
}

/// The start of every line of a text, for many [`line_col`] look-ups in one text: built in
/// one pass, each look-up is a binary search plus a count of the characters before the
/// offset on its line (so `n` rules or diagnostics cost `O(n log n)`, not `O(n × size)`).
#[derive(Debug, Clone)]
pub struct LineIndex<'s> {
    source: &'s str,
    /// Byte offset where each line starts; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub fn new(source: &'s str) -> Self {
        let bytes = source.as_bytes();
        let mut starts = vec![0];
        let mut at = 0;
        while let Some(&b) = bytes.get(at) {
            at += 1;
            if b == b'\n' || (b == b'\r' && bytes.get(at) != Some(&b'\n')) {
                starts.push(at);
            }
        }
        LineIndex { source, starts }
    }

    /// The same as [`line_col`]`(source, offset)`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.source.len());
        // The last line starting at or before `offset`.
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = 1 + self
            .source
            .as_bytes()
            .get(start..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        (line, column)
    }

    /// The text of 1-based `line` without its line break (empty past the end).
    pub fn line_text(&self, line: usize) -> &'s str {
        let Some(&start) = self.starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).copied().unwrap_or(self.source.len());
        let text = self.source.get(start..end).unwrap_or_default();
        let text = text.strip_suffix('\n').unwrap_or(text);
        text.strip_suffix('\r').unwrap_or(text)
    }
}
