//! What the fuzz targets share: turning the fuzzer's bytes into text the way the CLI's
//! loaders do, and splitting one input into the several files a target needs.
#![forbid(unsafe_code)]

/// The separator between the parts of a target's input that holds several files: a line
/// holding `%%` alone. Corpus files stay readable, and the parts are each a real file.
pub const SEPARATOR: &str = "\n%%\n";

/// `data` as the CLI's loaders take it: through `cloudspec_model::input::into_text` (NUL
/// bytes and invalid UTF-8 refused, a byte-order mark dropped). `None` when it is refused.
pub fn text(data: &[u8], what: &'static str) -> Option<String> {
    cloudspec_model::input::into_text(data.to_vec(), "fuzz", what).ok()
}

/// The text before the first [`SEPARATOR`] and the text after it (`""` when there is none).
pub fn split2(text: &str) -> (&str, &str) {
    text.split_once(SEPARATOR).unwrap_or((text, ""))
}

/// Option words on a first line `#! word word...` (a comment in HCL and YAML), and the
/// text after that line. Without such a line, no words and the whole text.
pub fn options(text: &str) -> (Vec<&str>, &str) {
    match text.strip_prefix("#!") {
        Some(rest) => {
            let (line, body) = rest.split_once('\n').unwrap_or((rest, ""));
            (line.split_whitespace().collect(), body)
        }
        None => (Vec::new(), text),
    }
}

/// [`split2`] on bytes, for targets that take raw bytes: the bytes before the first
/// [`SEPARATOR`] and those after it (empty when there is none).
pub fn split2_bytes(data: &[u8]) -> (&[u8], &[u8]) {
    let sep = SEPARATOR.as_bytes();
    match data.windows(sep.len()).position(|w| w == sep) {
        Some(at) => (&data[..at], &data[at + sep.len()..]),
        None => (data, &[]),
    }
}

/// [`options`] on bytes.
pub fn options_bytes(data: &[u8]) -> (Vec<String>, &[u8]) {
    match data.strip_prefix(b"#!") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'\n');
            let (line, body) = match end {
                Some(at) => (&rest[..at], &rest[at + 1..]),
                None => (rest, &[][..]),
            };
            let words = String::from_utf8_lossy(line)
                .split_whitespace()
                .map(str::to_string)
                .collect();
            (words, body)
        }
        None => (Vec::new(), data),
    }
}
