//! Renders [`Diagnostic`]s as text, in the layout compilers use so editors and terminals can
//! jump to them:
//!
//! ```text
//! error[syntax]: expected a predicate such as "equal to" or "is not null"
//!  --> specs/ec2.cloudspec:7:12
//!   |
//! 7 |     Assert size bigger 50
//!   |                 ^^^^^^ found "bigger"
//!   |
//!   = help: a member is followed by a predicate ...
//! ```
//!
//! A small renderer of our own rather than miette's graphical handler: miette prints the
//! location inside a box (`╭─[file:line:col]`) and the code on its own line, while editors
//! and CI log parsers expect `error[code]: message` and a bare `--> file:line:col`. Without
//! colour the output depends on nothing but its inputs (no terminal width), which keeps the
//! snapshot tests stable.

use crate::diagnostic::{line_col, Diagnostic, Level};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const CYAN: &str = "\x1b[1;36m";

/// Renders diagnostics of one file as text. `color` adds ANSI styles.
pub fn render(file: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    diagnostics
        .iter()
        .map(|d| render_one(file, source, d, color))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Paints `text` with `style` when colour is on.
fn paint(text: &str, style: &str, color: bool) -> String {
    if color {
        format!("{style}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// One diagnostic: header, location, the source line underlined, help.
pub fn render_one(file: &str, source: &str, diag: &Diagnostic, color: bool) -> String {
    let (level, style) = match diag.level {
        Level::Error => ("error", RED),
        Level::Warning => ("warning", YELLOW),
    };
    let (line, col) = line_col(source, diag.span.start);
    let width = line.to_string().len();
    let pad = " ".repeat(width);
    let bar = paint("|", BLUE, color);
    let mut out = String::new();
    out.push_str(&paint(&format!("{level}[{}]", diag.code), style, color));
    out.push_str(&paint(&format!(": {}", diag.message), BOLD, color));
    out.push('\n');
    out.push_str(&format!(
        "{pad}{} {file}:{line}:{col}\n",
        paint("-->", BLUE, color)
    ));
    out.push_str(&format!("{pad} {bar}\n"));
    let text = source_line(source, line);
    out.push_str(&format!(
        "{} {bar} {}\n",
        paint(&line.to_string(), BLUE, color),
        text.replace('\t', " ")
    ));
    let carets = "^".repeat(underline_len(source, diag, col, &text));
    let mut marker = format!("{}{carets}", " ".repeat(col - 1));
    if let Some(label) = &diag.label {
        marker.push(' ');
        marker.push_str(label);
    }
    out.push_str(&format!("{pad} {bar} {}\n", paint(&marker, style, color)));
    if let Some(help) = &diag.help {
        out.push_str(&format!("{pad} {bar}\n"));
        out.push_str(&format!(
            "{pad} {} {}\n",
            paint("= help:", CYAN, color),
            help
        ));
    }
    out
}

/// The text of 1-based `line`, without its line break.
fn source_line(source: &str, line: usize) -> String {
    source
        .split('\n')
        .nth(line.saturating_sub(1))
        .unwrap_or_default()
        .trim_end_matches('\r')
        .to_string()
}

/// How many characters to underline: the span, cut at the end of its first line, at least 1.
fn underline_len(source: &str, diag: &Diagnostic, col: usize, line_text: &str) -> usize {
    let spanned = source
        .get(diag.span.start.min(source.len())..diag.span.end.min(source.len()))
        .unwrap_or_default();
    let first_line = spanned
        .split('\n')
        .next()
        .unwrap_or_default()
        .trim_end_matches('\r');
    let rest_of_line = line_text.chars().count().saturating_sub(col - 1);
    first_line.chars().count().min(rest_of_line.max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::Span;

    #[test]
    fn renders_location_and_underline() {
        let source = "Spec \"x\"\nGroup oops\n";
        let diag = Diagnostic::error("syntax", "expected a quoted string", Span::new(15, 19))
            .with_label("found \"oops\"")
            .with_help("quote it");
        let text = render("a.cloudspec", source, &[diag], false);
        assert_eq!(
            text,
            "error[syntax]: expected a quoted string\n --> a.cloudspec:2:7\n  |\n2 | Group oops\n  |       ^^^^ found \"oops\"\n  |\n  = help: quote it\n"
        );
    }

    #[test]
    fn renders_end_of_file_and_warnings() {
        let diag = Diagnostic::warning("w", "careful", Span::new(3, 3));
        let text = render("a", "abc", &[diag], false);
        assert!(
            text.starts_with("warning[w]: careful\n --> a:1:4\n"),
            "{text}"
        );
        assert!(text.contains("1 | abc\n  |    ^\n"), "{text}");
    }
}
