//! JSON: a positioned parser (as HCL's JSON syntax scans and parses), cty-style decoding
//! to values with implied types, and cty-style encoding.
//!
//! - [`parse`] is strict RFC 8259 JSON, returning a [`JsonNode`] tree that keeps property
//!   order, duplicate property names, the raw text of numbers and source ranges. Errors carry
//!   the summary and detail of the diagnostic HCL's JSON parser reports and the range of its
//!   subject. Positions count lines and columns from 1 (columns in grapheme clusters inside
//!   strings; a tab counts two columns and a carriage return none, as in HCL's JSON scanner)
//!   and bytes from 0. Nesting deeper than [`MAX_DEPTH`] is an error.
//! - [`decode`] gives a value of the implied type: objects → object, arrays → tuple,
//!   numbers exact, `null` → `Value::Null(Type::Dynamic)`. Duplicate property names are an
//!   error, as in cty's `ImpliedType`. Errors are HCL's JSON-syntax diagnostics.
//! - [`decode_go`] decodes as Terraform's `jsondecode` does, with Go `encoding/json`'s error
//!   texts.
//! - [`encode`] writes compact JSON as cty's `json.Marshal` does: numbers exact, lists,
//!   sets and tuples as arrays, maps and objects with sorted keys, strings escaped as Go's
//!   `encoding/json` does (including `<`, `>`, `&`, U+2028 and U+2029); unknown values are
//!   an error (`value is not known`).

use std::collections::BTreeMap;

use unicode_segmentation::UnicodeSegmentation;

use crate::diag::Pos;
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

/// Maximum nesting depth of arrays and objects accepted by [`parse`].
pub const MAX_DEPTH: usize = 128;

/// A parsed JSON value with its source range (`start` inclusive, `end` exclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonNode {
    pub kind: JsonKind,
    pub start: Pos,
    pub end: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Bool(bool),
    /// The raw number text, validated against the JSON number grammar.
    Number(String),
    String(String),
    Array(Vec<JsonNode>),
    /// Properties in source order, duplicates kept.
    Object(Vec<JsonProperty>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonProperty {
    pub name: String,
    /// Range of the name's string token, quotes included.
    pub name_start: Pos,
    pub name_end: Pos,
    pub value: JsonNode,
}

/// A JSON syntax (or decoding) error: `summary` and `message` are the summary and detail
/// of HCL's diagnostic; `pos`..`end` is its subject range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub pos: Pos,
    pub end: Pos,
    pub summary: String,
    pub message: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {}; {}",
            self.pos.line, self.pos.column, self.summary, self.message
        )
    }
}

impl std::error::Error for JsonError {}

impl JsonNode {
    /// The range of the node's first token (the opening brace or bracket of a container).
    pub fn start_range(&self) -> (Pos, Pos) {
        match self.kind {
            JsonKind::Array(_) | JsonKind::Object(_) => {
                let mut end = self.start;
                end.byte += 1;
                end.column += 1;
                (self.start, end)
            }
            _ => (self.start, self.end),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scanner (hcl/json/scanner.go)

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    BraceO,
    BraceC,
    BrackO,
    BrackC,
    Comma,
    Colon,
    Equals,
    Keyword,
    String,
    Number,
    Eof,
    Invalid,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    ty: Tok,
    start: Pos,
    end: Pos,
}

impl Token {
    fn text<'a>(&self, src: &'a str) -> &'a str {
        src.get(self.start.byte..self.end.byte).unwrap_or("")
    }
}

fn scan(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut p = Pos {
        line: 1,
        column: 1,
        byte: 0,
    };
    loop {
        // Skip whitespace.
        while let Some(&c) = b.get(p.byte) {
            match c {
                b' ' => {
                    p.byte += 1;
                    p.column += 1;
                }
                b'\n' => {
                    p.byte += 1;
                    p.column = 1;
                    p.line += 1;
                }
                b'\r' => p.byte += 1,
                b'\t' => {
                    p.byte += 1;
                    p.column += 2;
                }
                _ => break,
            }
        }
        let Some(&first) = b.get(p.byte) else {
            toks.push(Token {
                ty: Tok::Eof,
                start: p,
                end: p,
            });
            return toks;
        };
        let start = p;
        let single = match first {
            b'{' => Some(Tok::BraceO),
            b'}' => Some(Tok::BraceC),
            b'[' => Some(Tok::BrackO),
            b']' => Some(Tok::BrackC),
            b',' => Some(Tok::Comma),
            b':' => Some(Tok::Colon),
            b'=' => Some(Tok::Equals),
            _ => None,
        };
        if let Some(ty) = single {
            p.byte += 1;
            p.column += 1;
            toks.push(Token { ty, start, end: p });
            continue;
        }
        match first {
            b'"' => {
                p.byte += 1;
                p.column += 1;
                let mut escaping = false;
                while let Some(&c) = b.get(p.byte) {
                    match c {
                        b'\\' => {
                            escaping = !escaping;
                            p.byte += 1;
                            p.column += 1;
                        }
                        b'"' => {
                            p.byte += 1;
                            p.column += 1;
                            if !escaping {
                                break;
                            }
                            escaping = false;
                        }
                        c if c < 32 => break,
                        _ => {
                            // Token boundaries by character (a grapheme cluster may
                            // swallow the closing quote, e.g. after U+0D4E); columns
                            // are counted in grapheme clusters below.
                            let adv = src
                                .get(p.byte..)
                                .and_then(|rest| rest.chars().next())
                                .map_or(1, char::len_utf8);
                            p.byte += adv;
                            escaping = false;
                        }
                    }
                }
                p.column = start.column
                    + src
                        .get(start.byte..p.byte)
                        .map_or(0, |t| t.graphemes(true).count());
                toks.push(Token {
                    ty: Tok::String,
                    start,
                    end: p,
                });
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                while let Some(&c) = b.get(p.byte) {
                    if matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                        p.byte += 1;
                        p.column += 1;
                    } else {
                        break;
                    }
                }
                toks.push(Token {
                    ty: Tok::Number,
                    start,
                    end: p,
                });
            }
            c if c.is_ascii_alphabetic() => {
                while let Some(&c) = b.get(p.byte) {
                    if c.is_ascii_alphabetic() || c == b'_' {
                        p.byte += 1;
                        p.column += 1;
                    } else {
                        break;
                    }
                }
                toks.push(Token {
                    ty: Tok::Keyword,
                    start,
                    end: p,
                });
            }
            _ => {
                p.byte += 1;
                p.column += 1;
                toks.push(Token {
                    ty: Tok::Invalid,
                    start,
                    end: p,
                });
                toks.push(Token {
                    ty: Tok::Eof,
                    start: p,
                    end: p,
                });
                return toks;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parser (hcl/json/parser.go)

/// HCL's `parseValue`/`parseObject`/`parseArray`, error recovery included: an invalid value
/// is recorded and parsing goes on (HCL's `wrapInvalid`), a container it cannot finish is
/// skipped with `recover`. The tree is only meaningful when no diagnostic was recorded.
struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    diags: Vec<JsonError>,
    /// Set when nesting went too deep: everything stops.
    fatal: bool,
}

fn err(tok: &Token, summary: &str, detail: impl Into<String>) -> JsonError {
    JsonError {
        pos: tok.start,
        end: tok.end,
        summary: summary.to_string(),
        message: detail.into(),
    }
}

const VALUE_START: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

impl Parser<'_> {
    fn peek(&self) -> Token {
        match self.toks.get(self.pos) {
            Some(t) => *t,
            None => self.eof(),
        }
    }
    fn eof(&self) -> Token {
        self.toks.last().copied().unwrap_or(Token {
            ty: Tok::Eof,
            start: Pos::default(),
            end: Pos::default(),
        })
    }
    fn read(&mut self) -> Token {
        let t = self.peek();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// Skips to what seems to be the end of the current container (HCL's `recover`).
    fn recover(&mut self, mut tok: Token, open_ty: Tok, close_ty: Tok) {
        let mut open = 1;
        loop {
            if tok.ty == open_ty {
                open += 1;
            } else if tok.ty == close_ty {
                open -= 1;
                if open <= 1 {
                    return;
                }
            } else if tok.ty == Tok::Eof {
                return;
            }
            tok = self.read();
        }
    }

    fn new(src: &str) -> Parser<'_> {
        Parser {
            src,
            toks: scan(src),
            pos: 0,
            diags: Vec::new(),
            fatal: false,
        }
    }

    /// `parseValue` with `wrapInvalid`: `None` for an invalid value (its diagnostic is
    /// recorded). Leaves consume their token whether or not they are valid; a token that
    /// cannot start a value is reported and not consumed.
    fn value(&mut self, depth: usize) -> Option<JsonNode> {
        if self.fatal {
            return None;
        }
        let tok = self.peek();
        let leaf = match tok.ty {
            Tok::BraceO | Tok::BrackO if depth >= MAX_DEPTH => {
                self.fatal = true;
                Err(err(
                    &tok,
                    "Nesting too deep",
                    format!(
                        "JSON arrays and objects may be nested at most {MAX_DEPTH} levels deep."
                    ),
                ))
            }
            Tok::BraceO => return self.object(depth + 1),
            Tok::BrackO => return self.array(depth + 1),
            Tok::Number => self.number(),
            Tok::String => self.string(),
            Tok::Keyword => self.keyword(),
            Tok::BraceC => Err(err(&tok, "Missing JSON value", VALUE_START)),
            Tok::BrackC => Err(err(&tok, "Missing array element value", VALUE_START)),
            Tok::Eof => Err(err(
                &tok,
                "Missing value",
                "The JSON data ends prematurely.",
            )),
            _ => Err(err(&tok, "Invalid start of value", VALUE_START)),
        };
        leaf.map_err(|e| self.diags.push(e)).ok()
    }

    fn string(&mut self) -> Result<JsonNode, JsonError> {
        let tok = self.read();
        let s = decode_string(tok.text(self.src)).map_err(|off| {
            let mut p = tok.start;
            p.byte += off;
            p.column += off;
            let mut e = p;
            e.byte += 1;
            e.column += 1;
            JsonError {
                pos: p,
                end: e,
                summary: "Invalid JSON string".into(),
                message: "There is a syntax error in the given JSON string.".into(),
            }
        })?;
        Ok(JsonNode {
            kind: JsonKind::String(s),
            start: tok.start,
            end: tok.end,
        })
    }

    /// `parseObject`: `None` is HCL's nil (the object could not be finished).
    fn object(&mut self, depth: usize) -> Option<JsonNode> {
        let open = self.read();
        let mut props = Vec::new();
        loop {
            if self.fatal {
                return None;
            }
            if self.peek().ty == Tok::BraceC {
                break;
            }
            let key_tok = self.peek();
            let key = self.value(depth);
            if self.fatal {
                return None;
            }
            let Some(JsonNode {
                kind: JsonKind::String(name),
                start: name_start,
                end: name_end,
            }) = key
            else {
                self.diags.push(err(
                    &key_tok,
                    "Invalid object property name",
                    "A JSON object property name must be a string",
                ));
                return None;
            };
            let colon = self.read();
            if colon.ty != Tok::Colon {
                self.recover(colon, Tok::BraceO, Tok::BraceC);
                self.diags.push(match colon.ty {
                    Tok::BraceC | Tok::Comma => err(
                        &colon,
                        "Missing object value",
                        "A JSON object attribute must have a value, introduced by a colon.",
                    ),
                    Tok::Equals => err(
                        &colon,
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                    ),
                    _ => err(
                        &colon,
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                    ),
                });
                return None;
            }
            let value = self.value(depth);
            if self.fatal {
                return None;
            }
            if let Some(value) = value {
                props.push(JsonProperty {
                    name,
                    name_start,
                    name_end,
                    value,
                });
            }
            match self.peek().ty {
                Tok::Comma => {
                    let comma = self.read();
                    if self.peek().ty == Tok::BraceC {
                        self.diags.push(err(
                            &comma,
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in an object.",
                        ));
                        return None;
                    }
                }
                Tok::Eof => {
                    self.diags.push(err(
                        &open,
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                    ));
                    return None;
                }
                Tok::BrackC => {
                    let tok = self.read();
                    self.diags.push(err(
                        &tok,
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                    ));
                    return None;
                }
                Tok::BraceC => break,
                _ => {
                    let t = self.read();
                    self.recover(t, Tok::BraceO, Tok::BraceC);
                    self.diags.push(err(
                        &self.peek(),
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                    ));
                    return None;
                }
            }
        }
        let close = self.read();
        Some(JsonNode {
            kind: JsonKind::Object(props),
            start: open.start,
            end: close.end,
        })
    }

    /// `parseArray`: `None` is HCL's nil (the array could not be finished).
    fn array(&mut self, depth: usize) -> Option<JsonNode> {
        let open = self.read();
        let mut vals = Vec::new();
        loop {
            if self.fatal {
                return None;
            }
            if self.peek().ty == Tok::BrackC {
                break;
            }
            let value = self.value(depth);
            if self.fatal {
                return None;
            }
            vals.extend(value);
            match self.peek().ty {
                Tok::Comma => {
                    let comma = self.read();
                    if self.peek().ty == Tok::BrackC {
                        self.diags.push(err(
                            &comma,
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an array.",
                        ));
                        return None;
                    }
                }
                Tok::Colon => {
                    let t = self.read();
                    self.recover(t, Tok::BrackO, Tok::BrackC);
                    self.diags.push(err(
                        &self.peek(),
                        "Invalid array value",
                        "A colon is not used to introduce values in a JSON array.",
                    ));
                    return None;
                }
                Tok::Eof => {
                    let t = self.read();
                    self.recover(t, Tok::BrackO, Tok::BrackC);
                    self.diags.push(err(
                        &open,
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                    ));
                    return None;
                }
                Tok::BraceC => {
                    let tok = self.read();
                    self.recover(tok, Tok::BrackO, Tok::BrackC);
                    self.diags.push(err(
                        &tok,
                        "Mismatched brackets",
                        "A JSON array must be closed with a bracket, not a brace.",
                    ));
                    return None;
                }
                Tok::BrackC => break,
                _ => {
                    let t = self.read();
                    self.recover(t, Tok::BrackO, Tok::BrackC);
                    self.diags.push(err(
                        &self.peek(),
                        "Missing attribute seperator comma",
                        "A comma must appear between each value in an array.",
                    ));
                    return None;
                }
            }
        }
        let close = self.read();
        Some(JsonNode {
            kind: JsonKind::Array(vals),
            start: open.start,
            end: close.end,
        })
    }

    fn number(&mut self) -> Result<JsonNode, JsonError> {
        let tok = self.read();
        let text = tok.text(self.src);
        if !valid_json_number(text) || Number::parse(text).is_none() {
            return Err(err(
                &tok,
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
            ));
        }
        Ok(JsonNode {
            kind: JsonKind::Number(text.to_string()),
            start: tok.start,
            end: tok.end,
        })
    }

    fn keyword(&mut self) -> Result<JsonNode, JsonError> {
        let tok = self.read();
        let s = tok.text(self.src);
        let kind = match s {
            "true" => JsonKind::Bool(true),
            "false" => JsonKind::Bool(false),
            "null" => JsonKind::Null,
            "undefined" | "NaN" | "Infinity" => {
                return Err(err(
                    &tok,
                    "Invalid JSON keyword",
                    format!(
                        "The JavaScript identifier {} cannot be used in JSON.",
                        go_quote(s)
                    ),
                ))
            }
            _ => {
                let dym = crate::suggest::name_suggestion(s, &["false", "true", "null"])
                    .map(|k| format!(" Did you mean {}?", go_quote(&k)))
                    .unwrap_or_default();
                return Err(err(
                    &tok,
                    "Invalid JSON keyword",
                    format!("{} is not a valid JSON keyword.{dym}", go_quote(s)),
                ));
            }
        };
        Ok(JsonNode {
            kind,
            start: tok.start,
            end: tok.end,
        })
    }
}

/// The JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn valid_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let s0 = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == s0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let s0 = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == s0 {
            return false;
        }
    }
    i == b.len()
}

pub use crate::gocompat::json::quote;

/// Decodes JSON as Terraform's `jsondecode` does (Go's `encoding/json` decoder and error
/// texts; see `gocompat::json`), nesting limited to [`MAX_DEPTH`].
pub fn decode_go(src: &str) -> Result<Value, String> {
    crate::gocompat::json::decode_go(src, MAX_DEPTH)
}
pub(crate) use crate::gocompat::json::{decode_string, quote_into};

/// Parses one JSON value (the whole input), stopping at the first error.
pub fn parse(src: &str) -> Result<JsonNode, JsonError> {
    parse_all(src, false).map_err(|mut diags| diags.swap_remove(0))
}

/// Every diagnostic HCL's JSON parser reports for `src`, in its order: empty when [`parse`]
/// succeeds. HCL's parser does not stop at the first error: a bad value inside a container
/// becomes an invalid placeholder and parsing goes on (so `{"a": NaN, "b": tru}` reports
/// both keywords), a container it cannot finish is skipped with its `recover` rules, and a
/// root value that is not an object or array then adds "Root value must be object" (at the
/// root's first token) when `body_root` is set, as `json.Parse` does for configuration
/// files. "Extraneous data after value" is only reported when nothing else was. The first
/// entry is always [`parse`]'s error. Nesting beyond [`MAX_DEPTH`] stops the scan there.
pub fn parse_diagnostics(src: &str, body_root: bool) -> Vec<JsonError> {
    parse_all(src, body_root).err().unwrap_or_default()
}

/// [`parse`] and [`parse_diagnostics`] in one pass: the tree, or every diagnostic (never an
/// empty list).
pub fn parse_all(src: &str, body_root: bool) -> Result<JsonNode, Vec<JsonError>> {
    let mut p = Parser::new(src);
    let first = p.peek();
    let root = p.value(0);
    if p.fatal {
        return Err(p.diags);
    }
    if p.diags.is_empty() {
        let next = p.peek();
        if next.ty != Tok::Eof {
            p.diags.push(err(
                &next,
                "Extraneous data after value",
                "Extra characters appear after the JSON value.",
            ));
        }
    }
    match root {
        Some(node) if p.diags.is_empty() => Ok(node),
        root => {
            let container = matches!(
                root,
                Some(JsonNode {
                    kind: JsonKind::Object(_) | JsonKind::Array(_),
                    ..
                })
            );
            if body_root && !container && !p.diags.is_empty() {
                p.diags.push(err(
                    &first,
                    "Root value must be object",
                    "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
                ));
            }
            if p.diags.is_empty() {
                // Unreachable: an invalid value always records why.
                p.diags.push(err(&first, "Invalid JSON", VALUE_START));
            }
            Err(p.diags)
        }
    }
}

/// Parses JSON and builds a value of the implied type.
pub fn decode(src: &str) -> Result<Value, JsonError> {
    let node = parse(src)?;
    node_to_value(&node)
}

/// The value of a parsed node (implied types; see [`decode`]).
pub fn node_to_value(node: &JsonNode) -> Result<Value, JsonError> {
    Ok(match &node.kind {
        JsonKind::Null => Value::Null(Type::Dynamic),
        JsonKind::Bool(b) => Value::Bool(*b),
        JsonKind::Number(raw) => match Number::parse(raw) {
            Some(n) => Value::Number(n),
            None => {
                return Err(JsonError {
                    pos: node.start,
                    end: node.end,
                    summary: "Invalid JSON number".into(),
                    message: "There is a syntax error in the given JSON number.".into(),
                })
            }
        },
        JsonKind::String(s) => Value::string(s.clone()),
        JsonKind::Array(items) => {
            let mut vs = Vec::with_capacity(items.len());
            for it in items {
                vs.push(node_to_value(it)?);
            }
            Value::Tuple(vs)
        }
        JsonKind::Object(props) => {
            let mut attrs = BTreeMap::new();
            for p in props {
                let name = crate::value::nfc(p.name.clone());
                if attrs.contains_key(&name) {
                    return Err(JsonError {
                        pos: p.name_start,
                        end: p.name_end,
                        summary: "Duplicate property".into(),
                        message: format!("duplicate {} property in JSON object", go_quote(&p.name)),
                    });
                }
                attrs.insert(name, node_to_value(&p.value)?);
            }
            Value::Object(attrs)
        }
    })
}

/// Compact JSON for a value (cty's `json.Marshal`). Errors: `value is not known` for
/// unknown values (anywhere inside).
pub fn encode(v: &Value) -> Result<String, String> {
    let mut out = String::new();
    encode_into(v, &mut out, 0)?;
    Ok(out)
}

const MAX_ENCODE_DEPTH: usize = 1000;

fn encode_into(v: &Value, out: &mut String, depth: usize) -> Result<(), String> {
    if depth > MAX_ENCODE_DEPTH {
        return Err("value is nested too deeply".into());
    }
    match v {
        Value::Unknown(_) => return Err("value is not known".into()),
        Value::Null(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => quote_into(s, out),
        Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => {
            out.push('[');
            for (i, e) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode_into(e, out, depth + 1)?;
            }
            out.push(']');
        }
        Value::Map(_, m) | Value::Object(m) => {
            out.push('{');
            for (i, (k, e)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote_into(k, out);
                out.push(':');
                encode_into(e, out, depth + 1)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize, column: usize, byte: usize) -> Pos {
        Pos { line, column, byte }
    }

    fn perr(src: &str) -> JsonError {
        match parse(src) {
            Ok(n) => panic!("expected an error for {src:?}, got {n:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn positions_order_and_duplicates() {
        let src = "{\n  \"b\": 1,\n\t\"a\": [true, null],\n  \"b\": \"x\"\n}";
        let node = parse(src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(node.start, pos(1, 1, 0));
        assert_eq!(node.end, pos(5, 2, src.len()));
        let JsonKind::Object(props) = &node.kind else {
            panic!("not an object")
        };
        let names: Vec<&str> = props.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["b", "a", "b"]);
        assert_eq!(props[0].name_start, pos(2, 3, 4));
        assert_eq!(props[0].name_end, pos(2, 6, 7));
        assert_eq!(props[0].value.kind, JsonKind::Number("1".into()));
        assert_eq!(props[0].value.start, pos(2, 8, 9));
        // A tab counts two columns.
        assert_eq!(props[1].name_start, pos(3, 3, 13));
        let JsonKind::Array(items) = &props[1].value.kind else {
            panic!("not an array")
        };
        assert_eq!(items[0].kind, JsonKind::Bool(true));
        assert_eq!(items[1].kind, JsonKind::Null);
        assert_eq!(items[1].start, pos(3, 15, 25));
    }

    #[test]
    fn grapheme_columns_in_strings() {
        let src = "[\"e\u{301}x\", 1]";
        let node = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let JsonKind::Array(items) = &node.kind else {
            panic!("not an array")
        };
        // "é" (2 code points, 1 grapheme) + "x" between quotes: 4 columns.
        assert_eq!(items[0].end, pos(1, 6, 7));
        assert_eq!(items[1].start, pos(1, 8, 9));
    }

    #[test]
    fn string_escapes() {
        let node = parse(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x""#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            node.kind,
            JsonKind::String("a\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1f600}\u{fffd}x".into())
        );
    }

    #[test]
    fn syntax_errors() {
        let cases: &[(&str, &str, &str, Pos)] = &[
            (
                "",
                "Missing value",
                "The JSON data ends prematurely.",
                pos(1, 1, 0),
            ),
            (
                "{\"a\": 1,}",
                "Trailing comma in object",
                "JSON does not permit a trailing comma after the final property in an object.",
                pos(1, 8, 7),
            ),
            (
                "[1,]",
                "Trailing comma in array",
                "JSON does not permit a trailing comma after the final value in an array.",
                pos(1, 3, 2),
            ),
            (
                "{\"a\" = 1}",
                "Missing property value colon",
                "JSON uses a colon as its name/value delimiter, not an equals sign.",
                pos(1, 6, 5),
            ),
            (
                "{\"a\" 1}",
                "Missing property value colon",
                "A colon must appear between an object property's name and its value.",
                pos(1, 6, 5),
            ),
            (
                "{\"a\"}",
                "Missing object value",
                "A JSON object attribute must have a value, introduced by a colon.",
                pos(1, 5, 4),
            ),
            (
                "{1: 2}",
                "Invalid object property name",
                "A JSON object property name must be a string",
                pos(1, 2, 1),
            ),
            (
                "{\"a\": 1",
                "Unclosed object",
                "No closing brace was found for this JSON object.",
                pos(1, 1, 0),
            ),
            (
                "[1",
                "Unclosed object",
                "No closing bracket was found for this JSON array.",
                pos(1, 1, 0),
            ),
            (
                "{\"a\": 1]",
                "Mismatched braces",
                "A JSON object must be closed with a brace, not a bracket.",
                pos(1, 8, 7),
            ),
            (
                "[1}",
                "Mismatched brackets",
                "A JSON array must be closed with a bracket, not a brace.",
                pos(1, 3, 2),
            ),
            (
                "1 2",
                "Extraneous data after value",
                "Extra characters appear after the JSON value.",
                pos(1, 3, 2),
            ),
            (
                "01",
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                pos(1, 1, 0),
            ),
            (
                "+1",
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                pos(1, 1, 0),
            ),
            (
                "1.",
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                pos(1, 1, 0),
            ),
            (
                "True",
                "Invalid JSON keyword",
                "\"True\" is not a valid JSON keyword. Did you mean \"true\"?",
                pos(1, 1, 0),
            ),
            (
                "nul",
                "Invalid JSON keyword",
                "\"nul\" is not a valid JSON keyword. Did you mean \"null\"?",
                pos(1, 1, 0),
            ),
            (
                "banana",
                "Invalid JSON keyword",
                "\"banana\" is not a valid JSON keyword.",
                pos(1, 1, 0),
            ),
            (
                "NaN",
                "Invalid JSON keyword",
                "The JavaScript identifier \"NaN\" cannot be used in JSON.",
                pos(1, 1, 0),
            ),
            ("}", "Missing JSON value", VALUE_START, pos(1, 1, 0)),
            (
                "[]]",
                "Extraneous data after value",
                "Extra characters appear after the JSON value.",
                pos(1, 3, 2),
            ),
            ("[,]", "Invalid start of value", VALUE_START, pos(1, 2, 1)),
            (
                "/* c */ 1",
                "Invalid start of value",
                VALUE_START,
                pos(1, 1, 0),
            ),
            // HCL reports these at the token after its recovery point.
            (
                "[1 2]",
                "Missing attribute seperator comma",
                "A comma must appear between each value in an array.",
                pos(1, 6, 5),
            ),
            (
                "[1: 2]",
                "Invalid array value",
                "A colon is not used to introduce values in a JSON array.",
                pos(1, 7, 6),
            ),
            (
                "{\"a\": 1 \"b\": 2}",
                "Missing attribute seperator comma",
                "A comma must appear between each property definition in an object.",
                pos(1, 16, 15),
            ),
            (
                "\"abc",
                "Invalid JSON string",
                "There is a syntax error in the given JSON string.",
                pos(1, 5, 4),
            ),
            (
                "\"a\\qb\"",
                "Invalid JSON string",
                "There is a syntax error in the given JSON string.",
                pos(1, 5, 4),
            ),
            (
                "\"a\nb\"",
                "Invalid JSON string",
                "There is a syntax error in the given JSON string.",
                pos(1, 3, 2),
            ),
        ];
        for (src, summary, detail, at) in cases {
            let e = perr(src);
            assert_eq!(
                (e.summary.as_str(), e.message.as_str(), e.pos),
                (*summary, *detail, *at),
                "{src:?}"
            );
        }
        let e = perr("[1 2]");
        assert_eq!(e.end, pos(1, 6, 5));
        let e = perr("[true, nul]");
        assert_eq!((e.pos, e.end), (pos(1, 8, 7), pos(1, 11, 10)));
    }

    #[test]
    fn depth_is_bounded() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let e = perr(&deep);
        assert_eq!(e.summary, "Nesting too deep");
        assert_eq!(e.pos, pos(1, MAX_DEPTH + 1, MAX_DEPTH));
        let deep_obj = "{\"a\":".repeat(MAX_DEPTH + 1);
        assert_eq!(perr(&deep_obj).summary, "Nesting too deep");
    }

    #[test]
    fn decode_implied_types() {
        let v = decode(r#"{"b": [1, "x", true, null], "a": {"n": 1.50e2}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        let want = Value::object_from([
            ("a", Value::object_from([("n", Value::from(150))])),
            (
                "b",
                Value::tuple(vec![
                    Value::from(1),
                    Value::from("x"),
                    Value::from(true),
                    Value::Null(Type::Dynamic),
                ]),
            ),
        ]);
        assert_eq!(v, want);
        let big = decode("123456789012345678901234567890.000000000000000000001")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            encode(&big),
            Ok("123456789012345678901234567890.000000000000000000001".into())
        );
        let e = match decode(r#"{"a": 1, "a": 2}"#) {
            Err(e) => e,
            Ok(v) => panic!("{v:?}"),
        };
        assert_eq!(e.message, "duplicate \"a\" property in JSON object");
        assert_eq!(e.pos, pos(1, 10, 9));
    }

    #[test]
    fn encoding() {
        let v = Value::object_from([
            ("z", Value::from(1)),
            ("a", Value::set(Type::String, vec!["b".into(), "a".into()])),
            ("m", Value::Null(Type::String)),
            ("s", Value::from("<tag> & \"q\"\n\u{1}\u{2028}é")),
        ]);
        assert_eq!(
            encode(&v),
            Ok(r#"{"a":["a","b"],"m":null,"s":"\u003ctag\u003e \u0026 \"q\"\n\u0001\u2028é","z":1}"#.into())
        );
        assert_eq!(
            encode(&Value::tuple(vec![Value::Unknown(Type::String)])),
            Err("value is not known".into())
        );
        assert_eq!(
            encode(&Value::Number(
                Number::parse("1e3").unwrap_or_else(Number::zero)
            )),
            Ok("1000".into())
        );
        assert_eq!(quote("\u{8}\u{c}"), "\"\\u0008\\u000c\"");
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null(Type::Dynamic)),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (any::<i64>(), 0u32..40).prop_map(|(m, s)| {
                Value::Number(Number::parse(&format!("{m}e-{s}")).unwrap_or_else(Number::zero))
            }),
            "\\PC*".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Tuple),
                prop::collection::btree_map("[a-z\u{e9}<]{0,4}", inner, 0..6)
                    .prop_map(Value::Object),
            ]
        })
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC*") {
            let _ = parse(&s);
            let _ = decode_go(&s);
        }

        #[test]
        fn parse_never_panics_on_json_ish(s in "[\\[\\]{}\",:0-9eE+.\\-a-z\\\\ \n\t\r]{0,64}") {
            let _ = parse(&s);
            // Both decoders accept the same documents (up to trailing brackets).
            if let Ok(v) = decode(&s) {
                prop_assert_eq!(decode_go(&s), Ok(v));
            }
        }

        #[test]
        fn decode_encode_round_trip(v in arb_value()) {
            let text = encode(&v).map_err(TestCaseError::fail)?;
            let back = decode(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back, &v);
            prop_assert_eq!(decode_go(&text), Ok(v));
        }
    }
}
