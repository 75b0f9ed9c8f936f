//! cty values. Every value has a type; null and unknown values are typed.

use std::collections::BTreeMap;

use crate::number::Number;
use crate::types::Type;

/// A value. Invariants: a `List`/`Set`/`Map` carries its element type and every element
/// conforms to it; a `Set` holds no duplicates and is kept in canonical order (see
/// `value::set_order`); object attributes and map keys are sorted (BTreeMap).
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
    pub fn string(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }
    pub fn is_unknown(&self) -> bool {
        matches!(self, Value::Unknown(_))
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
}
