//! Regular expressions of the pattern predicates (`matching "REGEX"`): the one place a
//! pattern is compiled, by the parser (to report an invalid pattern at its literal) and by
//! the evaluator (once per rule).
//!
//! Patterns use the syntax of Rust's `regex` crate (RE2 semantics: no backreferences or
//! look-around), which matches in time linear in the input. A size limit on the compiled
//! program and on the lazy DFA's cache turns a pathological pattern (`(a{1000}){1000}`)
//! into an error instead of a large allocation.

/// Largest compiled program of a pattern, in bytes.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// Largest cache of the lazy DFA that runs a pattern, in bytes.
pub const PATTERN_DFA_SIZE_LIMIT: usize = 1 << 20;

/// Compiles `text` (the decoded string literal, escapes already applied) as a pattern.
/// The error is one line, in the regex crate's words (`unclosed group`), for a
/// diagnostic's help.
pub fn compile_pattern(text: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(text)
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_DFA_SIZE_LIMIT)
        .build()
        .map_err(|e| one_line(&e))
}

/// The regex crate's error on one line: its syntax errors span several lines (the pattern,
/// a caret line, then `error: ...`); only the last part says what is wrong.
fn one_line(error: &regex::Error) -> String {
    match error {
        regex::Error::Syntax(text) => {
            let what = text
                .lines()
                .rev()
                .find_map(|l| l.trim().strip_prefix("error:"))
                .map(str::trim)
                .filter(|s| !s.is_empty());
            match what {
                Some(what) => what.to_string(),
                None => text.split_whitespace().collect::<Vec<_>>().join(" "),
            }
        }
        regex::Error::CompiledTooBig(limit) => format!(
            "the compiled pattern exceeds the size limit of {}; simplify it (counted repetitions such as {{1000}} grow it fastest)",
            size_text(*limit)
        ),
        other => other.to_string().split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// `1 MiB`, `512 KiB`, `100 bytes`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_patterns_compile() {
        for p in ["^prod-", "^\\d+$", "(?i)abc", "a|b", ""] {
            assert!(compile_pattern(p).is_ok(), "{p}");
        }
    }

    #[test]
    fn errors_are_one_line() {
        assert_eq!(compile_pattern("(").unwrap_err(), "unclosed group");
        assert_eq!(
            compile_pattern("a{2,1}").unwrap_err(),
            "invalid repetition count range, the start must be <= the end"
        );
        for p in ["[", "\\", "(?<", "[z-a]", "(?P<n>a)\\k<n>", "(?=a)"] {
            let e = compile_pattern(p).unwrap_err();
            assert!(!e.contains('\n') && !e.is_empty(), "{p}: {e}");
        }
    }

    #[test]
    fn pathological_patterns_hit_the_size_limit() {
        let e = compile_pattern("(((a{100}){100}){100})").unwrap_err();
        assert!(e.contains("size limit"), "{e}");
        assert!(!e.contains('\n'));
    }
}
