//! Property values: the JSON data model plus association references and unknown values.

pub use compact_str::CompactString as Text;

use crate::intern::Sym;
use crate::inventory::ResourceIdx;

/// One property value of a resource.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A JSON number without fraction or exponent that fits in 64 bits.
    Int(i64),
    /// Any other JSON number.
    Float(f64),
    /// A string; up to 24 bytes are stored inline, without an allocation.
    Str(Text),
    List(Box<[Value]>),
    Object(Object),
    /// An association: `{"$ref": "<type>/<id>"}`.
    Ref(Box<Reference>),
    /// A value nobody knows yet: `{"$unknown": "reason"}`.
    Unknown(Box<Unknown>),
}

/// A nested property: keys in the order they were read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    pub entries: Box<[(Sym, Value)]>,
}

impl Object {
    pub fn new(entries: Vec<(Sym, Value)>) -> Self {
        Object {
            entries: entries.into_boxed_slice(),
        }
    }

    /// The value under `key`, if present (a linear scan: objects are small).
    pub fn get(&self, key: Sym) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &(Sym, Value)> {
        self.entries.iter()
    }
}

/// The target of an association.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// `"<type>/<id>"` as written.
    pub raw: Box<str>,
    /// The resource it points to, once the inventory is finished; `None` when dangling.
    pub target: Option<ResourceIdx>,
}

impl Reference {
    pub fn new(raw: impl Into<Box<str>>) -> Self {
        Reference {
            raw: raw.into(),
            target: None,
        }
    }

    /// The target type: the text before the first `/`.
    pub fn target_type(&self) -> &str {
        self.parts().0
    }

    /// The target id: the text after the first `/` (ARNs keep their slashes).
    pub fn target_id(&self) -> &str {
        self.parts().1
    }

    /// The target type and id: the text before and after the first `/` (all of it and
    /// nothing without one).
    pub fn parts(&self) -> (&str, &str) {
        split_reference(&self.raw)
    }
}

/// `"<type>/<id>"` split at its first `/`.
pub(crate) fn split_reference(raw: &str) -> (&str, &str) {
    match memchr::memchr(b'/', raw.as_bytes()) {
        Some(at) => (
            raw.get(..at).unwrap_or_default(),
            raw.get(at + 1..).unwrap_or_default(),
        ),
        None => (raw, ""),
    }
}

/// A value not known yet, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown {
    pub reason: Box<str>,
    /// The value is known to be present (a resource id computed on apply).
    pub not_null: bool,
}

impl Value {
    /// The name of this value's type, in the words messages use.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "decimal",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Object(_) => "nested property",
            Value::Ref(_) => "association",
            Value::Unknown(_) => "unknown value",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Numbers as f64 (integers converted).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

#[cfg(test)]
mod size {
    /// A value is three words: inline strings must not make every value bigger.
    #[test]
    fn value_is_three_words() {
        assert_eq!(std::mem::size_of::<super::Value>(), 24);
    }
}
