//! Go's `regexp` and `regexp/syntax`, as Terraform's `regex`, `regexall` and `replace`
//! show them: [`compile_go_regex`] translates an RE2 pattern in Go's syntax to the `regex`
//! crate's (same engine semantics: no backreferences or look-around) so that it means what
//! it means in Go, and reports Go's `regexp/syntax` error codes and offending text;
//! [`go_find_all`] is `FindAllStringSubmatchIndex(s, -1)`, [`go_replace_all`] is
//! `ReplaceAllString` with [`go_expand`] (`Regexp.Expand`).
//!
//! Why the `regex` crate alone does not do: its syntax is not Go's (Unicode `\d`, `\w`,
//! `\s`, `\b` where Go's are ASCII; `[` inside a class opens a nested class where Go takes
//! it literally; `{` not starting a valid repetition is an error where Go takes it
//! literally; other flags and repetition limits), and its errors are worded differently
//! (Terraform shows Go's: `invalid regexp pattern: invalid nested repetition operator in **`).
//! Match iteration and `$` expansion follow Go's code step by step rather than the crate's
//! `captures_iter` / `Captures::expand`, whose rules (advancing past empty matches, which
//! characters a `$name` may hold) are the crate's own.

use regex::{Captures, Regex};

/// A Go `regexp/syntax` error: its code text and the offending expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GoRegexError {
    pub code: &'static str,
    pub expr: String,
}

const E_INVALID_CLASS_RANGE: &str = "invalid character class range";
const E_INVALID_ESCAPE: &str = "invalid escape sequence";
const E_INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const E_INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const E_INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const E_INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const E_MISSING_BRACKET: &str = "missing closing ]";
const E_MISSING_PAREN: &str = "missing closing )";
const E_MISSING_REPEAT_ARG: &str = "missing argument to repetition operator";
const E_TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const E_UNEXPECTED_PAREN: &str = "unexpected )";
const E_NESTING_DEPTH: &str = "expression nests too deeply";
const E_LARGE: &str = "expression too large";
const E_INVALID_UTF8: &str = "invalid UTF-8";

/// Compiles a Go (RE2) regular expression: translated to the `regex` crate's syntax so
/// that it means what it means in Go (ASCII-only `\d`, `\w`, `\s`, `\b`; `[` literal in a
/// class; `{` literal when not a repetition; Go's repetition limits and flags), with
/// errors worded as Go words them.
pub(crate) fn compile_go_regex(pattern: &str) -> Result<Regex, GoRegexError> {
    let rust = go_regex_to_rust(pattern)?;
    let whole = |code| GoRegexError {
        code,
        expr: pattern.to_string(),
    };
    let ast = match regex_syntax::ast::parse::Parser::new().parse(&rust) {
        Ok(ast) => ast,
        Err(e) => {
            use regex_syntax::ast::ErrorKind as K;
            let span = e.span();
            let text = rust
                .get(span.start.offset..span.end.offset)
                .unwrap_or("")
                .to_string();
            let code = match e.kind() {
                K::GroupUnclosed => return Err(whole(E_MISSING_PAREN)),
                K::GroupUnopened => return Err(whole(E_UNEXPECTED_PAREN)),
                K::ClassUnclosed => E_MISSING_BRACKET,
                K::ClassRangeInvalid | K::ClassRangeLiteral | K::UnicodeClassInvalid => {
                    E_INVALID_CLASS_RANGE
                }
                K::RepetitionMissing => {
                    // Go names the operator itself (the regex crate's span may be empty).
                    let rest = rust.get(span.start.offset..).unwrap_or("");
                    let op = if rest.starts_with('{') {
                        rest.find('}').map_or(rest, |e| &rest[..=e])
                    } else {
                        rest.get(..rest.chars().next().map_or(0, char::len_utf8))
                            .unwrap_or("")
                    };
                    return Err(GoRegexError {
                        code: E_MISSING_REPEAT_ARG,
                        expr: op.to_string(),
                    });
                }
                K::RepetitionCountInvalid
                | K::RepetitionCountDecimalEmpty
                | K::RepetitionCountUnclosed
                | K::DecimalEmpty
                | K::DecimalInvalid => E_INVALID_REPEAT_SIZE,
                K::EscapeUnexpectedEof => E_TRAILING_BACKSLASH,
                K::GroupNameDuplicate { .. }
                | K::GroupNameEmpty
                | K::GroupNameInvalid
                | K::GroupNameUnexpectedEof => E_INVALID_NAMED_CAPTURE,
                K::FlagDanglingNegation
                | K::FlagDuplicate { .. }
                | K::FlagRepeatedNegation { .. }
                | K::FlagUnexpectedEof
                | K::FlagUnrecognized
                | K::UnsupportedLookAround => E_INVALID_PERL_OP,
                K::NestLimitExceeded(_) => return Err(whole(E_NESTING_DEPTH)),
                K::CaptureLimitExceeded => return Err(whole(E_LARGE)),
                _ => E_INVALID_ESCAPE,
            };
            return Err(GoRegexError { code, expr: text });
        }
    };
    if let Err(e) = regex_syntax::hir::translate::Translator::new().translate(&rust, &ast) {
        use regex_syntax::hir::ErrorKind as K;
        let span = e.span();
        let text = rust
            .get(span.start.offset..span.end.offset)
            .unwrap_or("")
            .to_string();
        let code = match e.kind() {
            K::InvalidUtf8 => E_INVALID_UTF8,
            _ => E_INVALID_CLASS_RANGE,
        };
        return Err(GoRegexError { code, expr: text });
    }
    Regex::new(&rust).map_err(|_| whole(E_LARGE))
}

/// Translates Go regexp syntax to the `regex` crate's, reporting the errors Go reports
/// that the `regex` crate would not (or would word differently).
fn go_regex_to_rust(p: &str) -> Result<String, GoRegexError> {
    let chars: Vec<(usize, char)> = p.char_indices().collect();
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let pos = |k: usize| chars.get(k).map(|&(b, _)| b).unwrap_or(p.len());
    let slice = |a: usize, b: usize| p.get(pos(a)..pos(b)).unwrap_or("").to_string();
    let mut out = String::with_capacity(p.len() + 16);
    let mut i = 0usize;
    // Start (char index) of the repetition operator just emitted, to reject `a**` as Go
    // does.
    let mut last_repeat: Option<usize> = None;
    while let Some(c) = at(i) {
        match c {
            '\\' => {
                i = translate_escape(p, &chars, i, false, &mut out)?;
                last_repeat = None;
            }
            '[' => {
                i = translate_class(p, &chars, i, &mut out)?;
                last_repeat = None;
            }
            '*' | '+' | '?' | '{' => {
                let (end, text) = if c == '{' {
                    match parse_go_repeat(&chars, i) {
                        Some((end, min, max)) => {
                            if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                                return Err(GoRegexError {
                                    code: E_INVALID_REPEAT_SIZE,
                                    expr: slice(i, end),
                                });
                            }
                            (end, slice(i, end))
                        }
                        None => {
                            out.push_str("\\{");
                            i += 1;
                            last_repeat = None;
                            continue;
                        }
                    }
                } else {
                    (i + 1, c.to_string())
                };
                // A trailing `?` makes the repetition non-greedy.
                let (end, text) = if at(end) == Some('?') {
                    (end + 1, format!("{text}?"))
                } else {
                    (end, text)
                };
                if let Some(start) = last_repeat {
                    return Err(GoRegexError {
                        code: E_INVALID_REPEAT_OP,
                        expr: slice(start, end),
                    });
                }
                out.push_str(&text);
                last_repeat = Some(i);
                i = end;
            }
            ']' => {
                out.push_str("\\]");
                i += 1;
                last_repeat = None;
            }
            '(' if at(i + 1) == Some('?') => {
                match at(i + 2) {
                    Some('P') | Some('<') => {}
                    _ => {
                        // Flags: Go knows i, m, s and U.
                        let mut k = i + 2;
                        loop {
                            match at(k) {
                                Some(f) if "imsU-".contains(f) => k += 1,
                                Some(':') | Some(')') => break,
                                Some(_) => {
                                    return Err(GoRegexError {
                                        code: E_INVALID_PERL_OP,
                                        expr: slice(i, k + 1),
                                    })
                                }
                                None => {
                                    return Err(GoRegexError {
                                        code: E_MISSING_PAREN,
                                        expr: p.to_string(),
                                    })
                                }
                            }
                        }
                    }
                }
                out.push_str("(?");
                i += 2;
                last_repeat = None;
            }
            _ => {
                out.push(c);
                i += 1;
                last_repeat = None;
            }
        }
    }
    Ok(out)
}

/// Go's `{n}`, `{n,}`, `{n,m}` (no leading zeros); `None` when `{` is a literal.
/// Returns the char index after `}`, min and max (-1: unbounded; -1 min: too many digits).
fn parse_go_repeat(chars: &[(usize, char)], i: usize) -> Option<(usize, i64, i64)> {
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let parse_int = |mut k: usize| -> Option<(usize, i64)> {
        let start = k;
        while matches!(at(k), Some('0'..='9')) {
            k += 1;
        }
        if k == start {
            return None;
        }
        if k - start >= 2 && at(start) == Some('0') {
            return None;
        }
        if k - start > 8 {
            return Some((k, -1));
        }
        let mut n: i64 = 0;
        for j in start..k {
            n = n * 10 + i64::from(at(j)? as u8 - b'0');
        }
        Some((k, n))
    };
    let (mut k, min) = parse_int(i + 1)?;
    let max;
    if at(k) == Some(',') {
        k += 1;
        if at(k) == Some('}') {
            max = -1;
        } else {
            let (k2, m) = parse_int(k)?;
            k = k2;
            max = if m < 0 { 1001 } else { m };
        }
    } else {
        max = min;
    }
    if at(k) != Some('}') {
        return None;
    }
    Some((k + 1, min, max))
}

fn translate_escape(
    p: &str,
    chars: &[(usize, char)],
    i: usize,
    in_class: bool,
    out: &mut String,
) -> Result<usize, GoRegexError> {
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let pos = |k: usize| chars.get(k).map(|&(b, _)| b).unwrap_or(p.len());
    let Some(c) = at(i + 1) else {
        return Err(GoRegexError {
            code: E_TRAILING_BACKSLASH,
            expr: String::new(),
        });
    };
    let invalid = |end: usize| GoRegexError {
        code: E_INVALID_ESCAPE,
        expr: p.get(pos(i)..pos(end)).unwrap_or("").to_string(),
    };
    match c {
        'd' => out.push_str("[0-9]"),
        'D' => out.push_str("[^0-9]"),
        's' => out.push_str("[\\t\\n\\f\\r ]"),
        'S' => out.push_str("[^\\t\\n\\f\\r ]"),
        'w' => out.push_str("[0-9A-Za-z_]"),
        'W' => out.push_str("[^0-9A-Za-z_]"),
        'b' if !in_class => out.push_str("(?-u:\\b)"),
        'B' if !in_class => out.push_str("(?-u:\\B)"),
        'A' | 'z' if !in_class => {
            out.push('\\');
            out.push(c);
        }
        'a' | 'f' | 'n' | 'r' | 't' | 'v' => {
            out.push('\\');
            out.push(c);
        }
        'p' | 'P' | 'x' => {
            // Copied through: `\pL`, `\p{Greek}`, `\x41`, `\x{263a}`.
            out.push('\\');
            out.push(c);
            let mut k = i + 2;
            if at(k) == Some('{') {
                while let Some(ch) = at(k) {
                    out.push(ch);
                    k += 1;
                    if ch == '}' {
                        break;
                    }
                }
            } else {
                let n = if c == 'x' { 2 } else { 1 };
                for _ in 0..n {
                    if let Some(ch) = at(k) {
                        out.push(ch);
                        k += 1;
                    }
                }
            }
            return Ok(k);
        }
        '0'..='7' => {
            // Go: `\0` and two- or three-digit octal escapes; a single non-zero digit
            // would be a backreference, which is not supported.
            let is_oct = |k: usize| matches!(at(k), Some('0'..='7'));
            if c != '0' && !is_oct(i + 2) {
                return Err(invalid(i + 2));
            }
            let mut v = u32::from(c as u8 - b'0');
            let mut k = i + 2;
            for _ in 1..3 {
                if !is_oct(k) {
                    break;
                }
                v = v * 8 + u32::from(at(k).unwrap_or('0') as u8 - b'0');
                k += 1;
            }
            out.push_str(&format!("\\x{{{v:x}}}"));
            return Ok(k);
        }
        'Q' if !in_class => {
            // Literal text up to `\E`.
            let mut k = i + 2;
            let mut lit = String::new();
            while let Some(ch) = at(k) {
                if ch == '\\' && at(k + 1) == Some('E') {
                    k += 2;
                    out.push_str(&regex_syntax::escape(&lit));
                    return Ok(k);
                }
                lit.push(ch);
                k += 1;
            }
            out.push_str(&regex_syntax::escape(&lit));
            return Ok(k);
        }
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => {
            // Escaped punctuation is a literal in Go (`\<` too, which is an assertion in
            // the regex crate).
            if regex_syntax::is_escapeable_character(c) && c != '<' && c != '>' {
                out.push('\\');
                out.push(c);
            } else {
                out.push_str(&regex_syntax::escape(&c.to_string()));
            }
        }
        _ => return Err(invalid(i + 2)),
    }
    Ok(i + 2)
}

fn translate_class(
    p: &str,
    chars: &[(usize, char)],
    i: usize,
    out: &mut String,
) -> Result<usize, GoRegexError> {
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let start = chars.get(i).map(|&(b, _)| b).unwrap_or(0);
    out.push('[');
    let mut k = i + 1;
    if at(k) == Some('^') {
        out.push('^');
        k += 1;
    }
    let mut first = true;
    let mut prev_dash = false;
    loop {
        let Some(c) = at(k) else {
            return Err(GoRegexError {
                code: E_MISSING_BRACKET,
                expr: p.get(start..).unwrap_or("").to_string(),
            });
        };
        if c == ']' && !first {
            out.push(']');
            return Ok(k + 1);
        }
        first = false;
        match c {
            ']' => {
                out.push_str("\\]");
                k += 1;
                prev_dash = false;
            }
            '[' => {
                // POSIX classes `[:alpha:]` are the same in both; any other `[` is a
                // literal in Go but opens a nested class in the regex crate.
                if at(k + 1) == Some(':') {
                    let mut j = k + 2;
                    while let Some(ch) = at(j) {
                        if ch == ':' && at(j + 1) == Some(']') {
                            break;
                        }
                        if ch == ']' {
                            break;
                        }
                        j += 1;
                    }
                    if at(j) == Some(':') && at(j + 1) == Some(']') {
                        for q in k..j + 2 {
                            if let Some(ch) = at(q) {
                                out.push(ch);
                            }
                        }
                        k = j + 2;
                        prev_dash = false;
                        continue;
                    }
                }
                out.push_str("\\[");
                k += 1;
                prev_dash = false;
            }
            '\\' => {
                k = translate_escape(p, chars, k, true, out)?;
                prev_dash = false;
            }
            '&' | '~' => {
                out.push('\\');
                out.push(c);
                k += 1;
                prev_dash = false;
            }
            '-' => {
                if prev_dash {
                    out.push_str("\\-");
                    prev_dash = false;
                } else {
                    out.push('-');
                    prev_dash = true;
                }
                k += 1;
            }
            _ => {
                out.push(c);
                k += 1;
                prev_dash = false;
            }
        }
    }
}

/// Go's `FindAllStringSubmatchIndex(s, -1)` iteration: an empty match right after the
/// previous match is skipped, and the search advances one character past empty matches.
pub(crate) fn go_find_all<'h>(re: &Regex, s: &'h str) -> Vec<Captures<'h>> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut prev_end: Option<usize> = None;
    while pos <= s.len() {
        let Some(caps) = re.captures_at(s, pos) else {
            break;
        };
        let Some(m) = caps.get(0) else {
            break;
        };
        let mut accept = true;
        if m.end() == pos {
            if Some(m.start()) == prev_end {
                accept = false;
            }
            let width = s
                .get(pos..)
                .and_then(|r| r.chars().next())
                .map_or(0, char::len_utf8);
            pos = if width > 0 { pos + width } else { s.len() + 1 };
        } else {
            pos = m.end();
        }
        prev_end = Some(m.end());
        if accept {
            out.push(caps);
        }
    }
    out
}

/// Go's `Regexp.ReplaceAllString`.
/// `None` when the result would exceed `limit` bytes (Go has no limit).
pub(crate) fn go_replace_all(re: &Regex, src: &str, repl: &str, limit: usize) -> Option<String> {
    let mut buf = String::with_capacity(src.len());
    let mut last_end = 0usize;
    let mut search = 0usize;
    while search <= src.len() {
        let Some(caps) = re.captures_at(src, search) else {
            break;
        };
        let Some(m) = caps.get(0) else {
            break;
        };
        buf.push_str(src.get(last_end..m.start()).unwrap_or(""));
        if m.end() > last_end || m.start() == 0 {
            go_expand(&mut buf, repl, re, &caps, limit)?;
        }
        last_end = m.end();
        let width = src
            .get(search..)
            .and_then(|r| r.chars().next())
            .map_or(0, char::len_utf8);
        if search + width > m.end() {
            search += width;
        } else if search + 1 > m.end() {
            search += 1;
        } else {
            search = m.end();
        }
    }
    buf.push_str(src.get(last_end..).unwrap_or(""));
    (buf.len() <= limit).then_some(buf)
}

/// Go's `Regexp.Expand`: `$n`, `${n}`, `$name`, `${name}`, `$$`.
/// `None` when `dst` grows beyond `limit` bytes.
fn go_expand(
    dst: &mut String,
    template: &str,
    re: &Regex,
    caps: &Captures<'_>,
    limit: usize,
) -> Option<()> {
    let mut t = template;
    while let Some(i) = t.find('$') {
        if dst.len() > limit {
            return None;
        }
        dst.push_str(&t[..i]);
        t = &t[i + 1..];
        if let Some(rest) = t.strip_prefix('$') {
            dst.push('$');
            t = rest;
            continue;
        }
        let Some((name, num, rest)) = go_extract(t) else {
            dst.push('$');
            continue;
        };
        t = rest;
        if let Some(num) = num {
            if let Some(m) = caps.get(num) {
                dst.push_str(m.as_str());
            }
        } else {
            for (i, n) in re.capture_names().enumerate() {
                if n == Some(name) {
                    if let Some(m) = caps.get(i) {
                        dst.push_str(m.as_str());
                    }
                    break;
                }
            }
        }
    }
    dst.push_str(t);
    (dst.len() <= limit).then_some(())
}

/// Go's `extract`: a name of letters, digits and `_`, optionally in braces; its number
/// when it is a decimal without leading zeros.
fn go_extract(s: &str) -> Option<(&str, Option<usize>, &str)> {
    let (brace, body) = match s.strip_prefix('{') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let end = body
        .char_indices()
        .find(|&(_, c)| !(c.is_alphabetic() || c.is_numeric() || c == '_'))
        .map_or(body.len(), |(i, _)| i);
    if end == 0 {
        return None;
    }
    let name = &body[..end];
    let mut rest = &body[end..];
    if brace {
        rest = rest.strip_prefix('}')?;
    }
    let mut num: Option<usize> = Some(0);
    for b in name.bytes() {
        match num {
            Some(n) if b.is_ascii_digit() && n < 100_000_000 => {
                num = Some(n * 10 + usize::from(b - b'0'));
            }
            _ => {
                num = None;
                break;
            }
        }
    }
    if name.len() > 1 && name.starts_with('0') {
        num = None;
    }
    Some((name, num, rest))
}
