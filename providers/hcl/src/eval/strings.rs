//! Decoding string literal text from the source as HCL's `ParseStringLiteralToken` does.

use std::ops::Range as Span;

use crate::diag::Diagnostic;
use crate::syntax::SourceFile;

/// Decodes the quoted-string literal text at `span` of `src` (between the quotes, or one
/// literal part of a quoted template): the escapes `\n \r \t \" \\ \uNNNN \UNNNNNNNN`, and
/// `$${`/`%%{` for literal `${`/`%{`. Invalid escapes and raw newlines are diagnosed.
pub(crate) fn decode_quoted(
    src: &SourceFile,
    span: Span<usize>,
    diags: &mut Vec<Diagnostic>,
) -> String {
    let Some(raw) = src.slice(span.clone()) else {
        return String::new();
    };
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    let mut reported_newline = false;
    while let Some((i, c)) = chars.next() {
        let at = span.start + i;
        match c {
            '\\' => {
                let Some((_, sel)) = chars.next() else {
                    diags.push(Diagnostic::error(
                        "Invalid escape sequence",
                        "Backslash must be followed by an escape sequence selector character.",
                        Some(src.range(at..at + 1)),
                    ));
                    break;
                };
                match sel {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let want = if sel == 'u' { 4 } else { 8 };
                        let mut hex = String::new();
                        while hex.len() < want {
                            match chars.peek() {
                                Some((_, h)) if h.is_ascii_hexdigit() => {
                                    hex.push(*h);
                                    chars.next();
                                }
                                _ => break,
                            }
                        }
                        let end = at + 2 + hex.len();
                        if hex.len() != want {
                            let detail = if sel == 'u' {
                                "The \\u escape sequence must be followed by four hexadecimal digits."
                            } else {
                                "The \\U escape sequence must be followed by eight hexadecimal digits."
                            };
                            diags.push(Diagnostic::error(
                                "Invalid escape sequence",
                                detail,
                                Some(src.range(at..end)),
                            ));
                            continue;
                        }
                        let code = u32::from_str_radix(&hex, 16).unwrap_or(u32::MAX);
                        match char::from_u32(code) {
                            Some(ch) => out.push(ch),
                            None => diags.push(Diagnostic::error(
                                "Invalid escape sequence",
                                format!("Cannot encode character U+{code:04x} in UTF-8."),
                                Some(src.range(at..end)),
                            )),
                        }
                    }
                    other => {
                        diags.push(Diagnostic::error(
                            "Invalid escape sequence",
                            format!(
                                "The symbol {} is not a valid escape sequence selector.",
                                crate::types::go_quote(&other.to_string())
                            ),
                            Some(src.range(at..at + 1 + other.len_utf8())),
                        ));
                        out.push(other);
                    }
                }
            }
            '$' | '%' if raw.get(i + 1..i + 3) == Some(&format!("{c}{{")[..]) => {
                // `$${` or `%%{`: a literal `${` or `%{`.
                out.push(c);
                out.push('{');
                chars.next();
                chars.next();
            }
            '\n' => {
                if !reported_newline {
                    reported_newline = true;
                    diags.push(Diagnostic::error(
                        "Invalid multi-line string",
                        "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                        Some(src.range(at..at + 1)),
                    ));
                }
                out.push('\n');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Decodes heredoc or bare template literal text: only `$${` and `%%{` are escapes.
pub(crate) fn decode_heredoc(raw: &str) -> String {
    raw.replace("$${", "${").replace("%%{", "%{")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(text: &str) -> (String, Vec<Diagnostic>) {
        let src = SourceFile::new("t", text);
        let mut diags = Vec::new();
        let s = decode_quoted(&src, 0..text.len(), &mut diags);
        (s, diags)
    }

    #[test]
    fn escapes() {
        let (s, d) = decode(r#"a\nb\r\t\"\\\u00e9\U0001F600$${x}%%{y}$$z"#);
        assert!(d.is_empty());
        assert_eq!(s, "a\nb\r\t\"\\é😀${x}%{y}$$z");
    }

    #[test]
    fn invalid_escapes() {
        let (_, d) = decode(r"\/");
        assert_eq!(d[0].summary, "Invalid escape sequence");
        assert_eq!(
            d[0].detail,
            "The symbol \"/\" is not a valid escape sequence selector."
        );
        let (_, d) = decode(r"\u12");
        assert_eq!(
            d[0].detail,
            "The \\u escape sequence must be followed by four hexadecimal digits."
        );
        let (_, d) = decode(r"\UD800D800");
        assert_eq!(d[0].summary, "Invalid escape sequence");
    }

    #[test]
    fn heredoc_text() {
        assert_eq!(decode_heredoc(r"a\n $${b} %%{c}"), r"a\n ${b} %{c}");
    }
}
