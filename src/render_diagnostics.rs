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
//!
//! What is printed is bounded whatever the input (docs/diagnostics.md): at most
//! [`MAX_EXCERPT_CHARS`] characters of the source line around the column, control
//! characters escaped, so a one-line file or a line of a secret never reaches the output
//! whole; messages, labels and help with control characters escaped and cut at
//! [`MAX_TEXT_CHARS`]; and at most [`MAX_DIAGNOSTICS`] diagnostics per file, then one line
//! saying how many more there are.

use cloudspec_model::input::{escape_control, excerpt};

use crate::diagnostic::{Diagnostic, Level, LineIndex, MAX_DIAGNOSTICS, TOO_MANY_ERRORS};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const CYAN: &str = "\x1b[1;36m";

/// At most this many characters of a source line are shown (a window around the column).
pub const MAX_EXCERPT_CHARS: usize = 120;

/// Messages, labels and help longer than this many characters are cut with `…` (the
/// library quotes input through [`quoted`](crate::diagnostic::quoted), so only a message from elsewhere ever is).
pub const MAX_TEXT_CHARS: usize = 2000;

/// Renders diagnostics of one file as text. `color` adds ANSI styles. At most
/// [`MAX_DIAGNOSTICS`] are shown (and the parser's `too-many-errors` count), then a line
/// with the number not shown.
pub fn render(file: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    let lines = LineIndex::new(source);
    let file = escape_control(file);
    let mut parts = Vec::new();
    let mut shown = 0;
    let mut more = 0;
    for d in diagnostics {
        // The parser's own count of what it dropped is always shown.
        if d.code == TOO_MANY_ERRORS || shown < MAX_DIAGNOSTICS {
            shown += usize::from(d.code != TOO_MANY_ERRORS);
            parts.push(render_at(&file, source, &lines, d, color));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        let s = if more == 1 { "" } else { "s" };
        parts.push(format!(
            "... and {more} more diagnostic{s} in {file} not shown (at most {MAX_DIAGNOSTICS} per file)\n"
        ));
    }
    parts.join("\n")
}

/// Paints `text` with `style` when colour is on.
fn paint(text: &str, style: &str, color: bool) -> String {
    if color {
        format!("{style}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// Text from a diagnostic as it may be printed: control characters escaped, bounded.
fn safe_text(text: &str) -> String {
    let escaped = escape_control(text);
    match escaped.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => format!("{}…", &escaped[..cut]),
        None => escaped.into_owned(),
    }
}

/// One diagnostic: header, location, the source line underlined, help.
pub fn render_one(file: &str, source: &str, diag: &Diagnostic, color: bool) -> String {
    render_at(
        &escape_control(file),
        source,
        &LineIndex::new(source),
        diag,
        color,
    )
}

fn render_at(
    file: &str,
    source: &str,
    lines: &LineIndex<'_>,
    diag: &Diagnostic,
    color: bool,
) -> String {
    let (level, style) = match diag.level {
        Level::Error => ("error", RED),
        Level::Warning => ("warning", YELLOW),
    };
    let (line, col) = lines.line_col(diag.span.start);
    let width = line.to_string().len();
    let pad = " ".repeat(width);
    let bar = paint("|", BLUE, color);
    let mut out = String::new();
    out.push_str(&paint(
        &format!("{level}[{}]", safe_text(diag.code)),
        style,
        color,
    ));
    out.push_str(&paint(
        &format!(": {}", safe_text(&diag.message)),
        BOLD,
        color,
    ));
    out.push('\n');
    out.push_str(&format!(
        "{pad}{} {file}:{line}:{col}\n",
        paint("-->", BLUE, color)
    ));
    out.push_str(&format!("{pad} {bar}\n"));
    // Tabs print as one space (as before), so columns line up with the carets.
    let text = lines.line_text(line).replace('\t', " ");
    let (shown, shown_col) = excerpt(&text, col, MAX_EXCERPT_CHARS);
    out.push_str(&format!(
        "{} {bar} {shown}\n",
        paint(&line.to_string(), BLUE, color),
    ));
    let carets = "^".repeat(underline_len(source, diag, &text, &shown, shown_col));
    let mut marker = format!("{}{carets}", " ".repeat(shown_col - 1));
    if let Some(label) = &diag.label {
        marker.push(' ');
        marker.push_str(&safe_text(label));
    }
    out.push_str(&format!("{pad} {bar} {}\n", paint(&marker, style, color)));
    if let Some(help) = &diag.help {
        out.push_str(&format!("{pad} {bar}\n"));
        out.push_str(&format!(
            "{pad} {} {}\n",
            paint("= help:", CYAN, color),
            safe_text(help)
        ));
    }
    out
}

/// How many characters of the excerpt to underline: the span, cut at the end of its first
/// line and at the end of the excerpt, at least 1. `line_text` is the whole line,
/// `shown`/`shown_col` its excerpt and the span's column in the excerpt.
fn underline_len(
    source: &str,
    diag: &Diagnostic,
    line_text: &str,
    shown: &str,
    shown_col: usize,
) -> usize {
    let spanned = source
        .get(diag.span.start.min(source.len())..diag.span.end.min(source.len()))
        .unwrap_or_default();
    let first_line = spanned.split(['\n', '\r']).next().unwrap_or_default();
    // Width of the spanned characters as the excerpt prints them (escapes are wider).
    let wanted: usize = first_line
        .chars()
        .take(MAX_EXCERPT_CHARS + 1)
        .map(|c| {
            let c = if c == '\t' { ' ' } else { c };
            escape_control(c.encode_utf8(&mut [0; 4])).chars().count()
        })
        .sum();
    // What the excerpt shows from the column on (without a closing `…` when it was cut).
    let cut_at_end = line_text.chars().count() > MAX_EXCERPT_CHARS && shown.ends_with('…');
    let after = shown
        .chars()
        .count()
        .saturating_sub(shown_col - 1)
        .saturating_sub(usize::from(cut_at_end));
    wanted.min(after.max(1)).max(1)
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
