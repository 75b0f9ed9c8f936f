//! Diagnostics as data: severity, summary, detail and a source range counted as HCL counts it.

use std::fmt;

/// A position in a source file. `line` and `column` start at 1; `column` counts Unicode
/// grapheme clusters (as HCL does); `byte` is the 0-based byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// A half-open source range `[start, end)` in one file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Range {
    pub filename: String,
    pub start: Pos,
    pub end: Pos,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.filename, self.start.line, self.start.column
        )
    }
}

/// HCL's `Range.String()`: `file:line,col-col` on one line, `file:line,col-line,col` across
/// lines (how HCL's messages cite another place: "already set at a.hcl:1,1-2").
pub fn range_string(r: &Range) -> String {
    if r.start.line == r.end.line {
        format!(
            "{}:{},{}-{}",
            r.filename, r.start.line, r.start.column, r.end.column
        )
    } else {
        format!(
            "{}:{},{}-{},{}",
            r.filename, r.start.line, r.start.column, r.end.line, r.end.column
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One diagnostic, shaped like hcl.Diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    pub subject: Option<Range>,
    /// The innermost expression whose evaluation raised this diagnostic (HCL's
    /// `Diagnostic.Expression`, as its range): set by the evaluator, `None` elsewhere.
    pub expression: Option<Range>,
}

impl Diagnostic {
    pub fn error(
        summary: impl Into<String>,
        detail: impl Into<String>,
        subject: Option<Range>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            subject,
            expression: None,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = &self.subject {
            write!(f, "{r}: ")?;
        }
        write!(f, "{}: {}", self.severity.as_str(), self.summary)?;
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        Ok(())
    }
}

pub type Diagnostics = Vec<Diagnostic>;

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}
