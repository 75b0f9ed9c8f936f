//! STUB: renders Diagnostics with miette (file:line:col, underline, help).
use crate::diagnostic::Diagnostic;

/// Renders diagnostics of one file as text. `color` adds ANSI styles.
pub fn render(_file: &str, _source: &str, _diagnostics: &[Diagnostic], _color: bool) -> String {
    String::new()
}
