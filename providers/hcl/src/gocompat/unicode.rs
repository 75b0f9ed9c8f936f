//! Go's `unicode` simple case mappings (`unicode.ToUpper`, `ToLower`, `ToTitle`) and the
//! word-separator test of `strings.Title`, as Terraform's `upper`, `lower` and `title`
//! (Go's `strings.ToUpper`/`ToLower`/`Title`, rune by rune) show them.
//!
//! Why not `char::to_uppercase`/`to_lowercase`: Rust gives the full Unicode mappings, which
//! can turn one character into several (`ß` to `SS`, `ŉ` to `ʼN`, `İ` to `i̇`); Go maps each
//! rune to exactly one rune by the simple mappings (leaving `ß` as it is, `İ` to `i`), and
//! Rust has no titlecase mapping at all (`ǆ` titlecases to `ǅ`, not `Ǆ`). These functions use
//! Rust's mapping where it is one-to-one and Go's simple mapping where it is not.

/// `strings.isSeparator`: ASCII letters, digits and `_` are not separators; other ASCII
/// characters are; beyond ASCII, only white space is.
pub(crate) fn go_is_separator(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphanumeric() || c == '_');
    }
    // Letters and digits are not separators; otherwise only spaces are.
    c.is_whitespace()
}

/// The simple (one-to-one) uppercase mapping Go's `unicode.ToUpper` uses. Rust's
/// `char::to_uppercase` is the full mapping; where that yields several characters the
/// simple mapping is either none or one of the few listed here.
pub(crate) fn go_to_upper(c: char) -> char {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => simple_upper_special(c),
    }
}

fn simple_upper_special(c: char) -> char {
    let n = c as u32;
    let mapped = match n {
        // Greek with ypogegrammeni: lowercase forms map to the titlecase forms.
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => n + 8,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        _ => n,
    };
    char::from_u32(mapped).unwrap_or(c)
}

/// Go's `unicode.ToTitle` (simple titlecase mapping).
pub(crate) fn go_to_title(c: char) -> char {
    let mapped = match c as u32 {
        0x01C4..=0x01C6 => 0x01C5,
        0x01C7..=0x01C9 => 0x01C8,
        0x01CA..=0x01CC => 0x01CB,
        0x01F1..=0x01F3 => 0x01F2,
        0x1F88..=0x1F8F | 0x1F98..=0x1F9F | 0x1FA8..=0x1FAF | 0x1FBC | 0x1FCC | 0x1FFC => return c,
        _ => return go_to_upper(c),
    };
    char::from_u32(mapped).unwrap_or(c)
}

/// Go's `unicode.ToLower` (simple mapping; only U+0130 has a multi-character full mapping).
pub(crate) fn go_to_lower(c: char) -> char {
    let mut low = c.to_lowercase();
    match (low.next(), low.next()) {
        (Some(l), None) => l,
        _ if c == '\u{130}' => 'i',
        _ => c,
    }
}
