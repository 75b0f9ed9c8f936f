//! The deterministic JSON form of an inventory: pretty-printed with two-space indents,
//! object keys sorted, associations and unknown values in their `$ref` / `$unknown` form.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::intern::Interner;
use crate::inventory::{CollectionError, Dangling, Resource};
use crate::value::{Object, Value};

/// Flush the text buffer to the output once it holds this many bytes.
const FLUSH_AT: usize = 1 << 16;

/// Streams an inventory document: a header, resources one by one, then the errors.
///
/// The writer does not reorder resources: write them sorted by type then id (as
/// [`crate::Inventory::to_json_string`] does) for the deterministic form. Keys of every
/// object are written sorted.
pub struct InventoryWriter<W: Write> {
    out: W,
    buf: String,
    resources: usize,
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
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(self.buf.as_bytes())?;
            self.buf.clear();
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
