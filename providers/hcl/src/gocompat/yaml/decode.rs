//! `yamldecode`: saphyr-parser events, go-cty-yaml's scalar resolution and its two passes
//! (implied type, then value).

use std::collections::{BTreeMap, HashMap};

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::*;
use crate::gocompat::base64::decode as base64_decode;
use crate::gocompat::quote::go_quote;
use crate::gocompat::time::parse_yaml_timestamp;
use crate::types::Type;
use crate::value::Value;

// -----------------------------------------------------------------------------------
// Events.

/// A libyaml-style position: zero-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mark {
    line: usize,
    col: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Clone, Debug)]
enum Ev {
    StreamStart,
    StreamEnd(Mark),
    DocStart(Mark),
    DocEnd,
    Alias {
        name: String,
        mark: Mark,
    },
    Scalar {
        value: String,
        style: Style,
        anchor: Option<String>,
        tag: String,
        mark: Mark,
    },
    SeqStart {
        anchor: Option<String>,
        tag: String,
        mark: Mark,
    },
    SeqEnd,
    MapStart {
        anchor: Option<String>,
        tag: String,
        mark: Mark,
    },
    MapEnd,
    /// A syntax error: the formatted message.
    Error(String),
}

fn ev_mark(ev: &Ev) -> Mark {
    match ev {
        Ev::StreamEnd(m) | Ev::DocStart(m) => *m,
        Ev::Alias { mark, .. }
        | Ev::Scalar { mark, .. }
        | Ev::SeqStart { mark, .. }
        | Ev::MapStart { mark, .. } => *mark,
        _ => Mark::default(),
    }
}

/// go-cty-yaml's `parseEventErrorWrap`.
fn event_err(mark: Mark, msg: impl Into<String>) -> String {
    let msg = msg.into();
    if mark.line == 0 {
        msg
    } else {
        format!("on line {}, column {}: {msg}", mark.line, mark.col + 1)
    }
}

fn is_anchor_end(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}')
}

/// The anchor name of a node whose properties start at character `start`: `&name`,
/// possibly after a tag.
fn anchor_name_at(chars: &[char], start: usize) -> Option<String> {
    let mut i = start;
    if chars.get(i) == Some(&'!') {
        while chars.get(i).is_some_and(|&c| !c.is_whitespace()) {
            i += 1;
        }
        loop {
            match chars.get(i) {
                Some(c) if c.is_whitespace() => i += 1,
                Some('#') => {
                    while chars.get(i).is_some_and(|&c| c != '\n' && c != '\r') {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
    }
    if chars.get(i) != Some(&'&') {
        return None;
    }
    let name: String = chars
        .iter()
        .skip(i + 1)
        .take_while(|&&c| !is_anchor_end(c))
        .collect();
    Some(name)
}

/// The alias name at character `start` (`*name`).
fn alias_name_at(chars: &[char], start: usize) -> String {
    chars
        .iter()
        .skip(start + 1)
        .take_while(|&&c| !is_anchor_end(c))
        .collect()
}

/// libyaml's mark at the end of the stream (a new line is forced).
fn stream_end_mark(src: &str) -> Mark {
    let mut m = Mark::default();
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                m.line += 1;
                m.col = 0;
            }
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                m.line += 1;
                m.col = 0;
            }
            _ => m.col += 1,
        }
    }
    if m.col != 0 {
        m.line += 1;
        m.col = 0;
    }
    m
}

/// A saphyr-parser error as go-cty-yaml reports a libyaml error.
fn scan_error(e: &ScanError, chars: &[char]) -> String {
    let marker = e.marker();
    let mark = Mark {
        line: marker.line().saturating_sub(1),
        col: marker.col(),
    };
    let info = e.info();
    if info == "while parsing node, found unknown anchor" {
        let name = alias_name_at(chars, marker.index());
        return event_err(
            mark,
            format!("reference to undefined anchor {}", go_quote(&name)),
        );
    }
    let mut problem = match info.strip_prefix("while ") {
        Some(rest) => rest
            .split_once(", ")
            .map_or(info.to_string(), |(_, p)| p.to_string()),
        None => info.to_string(),
    };
    problem = match problem.as_str() {
        "expected ',' or ']'" => "did not find expected ',' or ']'".to_string(),
        "simple key expect ':'" | "simple key expected" => {
            "could not find expected ':'".to_string()
        }
        "did not find expected <document-start>" => {
            "did not find expected <document start>".to_string()
        }
        "the handle wasn't declared" => "found undefined tag handle".to_string(),
        "unexpected eof" => "found unexpected end of stream".to_string(),
        "tabs disallowed within this context (block indentation)"
        | "tabs disallowed in this context"
        | "tab cannot be used as indentation" => {
            "found character that cannot start any token".to_string()
        }
        p if p.starts_with("unexpected character") => {
            "found character that cannot start any token".to_string()
        }
        _ => problem,
    };
    let parser_error = matches!(
        problem.as_str(),
        "did not find expected key"
            | "did not find expected '-' indicator"
            | "did not find expected ',' or ']'"
            | "did not find expected ',' or '}'"
            | "did not find expected node content"
            | "did not find expected <document start>"
            | "found undefined tag handle"
    );
    if mark.line == 0 {
        problem
    } else if parser_error {
        format!("on line {}, column {}: {problem}", mark.line, mark.col + 1)
    } else {
        format!("on line {}, column 1: {problem}", mark.line + 1)
    }
}

fn collect_events(src: &str) -> Vec<Ev> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut names: HashMap<usize, String> = HashMap::new();
    let mut parser = Parser::new_from_str(src);
    let tag_text = |t: &Option<std::borrow::Cow<'_, saphyr_parser::Tag>>| -> String {
        t.as_ref()
            .map(|t| format!("{}{}", t.handle, t.suffix))
            .unwrap_or_default()
    };
    while let Some(next) = parser.next_event() {
        let (ev, span) = match next {
            Ok(x) => x,
            Err(e) => {
                out.push(Ev::Error(scan_error(&e, &chars)));
                break;
            }
        };
        let mark = Mark {
            line: span.start.line().saturating_sub(1),
            col: span.start.col(),
        };
        let mut anchor = |id: usize| -> Option<String> {
            if id == 0 {
                return None;
            }
            let name = anchor_name_at(&chars, span.start.index()).unwrap_or_default();
            names.insert(id, name.clone());
            Some(name)
        };
        let e = match ev {
            Event::Nothing => continue,
            Event::StreamStart => Ev::StreamStart,
            Event::StreamEnd => {
                out.push(Ev::StreamEnd(stream_end_mark(src)));
                break;
            }
            Event::DocumentStart(_) => Ev::DocStart(mark),
            Event::DocumentEnd => Ev::DocEnd,
            Event::Alias(id) => Ev::Alias {
                name: names
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| alias_name_at(&chars, span.start.index())),
                mark,
            },
            Event::Scalar(value, style, id, tag) => Ev::Scalar {
                value: value.into_owned(),
                style: match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                },
                anchor: anchor(id),
                tag: tag_text(&tag),
                mark,
            },
            Event::SequenceStart(id, tag) => Ev::SeqStart {
                anchor: anchor(id),
                tag: tag_text(&tag),
                mark,
            },
            Event::SequenceEnd => Ev::SeqEnd,
            Event::MappingStart(id, tag) => Ev::MapStart {
                anchor: anchor(id),
                tag: tag_text(&tag),
                mark,
            },
            Event::MappingEnd => Ev::MapEnd,
        };
        out.push(e);
    }
    out
}

// -----------------------------------------------------------------------------------
// Scalar resolution (go-cty-yaml's resolve.go).

enum Resolved {
    Value(Value),
    Infinity,
}

fn resolve_map(src: &str) -> Option<(Resolved, &'static str)> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (Resolved::Value(Value::Bool(true)), TAG_BOOL)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Resolved::Value(Value::Bool(false)), TAG_BOOL)
        }
        "" | "~" | "null" | "Null" | "NULL" => {
            (Resolved::Value(Value::Null(Type::Dynamic)), TAG_NULL)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" => {
            (Resolved::Infinity, TAG_FLOAT)
        }
        _ => return None,
    })
}

fn hint(src: &str) -> u8 {
    match src.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        _ => 0,
    }
}

/// `\A[-+]?(0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)\z`
fn is_yaml_int(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let all = |t: &str, f: fn(char) -> bool| !t.is_empty() && t.chars().all(f);
    if let Some(rest) = s.strip_prefix("0o") {
        if all(rest, |c| matches!(c, '0'..='7' | '_')) {
            return true;
        }
    }
    if let Some(rest) = s.strip_prefix("0x") {
        if all(rest, |c| c.is_ascii_hexdigit() || c == '_') {
            return true;
        }
    }
    all(s, |c| c.is_ascii_digit() || c == '_')
}

/// `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let digits = |i: &mut usize| {
        let st = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - st
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// cty's `ParseNumberVal` (Go's `big.ParseFloat` in base 10).
fn parse_number_val(s: &str) -> Option<Resolved> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if body.eq_ignore_ascii_case("inf") {
        return Some(Resolved::Infinity);
    }
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(i) => (body.get(..i)?, Some(body.get(i + 1..)?)),
        None => (body, None),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (mant.get(..i)?, mant.get(i + 1..)?),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part.bytes().all(|c| c.is_ascii_digit())
        || !frac_part.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let mut text = String::new();
    if neg {
        text.push('-');
    }
    let int_trim = int_part.trim_start_matches('0');
    text.push_str(if int_trim.is_empty() { "0" } else { int_trim });
    if !frac_part.is_empty() {
        text.push('.');
        text.push_str(frac_part);
    }
    if let Some(e) = exp {
        let (esign, edigits) = match e.as_bytes().first() {
            Some(b'-') => ("-", e.get(1..)?),
            Some(b'+') => ("", e.get(1..)?),
            _ => ("", e),
        };
        if edigits.is_empty() || !edigits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let et = edigits.trim_start_matches('0');
        text.push('e');
        text.push_str(esign);
        text.push_str(if et.is_empty() { "0" } else { et });
    }
    Number::parse(&text).map(|n| Resolved::Value(Value::Number(n)))
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`.
fn parse_go_int(s: &str) -> Option<Number> {
    let (neg, body, signed) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?, true),
        Some(b'+') => (false, s.get(1..)?, true),
        _ => (false, s, false),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string())
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower.get(1..)?.to_string())
    } else {
        (10, lower.clone())
    };
    if digits.is_empty() {
        return None;
    }
    let mag = u64::from_str_radix(&digits, radix).ok()?;
    if neg {
        if mag <= 1u64 << 63 {
            return Some(Number::from_i64((mag as i64).wrapping_neg()));
        }
        return None;
    }
    if mag <= i64::MAX as u64 || !signed {
        return Some(Number::from_u64(mag));
    }
    None
}

fn resolvable_tag(tag: &str) -> bool {
    matches!(
        tag,
        "" | TAG_STR | TAG_BOOL | TAG_INT | TAG_FLOAT | TAG_NULL | TAG_TIMESTAMP | TAG_BINARY
    )
}

fn finite(r: Resolved) -> Result<Value, String> {
    match r {
        Resolved::Value(v) => Ok(v),
        Resolved::Infinity => Err("floating point infinity is not supported".to_string()),
    }
}

/// go-cty-yaml's `resolveScalar(tag, src, style)`.
fn resolve_scalar(tag: &str, src: &str, style: Style) -> Result<Value, String> {
    if !resolvable_tag(tag) {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let mut tag = tag;
    let h = hint(src);
    if h != 0 && tag != TAG_STR && tag != TAG_BINARY {
        if matches!(style, Style::SingleQuoted | Style::DoubleQuoted) {
            return Ok(Value::String(src.to_string()));
        }
        if let Some((v, _)) = resolve_map(src) {
            return finite(v);
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".to_string());
        }
        match h {
            b'.' => {
                if let Some(v) = parse_number_val(src) {
                    return finite(v);
                }
            }
            b'D' | b'S' => {
                if tag.is_empty() || tag == TAG_TIMESTAMP {
                    if let Some(t) = parse_yaml_timestamp(src) {
                        return Ok(Value::String(t));
                    }
                }
                if is_yaml_int(src) {
                    tag = TAG_INT;
                } else if is_yaml_float(src) {
                    tag = TAG_FLOAT;
                }
            }
            _ => {}
        }
    }
    match tag {
        TAG_STR | TAG_BINARY => {
            if tag == TAG_BINARY && base64_decode(src.as_bytes()).is_err() {
                return Err(format!(
                    "cannot parse {} as {tag}: not valid base64",
                    go_quote(src)
                ));
            }
            Ok(Value::String(src.to_string()))
        }
        TAG_BOOL => match resolve_map(src) {
            Some((Resolved::Value(v), TAG_BOOL)) => Ok(v),
            _ => Err(format!("cannot parse {} as {tag}", go_quote(src))),
        },
        TAG_FLOAT | TAG_INT => {
            let plain = src.replace('_', "");
            if let Some(v) = parse_number_val(&plain) {
                return finite(v);
            }
            if let Some(n) = parse_go_int(&plain) {
                return Ok(Value::Number(n));
            }
            Err(format!("cannot parse {} as {tag}", go_quote(src)))
        }
        TAG_TIMESTAMP => parse_yaml_timestamp(src)
            .map(Value::String)
            .ok_or_else(|| format!("cannot parse {} as {tag}", go_quote(src))),
        TAG_NULL => Ok(Value::Null(Type::Dynamic)),
        "" => Ok(Value::String(src.to_string())),
        _ => Err(format!("unsupported tag {}", go_quote(tag))),
    }
}

/// cty's conversion of a primitive to string.
fn to_string_value(v: Value) -> Value {
    match v {
        Value::Number(n) => Value::String(number_text(&n)),
        Value::Bool(b) => Value::String(b.to_string()),
        Value::Null(_) => Value::Null(Type::String),
        other => other,
    }
}

// -----------------------------------------------------------------------------------
// The two passes.

trait Builder {
    type Out: Clone;
    fn scalar(
        &mut self,
        value: &str,
        style: Style,
        tag: &str,
        mark: Mark,
    ) -> Result<Self::Out, String>;
    fn seq(&mut self, items: Vec<Self::Out>) -> Self::Out;
    fn map(&mut self, entries: Vec<(String, Self::Out)>) -> Self::Out;
}

/// `impliedType`.
struct TypeBuilder;

impl Builder for TypeBuilder {
    type Out = Type;
    fn scalar(&mut self, value: &str, style: Style, tag: &str, mark: Mark) -> Result<Type, String> {
        if tag.is_empty() && style != Style::Plain {
            return Ok(Type::String);
        }
        let v = resolve_scalar(tag, value, style).map_err(|e| event_err(mark, e))?;
        Ok(match v {
            Value::Null(_) => Type::Dynamic,
            v => v.ty(),
        })
    }
    fn seq(&mut self, items: Vec<Type>) -> Type {
        Type::Tuple(items)
    }
    fn map(&mut self, entries: Vec<(String, Type)>) -> Type {
        Type::Object(entries.into_iter().collect())
    }
}

/// `Unmarshal`, with the final conversion to the implied type folded in.
struct ValueBuilder;

impl Builder for ValueBuilder {
    type Out = Value;
    fn scalar(
        &mut self,
        value: &str,
        style: Style,
        tag: &str,
        mark: Mark,
    ) -> Result<Value, String> {
        let v = resolve_scalar(tag, value, style).map_err(|e| event_err(mark, e))?;
        if tag.is_empty() && style != Style::Plain {
            return Ok(to_string_value(v));
        }
        Ok(v)
    }
    fn seq(&mut self, items: Vec<Value>) -> Value {
        Value::Tuple(items)
    }
    fn map(&mut self, entries: Vec<(String, Value)>) -> Value {
        let m: BTreeMap<String, Value> = entries.into_iter().collect();
        Value::Object(m)
    }
}

struct Anchors<O> {
    pending: HashMap<String, usize>,
    done: HashMap<String, (O, Size)>,
}

/// The number of nodes of a built value and the bytes of its scalars: what an alias
/// copies, counted against the evaluation's budget (`crate::budget`), so that an alias
/// bomb (each anchor repeating the one before several times) stops early.
type Size = (u64, u64);

impl<O: Clone> Anchors<O> {
    fn begin(&mut self, name: &Option<String>) {
        if let Some(n) = name {
            *self.pending.entry(n.clone()).or_insert(0) += 1;
        }
    }
    fn complete(&mut self, name: &Option<String>, v: &O, size: Size) {
        if let Some(n) = name {
            if let Some(c) = self.pending.get_mut(n) {
                *c = c.saturating_sub(1);
                if *c == 0 {
                    self.pending.remove(n);
                }
            }
            self.done.insert(n.clone(), (v.clone(), size));
        }
    }
    fn get(&self, name: &str) -> Result<(O, Size), String> {
        if self.pending.contains_key(name) {
            return Err(format!(
                "cannot refer to anchor {} from inside its own definition",
                go_quote(name)
            ));
        }
        self.done
            .get(name)
            .cloned()
            .ok_or_else(|| format!("reference to undefined anchor {}", go_quote(name)))
    }
}

enum Frame<O> {
    Seq {
        anchor: Option<String>,
        items: Vec<O>,
    },
    Map {
        anchor: Option<String>,
        entries: Vec<(String, O)>,
        key: Option<String>,
    },
}

/// A mapping key: a scalar resolved and converted to a non-null string.
fn mapping_key(value: &str, style: Style, tag: &str, mark: Mark) -> Result<String, String> {
    match resolve_scalar(tag, value, style)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(number_text(&n)),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Null(_) => Err(event_err(mark, "mapping key cannot be null")),
        _ => Err(event_err(mark, "only strings are allowed as mapping keys")),
    }
}

fn next<'a>(it: &mut std::slice::Iter<'a, Ev>) -> Result<&'a Ev, String> {
    match it.next() {
        Some(Ev::Error(e)) => Err(e.clone()),
        Some(ev) => Ok(ev),
        None => Err("invalid YAML syntax".to_string()),
    }
}

/// One node (the document's root value), iteratively.
fn parse_node<B: Builder>(it: &mut std::slice::Iter<'_, Ev>, b: &mut B) -> Result<B::Out, String> {
    let mut stack: Vec<Frame<B::Out>> = Vec::new();
    // The size of each frame on `stack` so far.
    let mut sizes: Vec<Size> = Vec::new();
    let mut anchors: Anchors<B::Out> = Anchors {
        pending: HashMap::new(),
        done: HashMap::new(),
    };
    loop {
        let ev = next(it)?;
        let expecting_key = matches!(stack.last(), Some(Frame::Map { key: None, .. }));
        let mut done: Option<B::Out> = None;
        let mut done_size: Size = (1, 0);
        if expecting_key {
            match ev {
                Ev::MapEnd => {
                    if let Some(Frame::Map {
                        anchor, entries, ..
                    }) = stack.pop()
                    {
                        done_size = sizes.pop().unwrap_or((1, 0));
                        let out = b.map(entries);
                        anchors.complete(&anchor, &out, done_size);
                        done = Some(out);
                    }
                }
                Ev::Scalar {
                    value,
                    style,
                    tag,
                    mark,
                    ..
                } => {
                    let k = mapping_key(value, *style, tag, *mark)?;
                    if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                        *key = Some(k);
                    }
                }
                other => {
                    return Err(event_err(
                        ev_mark(other),
                        "only strings are allowed as mapping keys",
                    ))
                }
            }
        } else {
            match ev {
                Ev::Scalar {
                    value,
                    style,
                    anchor,
                    tag,
                    mark,
                } => {
                    anchors.begin(anchor);
                    let out = b.scalar(value, *style, tag, *mark)?;
                    done_size = (1, value.len() as u64);
                    anchors.complete(anchor, &out, done_size);
                    done = Some(out);
                }
                Ev::Alias { name, mark } => {
                    let (out, size) = anchors.get(name).map_err(|e| event_err(*mark, e))?;
                    crate::budget::charge(size.0, size.1).map_err(|e| event_err(*mark, e))?;
                    done_size = size;
                    done = Some(out);
                }
                Ev::SeqStart { anchor, tag, mark } => {
                    if !tag.is_empty() && tag != TAG_SEQ {
                        return Err(event_err(
                            *mark,
                            format!("can't interpret sequence as {tag}"),
                        ));
                    }
                    anchors.begin(anchor);
                    sizes.push((1, 0));
                    stack.push(Frame::Seq {
                        anchor: anchor.clone(),
                        items: Vec::new(),
                    });
                }
                Ev::MapStart { anchor, tag, mark } => {
                    if !tag.is_empty() && tag != TAG_MAP {
                        return Err(event_err(
                            *mark,
                            format!("can't interpret mapping as {tag}"),
                        ));
                    }
                    anchors.begin(anchor);
                    sizes.push((1, 0));
                    stack.push(Frame::Map {
                        anchor: anchor.clone(),
                        entries: Vec::new(),
                        key: None,
                    });
                }
                Ev::SeqEnd => match stack.pop() {
                    Some(Frame::Seq { anchor, items }) => {
                        done_size = sizes.pop().unwrap_or((1, 0));
                        let out = b.seq(items);
                        anchors.complete(&anchor, &out, done_size);
                        done = Some(out);
                    }
                    _ => return Err("unexpected parser event".to_string()),
                },
                Ev::DocStart(m) => return Err(event_err(*m, "only a single document is allowed")),
                Ev::StreamEnd(m) => {
                    return Err(event_err(*m, "expecting value but found end of stream"))
                }
                other => {
                    return Err(event_err(ev_mark(other), "unexpected parser event"));
                }
            }
            if stack.len() > MAX_DEPTH {
                return Err(event_err(
                    ev_mark(ev),
                    format!("exceeded max depth of {MAX_DEPTH}"),
                ));
            }
        }
        if let Some(out) = done {
            if let Some(size) = sizes.last_mut() {
                size.0 = size.0.saturating_add(done_size.0);
                size.1 = size.1.saturating_add(done_size.1);
            }
            match stack.last_mut() {
                None => return Ok(out),
                Some(Frame::Seq { items, .. }) => items.push(out),
                Some(Frame::Map { entries, key, .. }) => {
                    let k = key.take().unwrap_or_default();
                    entries.push((k, out));
                }
            }
        }
    }
}

/// The stream around the single document.
fn walk<B: Builder>(events: &[Ev], b: &mut B) -> Result<B::Out, String> {
    let mut it = events.iter();
    let ev = next(&mut it)?;
    if !matches!(ev, Ev::StreamStart) {
        return Err(event_err(ev_mark(ev), "missing stream start token"));
    }
    let ev = next(&mut it)?;
    if !matches!(ev, Ev::DocStart(_)) {
        return Err(event_err(ev_mark(ev), "missing start of document"));
    }
    let v = parse_node(&mut it, b)?;
    let ev = next(&mut it)?;
    if let Ev::DocStart(m) = ev {
        return Err(event_err(*m, "only a single document is allowed"));
    }
    if !matches!(ev, Ev::DocEnd) {
        return Err(event_err(
            ev_mark(ev),
            "unexpected extra content after value",
        ));
    }
    let ev = next(&mut it)?;
    if !matches!(ev, Ev::StreamEnd(_)) {
        return Err(event_err(
            ev_mark(ev),
            "unexpected extra content after value",
        ));
    }
    Ok(v)
}

pub(crate) fn decode(src: &str) -> Result<Value, String> {
    let src = if src.is_empty() { "\n" } else { src };
    let events = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| collect_events(src)))
        .unwrap_or_else(|_| vec![Ev::Error("invalid YAML syntax".to_string())]);
    walk(&events, &mut TypeBuilder)?;
    walk(&events, &mut ValueBuilder)
}
