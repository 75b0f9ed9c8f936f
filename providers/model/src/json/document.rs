//! The inventory document: the top-level object, its resources and its collection errors,
//! read with [`Reader`] and checked against `shared/design/inventory.md`.

use super::error::BOM;
use super::error::{quoted_excerpt, LoadErrorKind, PResult, ParseError};
use super::reader::{found_kind, Reader};
use super::writer::quoted;
use crate::intern::Interner;
use crate::inventory::{
    CollectionError, Dangling, DuplicateResource, InventoryBuilder, Resource, Source,
};
use crate::projection::Projection;
use crate::value::{Object, Value};

/// The only format version this reader knows.
pub(crate) const FORMAT_VERSION: &str = "1";

/// Everything read from a document, before resources are indexed and references resolved.
#[derive(Default)]
pub(crate) struct Document {
    pub provider: Option<String>,
    pub collected_at: Option<String>,
    /// The header's `"dangling"`, when given.
    pub dangling: Option<Dangling>,
    /// The header's `"origin"`, when given.
    pub origin: Option<crate::Origin>,
    pub resources: Vec<Resource>,
    /// The byte offset each resource starts at, for duplicate errors.
    pub offsets: Vec<usize>,
    pub errors: Vec<CollectionError>,
    pub interner: Interner,
    /// The keys under which references were read ([`Reader::ref_keys`]).
    pub ref_keys: Vec<crate::intern::Sym>,
    /// References under properties the projection dropped ([`Reader::dropped_refs`]).
    pub dropped_refs: crate::ref_list::RefList,
}

impl Document {
    /// Adds what was read to `builder`: keys, provider, collection time, resources (after
    /// those it has already) and collection errors. On a second resource with the same type
    /// and id: that duplicate and the offset it starts at.
    pub(crate) fn add_to(
        self,
        builder: &mut InventoryBuilder,
    ) -> Result<(), (DuplicateResource, usize)> {
        *builder.interner() = self.interner;
        builder.set_provider(self.provider);
        builder.set_collected_at(self.collected_at);
        builder.set_dangling(self.dangling.unwrap_or_default());
        builder.reserve(self.resources.len());
        builder.note_ref_keys(&self.ref_keys);
        builder.note_dropped_refs(self.dropped_refs);
        let origin = self.origin;
        for (mut resource, offset) in self.resources.into_iter().zip(self.offsets) {
            // Files are relative to the origin's path: reports locate them there.
            if let (Some(origin), Some(source)) = (&origin, resource.source.as_deref_mut()) {
                source.root = origin.root_for(&source.file);
            }
            builder.push_read(resource).map_err(|d| (d, offset))?;
        }
        for error in self.errors {
            builder.push_error(error);
        }
        builder.set_origin(origin);
        Ok(())
    }
}

/// Reads a whole document; its keys go to `interner`.
/// Properties are projected by `projection`, if any.
pub(crate) fn parse(
    bytes: &[u8],
    interner: Interner,
    projection: Option<&Projection>,
) -> PResult<Document> {
    // SIMD validation first; the standard library's only to say where an error is.
    let text = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err(invalid_utf8(bytes, e.valid_up_to(), interner, projection)),
        },
    };
    // A leading byte-order mark is skipped (RFC 8259 allows it; every input drops it).
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let mut r = Reader::new(text, start, 0, interner).with_projection(projection);
    let mut doc = Document::default();
    let mut version_seen = false;
    let mut resources_seen = false;
    let mut errors_seen = false;
    let mut unknown = UnknownFields::default();
    let found = r.peek();
    if found != Some(b'{') {
        return Err(r.syntax_or_format(found, "expected the inventory to be a JSON object"));
    }
    fields(&mut r, |r, key, key_pos| match key {
        "cloudspec_inventory" => {
            once(r, &mut version_seen, key, key_pos)?;
            version(r)
        }
        "provider" => {
            let v = optional_string(r, key)?;
            set_once(r, &mut doc.provider, v.map(String::from), key, key_pos)
        }
        "collected_at" => {
            let at = r.pos;
            let v = optional_string(r, key)?;
            if let Some(text) = &v {
                if !is_timestamp(text) {
                    return Err(r.format(
                        at,
                        format!(
                            "expected \"collected_at\" to be an RFC 3339 timestamp such as \"2026-11-22T07:00:00Z\", found {}",
                            quoted_excerpt(text)
                        ),
                    ));
                }
            }
            set_once(r, &mut doc.collected_at, v.map(String::from), key, key_pos)
        }
        "dangling" => {
            let at = r.pos;
            let v = optional_string(r, key)?;
            let mode = match v.as_deref() {
                None => None,
                Some(word) => Some(Dangling::parse(word).ok_or_else(|| {
                    r.format(
                        at,
                        format!(
                            "expected \"dangling\" to be \"null\" (a missing target's members are null) or \"unknown\" (they are unknown), found {}",
                            quoted_excerpt(word)
                        ),
                    )
                })?),
            };
            set_once(r, &mut doc.dangling, mode, key, key_pos)
        }
        "origin" => {
            let v = origin(r)?;
            set_once(r, &mut doc.origin, v, key, key_pos)
        }
        "resources" => {
            once(r, &mut resources_seen, key, key_pos)?;
            let (resources, offsets) = resources(r)?;
            doc.resources = resources;
            doc.offsets = offsets;
            Ok(())
        }
        "errors" => {
            once(r, &mut errors_seen, key, key_pos)?;
            doc.errors = collection_errors(r)?;
            Ok(())
        }
        _ => skip_unknown(r, &mut unknown, key, key_pos),
    })?;
    if r.peek().is_some() {
        return Err(r.syntax(r.pos, "trailing characters after the inventory object"));
    }
    if !version_seen {
        return Err(r.format(
            0,
            "missing \"cloudspec_inventory\": 1 (is this a cloudspec inventory?)",
        ));
    }
    if !resources_seen {
        return Err(r.format(0, "missing required field \"resources\""));
    }
    doc.ref_keys = r.ref_keys();
    doc.dropped_refs = std::mem::take(&mut r.dropped_refs);
    doc.interner = std::mem::take(&mut r.interner);
    Ok(doc)
}

/// The error for a document whose bytes stop being UTF-8 at `at`: the first error a
/// reader meets when it reads the text up to there followed by a byte no JSON accepts
/// anywhere (a control character). So the error is where the invalid byte is, with the
/// JSON path of the value it is in; or, when the text before it is already wrong, that
/// earlier error.
fn invalid_utf8(
    bytes: &[u8],
    at: usize,
    interner: Interner,
    projection: Option<&Projection>,
) -> Box<ParseError> {
    let mut prefix = bytes.get(..at).unwrap_or_default().to_vec();
    prefix.push(0x01);
    let message = "invalid UTF-8 (an inventory is UTF-8 JSON)";
    match parse(&prefix, interner, projection) {
        Err(mut e) if e.pos >= at => {
            e.pos = at;
            e.kind = LoadErrorKind::Syntax;
            e.message = message.into();
            e
        }
        Err(e) => e,
        // Not reached: no JSON text holds the control character.
        Ok(_) => ParseError::new(at, LoadErrorKind::Syntax, message),
    }
}

impl Reader<'_> {
    /// "expected X, found Y" when what was found is a JSON value of the wrong kind; a
    /// syntax error when it is not JSON at all.
    pub fn syntax_or_format(&self, found: Option<u8>, expected: &str) -> Box<ParseError> {
        match found {
            Some(b'{' | b'[' | b'"' | b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => {
                self.format(self.pos, format!("{expected}, found {}", found_kind(found)))
            }
            Some(_) => self.syntax(self.pos, "expected a JSON value"),
            None => self.syntax(self.pos, "unexpected end of file: expected a JSON value"),
        }
    }
}

/// Reads the members of an object at `pos`, calling `on_field(reader, key, key_offset)`
/// with `pos` at each value; errors inside a value get its key on their path.
pub(crate) fn fields<'a>(
    r: &mut Reader<'a>,
    mut on_field: impl FnMut(&mut Reader<'a>, &str, usize) -> PResult<()>,
) -> PResult<()> {
    r.enter()?;
    if r.peek() == Some(b'}') {
        r.pos += 1;
        r.leave();
        return Ok(());
    }
    loop {
        let found = r.peek();
        if found != Some(b'"') {
            return Err(r.syntax(
                r.pos,
                format!(
                    "expected an object key (a string), found {}",
                    found_kind(found)
                ),
            ));
        }
        let key_pos = r.pos;
        let key = r.string()?;
        r.expect(b':', "after an object key")?;
        r.peek();
        on_field(r, &key, key_pos).map_err(|e| e.in_key(&key))?;
        if !r.separator(b'}', "an object member")? {
            break;
        }
    }
    r.leave();
    Ok(())
}

/// Marks a field as seen, refusing a second occurrence.
fn once(r: &Reader, seen: &mut bool, key: &str, key_pos: usize) -> PResult<()> {
    if *seen {
        return Err(duplicate_field(r, key, key_pos));
    }
    *seen = true;
    Ok(())
}

/// Stores a field's value, refusing a second occurrence.
fn set_once<T>(
    r: &Reader,
    slot: &mut Option<T>,
    value: Option<T>,
    key: &str,
    key_pos: usize,
) -> PResult<()> {
    if slot.is_some() {
        return Err(duplicate_field(r, key, key_pos));
    }
    *slot = value;
    Ok(())
}

/// The names of the unknown fields of an object read with [`fields`], for their
/// duplicate check (a hash set with a random seed: the names are the input's to choose).
/// Made when the first unknown field is met: most objects have none.
#[derive(Default)]
pub(crate) struct UnknownFields(Option<std::collections::HashSet<String>>);

/// Skips the value of an unknown field, refusing a second field of the same name.
pub(crate) fn skip_unknown(
    r: &mut Reader,
    seen: &mut UnknownFields,
    key: &str,
    key_pos: usize,
) -> PResult<()> {
    if !seen
        .0
        .get_or_insert_with(Default::default)
        .insert(key.to_string())
    {
        return Err(duplicate_field(r, key, key_pos));
    }
    r.skip_value()
}

fn duplicate_field(r: &Reader, key: &str, key_pos: usize) -> Box<ParseError> {
    r.format(key_pos, format!("duplicate field {}", quoted_excerpt(key)))
}

/// `"cloudspec_inventory"`, which must be exactly `1`.
fn version(r: &mut Reader) -> PResult<()> {
    let start = r.pos;
    r.skip_value()?;
    let raw = r.bytes.get(start..r.pos).unwrap_or_default();
    if raw == FORMAT_VERSION.as_bytes() {
        return Ok(());
    }
    let lossy = String::from_utf8_lossy(raw);
    let head: String = lossy.chars().take(40).collect();
    let mut text = crate::input::escape_control(&head).into_owned();
    if lossy.len() > head.len() {
        text.push('…');
    }
    Err(r.format(
        start,
        format!("\"cloudspec_inventory\" must be {FORMAT_VERSION}, found {text}"),
    ))
}

/// A required string field that must not be empty (a resource's or a collection error's
/// `type`, a resource's `id`).
fn non_empty_string(r: &mut Reader, key: &str) -> PResult<crate::value::Text> {
    let at = r.pos;
    let text = required_string(r, key)?;
    if text.is_empty() {
        return Err(r.format(
            at,
            format!("expected {} to be a non-empty string", quoted(key)),
        ));
    }
    Ok(text)
}

/// A required string field.
fn required_string<'a>(r: &mut Reader<'a>, key: &str) -> PResult<crate::value::Text> {
    match r.peek() {
        Some(b'"') => r.text(),
        found => {
            Err(r.syntax_or_format(found, &format!("expected {} to be a string", quoted(key))))
        }
    }
}

/// An optional string field: a string, or null for none.
fn optional_string<'a>(r: &mut Reader<'a>, key: &str) -> PResult<Option<crate::value::Text>> {
    match r.peek() {
        Some(b'n') => r.value().map(|_| None),
        Some(b'"') => r.text().map(Some),
        found => Err(r.syntax_or_format(
            found,
            &format!("expected {} to be a string or null", quoted(key)),
        )),
    }
}

/// The fields of one resource object as they are read.
#[derive(Default)]
struct ResourceFields {
    type_name: Option<crate::value::Text>,
    id: Option<crate::value::Text>,
    region: Option<crate::value::Text>,
    account: Option<crate::value::Text>,
    source: Option<Box<Source>>,
    properties: Option<Object>,
}

/// One element of `resources`; `pos` must be at it.
pub(crate) fn resource(r: &mut Reader) -> PResult<Resource> {
    let start = r.pos;
    let found = r.peek();
    if found != Some(b'{') {
        return Err(r.syntax_or_format(found, "expected a resource (an object)"));
    }
    let mut f = ResourceFields::default();
    let mut unknown = UnknownFields::default();
    fields(r, |r, key, key_pos| match key {
        "type" => {
            let at = r.pos;
            let v = non_empty_string(r, key)?;
            if v.contains('/') {
                return Err(r.format(
                    at,
                    format!(
                        "\"type\" must not contain \"/\" (a \"$ref\" is split at its first \"/\"), found {}",
                        quoted_excerpt(&v)
                    ),
                ));
            }
            set_once(r, &mut f.type_name, Some(v), key, key_pos)
        }
        "id" => {
            let v = non_empty_string(r, key)?;
            set_once(r, &mut f.id, Some(v), key, key_pos)
        }
        "region" => {
            let v = optional_string(r, key)?;
            set_once(r, &mut f.region, v, key, key_pos)
        }
        "account" => {
            let v = optional_string(r, key)?;
            set_once(r, &mut f.account, v, key, key_pos)
        }
        "source" => {
            let v = source(r)?;
            set_once(r, &mut f.source, v, key, key_pos)
        }
        "properties" => {
            let v = properties(r)?;
            set_once(r, &mut f.properties, Some(v), key, key_pos)
        }
        _ => skip_unknown(r, &mut unknown, key, key_pos),
    })?;
    let missing =
        |field: &str| r.format(start, format!("missing required field {}", quoted(field)));
    Ok(Resource {
        type_name: f.type_name.ok_or_else(|| missing("type"))?,
        id: f.id.ok_or_else(|| missing("id"))?,
        region: f.region,
        account: f.account,
        source: f.source,
        properties: f.properties.unwrap_or_default(),
    })
}

/// `properties`: an object of property values (null for none).
fn properties(r: &mut Reader) -> PResult<Object> {
    let at = r.pos;
    match r.peek() {
        Some(b'n') => r.value().map(|_| Object::default()),
        Some(b'{') => match r.projected()? {
            Value::Object(object) => Ok(object),
            other => Err(r.format(
                at,
                format!(
                    "expected \"properties\" to be an object, found {}",
                    super::reader::json_kind(&other)
                ),
            )),
        },
        found => Err(r.syntax_or_format(found, "expected \"properties\" to be an object")),
    }
}

/// `origin`: `{"kind": ..., "path": ...}` or null.
fn origin(r: &mut Reader) -> PResult<Option<crate::Origin>> {
    let start = r.pos;
    match r.peek() {
        Some(b'n') => return r.value().map(|_| None),
        Some(b'{') => {}
        found => {
            return Err(r.syntax_or_format(
                found,
                "expected \"origin\" to be an object {\"kind\": ..., \"path\": ...}",
            ))
        }
    }
    let mut kind = None;
    let mut path = None;
    let mut unknown = UnknownFields::default();
    fields(r, |r, key, key_pos| match key {
        "kind" | "path" => {
            let v = String::from(required_string(r, key)?);
            let slot = if key == "kind" { &mut kind } else { &mut path };
            set_once(r, slot, Some(v), key, key_pos)
        }
        _ => skip_unknown(r, &mut unknown, key, key_pos),
    })?;
    let kind = kind.ok_or_else(|| r.format(start, "missing required field \"kind\""))?;
    let path = path.ok_or_else(|| r.format(start, "missing required field \"path\""))?;
    Ok(Some(crate::Origin { kind, path }))
}

/// `source`: `{"file": ..., "line": ...}` or null.
fn source(r: &mut Reader) -> PResult<Option<Box<Source>>> {
    let start = r.pos;
    match r.peek() {
        Some(b'n') => return r.value().map(|_| None),
        Some(b'{') => {}
        found => {
            return Err(r.syntax_or_format(
                found,
                "expected \"source\" to be an object {\"file\": ..., \"line\": ...}",
            ))
        }
    }
    let mut file = None;
    let mut line = None;
    let mut unknown = UnknownFields::default();
    fields(r, |r, key, key_pos| match key {
        "file" => {
            let v = required_string(r, key)?;
            set_once(r, &mut file, Some(String::from(v)), key, key_pos)
        }
        "line" => {
            let v = line_number(r)?;
            set_once(r, &mut line, v, key, key_pos)
        }
        _ => skip_unknown(r, &mut unknown, key, key_pos),
    })?;
    let file = file.ok_or_else(|| r.format(start, "missing required field \"file\""))?;
    Ok(Some(Box::new(Source::new(file, line))))
}

/// `source.line`: a non-negative integer or null.
fn line_number(r: &mut Reader) -> PResult<Option<u64>> {
    let at = r.pos;
    let found = r.peek();
    let value = if matches!(found, Some(b'-' | b'0'..=b'9' | b'n')) {
        r.value()?
    } else {
        Value::Str("".into())
    };
    match value {
        Value::Null => Ok(None),
        Value::Int(n) if n >= 0 => Ok(u64::try_from(n).ok()),
        _ => Err(r.format(
            at,
            format!(
                "expected \"line\" to be a non-negative integer, found {}",
                found_kind(found)
            ),
        )),
    }
}

/// `errors`: what could not be collected.
fn collection_errors(r: &mut Reader) -> PResult<Vec<CollectionError>> {
    match r.peek() {
        Some(b'n') => return r.value().map(|_| Vec::new()),
        Some(b'[') => {}
        found => return Err(r.syntax_or_format(found, "expected \"errors\" to be an array")),
    }
    r.enter()?;
    let mut errors = Vec::new();
    if r.peek() == Some(b']') {
        r.pos += 1;
        r.leave();
        return Ok(errors);
    }
    loop {
        let index = errors.len();
        errors.push(collection_error(r).map_err(|e| e.in_index(index))?);
        if !r.separator(b']', "an array element")? {
            break;
        }
    }
    r.leave();
    Ok(errors)
}

/// One element of `errors`: `{"type": ..., "region": ..., "message": ...}`.
fn collection_error(r: &mut Reader) -> PResult<CollectionError> {
    let start = r.pos;
    let found = r.peek();
    if found != Some(b'{') {
        return Err(r.syntax_or_format(found, "expected a collection error (an object)"));
    }
    let (mut type_name, mut region, mut message) = (None, None, None);
    let mut members: Option<Vec<String>> = None;
    let mut unknown = UnknownFields::default();
    fields(r, |r, key, key_pos| match key {
        "type" => {
            let v = non_empty_string(r, key)?;
            set_once(r, &mut type_name, Some(String::from(v)), key, key_pos)
        }
        "region" => {
            let v = optional_string(r, key)?;
            set_once(r, &mut region, v.map(String::from), key, key_pos)
        }
        "message" => {
            let v = required_string(r, key)?;
            set_once(r, &mut message, Some(String::from(v)), key, key_pos)
        }
        "members" => {
            let v = string_list(r, key)?;
            set_once(r, &mut members, Some(v), key, key_pos)
        }
        _ => skip_unknown(r, &mut unknown, key, key_pos),
    })?;
    let missing =
        |field: &str| r.format(start, format!("missing required field {}", quoted(field)));
    Ok(CollectionError {
        type_name: type_name.ok_or_else(|| missing("type"))?,
        region,
        message: message.ok_or_else(|| missing("message"))?,
        members: members.unwrap_or_default(),
    })
}

/// A list of strings (a collection error's `members`); null is none.
fn string_list(r: &mut Reader, key: &str) -> PResult<Vec<String>> {
    match r.peek() {
        Some(b'n') => return r.value().map(|_| Vec::new()),
        Some(b'[') => {}
        found => {
            return Err(r.syntax_or_format(
                found,
                &format!("expected {} to be an array of strings", quoted(key)),
            ))
        }
    }
    r.enter()?;
    let mut out = Vec::new();
    if r.peek() == Some(b']') {
        r.pos += 1;
        r.leave();
        return Ok(out);
    }
    loop {
        let index = out.len();
        let v = non_empty_string(r, key).map_err(|e| e.in_index(index))?;
        out.push(String::from(v));
        if !r.separator(b']', "an array element")? {
            break;
        }
    }
    r.leave();
    Ok(out)
}

/// `resources`: an array of resources.
fn resources(r: &mut Reader) -> PResult<(Vec<Resource>, Vec<usize>)> {
    let found = r.peek();
    if found != Some(b'[') {
        return Err(r.syntax_or_format(found, "expected \"resources\" to be an array"));
    }
    r.enter()?;
    let (mut resources, mut offsets) = (Vec::new(), Vec::new());
    if r.peek() == Some(b']') {
        r.pos += 1;
    } else {
        resource_run(r, usize::MAX, &mut resources, &mut offsets)?;
    }
    r.leave();
    Ok((resources, offsets))
}

/// How a run of resources ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunEnd {
    /// The closing `]` of `resources` was read.
    Closed,
    /// The next element starts exactly at the stop offset.
    ReachedStop,
    /// An element boundary was passed beyond the stop offset: it was not a boundary.
    Overshot,
}

/// Reads resources from `pos` (an element start, or whitespace before one) until the
/// closing `]` or the element boundary at `stop`. Error paths carry the index local to
/// this run.
pub(crate) fn resource_run(
    r: &mut Reader,
    stop: usize,
    resources: &mut Vec<Resource>,
    offsets: &mut Vec<usize>,
) -> PResult<RunEnd> {
    loop {
        r.peek();
        if r.pos == stop {
            return Ok(RunEnd::ReachedStop);
        }
        if r.pos > stop {
            return Ok(RunEnd::Overshot);
        }
        let start = r.pos;
        let index = resources.len();
        resources.push(resource(r).map_err(|e| e.in_index(index))?);
        offsets.push(start);
        if !r.separator(b']', "a resource")? {
            return Ok(RunEnd::Closed);
        }
    }
}

/// Whether `text` is an RFC 3339 timestamp (`2026-11-22T07:00:00Z`, `2026-11-22T07:00:00.5+01:00`):
/// a real date, a time with seconds, optional fraction, and `Z` or an offset, as time
/// predicates require of the reference time (`shared/design/language.md`).
pub(crate) fn is_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        let digits = b.get(range)?;
        digits.iter().try_fold(0u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let sep = |at: usize, allowed: &[u8]| b.get(at).is_some_and(|c| allowed.contains(c));
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    if !(sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt") && sep(13, b":") && sep(16, b":")) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let digits = b.get(i + 1..).unwrap_or_default();
        let n = digits.iter().take_while(|d| d.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len()
                && sep(i + 3, b":")
                && num(i + 1..i + 3).is_some_and(|h| h <= 23)
                && num(i + 4..i + 6).is_some_and(|m| m <= 59)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_timestamp;

    #[test]
    fn timestamps_are_rfc_3339_with_an_offset() {
        for ok in [
            "2026-11-22T07:00:00Z",
            "2026-11-22t07:00:00z",
            "2026-11-22T07:00:00.123456789Z",
            "2026-11-22T08:00:00+01:00",
            "2026-11-22T02:30:00-04:30",
            "2024-02-29T23:59:60Z",
            "2000-02-29T00:00:00Z",
        ] {
            assert!(is_timestamp(ok), "{ok}");
        }
        for bad in [
            "",
            "yesterday",
            "2026-11-22",
            "2026-11-22T07:00Z",
            "2026-11-22T07:00:00",
            "2026-11-22 07:00:00Z",
            "2026-11-22T24:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-11-22T07:60:00Z",
            "2026-11-22T07:00:61Z",
            "2026-11-22T07:00:00.Z",
            "2026-11-22T07:00:00+01",
            "2026-11-22T07:00:00+0100",
            "2026-11-22T07:00:00+24:00",
            "2026-11-22T07:00:00Z ",
            "2026-11-22T07:00:00Zé",
            "２０２６-11-22T07:00:00Z",
            "+2026-11-22T07:00:00Z",
        ] {
            assert!(!is_timestamp(bad), "{bad}");
        }
    }
}
