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

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let mut line = 1;
    let mut line_start = 0;
    for (i, b) in source.bytes().enumerate() {
        if i >= offset {
            break;
        }
        if b == b'\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = source
        .get(line_start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}
