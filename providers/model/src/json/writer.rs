//! The deterministic JSON form of an inventory: pretty-printed with two-space indents,
//! object keys sorted, associations and unknown values in their `$ref` / `$unknown` form.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::intern::Interner;
use crate::inventory::{CollectionError, Dangling, Resource};
use crate::value::{Object, Value};

/// The text goes to the output in writes of this many bytes, each starting at a multiple
/// of it in the document: a file written so sits in the page cache in 2 MiB folios (Linux
/// 6.x on ext4 or XFS), which the next load maps with huge pages (`json/mapped.rs`); in
/// writes of 64 KiB, as before, it sat in small folios mapped 4 KiB at a time.
const CHUNK: usize = 2 << 20;

/// Streams an inventory document: a header, resources one by one, then the errors.
///
/// The writer does not reorder resources: write them sorted by type then id (as
/// [`crate::Inventory::to_json_string`] does) for the deterministic form. Keys of every
/// object are written sorted.
pub struct InventoryWriter<W: Write> {
    out: W,
    buf: String,
    resources: usize,
    /// Bytes written to `out` so far.
    written: usize,
}

/// The top-level fields written before `resources`.
#[derive(Debug, Clone, Copy, Default)]
pub struct InventoryHeader<'a> {
    pub provider: Option<&'a str>,
    pub collected_at: Option<&'a str>,
    /// Written only when not the default (`"dangling": "unknown"`).
    pub dangling: Dangling,
    pub origin: Option<&'a crate::Origin>,
}

impl<W: Write> InventoryWriter<W> {
    /// Starts a document (up to the opening `[` of `resources`).
    pub fn new(out: W, provider: Option<&str>, collected_at: Option<&str>) -> io::Result<Self> {
        Self::with_header(
            out,
            InventoryHeader {
                provider,
                collected_at,
                dangling: Dangling::default(),
                origin: None,
            },
        )
    }

    /// Starts a document with every header field of `header`.
    pub fn with_header(out: W, header: InventoryHeader<'_>) -> io::Result<Self> {
        let InventoryHeader {
            provider,
            collected_at,
            dangling,
            origin,
        } = header;
        let dangling = (dangling != Dangling::default()).then(|| dangling.as_str());
        let mut buf = String::from("{\n  \"cloudspec_inventory\": 1,\n");
        for (key, value) in [
            ("provider", provider),
            ("collected_at", collected_at),
            ("dangling", dangling),
        ] {
            if let Some(value) = value {
                let _ = write!(buf, "  \"{key}\": ");
                push_str(&mut buf, value);
                buf.push_str(",\n");
            }
        }
        if let Some(origin) = origin {
            buf.push_str("  \"origin\": {\n    \"kind\": ");
            push_str(&mut buf, &origin.kind);
            buf.push_str(",\n    \"path\": ");
            push_str(&mut buf, &origin.path);
            buf.push_str("\n  },\n");
        }
        buf.push_str("  \"resources\": [");
        Ok(InventoryWriter {
            out,
            buf,
            resources: 0,
            written: 0,
        })
    }

    /// Writes one resource; its keys are symbols of `interner`.
    pub fn resource(&mut self, resource: &Resource, interner: &Interner) -> io::Result<()> {
        self.buf
            .push_str(if self.resources == 0 { "\n" } else { ",\n" });
        self.resources += 1;
        Pretty {
            out: &mut self.buf,
            interner,
        }
        .resource(resource);
        // A resource bigger than a chunk leaves several.
        while self.buf.len() >= CHUNK {
            // Up to the next multiple of CHUNK. A write never splits a character: it goes
            // on to the character's end (at most 3 bytes more), and the next write ends at
            // the multiple again.
            let mut take = CHUNK - self.written % CHUNK;
            while !self.buf.is_char_boundary(take) {
                take += 1;
            }
            self.out
                .write_all(self.buf.as_bytes().get(..take).unwrap_or_default())?;
            self.buf.drain(..take);
            self.written += take;
        }
        Ok(())
    }

    /// Ends the document with `errors` (sorted) and returns the output.
    pub fn finish(mut self, errors: &[CollectionError]) -> io::Result<W> {
        self.buf
            .push_str(if self.resources == 0 { "]" } else { "\n  ]" });
        if !errors.is_empty() {
            let mut sorted: Vec<&CollectionError> = errors.iter().collect();
            sorted.sort_by(|a, b| {
                (&a.type_name, &a.region, &a.members, &a.message).cmp(&(
                    &b.type_name,
                    &b.region,
                    &b.members,
                    &b.message,
                ))
            });
            self.buf.push_str(",\n  \"errors\": [");
            for (i, error) in sorted.into_iter().enumerate() {
                self.buf.push_str(if i == 0 { "\n" } else { ",\n" });
                collection_error(&mut self.buf, error);
            }
            self.buf.push_str("\n  ]");
        }
        self.buf.push_str("\n}\n");
        self.out.write_all(self.buf.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// `{"type": ..., "region": ..., "message": ...}` at the indentation of an array element.
fn collection_error(out: &mut String, error: &CollectionError) {
    out.push_str("    {\n      \"type\": ");
    push_str(out, &error.type_name);
    if let Some(region) = &error.region {
        out.push_str(",\n      \"region\": ");
        push_str(out, region);
    }
    if !error.members.is_empty() {
        out.push_str(",\n      \"members\": [");
        for (i, member) in error.members.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_str(out, member);
        }
        out.push(']');
    }
    out.push_str(",\n      \"message\": ");
    push_str(out, &error.message);
    out.push_str("\n    }");
}

/// Writes values at a given depth, two spaces per level.
struct Pretty<'a> {
    out: &'a mut String,
    interner: &'a Interner,
}

impl Pretty<'_> {
    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("  ");
        }
    }

    /// Starts member `key` at `level`, after a separator when it is not the first.
    fn member(&mut self, first: bool, level: usize, key: &str) {
        self.out.push_str(if first { "\n" } else { ",\n" });
        self.indent(level);
        push_str(self.out, key);
        self.out.push_str(": ");
    }

    /// A resource as an element of `resources` (level 2).
    fn resource(&mut self, r: &Resource) {
        self.indent(2);
        self.out.push('{');
        self.member(true, 3, "type");
        push_str(self.out, &r.type_name);
        self.member(false, 3, "id");
        push_str(self.out, &r.id);
        for (key, value) in [("region", &r.region), ("account", &r.account)] {
            if let Some(value) = value {
                self.member(false, 3, key);
                push_str(self.out, value);
            }
        }
        if let Some(source) = &r.source {
            self.member(false, 3, "source");
            self.out.push('{');
            self.member(true, 4, "file");
            push_str(self.out, &source.file);
            if let Some(line) = source.line {
                self.member(false, 4, "line");
                let _ = write!(self.out, "{line}");
            }
            self.out.push('\n');
            self.indent(3);
            self.out.push('}');
        }
        self.member(false, 3, "properties");
        self.object(&r.properties, 3);
        self.out.push('\n');
        self.indent(2);
        self.out.push('}');
    }

    fn value(&mut self, value: &Value, level: usize) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => {
                let _ = write!(self.out, "{i}");
            }
            // Debug keeps a `.0` or an exponent, so a decimal reads back as a decimal.
            Value::Float(f) if f.is_finite() => {
                let _ = write!(self.out, "{f:?}");
            }
            Value::Float(_) => self.out.push_str("null"),
            Value::Str(s) => push_str(self.out, s),
            Value::List(items) => self.list(items, level),
            Value::Object(object) => self.object(object, level),
            Value::Ref(r) => {
                self.out.push_str("{ \"$ref\": ");
                push_str(self.out, &r.raw);
                self.out.push_str(" }");
            }
            Value::Unknown(u) => {
                self.out.push_str("{ \"$unknown\": ");
                push_str(self.out, &u.reason);
                self.out.push_str(if u.not_null {
                    ", \"not_null\": true }"
                } else {
                    " }"
                });
            }
        }
    }

    fn list(&mut self, items: &[Value], level: usize) {
        if items.is_empty() {
            self.out.push_str("[]");
            return;
        }
        self.out.push('[');
        for (i, item) in items.iter().enumerate() {
            self.out.push_str(if i == 0 { "\n" } else { ",\n" });
            self.indent(level + 1);
            self.value(item, level + 1);
        }
        self.out.push('\n');
        self.indent(level);
        self.out.push(']');
    }

    /// An object with its keys sorted (a stable sort: duplicate keys keep their order).
    fn object(&mut self, object: &Object, level: usize) {
        if object.is_empty() {
            self.out.push_str("{}");
            return;
        }
        let interner = self.interner;
        let mut entries: Vec<(&str, &Value)> = object
            .iter()
            .map(|(k, v)| (interner.resolve(*k), v))
            .collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        self.out.push('{');
        for (i, (key, value)) in entries.into_iter().enumerate() {
            self.member(i == 0, level + 1, key);
            self.value(value, level + 1);
        }
        self.out.push('\n');
        self.indent(level);
        self.out.push('}');
    }
}

/// `s` as a JSON string literal.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_str(&mut out, s);
    out
}

/// Appends `s` as a JSON string literal: `"`, `\` and control characters escaped.
pub(crate) fn push_str(out: &mut String, s: &str) {
    out.push('"');
    let mut plain_from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(s.get(plain_from..i).unwrap_or_default());
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        plain_from = i + 1;
    }
    out.push_str(s.get(plain_from..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::InventoryBuilder;

    /// Records where each write to it started and how long it was.
    #[derive(Default)]
    struct Writes {
        bytes: Vec<u8>,
        writes: Vec<(usize, usize)>,
    }

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.writes.push((self.bytes.len(), buf.len()));
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The writes of the finished inventory's JSON form, whose bytes it checks.
    fn written(builder: InventoryBuilder) -> Writes {
        let inventory = builder.finish();
        let writes = match inventory.write_json(Writes::default()) {
            Ok(writes) => writes,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(writes.bytes, inventory.to_json_string().into_bytes());
        writes
    }

    #[test]
    fn big_documents_are_written_in_whole_chunks_at_chunk_bounds() {
        let mut builder = InventoryBuilder::new();
        for i in 0..60_000 {
            // Two-byte characters in every id: some chunk bounds fall inside one.
            let resource = Resource {
                type_name: "aws:ec2:volume".into(),
                id: format!("vol-é{i:08}-ü").into(),
                region: Some("eu-west-1".into()),
                account: None,
                source: None,
                properties: Object::default(),
            };
            if let Err(e) = builder.push(resource) {
                panic!("{e}");
            }
        }
        let writes = written(builder);
        assert!(
            writes.bytes.len() > 3 * CHUNK,
            "{} bytes",
            writes.bytes.len()
        );
        // Every write but the last is a chunk, give or take the end of a character that
        // straddled a multiple of CHUNK, and ends at one or just after it.
        let (last, whole) = writes.writes.split_last().unwrap_or((&(0, 0), &[]));
        assert!(last.1 > 0);
        assert!(whole.len() >= 3, "{:?}", writes.writes);
        for &(at, len) in whole {
            let end = at + len;
            assert!(end % CHUNK <= 3, "a write ends at {end}");
            assert!(len.abs_diff(CHUNK) <= 3, "{len} bytes at {at}");
            assert!(std::str::from_utf8(&writes.bytes[at..end]).is_ok());
        }
    }

    #[test]
    fn a_resource_bigger_than_a_chunk_is_written_in_chunks_too() {
        let mut builder = InventoryBuilder::new();
        let big = "é".repeat(3 * CHUNK / 2);
        for id in ["a", "b", "c"] {
            let key = builder.interner().intern("text");
            let resource = Resource {
                type_name: "t:t:t".into(),
                id: id.into(),
                region: None,
                account: None,
                source: None,
                properties: Object::new(vec![(key, Value::Str(big.as_str().into()))]),
            };
            if let Err(e) = builder.push(resource) {
                panic!("{e}");
            }
        }
        let writes = written(builder);
        // No write is much more than a chunk: the text is not held whole.
        assert!(writes.writes.len() >= 9, "{:?}", writes.writes);
        for &(at, len) in &writes.writes {
            assert!(len <= CHUNK + 3, "{len} bytes at {at}");
        }
    }
}
