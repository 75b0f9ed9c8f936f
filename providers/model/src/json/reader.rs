//! A JSON reader that builds [`Value`]s directly from bytes: keys interned on the fly,
//! strings without escapes copied once, lists and objects collected on reused stacks and
//! boxed at their exact size. It never panics and refuses nesting deeper than
//! [`MAX_DEPTH`], so hostile input gives an error, not a stack overflow.
//!
//! Objects of one kind repeat their keys in the same order, so each key is first guessed
//! from the key before it (or, for the first key, from the key the object sits under) and
//! compared byte for byte; only a wrong guess pays for scanning and interning the key.

use std::borrow::Cow;

use rustc_hash::FxHashSet;

use super::error::{LoadErrorKind, PResult, ParseError};
use crate::intern::{Interner, Sym};
use crate::projection::{Keep, Projection};
use crate::ref_list::RefList;
use crate::value::{Object, Reference, Text, Unknown, Value};

/// The deepest nesting of arrays and objects accepted (serde_json's default limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// Objects with up to this many keys are checked for duplicates by scanning their keys
/// (behind a 64-bit filter); bigger ones by a hash set, so that the check stays linear.
const SMALL_OBJECT: usize = 32;

/// What a JSON value is, named from its first byte, for "found ..." in messages.
pub(crate) fn found_kind(byte: Option<u8>) -> &'static str {
    match byte {
        Some(b'{') => "object",
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't' | b'f') => "boolean",
        Some(b'n') => "null",
        Some(b'-' | b'0'..=b'9') => "number",
        Some(_) => "something that is not JSON",
        None => "the end of the file",
    }
}

/// A cursor over the bytes of one document, with the interner its keys go to.
pub(crate) struct Reader<'a> {
    /// The whole document, checked to be UTF-8 once, up front.
    pub text: &'a str,
    pub bytes: &'a [u8],
    pub pos: usize,
    /// Arrays and objects currently open around `pos`. A `u32`, not a `usize` like `pos`:
    /// two adjacent `usize` fields updated together (`pos += 1; depth -= 1`) are compiled
    /// into one 16-byte load and store, and that load stalls on the 8-byte store to `pos`
    /// just before it (a failed store-to-load forward, ~15 cycles, on every `}` and `]`).
    pub depth: u32,
    pub interner: Interner,
    /// Keys of skipped values go here, so they do not show up as property names.
    skipped_keys: Interner,
    /// Guesses of the next key, checked against the bytes ([`Reader::guessed_key`]).
    guesses: KeyGuesses,
    /// The guesses made for `skipped_keys`, swapped in with it.
    skipped_guesses: KeyGuesses,
    /// The key whose value is being read (`None` at the top and in arrays' parents).
    context: Option<Sym>,
    /// References read so far.
    refs_read: usize,
    /// By symbol: whether a reference was read somewhere under a key of that name. Only
    /// those keys need walking to resolve references ([`Reader::ref_keys`]).
    ref_key: Vec<bool>,
    /// The same for `skipped_keys`, swapped in with it.
    skipped_ref_key: Vec<bool>,
    entries: Vec<(Sym, Value)>,
    items: Vec<Value>,
    /// The keys to keep in properties; `None` keeps everything.
    projection: Option<&'a Projection>,
    /// Whether the object being read is projected: set by [`Reader::projected`] for a
    /// resource's properties, cleared below keys kept whole.
    filter: bool,
    /// By symbol: what the projection does with the key (`None`: not looked up yet).
    keep: Vec<Option<Keep>>,
    /// The references read under dropped keys (`"<type>/<id>"`): the inventory still
    /// reports the dangling ones, as a full load would.
    pub dropped_refs: RefList,
    /// The keys of the objects [`Reader::skip_plain`] is in (offsets of their text).
    plain_keys: Vec<(usize, usize)>,
    /// The keys dropped from the objects being read, for their duplicate checks.
    dropped_keys: Vec<Sym>,
}

impl<'a> Reader<'a> {
    /// A reader at `pos`, inside `depth` open containers.
    pub fn new(text: &'a str, pos: usize, depth: usize, interner: Interner) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos,
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
            interner,
            skipped_keys: Interner::new(),
            guesses: KeyGuesses::default(),
            skipped_guesses: KeyGuesses::default(),
            context: None,
            refs_read: 0,
            ref_key: Vec::new(),
            skipped_ref_key: Vec::new(),
            entries: Vec::new(),
            items: Vec::new(),
            projection: None,
            filter: false,
            keep: Vec::new(),
            dropped_refs: RefList::default(),
            plain_keys: Vec::new(),
            dropped_keys: Vec::new(),
        }
    }

    /// The same reader keeping only the properties `projection` names, if any.
    pub fn with_projection(mut self, projection: Option<&'a Projection>) -> Self {
        self.projection = projection;
        self
    }

    /// Reads an object with the projection applied to it and to the objects below it
    /// (a resource's properties); `pos` must be at `{`.
    pub fn projected(&mut self) -> PResult<Value> {
        let filter = self.filter;
        self.filter = self.projection.is_some();
        let value = self.object();
        self.filter = filter;
        value
    }

    /// Steps over the value at `pos` without building it, when it is plainly valid: no
    /// escape or control character in its strings, no key starting with `$` but a
    /// well-formed reference's (which goes to [`Reader::dropped_refs`]), no duplicate key,
    /// no exponent, within the nesting limit. Anything
    /// else (false, `pos` unchanged) is left to [`Reader::value`], which reads it as a full
    /// load does: the same errors, and the references found for the dangling check.
    fn skip_plain(&mut self) -> bool {
        let (pos, depth) = (self.pos, self.depth);
        let (refs, refs_read) = (self.dropped_refs.len(), self.refs_read);
        let skipped = self.skip_plain_value().is_some();
        if !skipped {
            self.pos = pos;
            self.depth = depth;
            self.dropped_refs.truncate(refs);
            self.refs_read = refs_read;
        }
        self.plain_keys.clear();
        skipped
    }

    /// The rest of a plain `{"$ref": "<type>/<id>"}` after its key, into
    /// [`Reader::dropped_refs`]; `None` for anything [`Reader::reference`] would refuse.
    fn skip_plain_reference(&mut self) -> Option<()> {
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        if self.peek()? != b'"' {
            return None;
        }
        let (start, end) = self.skip_plain_string()?;
        let raw = self.text.get(start..end)?;
        if !memchr::memchr(b'/', raw.as_bytes()).is_some_and(|at| at > 0 && at + 1 < raw.len()) {
            return None;
        }
        if self.peek()? != b'}' {
            return None;
        }
        self.pos += 1;
        self.depth -= 1;
        self.refs_read += 1;
        self.dropped_refs.push(raw);
        Some(())
    }

    fn skip_plain_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' => self.skip_plain_object(),
            b'[' => self.skip_plain_list(),
            b'"' => self.skip_plain_string().map(drop),
            b'-' | b'0'..=b'9' => self.skip_plain_number(),
            b't' => self.skip_literal(b"true"),
            b'f' => self.skip_literal(b"false"),
            b'n' => self.skip_literal(b"null"),
            _ => None,
        }
    }

    /// Steps over a string without escapes; returns where its text starts and ends.
    fn skip_plain_string(&mut self) -> Option<(usize, usize)> {
        let bytes = self.bytes;
        let start = self.pos + 1;
        let mut i = start;
        loop {
            i = special_byte(bytes, i);
            match *bytes.get(i)? {
                b'"' => {
                    self.pos = i + 1;
                    return Some((start, i));
                }
                b'\\' => return None,
                b if b < 0x20 => return None,
                _ => i += 1,
            }
        }
    }

    /// Steps over a number without exponent and with at most 300 integer digits (so that
    /// it is finite, as [`Reader::number`] requires).
    fn skip_plain_number(&mut self) -> Option<()> {
        let bytes = self.bytes;
        let mut i = self.pos;
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        let integer = i;
        match bytes.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                while matches!(bytes.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => return None,
        }
        if i - integer > 300 {
            return None;
        }
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            let first = i;
            while matches!(bytes.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
            if i == first {
                return None;
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        Some(())
    }

    fn skip_literal(&mut self, literal: &[u8]) -> Option<()> {
        if self.bytes.get(self.pos..self.pos + literal.len()) != Some(literal) {
            return None;
        }
        self.pos += literal.len();
        Some(())
    }

    /// Opens an array or object for [`Reader::skip_plain`]: false when it is empty (and
    /// closed already).
    fn plain_open(&mut self, close: u8) -> Option<bool> {
        if self.depth >= MAX_DEPTH as u32 {
            return None;
        }
        self.depth += 1;
        self.pos += 1;
        if self.peek()? == close {
            self.pos += 1;
            self.depth -= 1;
            return Some(false);
        }
        Some(true)
    }

    /// After an element or member: `,` (true), or `close`, which closes the container.
    fn plain_next(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.pos += 1;
                Some(true)
            }
            b if b == close => {
                self.pos += 1;
                self.depth -= 1;
                Some(false)
            }
            _ => None,
        }
    }

    fn skip_plain_list(&mut self) -> Option<()> {
        if self.plain_open(b']')? {
            loop {
                self.skip_plain_value()?;
                if !self.plain_next(b']')? {
                    break;
                }
            }
        }
        Some(())
    }

    fn skip_plain_object(&mut self) -> Option<()> {
        if !self.plain_open(b'}')? {
            return Some(());
        }
        let bytes = self.bytes;
        let base = self.plain_keys.len();
        // One bit per key read (by length and last byte): only a key whose bit is set
        // needs the scan for a duplicate.
        let mut seen = 0u64;
        loop {
            if self.peek()? != b'"' {
                return None;
            }
            let (start, end) = self.skip_plain_string()?;
            let key = bytes.get(start..end)?;
            if key == b"$ref" && self.plain_keys.len() == base {
                return self.skip_plain_reference();
            }
            // A big object's duplicate check is left to the full read (it is quadratic here).
            if key.first() == Some(&b'$') || self.plain_keys.len() - base >= 64 {
                return None;
            }
            let last = usize::from(key.last().copied().unwrap_or(0));
            let bit = 1u64 << ((key.len() * 7 + last) % 64);
            if seen & bit != 0 {
                let plain_keys = self.plain_keys.get(base..)?;
                if plain_keys
                    .iter()
                    .any(|&(s, e)| bytes.get(s..e) == Some(key))
                {
                    return None;
                }
            }
            seen |= bit;
            self.plain_keys.push((start, end));
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            // `": "`, the usual way, spares the whitespace loop.
            if self.bytes.get(self.pos) == Some(&b' ')
                && self.bytes.get(self.pos + 1).is_some_and(|&b| b > b' ')
            {
                self.pos += 1;
            }
            self.skip_plain_value()?;
            if !self.plain_next(b'}')? {
                break;
            }
        }
        self.plain_keys.truncate(base);
        Some(())
    }

    /// What the projection does with the key `sym`.
    fn keep_of(&mut self, sym: Sym) -> Keep {
        let at = sym.0 as usize;
        if let Some(Some(keep)) = self.keep.get(at) {
            return *keep;
        }
        let name = self.interner.resolve(sym);
        // The keys of `{"$unknown": ..., "not_null": ...}` are read whatever the projection.
        let keep = match self.projection {
            Some(_) if name.starts_with('$') || name == "not_null" => Keep::Whole,
            Some(p) => p.keep(name),
            None => Keep::Whole,
        };
        if self.keep.len() <= at {
            self.keep.resize(at + 1, None);
        }
        if let Some(slot) = self.keep.get_mut(at) {
            *slot = Some(keep);
        }
        keep
    }

    /// A syntax error at `pos`.
    pub fn syntax(&self, pos: usize, message: impl Into<String>) -> Box<ParseError> {
        ParseError::new(pos, LoadErrorKind::Syntax, message)
    }

    /// A format error (valid JSON, not a valid inventory) at `pos`.
    pub fn format(&self, pos: usize, message: impl Into<String>) -> Box<ParseError> {
        ParseError::new(pos, LoadErrorKind::Format, message)
    }

    /// Skips whitespace and returns the next byte, if any.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        // Most calls find no whitespace: JSON whitespace is all at or below b' '.
        match self.bytes.get(self.pos) {
            Some(&b) if b > b' ' => Some(b),
            _ => self.skip_whitespace(),
        }
    }

    /// [`Reader::peek`] when there is whitespace to skip.
    fn skip_whitespace(&mut self) -> Option<u8> {
        let bytes = self.bytes;
        let mut i = self.pos;
        // The usual case in a pretty-printed file, a line break (or a space) and at most 16
        // spaces of indentation before a token, in two word comparisons.
        if let Some(&[first, ref rest @ ..]) = bytes
            .get(i..i + 18)
            .and_then(|c| <&[u8; 18]>::try_from(c).ok())
        {
            if first == b'\n' || first == b' ' {
                let (low, high) = rest.split_at(8);
                let low = u64::from_le_bytes(low.try_into().unwrap_or([b' '; 8])) ^ splat(b' ');
                let spaces = if low != 0 {
                    (low.trailing_zeros() / 8) as usize
                } else {
                    let high = u64::from_le_bytes(
                        high.get(..8)
                            .and_then(|h| h.try_into().ok())
                            .unwrap_or([b' '; 8]),
                    ) ^ splat(b' ');
                    8 + (high.trailing_zeros() / 8) as usize
                };
                if let Some(&b) = rest.get(spaces).filter(|&&b| b > b' ') {
                    self.pos = i + 1 + spaces;
                    return Some(b);
                }
            }
        }
        loop {
            match bytes.get(i) {
                // A line break is mostly followed by indentation, and a space by a token
                // (after `:`).
                Some(b'\n' | b' ') => {
                    i = skip_spaces(bytes, i + 1);
                    if let Some(&b) = bytes.get(i).filter(|&&b| b > b' ') {
                        self.pos = i;
                        return Some(b);
                    }
                }
                Some(b'\r' | b'\t') => i += 1,
                other => {
                    self.pos = i;
                    return other.copied();
                }
            }
        }
    }

    /// Consumes `byte` (after whitespace) or fails naming what `context` expected.
    #[inline]
    pub fn expect(&mut self, byte: u8, context: &str) -> PResult<()> {
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            return Ok(());
        }
        self.expect_slow(byte, context)
    }

    /// [`Reader::expect`] when `byte` is not the next byte: whitespace first, or an error.
    #[inline(never)]
    fn expect_slow(&mut self, byte: u8, context: &str) -> PResult<()> {
        match self.peek() {
            Some(b) if b == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.syntax(self.pos, format!("expected `{}` {context}", byte as char))),
            None => Err(self.syntax(self.pos, format!("unexpected end of file {context}"))),
        }
    }

    /// After a member or element: consumes `,` (returns true) or the `close` byte (false).
    #[inline]
    pub fn separator(&mut self, close: u8, what: &str) -> PResult<bool> {
        // The usual case: the comma right after the value.
        if self.bytes.get(self.pos) == Some(&b',') {
            self.pos += 1;
            return Ok(true);
        }
        self.separator_slow(close, what)
    }

    /// [`Reader::separator`] when a comma is not the next byte: whitespace first, the
    /// closing byte, or an error.
    #[inline(never)]
    fn separator_slow(&mut self, close: u8, what: &str) -> PResult<bool> {
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            Some(_) => Err(self.syntax(
                self.pos,
                format!("expected `,` or `{}` after {what}", close as char),
            )),
            None => Err(self.syntax(self.pos, format!("unexpected end of file in {what}"))),
        }
    }

    /// Opens an array or object at `pos`, enforcing the nesting limit.
    pub fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH as u32 {
            return Err(self.syntax(
                self.pos,
                format!("nesting deeper than {MAX_DEPTH} arrays and objects"),
            ));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// Closes the array or object `enter` opened.
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads a string; `pos` must be at its opening quote.
    pub fn string(&mut self) -> PResult<Cow<'a, str>> {
        let bytes = self.bytes;
        let start = self.pos + 1;
        let mut i = start;
        loop {
            i = special_byte(bytes, i);
            match bytes.get(i) {
                Some(b'"') => {
                    let text = self.utf8(start, i)?;
                    self.pos = i + 1;
                    return Ok(Cow::Borrowed(text));
                }
                Some(b'\\') => return self.escaped_string(start, i).map(Cow::Owned),
                Some(&b) if b < 0x20 => {
                    return Err(self.syntax(
                        i,
                        "control character (U+0000 to U+001F) in a string: escape it",
                    ))
                }
                Some(_) => i += 1,
                None => return Err(self.syntax(i, "unterminated string")),
            }
        }
    }

    /// Reads a string as [`Text`]; `pos` must be at its opening quote. Built here rather
    /// than through `From<Cow<str>>`, a call that returns the text through memory.
    #[inline(always)]
    pub fn text(&mut self) -> PResult<Text> {
        Ok(match self.string()? {
            Cow::Borrowed(text) => Text::new(text),
            Cow::Owned(text) => Text::from(text),
        })
    }

    /// The text of `bytes[start..end]` (both ends are next to ASCII delimiters).
    fn utf8(&self, start: usize, end: usize) -> PResult<&'a str> {
        self.text
            .get(start..end)
            .ok_or_else(|| self.syntax(start, "invalid UTF-8 in a string"))
    }

    /// The slow path of [`Reader::string`]: the string has an escape at `first_escape`.
    fn escaped_string(&mut self, start: usize, first_escape: usize) -> PResult<String> {
        let mut out = String::from(self.utf8(start, first_escape)?);
        let mut i = first_escape;
        loop {
            match self.bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(out);
                }
                Some(b'\\') => i = self.escape(i, &mut out)?,
                Some(&b) if b < 0x20 => {
                    return Err(self.syntax(
                        i,
                        "control character (U+0000 to U+001F) in a string: escape it",
                    ))
                }
                Some(_) => {
                    let run_end = self.plain_run_end(i);
                    out.push_str(self.utf8(i, run_end)?);
                    i = run_end;
                }
                None => return Err(self.syntax(i, "unterminated string")),
            }
        }
    }

    /// The end of the run of unescaped string bytes starting at `i`.
    fn plain_run_end(&self, mut i: usize) -> usize {
        while let Some(&b) = self.bytes.get(i) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            i += 1;
        }
        i
    }

    /// Decodes the escape at `i` (a backslash) into `out`; returns the offset after it.
    fn escape(&self, i: usize, out: &mut String) -> PResult<usize> {
        let c = match self.bytes.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(i, out),
            Some(_) => return Err(self.syntax(i, "invalid escape in a string")),
            None => return Err(self.syntax(i, "unterminated string")),
        };
        out.push(c);
        Ok(i + 2)
    }

    /// Decodes `\uXXXX` (and its low surrogate `\uXXXX` when it is a high one) at `i`.
    fn unicode_escape(&self, i: usize, out: &mut String) -> PResult<usize> {
        let high = self.hex4(i + 2)?;
        if !(0xD800..0xDC00).contains(&high) {
            let c = char::from_u32(high)
                .ok_or_else(|| self.syntax(i, "lone trailing surrogate in a \\u escape"))?;
            out.push(c);
            return Ok(i + 6);
        }
        if self.bytes.get(i + 6..i + 8) != Some(b"\\u") {
            return Err(self.syntax(i, "lone leading surrogate in a \\u escape"));
        }
        let low = self.hex4(i + 8)?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err(self.syntax(
                i + 6,
                "a \\u escape after a leading surrogate must be a trailing one",
            ));
        }
        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        let c = char::from_u32(code).ok_or_else(|| self.syntax(i, "invalid \\u escape"))?;
        out.push(c);
        Ok(i + 12)
    }

    /// The four hex digits at `at`.
    fn hex4(&self, at: usize) -> PResult<u32> {
        let digits = self
            .bytes
            .get(at..at + 4)
            .ok_or_else(|| self.syntax(at, "unterminated \\u escape"))?;
        digits.iter().try_fold(0u32, |acc, &d| {
            let v = (d as char)
                .to_digit(16)
                .ok_or_else(|| self.syntax(at, "invalid \\u escape: expected four hex digits"))?;
            Ok(acc * 16 + v)
        })
    }

    /// Reads a number; `pos` must be at its first byte (`-` or a digit). Integers that fit
    /// in i64 are [`Value::Int`], every other number [`Value::Float`].
    pub fn number(&mut self) -> PResult<Value> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let mut magnitude: Option<u64> = Some(0);
        match bytes.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
                    magnitude = magnitude
                        .and_then(|m| m.checked_mul(10))
                        .and_then(|m| m.checked_add(u64::from(d - b'0')));
                    i += 1;
                }
            }
            _ => return Err(self.syntax(i, "invalid number: expected a digit")),
        }
        let integer_end = i;
        i = self.fraction_and_exponent(i)?;
        self.pos = i;
        if i == integer_end {
            let int = match magnitude {
                Some(m) if negative => 0i64.checked_sub_unsigned(m),
                Some(m) => i64::try_from(m).ok(),
                None => None,
            };
            if let Some(int) = int {
                return Ok(Value::Int(int));
            }
        }
        self.float(start, i)
    }

    /// Skips the optional `.digits` and `e±digits` parts of a number at `i`.
    fn fraction_and_exponent(&self, mut i: usize) -> PResult<usize> {
        if self.bytes.get(i) == Some(&b'.') {
            i = self.digits(i + 1, "invalid number: expected a digit after `.`")?;
        }
        if matches!(self.bytes.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(self.bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = self.digits(i, "invalid number: expected a digit in the exponent")?;
        }
        Ok(i)
    }

    /// Skips one or more digits at `i`.
    fn digits(&self, mut i: usize, message: &str) -> PResult<usize> {
        let first = i;
        while matches!(self.bytes.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == first {
            return Err(self.syntax(i, message));
        }
        Ok(i)
    }

    /// The number `bytes[start..end]` as a finite f64.
    fn float(&self, start: usize, end: usize) -> PResult<Value> {
        let text = self.utf8(start, end)?;
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => Err(self.syntax(
                start,
                format!("number out of range: {}", super::error::shown(text)),
            )),
        }
    }

    /// Reads `literal` (`true`, `false`, `null`) at `pos`.
    fn literal(&mut self, literal: &[u8], value: Value) -> PResult<Value> {
        if self.bytes.get(self.pos..self.pos + literal.len()) == Some(literal) {
            self.pos += literal.len();
            Ok(value)
        } else {
            Err(self.syntax(self.pos, "expected a JSON value"))
        }
    }

    /// Reads any JSON value as a property value.
    pub fn value(&mut self) -> PResult<Value> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.list(),
            Some(b'"') => Ok(Value::Str(self.text()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(_) => Err(self.syntax(self.pos, "expected a JSON value")),
            None => Err(self.syntax(self.pos, "unexpected end of file: expected a JSON value")),
        }
    }

    /// Reads a value onto `entries` under `sym` ([`Reader::read_then`]).
    fn push_entry(&mut self, sym: Sym) -> PResult<()> {
        self.read_then(|r, value| r.entries.push((sym, value)))
    }

    /// Reads a value onto `items` ([`Reader::read_then`]).
    fn push_item(&mut self) -> PResult<()> {
        self.read_then(|r, value| r.items.push(value))
    }

    /// Reads a value as [`Reader::value`] does and hands it to `put` where it is built (a
    /// string) or returned, instead of returning it in turn: a kept value then goes onto
    /// its stack without the moves through `Result`s that each cost a failed
    /// store-to-load forward.
    #[inline(always)]
    fn read_then(&mut self, put: impl FnOnce(&mut Self, Value)) -> PResult<()> {
        match self.peek() {
            Some(b'"') => {
                let text = self.text()?;
                put(self, Value::Str(text));
            }
            Some(b'{') => {
                let value = self.object()?;
                put(self, value);
            }
            Some(b'[') => {
                let value = self.list()?;
                put(self, value);
            }
            _ => {
                let value = self.value()?;
                put(self, value);
            }
        }
        Ok(())
    }

    /// Reads and discards a value (an unknown field), leaving no key in the interner.
    pub fn skip_value(&mut self) -> PResult<()> {
        // Nothing is kept, so nothing is projected (and `keep` is by the main interner).
        let filter = std::mem::replace(&mut self.filter, false);
        std::mem::swap(&mut self.interner, &mut self.skipped_keys);
        std::mem::swap(&mut self.guesses, &mut self.skipped_guesses);
        std::mem::swap(&mut self.ref_key, &mut self.skipped_ref_key);
        let result = self.value();
        std::mem::swap(&mut self.interner, &mut self.skipped_keys);
        std::mem::swap(&mut self.guesses, &mut self.skipped_guesses);
        std::mem::swap(&mut self.ref_key, &mut self.skipped_ref_key);
        self.filter = filter;
        result.map(drop)
    }

    /// Reads an array; `pos` must be at `[`.
    fn list(&mut self) -> PResult<Value> {
        self.enter()?;
        let base = self.items.len();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.leave();
            return Ok(Value::List(Box::new([])));
        }
        let mut index = 0;
        loop {
            self.push_item().map_err(|e| e.in_index(index))?;
            index += 1;
            if !self.separator(b']', "an array element")? {
                break;
            }
        }
        self.leave();
        Ok(Value::List(take_from(&mut self.items, base)))
    }

    /// Reads an object; `pos` must be at `{`. `{"$ref": ...}` becomes a [`Value::Ref`],
    /// an object with `"$unknown"` a [`Value::Unknown`].
    pub fn object(&mut self) -> PResult<Value> {
        let (start, depth) = (self.pos, self.depth);
        self.enter()?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.leave();
            return Ok(Value::Object(Object::default()));
        }
        let base = self.entries.len();
        let dropped_base = self.dropped_keys.len();
        let mut unknown_at = None;
        let mut first = true;
        let parent = self.context;
        let mut previous: Option<Sym> = None;
        // One bit per key read (by symbol, modulo 64): only a key whose bit is set needs the
        // scan for a duplicate. Past [`SMALL_OBJECT`] keys the bits are nearly all set, so
        // the keys go into a set instead: linear in the keys, however many there are.
        let mut seen = 0u64;
        let mut many: Option<FxHashSet<Sym>> = None;
        // Entries the projection drops: read (and checked) like the others, then dropped.
        let mut dropped = 0usize;
        loop {
            let key_pos = self.key_start()?;
            let guess = match previous {
                Some(previous) => self.guesses.after.get(previous.0 as usize),
                None => parent.and_then(|p| self.guesses.first_under.get(p.0 as usize)),
            };
            let sym = match guess.copied().and_then(|g| self.guessed_key(g)) {
                Some(sym) => sym,
                None => {
                    let key = self.string()?;
                    if key == "$ref" {
                        self.expect(b':', "after an object key")?;
                        return self.reference(first, key_pos).map_err(|e| e.in_key("$ref"));
                    }
                    if key == "$unknown" {
                        unknown_at = Some(key_pos);
                    }
                    let sym = self.interner.intern(&key);
                    // Only keys without escapes, `$` keys apart, are guessed: their bytes
                    // are their text.
                    if matches!(key, Cow::Borrowed(_)) && !key.starts_with('$') {
                        let table = match previous {
                            Some(previous) => Some((&mut self.guesses.after, previous)),
                            None => parent.map(|p| (&mut self.guesses.first_under, p)),
                        };
                        if let Some((table, at)) = table {
                            let at = at.0 as usize;
                            if table.len() <= at {
                                table.resize(at + 1, Sym(u32::MAX));
                            }
                            if let Some(slot) = table.get_mut(at) {
                                *slot = sym;
                            }
                        }
                    }
                    sym
                }
            };
            previous = Some(sym);
            self.expect(b':', "after an object key")?;
            // `": "`, the usual way, spares the whitespace loop.
            if self.bytes.get(self.pos) == Some(&b' ')
                && self.bytes.get(self.pos + 1).is_some_and(|&b| b > b' ')
            {
                self.pos += 1;
            }
            self.context = Some(sym);
            let refs_before = self.refs_read;
            let filter = self.filter;
            let mut skipped = false;
            let mut drop = false;
            if filter {
                match self.keep_of(sym) {
                    Keep::Drop => {
                        dropped += 1;
                        drop = true;
                        // Stepped over when plainly valid, else read (and checked) in full,
                        // unprojected: stepping over its own dropped members again would
                        // rescan the text before the escape once per level.
                        skipped = self.skip_plain();
                        if !skipped {
                            self.filter = false;
                        }
                    }
                    Keep::Whole => self.filter = false,
                    Keep::Through => {}
                }
            }
            // A kept value goes straight onto `entries`, where it stays until the object
            // is boxed: moving a just-returned `Value` through `Result`s and temporaries
            // costs a failed store-to-load forward per move (~15 cycles each, on every
            // kept value).
            let read = if skipped {
                Ok(())
            } else if drop {
                self.value()
                    .map(|value| references_in(value, &mut self.dropped_refs))
            } else {
                self.push_entry(sym)
            };
            self.filter = filter;
            self.context = parent;
            if let Err(e) = read {
                return Err(e.in_key(self.interner.resolve(sym)));
            }
            if self.refs_read != refs_before {
                self.mark_ref_key(sym);
            }
            // The keys read before this one (a kept value is on `entries` already).
            let earlier = self.entries.len() - usize::from(!drop);
            let bit = 1u64 << (sym.0 % 64);
            let duplicate = match many.as_mut() {
                Some(keys) => !keys.insert(sym),
                None => {
                    seen & bit != 0
                        && (self
                            .entries
                            .get(base..earlier)
                            .unwrap_or_default()
                            .iter()
                            .any(|(k, _)| *k == sym)
                            || self
                                .dropped_keys
                                .get(dropped_base..)
                                .unwrap_or_default()
                                .contains(&sym))
                }
            };
            if duplicate {
                return Err(self.format(
                    key_pos,
                    format!(
                        "duplicate key {}",
                        super::error::quoted_excerpt(self.interner.resolve(sym))
                    ),
                ));
            }
            seen |= bit;
            if drop {
                // Kept for the duplicate check; its references went to the dangling check
                // above (a skipped value put its own there).
                self.dropped_keys.push(sym);
            }
            if many.is_none()
                && self.entries.len() - base + self.dropped_keys.len() - dropped_base
                    >= SMALL_OBJECT
            {
                many = Some(self.keys_since(base, dropped_base));
            }
            first = false;
            if !self.separator(b'}', "an object member")? {
                break;
            }
        }
        self.leave();
        self.dropped_keys.truncate(dropped_base);
        if dropped > 0 && unknown_at.is_some() {
            // `{"$unknown": ...}` with other keys, which is an error: read it again in
            // full for the error a full load gives (the first wrong key in order).
            self.entries.truncate(base);
            self.pos = start;
            self.depth = depth;
            let filter = std::mem::replace(&mut self.filter, false);
            let again = self.object();
            self.filter = filter;
            // Always an error (a dropped key is never `$unknown`'s), so what the first
            // pass left in `dropped_refs` and `refs_read` never reaches a result.
            debug_assert!(
                again.is_err(),
                "an $unknown object with other keys was accepted"
            );
            return again;
        }
        let entries = take_from(&mut self.entries, base);
        match unknown_at {
            Some(at) => self
                .unknown(&entries, at)
                .map(|u| Value::Unknown(Box::new(u))),
            None => Ok(Value::Object(Object { entries })),
        }
    }

    /// The keys of the object being read: its entries from `base` on and its dropped keys
    /// from `dropped_base` on.
    fn keys_since(&self, base: usize, dropped_base: usize) -> FxHashSet<Sym> {
        let entries = self.entries.get(base..).unwrap_or_default();
        let dropped = self.dropped_keys.get(dropped_base..).unwrap_or_default();
        let mut keys = FxHashSet::with_capacity_and_hasher(
            2 * (entries.len() + dropped.len()),
            Default::default(),
        );
        keys.extend(entries.iter().map(|(k, _)| *k));
        keys.extend(dropped.iter().copied());
        keys
    }

    /// The key at `pos` (its opening quote) if it is the guessed one, `guess`; then `pos`
    /// moves past it. The bytes must be the key's text exactly, which holds for guesses:
    /// only keys read without escapes are guessed.
    fn guessed_key(&mut self, guess: Sym) -> Option<Sym> {
        let name = self.interner.resolve(guess).as_bytes();
        let start = self.pos + 1;
        let end = start + name.len();
        if name.is_empty()
            || !self
                .bytes
                .get(start..end)
                .is_some_and(|key| same_bytes(key, name))
            || self.bytes.get(end) != Some(&b'"')
        {
            return None;
        }
        self.pos = end + 1;
        Some(guess)
    }

    /// Records that a reference was read under a key named `sym`.
    fn mark_ref_key(&mut self, sym: Sym) {
        let at = sym.0 as usize;
        if self.ref_key.len() <= at {
            self.ref_key.resize(at + 1, false);
        }
        if let Some(slot) = self.ref_key.get_mut(at) {
            *slot = true;
        }
    }

    /// The keys under which references were read (in this reader's symbols): every
    /// reference read sits below such keys only.
    pub fn ref_keys(&self) -> Vec<Sym> {
        self.ref_key
            .iter()
            .enumerate()
            .filter(|(_, marked)| **marked)
            .map(|(i, _)| Sym(i as u32))
            .collect()
    }

    /// Checks that an object key starts at the next byte and returns its offset.
    fn key_start(&mut self) -> PResult<usize> {
        match self.peek() {
            Some(b'"') => Ok(self.pos),
            found => Err(self.syntax(
                self.pos,
                format!(
                    "expected an object key (a string), found {}",
                    found_kind(found)
                ),
            )),
        }
    }

    /// The rest of `{"$ref": "<type>/<id>"}` after the colon.
    fn reference(&mut self, first: bool, key_pos: usize) -> PResult<Value> {
        if !first {
            return Err(self.format(key_pos, "\"$ref\" must be the only key of its object"));
        }
        let at = self.pos;
        let found = self.peek();
        if found != Some(b'"') {
            self.value()?;
            return Err(self.format(
                at,
                format!(
                    "expected \"$ref\" to be a string \"<type>/<id>\", found {}",
                    found_kind(found)
                ),
            ));
        }
        let raw = self.string()?;
        // `<type>/<id>`: a `/` with text on both sides.
        if !memchr::memchr(b'/', raw.as_bytes()).is_some_and(|at| at > 0 && at + 1 < raw.len()) {
            return Err(self.format(
                at,
                format!(
                    "expected \"$ref\" to be \"<type>/<id>\", found {}",
                    super::error::quoted_excerpt(&raw)
                ),
            ));
        }
        if self.peek() != Some(b'}') {
            return Err(self.format(self.pos, "\"$ref\" must be the only key of its object"));
        }
        self.pos += 1;
        self.leave();
        self.refs_read += 1;
        Ok(Value::Ref(Box::new(Reference::new(raw))))
    }

    /// The [`Unknown`] an object holding `"$unknown"` stands for.
    fn unknown(&self, entries: &[(Sym, Value)], at: usize) -> PResult<Unknown> {
        let mut reason = None;
        let mut not_null = false;
        for (key, value) in entries {
            match (self.interner.resolve(*key), value) {
                ("$unknown", Value::Str(s)) => reason = Some(s.clone()),
                ("$unknown", other) => {
                    return Err(self.format(
                        at,
                        format!("expected \"$unknown\" to be a string (why the value is unknown), found {}", json_kind(other)),
                    )
                    .in_key("$unknown"))
                }
                ("not_null", Value::Bool(b)) => not_null = *b,
                ("not_null", other) => {
                    return Err(self
                        .format(at, format!("expected \"not_null\" to be a boolean, found {}", json_kind(other)))
                        .in_key("not_null"))
                }
                (name, _) => {
                    return Err(self.format(
                        at,
                        format!(
                            "unexpected key {} next to \"$unknown\" (allowed: \"$unknown\", \"not_null\")",
                            super::error::quoted_excerpt(name)
                        ),
                    ))
                }
            }
        }
        let reason = reason.unwrap_or_default();
        Ok(Unknown {
            reason: reason.as_str().into(),
            not_null,
        })
    }
}

/// Moves the raw text of every reference in `value` to `out`.
fn references_in(value: Value, out: &mut RefList) {
    match value {
        Value::Ref(r) => out.push(&r.raw),
        Value::List(items) => {
            for item in items {
                references_in(item, out);
            }
        }
        Value::Object(object) => {
            for (_, value) in object.entries {
                references_in(value, out);
            }
        }
        _ => {}
    }
}

/// Which key likely comes next in an object: objects of one kind repeat their keys in
/// the same order. Indexed by symbol; `Sym(u32::MAX)` where there is no guess.
#[derive(Default)]
struct KeyGuesses {
    /// The key that last came after this one.
    after: Vec<Sym>,
    /// The key that last came first in an object under this key.
    first_under: Vec<Sym>,
}

/// The elements of `stack` from `base` on, moved out (one copy of the bytes) into a box of
/// their exact size; `stack` keeps its room for the next container.
fn take_from<T>(stack: &mut Vec<T>, base: usize) -> Box<[T]> {
    if base == 0 {
        // `split_off(0)` would hand over the stack's own buffer, room and all.
        let mut out = Vec::with_capacity(stack.len());
        out.append(stack);
        out.into_boxed_slice()
    } else {
        stack.split_off(base.min(stack.len())).into_boxed_slice()
    }
}

/// Eight copies of `byte` in a word.
const fn splat(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The eight bytes at `i` as a little-endian word, if there are eight.
fn word_at(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk: [u8; 8] = bytes.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// The high bit of each byte of `w` that is zero (exact for the lowest such byte, which
/// is all the callers use).
const fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(splat(1)) & !w & splat(0x80)
}

/// The four bytes at `i` as a number, if there are four.
fn half_at(bytes: &[u8], i: usize) -> Option<u32> {
    let four = bytes.get(i..i + 4)?;
    Some(u32::from_le_bytes(four.try_into().ok()?))
}

/// `a == b` for object keys, in place of a call to `memcmp`: under 8 bytes in two
/// overlapping loads, 8 to 32 bytes a word at a time (the last word overlapping the one
/// before when the length is not a multiple of 8), longer ones by `==`.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        // Short keys (`id`, `type`, `state`...) in two overlapping loads each.
        return match n {
            4.. => half_at(a, 0) == half_at(b, 0) && half_at(a, n - 4) == half_at(b, n - 4),
            2.. => a.first_chunk::<2>() == b.first_chunk::<2>() && a.last() == b.last(),
            _ => a.first() == b.first(),
        };
    }
    if n > 32 {
        return a == b;
    }
    let mut at = 0;
    while at + 8 < n {
        if word_at(a, at) != word_at(b, at) {
            return false;
        }
        at += 8;
    }
    word_at(a, n - 8) == word_at(b, n - 8)
}

/// The offset of the first byte at or after `i` that is not a space (eight at a time).
fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_at(bytes, i) {
        let other = w ^ splat(b' ');
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The offset of the first `"`, `\\` or control character at or after `i` (eight bytes
/// at a time), or of the end of the last full word when none is found there.
fn special_byte(bytes: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_at(bytes, i) {
        let found = zero_bytes(w ^ splat(b'"'))
            | zero_bytes(w ^ splat(b'\\'))
            | (w.wrapping_sub(splat(0x20)) & !w & splat(0x80));
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The JSON name of the kind of a parsed value, for "found ..." in messages.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Int(_) | Value::Float(_) => "number",
        Value::Str(_) => "string",
        Value::List(_) => "array",
        Value::Object(_) => "object",
        Value::Ref(_) => "an association {\"$ref\": ...}",
        Value::Unknown(_) => "an unknown value {\"$unknown\": ...}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whitespace is skipped to the first other byte however it is made up (the fast
        /// path for a line break and its indentation included), or to the end.
        #[test]
        fn whitespace_ends_at_the_first_other_byte(
            ws in proptest::collection::vec(prop_oneof![Just(b' '), Just(b' '), Just(b'\n'), Just(b'\t'), Just(b'\r')], 0..40),
            tail in proptest::collection::vec(prop_oneof![Just(b'x'), Just(b' '), Just(b'\n'), Just(b'"')], 0..24),
        ) {
            let mut text = ws.clone();
            text.extend_from_slice(&tail);
            let text = String::from_utf8(text).unwrap_or_default();
            let expected = text.bytes().position(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'));
            let mut reader = Reader::new(&text, 0, 0, Interner::new());
            let found = reader.peek();
            prop_assert_eq!(found, expected.map(|at| text.as_bytes()[at]));
            prop_assert_eq!(reader.pos, expected.unwrap_or(text.len()));
        }

        /// [`same_bytes`] is `==`.
        #[test]
        fn same_bytes_is_equality(
            a in proptest::collection::vec(0u8..4, 0..40),
            other in proptest::collection::vec(0u8..4, 0..40),
            flip in 0usize..40,
        ) {
            prop_assert_eq!(same_bytes(&a, &other), a == other);
            // One byte changed anywhere, or none (past the end).
            let mut b = a.clone();
            if let Some(byte) = b.get_mut(flip) {
                *byte ^= 0x80;
            }
            prop_assert_eq!(same_bytes(&a, &b), a == b);
        }
    }
}
