//! Recovery after a syntax error, so that one file reports every error as HCL's parser
//! does (hcl-edit stops at the first). A light scanner finds the top-level item (attribute
//! or block) an error is in; the caller blanks that item out (spaces, newlines kept, so
//! every other byte keeps its position) and parses again, up to [`MAX_SYNTAX_ERRORS`].
//! The scanner also finds a block left open at the end of the file, which HCL reports at
//! its opening brace ("Unclosed configuration block").

/// Syntax errors one file reports at most.
pub(crate) const MAX_SYNTAX_ERRORS: usize = 64;
/// Bytes parsed again in all for one file: a large file with many errors stops recovering
/// early rather than being parsed 64 times.
pub(crate) const MAX_REPARSED_BYTES: usize = 32 << 20;

/// What the scanner found: the byte spans of the top-level items and the brackets still
/// open at the end (their offsets and characters, innermost last).
pub(crate) struct Scan {
    pub items: Vec<(usize, usize)>,
    pub open: Vec<(usize, u8)>,
}

/// Scans `text` for top-level items: an item starts at the first token after a newline at
/// depth 0 and ends after the first newline at depth 0 that follows it (or at the end).
/// Strings (with `${ }` templates), heredocs and comments are stepped over.
pub(crate) fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut items = Vec::new();
    let mut stack: Vec<(usize, u8)> = Vec::new();
    let mut start: Option<usize> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                if stack.is_empty() {
                    if let Some(s) = start.take() {
                        items.push((s, i + 1));
                    }
                }
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        if start.is_none() && stack.is_empty() {
            start = Some(i);
        }
        match c {
            b'#' => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = find(b, i + 2, b"*/").map_or(b.len(), |j| j + 2);
            }
            b'"' => i = string_end(b, i + 1),
            b'<' if b.get(i + 1) == Some(&b'<') => i = heredoc_end(b, i),
            b'{' | b'[' | b'(' => {
                stack.push((i, c));
                i += 1;
            }
            b'}' | b']' | b')' => {
                stack.pop();
                i += 1;
            }
            _ => i += 1,
        }
    }
    if let Some(s) = start {
        items.push((s, b.len()));
    }
    Scan { items, open: stack }
}

fn line_end(b: &[u8], from: usize) -> usize {
    find(b, from, b"\n").unwrap_or(b.len())
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// The offset after a quoted string's closing quote (or where a newline breaks it),
/// stepping over escapes and `${ ... }` interpolations.
fn string_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            b'\n' => return i,
            b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                let mut depth = 1;
                i += 2;
                while i < b.len() && depth > 0 {
                    match b[i] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        b'"' => {
                            i = string_end(b, i + 1);
                            continue;
                        }
                        b'\n' => return i,
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    i
}

/// The offset after a heredoc (`<<EOF` or `<<-EOF`, ended by a line holding only the
/// marker, indented or not); after `<<` alone when it is not a heredoc.
fn heredoc_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let name_start = j;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    if j == name_start || b.get(j) != Some(&b'\n') {
        return i + 2;
    }
    let marker = &b[name_start..j];
    let mut line = j + 1;
    while line < b.len() {
        let end = line_end(b, line);
        let text = &b[line..end];
        let trimmed: &[u8] = {
            let s = text
                .iter()
                .position(|c| !matches!(c, b' ' | b'\t'))
                .unwrap_or(text.len());
            let e = text
                .iter()
                .rposition(|c| !matches!(c, b' ' | b'\t' | b'\r'))
                .map_or(s, |p| p + 1);
            &text[s..e.max(s)]
        };
        if trimmed == marker {
            return end;
        }
        line = end + 1;
    }
    b.len()
}

/// `text` with the bytes of `span` replaced by spaces (newlines kept), so that parsing it
/// again skips that item and every other byte keeps its offset.
pub(crate) fn blank(text: &str, (start, end): (usize, usize)) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, ch) in text.char_indices() {
        if i >= start && i < end && ch != '\n' {
            out.extend(std::iter::repeat_n(' ', ch.len_utf8()));
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_split_at_newlines_outside_brackets() {
        let text = "a { b = \"}\" }\nc = [\n1,\n]\nd {\n";
        let s = scan(text);
        assert_eq!(s.items, vec![(0, 14), (14, 25), (25, 29)]);
        assert_eq!(s.open, vec![(27, b'{')]);
    }

    #[test]
    fn heredocs_and_comments_are_stepped_over() {
        let text = "a = <<EOT\n{\nEOT\n# {\nb = 1 /* { */\n";
        let s = scan(text);
        assert_eq!(s.items.len(), 3);
        assert!(s.open.is_empty());
    }

    #[test]
    fn blanking_keeps_offsets_and_newlines() {
        assert_eq!(blank("ab\ncé\nd", (0, 6)), "  \n   \nd");
    }
}
