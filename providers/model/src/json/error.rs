//! Load errors: the public [`LoadError`] and the parser's internal error, which collects its
//! JSON path while the error travels up the recursion (so the happy path tracks no path).

use std::fmt;

/// Why an inventory file could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    pub file: String,
    /// Where in the document: `$.resources[3].type`.
    pub json_path: String,
    /// 1-based line and column when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub kind: LoadErrorKind,
    pub message: String,
}

/// The class of a [`LoadError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The file could not be read.
    Io,
    /// The file is not JSON.
    Syntax,
    /// The file is JSON but not an inventory (a field missing or of the wrong type).
    Format,
    /// Two resources with the same type and id.
    Duplicate,
}

impl fmt::Display for LoadError {
    /// `file:line:col: message (at json_path)`, without `line:col` when unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The name comes from a command line or a file: never a terminal's control.
        write!(f, "{}", crate::input::escape_control(&self.file))?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {} (at {})", self.message, self.json_path)
    }
}

impl std::error::Error for LoadError {}

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seg {
    Key(Box<str>),
    Index(usize),
}

/// A parse error at a byte offset, with its path collected innermost first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParseError {
    pub pos: usize,
    pub kind: LoadErrorKind,
    pub message: String,
    /// Innermost segment first: the path is built while the error propagates outwards.
    pub path: Vec<Seg>,
}

/// Errors are boxed so that the parser's `Result`s stay small on the happy path.
pub(crate) type PResult<T> = Result<T, Box<ParseError>>;

impl ParseError {
    pub fn new(pos: usize, kind: LoadErrorKind, message: impl Into<String>) -> Box<Self> {
        Box::new(ParseError {
            pos,
            kind,
            message: message.into(),
            path: Vec::new(),
        })
    }

    /// The error happened inside the member `key` of the enclosing object.
    pub fn in_key(mut self: Box<Self>, key: &str) -> Box<Self> {
        self.path.push(Seg::Key(key.into()));
        self
    }

    /// The error happened inside element `index` of the enclosing array.
    pub fn in_index(mut self: Box<Self>, index: usize) -> Box<Self> {
        self.path.push(Seg::Index(index));
        self
    }

    /// The public error, with line and column computed from the byte offset in `bytes`.
    pub fn into_load_error(self, bytes: &[u8], file: &str) -> LoadError {
        let (line, column) = line_column(bytes, self.pos);
        LoadError {
            file: file.into(),
            json_path: path_string(&self.path),
            line: Some(line),
            column: Some(column),
            kind: self.kind,
            message: match self.kind {
                LoadErrorKind::Syntax => format!("not JSON: {}", self.message),
                _ => self.message,
            },
        }
    }
}

/// The 1-based line and column (in characters) of byte offset `pos`, counted as
/// [`crate::input::line_col`] counts them (`\n`, `\r\n` and a lone `\r` end a line). A
/// leading byte-order mark is not part of the text, as for every other input
/// ([`crate::input::into_text`]): the first character after it is at column 1.
pub(crate) fn line_column(bytes: &[u8], pos: usize) -> (usize, usize) {
    match bytes.strip_prefix(BOM) {
        Some(rest) => crate::input::byte_line_col(rest, pos.saturating_sub(BOM.len())),
        None => crate::input::byte_line_col(bytes, pos),
    }
}

/// The UTF-8 byte-order mark, which an inventory may start with (RFC 8259 lets a parser
/// ignore it).
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most characters of a text from the input that a message quotes.
pub(crate) const MAX_QUOTED: usize = 60;

/// `text` as a message quotes it: a JSON string literal of at most [`MAX_QUOTED`]
/// characters of it (a cut marked with `…` after the closing quote), with every control
/// character and bidirectional override escaped, so that input data neither floods a
/// message nor drives a terminal.
pub(crate) fn quoted_excerpt(text: &str) -> String {
    let (head, cut) = crate::input::cut_chars(text, MAX_QUOTED);
    let mut out = crate::input::escape_control(&super::writer::quoted(head)).into_owned();
    if cut {
        out.push('…');
    }
    out
}

/// `text` as a message shows it without quotes: at most [`MAX_QUOTED`] characters (a cut
/// marked with `…`), control characters and bidirectional overrides escaped.
pub(crate) fn shown(text: &str) -> String {
    crate::input::escape_control(&crate::input::truncate_chars(text, MAX_QUOTED)).into_owned()
}

/// `$.resources[3].properties["odd key"]` from segments stored innermost first.
pub(crate) fn path_string(innermost_first: &[Seg]) -> String {
    let mut out = String::from("$");
    for seg in innermost_first.iter().rev() {
        match seg {
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
            Seg::Key(k) if is_plain_key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Key(k) => out.push_str(&format!("[{}]", quoted_excerpt(k))),
        }
    }
    out
}

/// Whether a key can be written after a dot in a path: `devices`, `$ref` (and is short).
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    key.len() <= MAX_QUOTED
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}
