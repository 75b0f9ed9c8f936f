//! cty types: primitives, collections of one element type, structural types and `any`.
//!
//! - `Display` writes an HCL type expression as `typeexpr.TypeString` does
//!   (`list(string)`, `object({a=number,b=bool})`, `tuple([string,number])`, `any`).
//! - [`Type::friendly_name`] uses cty's words ("list of string", "object", "dynamic").
//! - [`Type::to_json`] / [`Type::from_json`] use cty's JSON type notation
//!   (`"string"`, `["list","number"]`, `["object",{"a":"string"}]`, `"dynamic"`).
//! - [`Type::from_expr`] reads a type constraint expression as `typeexpr.TypeConstraint`.

use std::collections::BTreeMap;
use std::fmt;

use hcl_edit::expr::{Expression, ObjectKey};

/// Bound on the nesting depth of type expressions and JSON type specifications.
pub const MAX_TYPE_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    String,
    Number,
    Bool,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    /// Attribute types by name (cty keeps object attributes sorted by name).
    Object(BTreeMap<String, Type>),
    Tuple(Vec<Type>),
    /// The dynamic pseudo-type, written `any`.
    Dynamic,
}

impl Type {
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }
    pub fn map(t: Type) -> Type {
        Type::Map(Box::new(t))
    }
    /// An object type from `(name, type)` pairs.
    pub fn object<K: Into<String>>(attrs: impl IntoIterator<Item = (K, Type)>) -> Type {
        Type::Object(attrs.into_iter().map(|(k, t)| (k.into(), t)).collect())
    }
    /// The empty object type (`object({})`, cty's `EmptyObject`).
    pub fn empty_object() -> Type {
        Type::Object(BTreeMap::new())
    }
    pub fn tuple(elems: Vec<Type>) -> Type {
        Type::Tuple(elems)
    }
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }
    /// List, set or map.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }
    /// Object or tuple.
    pub fn is_structural(&self) -> bool {
        matches!(self, Type::Object(_) | Type::Tuple(_))
    }
    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }
    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }
    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }
    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }
    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }
    /// The element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }
    /// Attribute types of an object type.
    pub fn attribute_types(&self) -> Option<&BTreeMap<String, Type>> {
        match self {
            Type::Object(a) => Some(a),
            _ => None,
        }
    }
    /// Element types of a tuple type.
    pub fn tuple_element_types(&self) -> Option<&[Type]> {
        match self {
            Type::Tuple(e) => Some(e),
            _ => None,
        }
    }

    /// True when `Dynamic` appears anywhere in the type (cty's `HasDynamicTypes`).
    pub fn has_dynamic_types(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::String | Type::Number | Type::Bool => false,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_dynamic_types(),
            Type::Object(a) => a.values().any(Type::has_dynamic_types),
            Type::Tuple(e) => e.iter().any(Type::has_dynamic_types),
        }
    }

    /// cty's `TestConformance`: does `self` conform to `other`, where `Dynamic` in `other`
    /// accepts anything?
    pub fn conforms_to(&self, other: &Type) -> bool {
        match (self, other) {
            (_, Type::Dynamic) => true,
            (Type::List(a), Type::List(b))
            | (Type::Set(a), Type::Set(b))
            | (Type::Map(a), Type::Map(b)) => a.conforms_to(b),
            (Type::Object(a), Type::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, t)| b.get(k).is_some_and(|bt| t.conforms_to(bt)))
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.conforms_to(y))
            }
            (a, b) => a == b,
        }
    }

    /// cty's `FriendlyName`: "string", "list of number", "map of string", "object",
    /// "tuple", "dynamic".
    pub fn friendly_name(&self) -> String {
        self.friendly(false)
    }

    /// cty's `FriendlyNameForConstraint`: as [`Type::friendly_name`] but `Dynamic` is
    /// "any type" (and "any single type" as a collection element).
    pub fn friendly_name_for_constraint(&self) -> String {
        self.friendly(true)
    }

    fn friendly(&self, constraint: bool) -> String {
        let elem = |t: &Type| -> String {
            if constraint && *t == Type::Dynamic {
                "any single type".to_string()
            } else {
                t.friendly(constraint)
            }
        };
        match self {
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::List(t) => format!("list of {}", elem(t)),
            Type::Set(t) => format!("set of {}", elem(t)),
            Type::Map(t) => format!("map of {}", elem(t)),
            Type::Object(_) => "object".into(),
            Type::Tuple(_) => "tuple".into(),
            Type::Dynamic => {
                if constraint {
                    "any type".into()
                } else {
                    "dynamic".into()
                }
            }
        }
    }

    /// cty's JSON type notation as a JSON value.
    pub fn to_json_value(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Type::String => J::from("string"),
            Type::Number => J::from("number"),
            Type::Bool => J::from("bool"),
            Type::Dynamic => J::from("dynamic"),
            Type::List(t) => J::Array(vec![J::from("list"), t.to_json_value()]),
            Type::Set(t) => J::Array(vec![J::from("set"), t.to_json_value()]),
            Type::Map(t) => J::Array(vec![J::from("map"), t.to_json_value()]),
            Type::Object(a) => J::Array(vec![
                J::from("object"),
                J::Object(
                    a.iter()
                        .map(|(k, t)| (k.clone(), t.to_json_value()))
                        .collect(),
                ),
            ]),
            Type::Tuple(e) => J::Array(vec![
                J::from("tuple"),
                J::Array(e.iter().map(Type::to_json_value).collect()),
            ]),
        }
    }

    /// cty's JSON type notation as compact text (`["list","string"]`).
    pub fn to_json(&self) -> String {
        self.to_json_value().to_string()
    }

    /// Parses cty's JSON type notation from text.
    pub fn from_json(text: &str) -> Result<Type, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("invalid type specification: {e}"))?;
        Type::from_json_value(&v)
    }

    /// Reads cty's JSON type notation from a JSON value. Object types may carry cty's
    /// optional-attribute list as a third element; it is accepted and ignored.
    pub fn from_json_value(v: &serde_json::Value) -> Result<Type, String> {
        from_json_depth(v, 0)
    }

    /// Reads a type constraint expression as `typeexpr.TypeConstraint` does: the keywords
    /// `string`, `number`, `bool`, `any`, and the constructors `list(T)`, `set(T)`,
    /// `map(T)`, `object({name=T,...})`, `tuple([T,...])`. The error is the detail of
    /// HCL's "Invalid type specification" diagnostic.
    ///
    /// `optional(T)` attribute modifiers are accepted and unwrapped (the attribute becomes
    /// required: [`Type`] does not carry optional markers; see
    /// [`Type::from_expr_with_optional`]).
    pub fn from_expr(expr: &Expression) -> Result<Type, String> {
        type_from_expr(expr, 0, &mut Vec::new(), &mut Vec::new(), None)
    }

    /// As [`Type::from_expr`], also returning the paths of object attributes declared
    /// `optional(...)`: each entry is the attribute path as a list of steps (`"name"` for an
    /// attribute, `"*"` for a collection element, `"0"` for a tuple element) ending with the
    /// optional attribute's name.
    pub fn from_expr_with_optional(expr: &Expression) -> Result<(Type, Vec<Vec<String>>), String> {
        let mut opts = Vec::new();
        let t = type_from_expr(expr, 0, &mut Vec::new(), &mut opts, None)?;
        Ok((t, opts))
    }

    /// `typeexpr.TypeConstraintWithDefaults` (Terraform's variable types): as
    /// [`Type::from_expr_with_optional`], and `optional(T, DEFAULT)` also gives its default:
    /// the attribute path (steps as for the optional paths, ending with the attribute's
    /// name) and the default's expression, for the caller to evaluate as a constant and
    /// apply with [`crate::convert::apply_defaults`].
    pub fn from_expr_with_defaults(expr: &Expression) -> Result<TypeConstraint, String> {
        let mut optional = Vec::new();
        let mut defaults = Vec::new();
        let ty = type_from_expr(expr, 0, &mut Vec::new(), &mut optional, Some(&mut defaults))?;
        Ok(TypeConstraint {
            ty,
            optional,
            defaults,
        })
    }
}

/// A type constraint with `optional()` attributes and their defaults
/// ([`Type::from_expr_with_defaults`]).
#[derive(Clone, Debug)]
pub struct TypeConstraint {
    pub ty: Type,
    /// Paths of the optional attributes.
    pub optional: Vec<Vec<String>>,
    /// Paths of the optional attributes that have a default, with the default's
    /// expression (unevaluated).
    pub defaults: Vec<(Vec<String>, Expression)>,
}

impl Type {}

fn from_json_depth(v: &serde_json::Value, depth: usize) -> Result<Type, String> {
    use serde_json::Value as J;
    if depth > MAX_TYPE_DEPTH {
        return Err("type specification is nested too deeply".into());
    }
    match v {
        J::String(s) => match s.as_str() {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "dynamic" => Ok(Type::Dynamic),
            other => Err(format!("invalid primitive type name {other:?}")),
        },
        J::Array(items) => {
            let kind = match items.first() {
                Some(J::String(k)) => k.as_str(),
                _ => return Err("invalid complex type description".into()),
            };
            match (kind, items.len()) {
                ("list" | "set" | "map", 2) => {
                    let ety = from_json_depth(&items[1], depth + 1)?;
                    Ok(match kind {
                        "list" => Type::list(ety),
                        "set" => Type::set(ety),
                        _ => Type::map(ety),
                    })
                }
                ("object", 2 | 3) => {
                    let J::Object(attrs) = &items[1] else {
                        return Err("invalid object type description".into());
                    };
                    let mut out = BTreeMap::new();
                    for (k, t) in attrs {
                        out.insert(k.clone(), from_json_depth(t, depth + 1)?);
                    }
                    if let Some(opt) = items.get(2) {
                        let ok = matches!(opt, J::Array(names)
                            if names.iter().all(|n| n.as_str().is_some_and(|n| out.contains_key(n))));
                        if !ok {
                            return Err("invalid optional attributes list".into());
                        }
                    }
                    Ok(Type::Object(out))
                }
                ("tuple", 2) => {
                    let J::Array(elems) = &items[1] else {
                        return Err("invalid tuple type description".into());
                    };
                    let mut out = Vec::with_capacity(elems.len());
                    for t in elems {
                        out.push(from_json_depth(t, depth + 1)?);
                    }
                    Ok(Type::Tuple(out))
                }
                _ => Err(format!("invalid complex type kind name {kind:?}")),
            }
        }
        _ => Err("invalid type description".into()),
    }
}

const NOT_A_TYPE: &str = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";

/// The single root name of an expression that is a bare identifier (`hcl.ExprAsKeyword`),
/// including the keywords the parser turned into literals (`true`, `false`, `null`: HCL's
/// `LiteralValueExpr.AsTraversal` gives their names back).
fn keyword(expr: &Expression) -> Option<&str> {
    match expr {
        Expression::Variable(v) => Some(v.value().as_str()),
        Expression::Bool(b) => Some(if *b.value() { "true" } else { "false" }),
        Expression::Null(_) => Some("null"),
        Expression::Parenthesis(p) => keyword(p.inner()),
        _ => None,
    }
}

fn type_from_expr(
    expr: &Expression,
    depth: usize,
    path: &mut Vec<String>,
    opts: &mut Vec<Vec<String>>,
    mut defaults: Option<&mut Vec<(Vec<String>, Expression)>>,
) -> Result<Type, String> {
    if depth > MAX_TYPE_DEPTH {
        return Err("The type specification is nested too deeply.".into());
    }
    if let Some(kw) = keyword(expr) {
        return match kw {
            "bool" => Ok(Type::Bool),
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "any" => Ok(Type::Dynamic),
            "list" | "map" | "set" => Err(format!(
                "The {kw} type constructor requires one argument specifying the element type."
            )),
            "object" => Err("The object type constructor requires one argument specifying the attribute types and values as a map.".into()),
            "tuple" => Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
            other => Err(format!("The keyword {} is not a valid type specification.", go_quote(other))),
        };
    }
    let call = match expr {
        Expression::FuncCall(c) if !c.name.is_namespaced() && !c.args.expand_final() => c,
        Expression::Parenthesis(p) => {
            return type_from_expr(p.inner(), depth + 1, path, opts, defaults);
        }
        _ => return Err(NOT_A_TYPE.into()),
    };
    let name = call.name.name.value().as_str();
    match name {
        "bool" | "string" | "number" => {
            return Err(format!(
                "Primitive type keyword {} does not expect arguments.",
                go_quote(name)
            ))
        }
        "any" => {
            return Err(format!(
                "Type constraint keyword {} does not expect arguments.",
                go_quote(name)
            ))
        }
        _ => {}
    }
    let args: Vec<&Expression> = call.args.iter().collect();
    if args.len() != 1 {
        match name {
            "list" | "set" | "map" => {
                return Err(format!(
                    "The {name} type constructor requires one argument specifying the element type."
                ))
            }
            "object" => return Err("The object type constructor requires one argument specifying the attribute types and values as a map.".into()),
            "tuple" => return Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
            _ => {}
        }
    }
    match (name, args.first()) {
        ("list" | "set" | "map", Some(arg)) => {
            path.push("*".into());
            let ety = type_from_expr(arg, depth + 1, path, opts, defaults);
            path.pop();
            let ety = ety?;
            Ok(match name {
                "list" => Type::list(ety),
                "set" => Type::set(ety),
                _ => Type::map(ety),
            })
        }
        ("object", Some(arg)) => {
            let Expression::Object(obj) = arg else {
                return Err("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.".into());
            };
            let mut atys = BTreeMap::new();
            for (key, value) in obj.iter() {
                let attr_name = match key {
                    ObjectKey::Ident(id) => id.value().as_str().to_string(),
                    ObjectKey::Expression(e) => match keyword(e) {
                        Some(k) => k.to_string(),
                        None => {
                            return Err(
                                "Object constructor map keys must be attribute names.".into()
                            )
                        }
                    },
                };
                let mut aty_expr = value.expr();
                if let Expression::FuncCall(c) = aty_expr {
                    if !c.name.is_namespaced() && c.name.name.value().as_str() == "optional" {
                        let oargs: Vec<&Expression> = c.args.iter().collect();
                        match oargs.as_slice() {
                            [] => return Err("Optional attribute modifier requires the attribute type as its argument.".into()),
                            [one] => {
                                aty_expr = one;
                                let mut p = path.clone();
                                p.push(attr_name.clone());
                                opts.push(p);
                            }
                            [one, default] if defaults.is_some() => {
                                aty_expr = one;
                                let mut p = path.clone();
                                p.push(attr_name.clone());
                                opts.push(p.clone());
                                if let Some(d) = defaults.as_deref_mut() {
                                    d.push((p, (*default).clone()));
                                }
                            }
                            [_, _] => return Err("Optional attribute modifier expects only one argument: the attribute type.".into()),
                            _ if defaults.is_some() => return Err("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.".into()),
                            _ => return Err("Optional attribute modifier expects only one argument: the attribute type.".into()),
                        }
                    }
                }
                path.push(attr_name.clone());
                let aty = type_from_expr(aty_expr, depth + 1, path, opts, defaults.as_deref_mut());
                path.pop();
                atys.insert(attr_name, aty?);
            }
            Ok(Type::Object(atys))
        }
        ("tuple", Some(arg)) => {
            let Expression::Array(arr) = arg else {
                return Err("Tuple type constructor requires a list of element types.".into());
            };
            let mut etys = Vec::new();
            for (i, e) in arr.iter().enumerate() {
                path.push(i.to_string());
                let ety = type_from_expr(e, depth + 1, path, opts, defaults.as_deref_mut());
                path.pop();
                etys.push(ety?);
            }
            Ok(Type::Tuple(etys))
        }
        ("optional", _) => Err(format!(
            "Keyword {} is valid only as a modifier for object type attributes.",
            go_quote(name)
        )),
        _ => Err(format!(
            "Keyword {} is not a valid type constructor.",
            go_quote(name)
        )),
    }
}

/// True when `name` is a valid HCL identifier (letter or `_` first, then letters, digits,
/// `_` and `-`).
pub fn is_valid_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

pub use crate::gocompat::quote::go_quote;

/// An HCL type expression, as `typeexpr.TypeString` writes it.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::Dynamic => f.write_str("any"),
            Type::List(t) => write!(f, "list({t})"),
            Type::Set(t) => write!(f, "set({t})"),
            Type::Map(t) => write!(f, "map({t})"),
            Type::Object(attrs) => {
                f.write_str("object({")?;
                for (i, (name, t)) in attrs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    if is_valid_identifier(name) {
                        f.write_str(name)?;
                    } else {
                        f.write_str(&go_quote(name))?;
                    }
                    write!(f, "={t}")?;
                }
                f.write_str("})")
            }
            Type::Tuple(elems) => {
                f.write_str("tuple([")?;
                for (i, t) in elems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str("])")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_type(src: &str) -> Result<Type, String> {
        let expr: Expression = match src.parse() {
            Ok(e) => e,
            Err(e) => return Err(format!("parse error: {e}")),
        };
        Type::from_expr(&expr)
    }

    #[test]
    fn display() {
        let t = Type::object([
            ("b", Type::list(Type::String)),
            ("a", Type::Tuple(vec![Type::Number, Type::Bool])),
            ("not valid", Type::Dynamic),
        ]);
        assert_eq!(
            t.to_string(),
            "object({a=tuple([number,bool]),b=list(string),\"not valid\"=any})"
        );
        assert_eq!(
            Type::map(Type::set(Type::Number)).to_string(),
            "map(set(number))"
        );
        assert_eq!(Type::empty_object().to_string(), "object({})");
    }

    #[test]
    fn friendly_names() {
        assert_eq!(Type::list(Type::String).friendly_name(), "list of string");
        assert_eq!(Type::map(Type::Number).friendly_name(), "map of number");
        assert_eq!(Type::set(Type::Bool).friendly_name(), "set of bool");
        assert_eq!(Type::empty_object().friendly_name(), "object");
        assert_eq!(Type::Tuple(vec![]).friendly_name(), "tuple");
        assert_eq!(Type::Dynamic.friendly_name(), "dynamic");
        assert_eq!(Type::Dynamic.friendly_name_for_constraint(), "any type");
        assert_eq!(
            Type::list(Type::Dynamic).friendly_name_for_constraint(),
            "list of any single type"
        );
        assert_eq!(Type::list(Type::Dynamic).friendly_name(), "list of dynamic");
    }

    #[test]
    fn json_notation() {
        let t = Type::object([
            ("a", Type::String),
            ("b", Type::list(Type::Number)),
            ("c", Type::Tuple(vec![Type::Bool, Type::Dynamic])),
        ]);
        let j = t.to_json();
        assert_eq!(
            j,
            r#"["object",{"a":"string","b":["list","number"],"c":["tuple",["bool","dynamic"]]}]"#
        );
        assert_eq!(Type::from_json(&j), Ok(t));
        assert_eq!(
            Type::from_json(r#"["map","bool"]"#),
            Ok(Type::map(Type::Bool))
        );
        assert_eq!(
            Type::from_json(r#"["set","string"]"#),
            Ok(Type::set(Type::String))
        );
        assert_eq!(
            Type::from_json(r#"["object",{"a":"string"},["a"]]"#),
            Ok(Type::object([("a", Type::String)]))
        );
        assert_eq!(
            Type::from_json(r#""float""#),
            Err("invalid primitive type name \"float\"".into())
        );
        assert_eq!(
            Type::from_json(r#"["array","string"]"#),
            Err("invalid complex type kind name \"array\"".into())
        );
        assert!(Type::from_json("[").is_err());
        let deep = format!("{}\"string\"{}", "[\"list\",".repeat(100), "]".repeat(100));
        assert_eq!(
            Type::from_json(&deep),
            Err("type specification is nested too deeply".into())
        );
    }

    #[test]
    fn from_expr_ok() {
        assert_eq!(parse_type("string"), Ok(Type::String));
        assert_eq!(parse_type("any"), Ok(Type::Dynamic));
        assert_eq!(parse_type("list(number)"), Ok(Type::list(Type::Number)));
        assert_eq!(
            parse_type("map(set(bool))"),
            Ok(Type::map(Type::set(Type::Bool)))
        );
        assert_eq!(
            parse_type("object({a=string, b = list(any)})"),
            Ok(Type::object([
                ("a", Type::String),
                ("b", Type::list(Type::Dynamic))
            ]))
        );
        assert_eq!(
            parse_type("tuple([string, number])"),
            Ok(Type::Tuple(vec![Type::String, Type::Number]))
        );
        assert_eq!(parse_type("tuple([])"), Ok(Type::Tuple(vec![])));
        assert_eq!(parse_type("object({})"), Ok(Type::empty_object()));
        let expr: Expression = "object({a=optional(string), b=list(object({c=optional(number)}))})"
            .parse()
            .unwrap_or_else(|_| Expression::null());
        let (t, opts) = Type::from_expr_with_optional(&expr).unwrap_or((Type::Dynamic, vec![]));
        assert_eq!(
            t.to_string(),
            "object({a=string,b=list(object({c=number}))})"
        );
        assert_eq!(
            opts,
            vec![
                vec!["a".to_string()],
                vec!["b".into(), "*".into(), "c".into()]
            ]
        );
    }

    #[test]
    fn from_expr_errors() {
        let cases = [
            ("foo", "The keyword \"foo\" is not a valid type specification."),
            ("list", "The list type constructor requires one argument specifying the element type."),
            ("map(string, number)", "The map type constructor requires one argument specifying the element type."),
            ("object", "The object type constructor requires one argument specifying the attribute types and values as a map."),
            ("tuple()", "The tuple type constructor requires one argument specifying the element types as a list."),
            ("string(1)", "Primitive type keyword \"string\" does not expect arguments."),
            ("any()", "Type constraint keyword \"any\" does not expect arguments."),
            ("foo(string)", "Keyword \"foo\" is not a valid type constructor."),
            ("optional(string)", "Keyword \"optional\" is valid only as a modifier for object type attributes."),
            ("\"string\"", NOT_A_TYPE),
            ("1", NOT_A_TYPE),
            ("object([string])", "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types."),
            ("tuple({a=string})", "Tuple type constructor requires a list of element types."),
            ("object({\"a b\"=string})", "Object constructor map keys must be attribute names."),
            ("object({a=optional()})", "Optional attribute modifier requires the attribute type as its argument."),
            ("object({a=optional(string, \"x\")})", "Optional attribute modifier expects only one argument: the attribute type."),
            ("list(strin)", "The keyword \"strin\" is not a valid type specification."),
        ];
        for (src, want) in cases {
            assert_eq!(parse_type(src), Err(want.to_string()), "{src}");
        }
        let mut deep = Expression::Variable(hcl_edit::Ident::new("string").into());
        for _ in 0..100 {
            let mut args = hcl_edit::expr::FuncArgs::new();
            args.push(deep);
            deep = Expression::FuncCall(Box::new(hcl_edit::expr::FuncCall::new(
                hcl_edit::Ident::new("list"),
                args,
            )));
        }
        assert_eq!(
            Type::from_expr(&deep),
            Err("The type specification is nested too deeply.".into())
        );
    }

    #[test]
    fn conformance_and_dynamic() {
        assert!(Type::list(Type::String).conforms_to(&Type::list(Type::Dynamic)));
        assert!(!Type::list(Type::String).conforms_to(&Type::set(Type::Dynamic)));
        assert!(Type::list(Type::Dynamic).has_dynamic_types());
        assert!(!Type::object([("a", Type::String)]).has_dynamic_types());
    }

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\x01é\"");
    }
}
