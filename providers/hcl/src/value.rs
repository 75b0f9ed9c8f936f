//! cty values. Every value has a type; null and unknown values are typed.
//!
//! - `PartialEq` is strict (cty's `RawEquals`): same type and same content; numbers compare
//!   numerically (they are normalized); sets compare element-wise in canonical order.
//! - [`Value::equals`] is cty's `==` (`Equals`): unknown-aware, nulls of any type equal.
//! - Sets are kept deduplicated and in canonical order ([`set_order`]): strings by byte
//!   order (as Go compares strings), numbers numerically, `false < true`; values of other
//!   types (lists, objects...) element-wise with the same rules, shorter first on a common
//!   prefix. Mixed types order by type (see [`set_order`]); nulls come after known
//!   values and unknowns last.
//! - Strings built through [`Value::string`] / `From` are NFC-normalized, as
//!   `cty.StringVal` does.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

use crate::number::Number;
use crate::types::Type;

/// A value. Invariants: a `List`/`Set`/`Map` carries its element type and every element
/// conforms to it; a `Set` holds no duplicates and is kept in canonical order (see
/// [`set_order`]); object attributes and map keys are sorted (BTreeMap).
#[derive(Clone, Debug)]
pub enum Value {
    Null(Type),
    Unknown(Type),
    Bool(bool),
    Number(Number),
    String(String),
    List(Type, Vec<Value>),
    Set(Type, Vec<Value>),
    Map(Type, BTreeMap<String, Value>),
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>),
}

/// NFC-normalizes a string (cheap when it already is).
pub fn nfc(s: String) -> String {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => s,
        _ => s.nfc().collect(),
    }
}

impl Value {
    pub fn ty(&self) -> Type {
        match self {
            Value::Null(t) | Value::Unknown(t) => t.clone(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List(t, _) => Type::list(t.clone()),
            Value::Set(t, _) => Type::set(t.clone()),
            Value::Map(t, _) => Type::map(t.clone()),
            Value::Tuple(vs) => Type::Tuple(vs.iter().map(Value::ty).collect()),
            Value::Object(attrs) => {
                Type::Object(attrs.iter().map(|(k, v)| (k.clone(), v.ty())).collect())
            }
        }
    }
    /// A string value (NFC-normalized).
    pub fn string(s: impl Into<String>) -> Value {
        Value::String(nfc(s.into()))
    }
    pub fn number(n: impl Into<Number>) -> Value {
        Value::Number(n.into())
    }
    pub fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    pub fn null(t: Type) -> Value {
        Value::Null(t)
    }
    pub fn unknown(t: Type) -> Value {
        Value::Unknown(t)
    }
    /// cty's `DynamicVal`: an unknown value of unknown type.
    pub fn dynamic() -> Value {
        Value::Unknown(Type::Dynamic)
    }
    /// A list with element type `elem_ty` (callers ensure the elements conform).
    pub fn list(elem_ty: Type, elems: Vec<Value>) -> Value {
        Value::List(elem_ty, elems)
    }
    /// A set: duplicates removed, elements in canonical order.
    pub fn set(elem_ty: Type, elems: Vec<Value>) -> Value {
        let mut elems = elems;
        elems.sort_by(set_order);
        elems.dedup();
        Value::Set(elem_ty, elems)
    }
    pub fn map(elem_ty: Type, elems: BTreeMap<String, Value>) -> Value {
        Value::Map(elem_ty, elems)
    }
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        Value::Object(attrs)
    }
    /// An object from `(name, value)` pairs.
    pub fn object_from<K: Into<String>>(attrs: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Object(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
    pub fn tuple(elems: Vec<Value>) -> Value {
        Value::Tuple(elems)
    }
    pub fn empty_object() -> Value {
        Value::Object(BTreeMap::new())
    }
    pub fn empty_tuple() -> Value {
        Value::Tuple(Vec::new())
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }
    pub fn is_unknown(&self) -> bool {
        matches!(self, Value::Unknown(_))
    }
    /// cty's `IsKnown` (top level only).
    pub fn is_known(&self) -> bool {
        !self.is_unknown()
    }
    /// False when this value or any value nested in it is unknown.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(_) => false,
            Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => {
                vs.iter().all(Value::is_wholly_known)
            }
            Value::Map(_, m) | Value::Object(m) => m.values().all(Value::is_wholly_known),
            _ => true,
        }
    }
    /// cty's `HasWhollyKnownType`: no unknown value of dynamic type (or of a type with
    /// dynamic parts) anywhere inside.
    pub fn has_wholly_known_type(&self) -> bool {
        match self {
            Value::Null(_) => true,
            Value::Unknown(t) => !t.has_dynamic_types(),
            Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => {
                vs.iter().all(Value::has_wholly_known_type)
            }
            Value::Map(_, m) | Value::Object(m) => m.values().all(Value::has_wholly_known_type),
            _ => true,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// Number of elements (attributes for objects) of a known, non-null collection or
    /// structural value; `None` otherwise.
    pub fn len(&self) -> Option<usize> {
        match self {
            Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => Some(vs.len()),
            Value::Map(_, m) | Value::Object(m) => Some(m.len()),
            _ => None,
        }
    }
    /// True for a known, non-null collection or structural value without elements.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Key/value pairs of a known, non-null collection or structural value: index numbers
    /// for lists and tuples, the element itself for sets, string keys for maps and objects.
    pub fn elements(&self) -> Option<Vec<(Value, Value)>> {
        match self {
            Value::List(_, vs) | Value::Tuple(vs) => Some(
                vs.iter()
                    .enumerate()
                    .map(|(i, v)| (Value::Number(Number::from(i)), v.clone()))
                    .collect(),
            ),
            Value::Set(_, vs) => Some(vs.iter().map(|v| (v.clone(), v.clone())).collect()),
            Value::Map(_, m) | Value::Object(m) => Some(
                m.iter()
                    .map(|(k, v)| (Value::String(k.clone()), v.clone()))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// cty's `Equals` (the `==` operator): a `Bool`, or an unknown bool when the answer
    /// depends on unknown values. Values of different types are never equal (a list is
    /// not equal to a tuple with the same elements); nulls of any type are equal.
    pub fn equals(&self, other: &Value) -> Value {
        match equals_inner(self, other, 0) {
            Some(b) => Value::Bool(b),
            None => Value::Unknown(Type::Bool),
        }
    }
}

/// Bound on the nesting depth `equals` and `set_order` descend into.
const MAX_DEPTH: usize = 1000;

/// `Some(bool)` when known, `None` when unknown.
fn equals_inner(a: &Value, b: &Value, depth: usize) -> Option<bool> {
    if depth > MAX_DEPTH {
        return Some(a == b);
    }
    let (ta, tb) = (a.ty(), b.ty());
    match (a.is_known(), b.is_known()) {
        (false, false) => return None,
        (true, false) | (false, true) => {
            let (known, unknown_ty, known_ty) = if a.is_known() {
                (a, &tb, &ta)
            } else {
                (b, &ta, &tb)
            };
            if known.is_null() || unknown_ty.has_dynamic_types() {
                return None;
            }
            if known_ty != unknown_ty {
                return Some(false);
            }
            return None;
        }
        (true, true) => {}
    }
    match (a.is_null(), b.is_null()) {
        (true, true) => return Some(true),
        (true, false) | (false, true) => return Some(false),
        _ => {}
    }
    if !a.has_wholly_known_type() || !b.has_wholly_known_type() {
        if !ta.conforms_to(&tb) && !tb.conforms_to(&ta) {
            return Some(false);
        }
        return None;
    }
    if ta != tb {
        return Some(false);
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Some(x == y),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::String(x), Value::String(y)) => Some(x == y),
        (Value::List(_, xs), Value::List(_, ys)) | (Value::Tuple(xs), Value::Tuple(ys)) => {
            if xs.len() != ys.len() {
                return Some(false);
            }
            for (x, y) in xs.iter().zip(ys) {
                match equals_inner(x, y, depth + 1) {
                    None => return None,
                    Some(false) => return Some(false),
                    Some(true) => {}
                }
            }
            Some(true)
        }
        (Value::Object(xs), Value::Object(ys)) | (Value::Map(_, xs), Value::Map(_, ys)) => {
            if xs.len() != ys.len() {
                return Some(false);
            }
            for (k, x) in xs {
                let Some(y) = ys.get(k) else {
                    return Some(false);
                };
                match equals_inner(x, y, depth + 1) {
                    None => return None,
                    Some(false) => return Some(false),
                    Some(true) => {}
                }
            }
            Some(true)
        }
        (Value::Set(_, xs), Value::Set(_, ys)) => {
            // Equal when all elements are known and each set holds the other's elements.
            if !xs.iter().chain(ys).all(Value::is_wholly_known) {
                return None;
            }
            Some(xs == ys)
        }
        _ => Some(false),
    }
}

fn type_rank(v: &Value) -> u8 {
    match v {
        Value::Bool(_) => 0,
        Value::Number(_) => 1,
        Value::String(_) => 2,
        Value::List(..) => 3,
        Value::Set(..) => 4,
        Value::Tuple(_) => 5,
        Value::Map(..) => 6,
        Value::Object(_) => 7,
        Value::Null(_) => 8,
        Value::Unknown(_) => 9,
    }
}

/// The canonical order of set elements: known values first (booleans `false < true`,
/// numbers numerically, strings by bytes, lists/sets/tuples element-wise then by length,
/// maps/objects by their sorted (key, value) pairs), then nulls, then unknowns; values of
/// different kinds order by kind (bool, number, string, list, set, tuple, map, object) and
/// values of the same kind but different types by type. It is a total order consistent
/// with strict equality.
pub fn set_order(a: &Value, b: &Value) -> Ordering {
    set_order_depth(a, b, 0)
}

fn set_order_depth(a: &Value, b: &Value, depth: usize) -> Ordering {
    let (ra, rb) = (type_rank(a), type_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    if depth > MAX_DEPTH {
        return Ordering::Equal;
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Null(x), Value::Null(y)) | (Value::Unknown(x), Value::Unknown(y)) => x.cmp(y),
        (Value::List(tx, xs), Value::List(ty, ys)) | (Value::Set(tx, xs), Value::Set(ty, ys)) => {
            tx.cmp(ty).then_with(|| seq_order(xs, ys, depth))
        }
        (Value::Tuple(xs), Value::Tuple(ys)) => seq_order(xs, ys, depth),
        (Value::Map(tx, xs), Value::Map(ty, ys)) => {
            tx.cmp(ty).then_with(|| map_order(xs, ys, depth))
        }
        (Value::Object(xs), Value::Object(ys)) => map_order(xs, ys, depth),
        _ => Ordering::Equal,
    }
}

fn seq_order(xs: &[Value], ys: &[Value], depth: usize) -> Ordering {
    for (x, y) in xs.iter().zip(ys) {
        let o = set_order_depth(x, y, depth + 1);
        if o != Ordering::Equal {
            return o;
        }
    }
    xs.len().cmp(&ys.len())
}

fn map_order(xs: &BTreeMap<String, Value>, ys: &BTreeMap<String, Value>, depth: usize) -> Ordering {
    for ((kx, x), (ky, y)) in xs.iter().zip(ys) {
        let o = kx
            .as_bytes()
            .cmp(ky.as_bytes())
            .then_with(|| set_order_depth(x, y, depth + 1));
        if o != Ordering::Equal {
            return o;
        }
    }
    xs.len().cmp(&ys.len())
}

/// Strict equality (cty's `RawEquals`).
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null(x), Value::Null(y)) | (Value::Unknown(x), Value::Unknown(y)) => x == y,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => x == y,
            (Value::String(x), Value::String(y)) => x == y,
            (Value::List(tx, xs), Value::List(ty, ys))
            | (Value::Set(tx, xs), Value::Set(ty, ys)) => tx == ty && xs == ys,
            (Value::Tuple(xs), Value::Tuple(ys)) => xs == ys,
            (Value::Map(tx, xs), Value::Map(ty, ys)) => tx == ty && xs == ys,
            (Value::Object(xs), Value::Object(ys)) => xs == ys,
            _ => false,
        }
    }
}
impl Eq for Value {}

/// Consistent with strict equality.
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        type_rank(self).hash(state);
        match self {
            Value::Null(t) | Value::Unknown(t) => t.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Number(n) => n.hash(state),
            Value::String(s) => s.hash(state),
            Value::List(t, vs) | Value::Set(t, vs) => {
                t.hash(state);
                vs.hash(state);
            }
            Value::Tuple(vs) => vs.hash(state),
            Value::Map(t, m) => {
                t.hash(state);
                m.hash(state);
            }
            Value::Object(m) => m.hash(state),
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::string(s)
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::string(s)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::Number(Number::from_i64(n.into()))
    }
}
impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(Number::from_u64(n))
    }
}
impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Number(Number::from(n))
    }
}
impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Value {
        Value::Number(Number::parse(s).unwrap_or_else(Number::zero))
    }

    #[test]
    fn strict_equality() {
        assert_eq!(num("1.0"), num("1"));
        assert_ne!(Value::from(1), Value::from("1"));
        assert_ne!(
            Value::list(Type::Number, vec![num("1")]),
            Value::tuple(vec![num("1")])
        );
        assert_ne!(Value::Null(Type::String), Value::Null(Type::Number));
        assert_eq!(Value::Unknown(Type::String), Value::Unknown(Type::String));
        assert_ne!(
            Value::list(Type::String, vec![]),
            Value::list(Type::Number, vec![])
        );
    }

    #[test]
    fn cty_equals() {
        let t = Value::Bool(true);
        let f = Value::Bool(false);
        let u = Value::Unknown(Type::Bool);
        assert_eq!(num("1").equals(&num("1.00")), t);
        assert_eq!(Value::from(1).equals(&Value::from("1")), f);
        assert_eq!(
            Value::list(Type::Number, vec![num("1")]).equals(&Value::tuple(vec![num("1")])),
            f
        );
        assert_eq!(
            Value::Null(Type::String).equals(&Value::Null(Type::Number)),
            t
        );
        assert_eq!(Value::Null(Type::String).equals(&Value::from("a")), f);
        assert_eq!(Value::Unknown(Type::String).equals(&Value::from("a")), u);
        assert_eq!(Value::Unknown(Type::String).equals(&Value::from(1)), f);
        assert_eq!(Value::dynamic().equals(&Value::from(1)), u);
        assert_eq!(
            Value::Unknown(Type::String).equals(&Value::Null(Type::Number)),
            u
        );
        assert_eq!(Value::dynamic().equals(&Value::dynamic()), u);
        let obj = |a: Value| Value::object_from([("a", a), ("b", Value::from("x"))]);
        assert_eq!(obj(num("1")).equals(&obj(num("1"))), t);
        assert_eq!(obj(num("1")).equals(&obj(num("2"))), f);
        assert_eq!(obj(Value::Unknown(Type::Number)).equals(&obj(num("2"))), u);
        // A difference found before an unknown decides.
        let l1 = Value::tuple(vec![num("1"), Value::Unknown(Type::Number)]);
        let l2 = Value::tuple(vec![num("2"), num("3")]);
        assert_eq!(l1.equals(&l2), f);
        // Differing lengths are unequal even with unknowns.
        let l3 = Value::list(Type::Number, vec![Value::Unknown(Type::Number)]);
        let l4 = Value::list(Type::Number, vec![num("1"), num("2")]);
        assert_eq!(l3.equals(&l4), f);
        // Nested dynamic unknown: unknown unless the types can never conform.
        let d1 = Value::tuple(vec![Value::dynamic()]);
        assert_eq!(d1.equals(&Value::tuple(vec![num("1")])), u);
        assert_eq!(d1.equals(&Value::tuple(vec![num("1"), num("2")])), f);
        let s1 = Value::set(Type::Number, vec![num("1"), num("2")]);
        let s2 = Value::set(Type::Number, vec![num("2"), num("1")]);
        assert_eq!(s1.equals(&s2), t);
        let s3 = Value::set(Type::Number, vec![num("1"), Value::Unknown(Type::Number)]);
        assert_eq!(s1.equals(&s3), u);
        let m1 = Value::map(Type::Number, [("a".to_string(), num("1"))].into());
        let m2 = Value::map(Type::Number, [("b".to_string(), num("1"))].into());
        assert_eq!(m1.equals(&m2), f);
        assert_eq!(m1.equals(&m1.clone()), t);
    }

    #[test]
    fn set_canonical_order_and_dedup() {
        let s = Value::set(
            Type::String,
            vec!["b".into(), "a".into(), "B".into(), "b".into()],
        );
        assert_eq!(
            s,
            Value::Set(Type::String, vec!["B".into(), "a".into(), "b".into()])
        );
        let n = Value::set(
            Type::Number,
            vec![num("10"), num("9"), num("1e1"), num("-1")],
        );
        assert_eq!(
            n,
            Value::Set(Type::Number, vec![num("-1"), num("9"), num("10")])
        );
        let b = Value::set(Type::Bool, vec![true.into(), false.into(), true.into()]);
        assert_eq!(b, Value::Set(Type::Bool, vec![false.into(), true.into()]));
        let u = Value::set(
            Type::String,
            vec![
                Value::Unknown(Type::String),
                Value::Null(Type::String),
                "z".into(),
            ],
        );
        assert_eq!(
            u,
            Value::Set(
                Type::String,
                vec![
                    "z".into(),
                    Value::Null(Type::String),
                    Value::Unknown(Type::String)
                ]
            )
        );
        let lists = Value::set(
            Type::list(Type::Number),
            vec![
                Value::list(Type::Number, vec![num("1"), num("2")]),
                Value::list(Type::Number, vec![num("1")]),
                Value::list(Type::Number, vec![num("0"), num("5")]),
            ],
        );
        let Value::Set(_, elems) = &lists else {
            panic!("not a set")
        };
        assert_eq!(elems.len(), 3);
        assert_eq!(
            elems[0],
            Value::list(Type::Number, vec![num("0"), num("5")])
        );
        assert_eq!(elems[1], Value::list(Type::Number, vec![num("1")]));
    }

    #[test]
    fn nfc_on_construction() {
        let decomposed = "e\u{301}";
        assert_eq!(Value::from(decomposed).as_str(), Some("\u{e9}"));
        assert_eq!(Value::string("plain").as_str(), Some("plain"));
    }

    #[test]
    fn accessors() {
        let l = Value::list(Type::String, vec!["a".into(), "b".into()]);
        assert_eq!(l.len(), Some(2));
        assert_eq!(
            l.elements(),
            Some(vec![
                (Value::from(0), Value::from("a")),
                (Value::from(1), Value::from("b"))
            ])
        );
        let o = Value::object_from([("k", Value::from(true))]);
        assert_eq!(
            o.elements(),
            Some(vec![(Value::from("k"), Value::from(true))])
        );
        assert_eq!(Value::from("x").len(), None);
        assert_eq!(Value::Null(Type::list(Type::String)).len(), None);
        assert_eq!(Value::from(true).as_bool(), Some(true));
        assert_eq!(Value::from(3).as_number().and_then(Number::to_i64), Some(3));
        assert_eq!(
            Value::tuple(vec![Value::from(1), Value::from("a")]).ty(),
            Type::Tuple(vec![Type::Number, Type::String])
        );
        assert!(Value::empty_tuple().is_empty());
        assert!(!Value::tuple(vec![Value::dynamic()]).is_wholly_known());
    }
}
