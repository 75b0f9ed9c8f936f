//! Type conversion and unification as cty's `convert` package defines them.
//!
//! - [`convert`] is `convert.Convert`: safe and unsafe conversions (string → number/bool),
//!   structural ↔ collection conversions, nulls and unknowns keep/assume the target type,
//!   conversion to `any` leaves a value as it is. Type-level failures are reported with
//!   cty's `MismatchMessage` ("string required", "attribute \"x\" is required",
//!   "element 2: number required", ...); value-level failures carry the path of the
//!   failing element (`[2]`, `.name`, `["key"]`, formatted as Terraform formats paths).
//! - [`unify`] is `convert.UnifyUnsafe` and [`unify_values`] applies it to values.
//! - [`convert_safe`] and [`unify_safe`] are the variants without unsafe conversions.
//!
//! Unification deduplicates the candidate types before ordering them by preference (an
//! optimisation for long tuples; cty considers duplicates but they never change which
//! type wins except in contrived tie orders).

use std::collections::BTreeMap;

use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

/// Why a conversion failed, worded like cty ("a number is required", "string required",
/// "attribute \"x\" is required", "element 2: number required"...). `path` locates the
/// failing element inside the value (e.g. `[2]`, `.name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ConvertError {}

/// One step of a value path.
#[derive(Clone, Debug)]
enum Step {
    Attr(String),
    Index(usize),
    Key(String),
}

fn format_path(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Attr(name) => {
                s.push('.');
                s.push_str(name);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
            Step::Key(k) => s.push_str(&format!("[{}]", go_quote(k))),
        }
    }
    s
}

fn err_at(path: &[Step], message: impl Into<String>) -> ConvertError {
    ConvertError {
        path: format_path(path),
        message: message.into(),
    }
}

/// Converts `v` to type `want` with cty's standard (unsafe-included) conversions.
pub fn convert(v: &Value, want: &Type) -> Result<Value, ConvertError> {
    convert_mode(v, want, true)
}

/// Converts `v` to type `want` with cty's safe conversions only (`convert.GetConversion`):
/// no string → number/bool, no list → set, no map → object.
pub fn convert_safe(v: &Value, want: &Type) -> Result<Value, ConvertError> {
    convert_mode(v, want, false)
}

fn convert_mode(v: &Value, want: &Type, unsafe_: bool) -> Result<Value, ConvertError> {
    let in_ty = v.ty();
    if &in_ty == want {
        return Ok(v.clone());
    }
    if !can_convert_mode(&in_ty, want, unsafe_) {
        return Err(ConvertError {
            path: String::new(),
            message: mismatch_message(&in_ty, want),
        });
    }
    let mut path = Vec::new();
    apply(v, want, unsafe_, &mut path)
}

/// Converts `v` to `want` where some object attributes are optional (Terraform's
/// `optional(T)` type constraint modifier): `optional` holds attribute paths as returned by
/// [`Type::from_expr_with_optional`] (steps are attribute names, `"*"` for the elements of a
/// list, set or map, and tuple indices). A missing optional attribute becomes a null of the
/// attribute's type, as cty does for object types with optional attributes; everything else
/// is [`convert`].
pub fn convert_with_optional(
    v: &Value,
    want: &Type,
    optional: &[Vec<String>],
) -> Result<Value, ConvertError> {
    if optional.is_empty() {
        return convert(v, want);
    }
    let mut tree = OptTree::default();
    for p in optional {
        tree.insert(p);
    }
    let filled = fill_optional(v, want, &tree, 0);
    convert(&filled, want)
}

#[derive(Default)]
struct OptTree {
    /// Optional attribute names of the object at this level.
    here: Vec<String>,
    children: BTreeMap<String, OptTree>,
}

impl OptTree {
    fn insert(&mut self, path: &[String]) {
        match path {
            [] => {}
            [name] => self.here.push(name.clone()),
            [step, rest @ ..] => self.children.entry(step.clone()).or_default().insert(rest),
        }
    }
}

fn fill_optional(v: &Value, ty: &Type, tree: &OptTree, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return v.clone();
    }
    let d = depth + 1;
    match (v, ty) {
        (Value::Object(attrs) | Value::Map(_, attrs), Type::Object(atys)) => {
            let mut out = BTreeMap::new();
            for (k, av) in attrs {
                let filled = match (atys.get(k), tree.children.get(k)) {
                    (Some(aty), Some(sub)) => fill_optional(av, aty, sub, d),
                    _ => av.clone(),
                };
                out.insert(k.clone(), filled);
            }
            for name in &tree.here {
                if let (false, Some(aty)) = (out.contains_key(name), atys.get(name)) {
                    out.insert(name.clone(), Value::Null(aty.clone()));
                }
            }
            Value::Object(out)
        }
        (
            Value::List(_, elems) | Value::Set(_, elems) | Value::Tuple(elems),
            Type::List(ety) | Type::Set(ety),
        ) => match tree.children.get("*") {
            Some(sub) => Value::Tuple(
                elems
                    .iter()
                    .map(|e| fill_optional(e, ety, sub, d))
                    .collect(),
            ),
            None => v.clone(),
        },
        (Value::Map(_, elems) | Value::Object(elems), Type::Map(ety)) => {
            match tree.children.get("*") {
                Some(sub) => Value::Object(
                    elems
                        .iter()
                        .map(|(k, e)| (k.clone(), fill_optional(e, ety, sub, d)))
                        .collect(),
                ),
                None => v.clone(),
            }
        }
        (Value::Tuple(elems), Type::Tuple(etys)) => Value::Tuple(
            elems
                .iter()
                .enumerate()
                .map(
                    |(i, e)| match (etys.get(i), tree.children.get(&i.to_string())) {
                        (Some(ety), Some(sub)) => fill_optional(e, ety, sub, d),
                        _ => e.clone(),
                    },
                )
                .collect(),
        ),
        _ => v.clone(),
    }
}

/// True when a (safe or unsafe) conversion from `from` to `to` exists
/// (`convert.GetConversionUnsafe(from, to) != nil`, or the types are equal).
pub fn can_convert(from: &Type, to: &Type) -> bool {
    from == to || can_convert_mode(from, to, true)
}

/// True when a safe conversion from `from` to `to` exists, or the types are equal.
pub fn can_convert_safe(from: &Type, to: &Type) -> bool {
    from == to || can_convert_mode(from, to, false)
}

/// Bound on type nesting examined by conversion checks (types come from values and type
/// expressions, both of which are depth-bounded by their parsers; this is a backstop).
const MAX_DEPTH: usize = 200;

/// `getConversion(in, out, unsafe) != nil`.
fn can_convert_mode(in_ty: &Type, out: &Type, unsafe_: bool) -> bool {
    conv_exists(in_ty, out, unsafe_, 0)
}

fn conv_exists(in_ty: &Type, out: &Type, unsafe_: bool, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let d = depth + 1;
    // An element conversion that is either unnecessary (equal types) or available.
    let elem_ok = |a: &Type, b: &Type| a == b || conv_exists(a, b, unsafe_, d);
    match (in_ty, out) {
        (_, Type::Dynamic) => true,
        (Type::Dynamic, _) => unsafe_,
        (a, b) if a.is_primitive() && b.is_primitive() => match (a, b) {
            (Type::Number | Type::Bool, Type::String) => true,
            (Type::String, Type::Number | Type::Bool) => unsafe_,
            _ => false,
        },
        (Type::Object(ia), Type::Object(oa)) => oa
            .iter()
            .all(|(name, oty)| ia.get(name).is_some_and(|ity| elem_ok(ity, oty))),
        (Type::Tuple(ie), Type::Tuple(oe)) => {
            ie.len() == oe.len() && ie.iter().zip(oe).all(|(a, b)| elem_ok(a, b))
        }
        (Type::List(ie) | Type::Set(ie), Type::List(oe)) => elem_ok(ie, oe),
        (Type::List(ie) | Type::Set(ie), Type::Set(oe)) => {
            if in_ty.is_list() && !unsafe_ {
                return false;
            }
            elem_ok(ie, oe)
        }
        (Type::Map(ie), Type::Map(oe)) => conv_exists(ie, oe, unsafe_, d),
        (Type::Tuple(etys), Type::List(oe) | Type::Set(oe)) => {
            tuple_to_collection_ety(etys, oe, unsafe_, d).is_some()
        }
        (Type::Object(atys), Type::Map(oe)) => object_to_map_ety(atys, oe, unsafe_, d).is_some(),
        (Type::Map(ie), Type::Object(oa)) => unsafe_ && oa.values().all(|oty| elem_ok(ie, oty)),
        _ => false,
    }
}

/// The element type a tuple converts to for `list(out_ety)`/`set(out_ety)`, when the
/// conversion exists (cty's `conversionTupleToList`/`ToSet` planning).
fn tuple_to_collection_ety(
    etys: &[Type],
    out_ety: &Type,
    unsafe_: bool,
    depth: usize,
) -> Option<Type> {
    if etys.is_empty() {
        return Some(out_ety.clone());
    }
    let mut ety = out_ety.clone();
    if ety == Type::Dynamic {
        ety = unify_impl(etys, unsafe_, depth)?.0;
        if ety == Type::Dynamic && etys.iter().any(|t| *t != Type::Dynamic) {
            return None;
        }
    }
    etys.iter()
        .all(|t| *t == ety || conv_exists(t, &ety, unsafe_, depth))
        .then_some(ety)
}

/// The element type an object converts to for `map(out_ety)`, when the conversion exists.
fn object_to_map_ety(
    atys: &BTreeMap<String, Type>,
    out_ety: &Type,
    unsafe_: bool,
    depth: usize,
) -> Option<Type> {
    if atys.is_empty() {
        return Some(out_ety.clone());
    }
    let mut ety = out_ety.clone();
    if ety == Type::Dynamic {
        let list: Vec<Type> = atys.values().cloned().collect();
        ety = unify_impl(&list, unsafe_, depth)?.0;
    }
    atys.values()
        .all(|t| *t == ety || conv_exists(t, &ety, unsafe_, depth))
        .then_some(ety)
}

/// cty's `dynamicReplace`: `out` with its dynamic parts replaced by the corresponding parts
/// of `in_ty` (the type given to unknown and null results).
fn dynamic_replace(in_ty: &Type, out: &Type, depth: usize) -> Type {
    if *in_ty == Type::Dynamic || depth > MAX_DEPTH {
        return out.clone();
    }
    let d = depth + 1;
    match out {
        Type::Dynamic => in_ty.clone(),
        Type::String | Type::Number | Type::Bool => out.clone(),
        Type::Map(oe) => match in_ty {
            Type::Map(ie) => Type::map(dynamic_replace(ie, oe, d)),
            Type::Object(atys) => {
                let list: Vec<Type> = atys.values().cloned().collect();
                match unify_impl(&list, true, d) {
                    Some((u, _)) => Type::map(dynamic_replace(&u, oe, d)),
                    None => out.clone(),
                }
            }
            _ => out.clone(),
        },
        Type::Object(oa) => {
            let mut res = BTreeMap::new();
            match in_ty {
                Type::Map(ie) => {
                    for (name, aty) in oa {
                        res.insert(name.clone(), dynamic_replace(ie, aty, d));
                    }
                }
                Type::Object(ia) => {
                    for (name, aty) in oa {
                        let t = match ia.get(name) {
                            Some(it) => dynamic_replace(it, aty, d),
                            None => aty.clone(),
                        };
                        res.insert(name.clone(), t);
                    }
                }
                _ => {}
            }
            Type::Object(res)
        }
        Type::Set(oe) | Type::List(oe) => {
            let wrap = |t: Type| {
                if out.is_set() {
                    Type::set(t)
                } else {
                    Type::list(t)
                }
            };
            match in_ty {
                Type::Set(ie) | Type::List(ie) => wrap(dynamic_replace(ie, oe, d)),
                Type::Tuple(etys) => match unify_impl(etys, true, d) {
                    Some((u, _)) => wrap(dynamic_replace(&u, oe, d)),
                    None => out.clone(),
                },
                _ => out.clone(),
            }
        }
        Type::Tuple(oe) => match in_ty {
            Type::Tuple(ie) => Type::Tuple(
                oe.iter()
                    .enumerate()
                    .map(|(i, o)| match ie.get(i) {
                        Some(it) => dynamic_replace(it, o, d),
                        None => o.clone(),
                    })
                    .collect(),
            ),
            _ => out.clone(),
        },
    }
}

/// Applies an existing conversion (the wrapped `conversion` closures of cty).
fn apply(
    v: &Value,
    out: &Type,
    unsafe_: bool,
    path: &mut Vec<Step>,
) -> Result<Value, ConvertError> {
    if *out == Type::Dynamic {
        return Ok(v.clone());
    }
    match v {
        Value::Unknown(t) => return Ok(Value::Unknown(dynamic_replace(t, out, 0))),
        Value::Null(t) => return Ok(Value::Null(dynamic_replace(t, out, 0))),
        _ => {}
    }
    if path.len() > MAX_DEPTH {
        return Err(err_at(path, "value is nested too deeply"));
    }
    if v.ty() == *out {
        return Ok(v.clone());
    }
    match (v, out) {
        (Value::Number(n), Type::String) => Ok(Value::String(n.to_string())),
        (Value::Bool(b), Type::String) => Ok(Value::String(b.to_string())),
        (Value::String(s), Type::Number) => match Number::parse(s) {
            Some(n) => Ok(Value::Number(n)),
            None => Err(err_at(path, "a number is required")),
        },
        (Value::String(s), Type::Bool) => match s.as_str() {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            other => {
                let lower = other.to_lowercase();
                if lower == "true" || lower == "false" {
                    Err(err_at(
                        path,
                        format!(
                            "a bool is required; to convert from string, use lowercase \"{lower}\""
                        ),
                    ))
                } else {
                    Err(err_at(path, "a bool is required"))
                }
            }
        },
        (Value::Object(attrs), Type::Object(oa)) => {
            let mut res = BTreeMap::new();
            for (name, av) in attrs {
                let Some(aty) = oa.get(name) else {
                    continue;
                };
                path.push(Step::Attr(name.clone()));
                let r = apply_elem(av, aty, unsafe_, path);
                path.pop();
                res.insert(name.clone(), r?);
            }
            Ok(Value::Object(res))
        }
        (Value::Tuple(elems), Type::Tuple(oe)) => {
            let mut res = Vec::with_capacity(elems.len());
            for (i, (ev, ety)) in elems.iter().zip(oe).enumerate() {
                path.push(Step::Index(i));
                let r = apply_elem(ev, ety, unsafe_, path);
                path.pop();
                res.push(r?);
            }
            Ok(Value::Tuple(res))
        }
        (Value::List(ie, elems) | Value::Set(ie, elems), Type::List(oe) | Type::Set(oe)) => {
            let to_set = out.is_set();
            if !to_set && v_is_set(v) && elems.len() > 1 && !v.is_wholly_known() {
                // A set with unknown elements has an unknown length.
                return Ok(Value::Unknown(Type::list(dynamic_replace(ie, oe, 0))));
            }
            let mut res = Vec::with_capacity(elems.len());
            for (i, ev) in elems.iter().enumerate() {
                path.push(Step::Index(i));
                let r = apply_elem(ev, oe, unsafe_, path);
                path.pop();
                res.push(r?);
            }
            if res.is_empty() {
                let ety: &Type = if **oe == Type::Dynamic { ie } else { oe };
                return Ok(make_collection(to_set, ety.clone(), res));
            }
            finish_collection(to_set, res, path)
        }
        (Value::Map(ie, elems), Type::Map(oe)) => {
            let mut res = BTreeMap::new();
            for (k, ev) in elems {
                path.push(Step::Key(k.clone()));
                let r = apply_elem(ev, oe, unsafe_, path);
                path.pop();
                res.insert(k.clone(), r?);
            }
            if res.is_empty() {
                let ety: &Type = if **oe == Type::Dynamic { ie } else { oe };
                return Ok(Value::Map(ety.clone(), res));
            }
            if oe.is_collection() || oe.is_object() {
                res = unify_map_elements(res, path, false)?;
            }
            finish_map(res, path)
        }
        (Value::Tuple(elems), Type::List(oe) | Type::Set(oe)) => {
            let to_set = out.is_set();
            let etys: Vec<Type> = elems.iter().map(Value::ty).collect();
            if elems.is_empty() {
                return Ok(make_collection(to_set, oe.as_ref().clone(), Vec::new()));
            }
            let Some(ety) = tuple_to_collection_ety(&etys, oe, unsafe_, 0) else {
                return Err(err_at(path, mismatch_message(&v.ty(), out)));
            };
            let mut res = Vec::with_capacity(elems.len());
            for (i, ev) in elems.iter().enumerate() {
                path.push(Step::Index(i));
                let r = apply_elem(ev, &ety, unsafe_, path);
                path.pop();
                res.push(r?);
            }
            // cty reports element unification problems at the last element's path.
            path.push(Step::Index(elems.len() - 1));
            let unified = unify_list_elements(res, path, unsafe_);
            path.pop();
            finish_collection(to_set, unified?, path)
        }
        (Value::Object(attrs), Type::Map(oe)) => {
            if attrs.is_empty() {
                return Ok(Value::Map(oe.as_ref().clone(), BTreeMap::new()));
            }
            let atys: BTreeMap<String, Type> =
                attrs.iter().map(|(k, v)| (k.clone(), v.ty())).collect();
            let Some(ety) = object_to_map_ety(&atys, oe, unsafe_, 0) else {
                return Err(err_at(path, mismatch_message(&v.ty(), out)));
            };
            let mut res = BTreeMap::new();
            for (k, ev) in attrs {
                path.push(Step::Key(k.clone()));
                let r = apply_elem(ev, &ety, unsafe_, path);
                path.pop();
                res.insert(k.clone(), r?);
            }
            if ety.is_collection() || ety.is_object() {
                res = unify_map_elements(res, path, unsafe_)?;
            }
            finish_map(res, path)
        }
        (Value::Map(_, elems), Type::Object(oa)) => {
            let mut res = BTreeMap::new();
            for (k, ev) in elems {
                let Some(aty) = oa.get(k) else {
                    continue;
                };
                path.push(Step::Key(k.clone()));
                let r = apply_elem(ev, aty, unsafe_, path);
                path.pop();
                res.insert(k.clone(), r?);
            }
            for name in oa.keys() {
                if !res.contains_key(name) {
                    return Err(err_at(
                        path,
                        format!(
                            "map has no element for required attribute {}",
                            go_quote(name)
                        ),
                    ));
                }
            }
            Ok(Value::Object(res))
        }
        _ => Err(err_at(path, mismatch_message(&v.ty(), out))),
    }
}

fn v_is_set(v: &Value) -> bool {
    matches!(v, Value::Set(..))
}

/// Converts one element: no conversion when the types are equal, else the planned one.
fn apply_elem(
    v: &Value,
    out: &Type,
    unsafe_: bool,
    path: &mut Vec<Step>,
) -> Result<Value, ConvertError> {
    if v.ty() == *out {
        return Ok(v.clone());
    }
    apply(v, out, unsafe_, path)
}

fn make_collection(to_set: bool, ety: Type, elems: Vec<Value>) -> Value {
    if to_set {
        Value::set(ety, elems)
    } else {
        Value::List(ety, elems)
    }
}

/// `cty.ListVal`/`cty.SetVal` of converted elements: all must have one type.
fn finish_collection(
    to_set: bool,
    elems: Vec<Value>,
    path: &[Step],
) -> Result<Value, ConvertError> {
    let Some(first) = elems.first() else {
        return Ok(make_collection(to_set, Type::Dynamic, elems));
    };
    let ety = first.ty();
    if elems.iter().skip(1).any(|e| e.ty() != ety) {
        let what = if to_set { "set" } else { "list" };
        return Err(err_at(
            path,
            format!("element types must all match for conversion to {what}"),
        ));
    }
    Ok(make_collection(to_set, ety, elems))
}

/// `conversionCheckMapElementTypes` then `cty.MapVal`.
fn finish_map(elems: BTreeMap<String, Value>, path: &mut Vec<Step>) -> Result<Value, ConvertError> {
    let mut ety: Option<Type> = None;
    for (k, e) in &elems {
        let t = e.ty();
        match &ety {
            None => ety = Some(t),
            Some(want) if *want != t => {
                path.push(Step::Key(k.clone()));
                let e = err_at(path, format!("{} is required", want.friendly_name()));
                path.pop();
                return Err(e);
            }
            _ => {}
        }
    }
    Ok(Value::Map(ety.unwrap_or(Type::Dynamic), elems))
}

/// `conversionUnifyListElements`.
fn unify_list_elements(
    elems: Vec<Value>,
    path: &mut Vec<Step>,
    unsafe_: bool,
) -> Result<Vec<Value>, ConvertError> {
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some((unified, _)) = unify_impl(&types, unsafe_, 0) else {
        return Err(err_at(path, "collection elements cannot be unified"));
    };
    let mut out = Vec::with_capacity(elems.len());
    for (i, e) in elems.into_iter().enumerate() {
        if e.ty() == unified {
            out.push(e);
            continue;
        }
        if let Some(last) = path.last_mut() {
            *last = Step::Index(i);
        }
        out.push(apply(&e, &unified, unsafe_, path)?);
    }
    Ok(out)
}

/// `conversionUnifyCollectionElements`.
fn unify_map_elements(
    elems: BTreeMap<String, Value>,
    path: &mut Vec<Step>,
    unsafe_: bool,
) -> Result<BTreeMap<String, Value>, ConvertError> {
    let types: Vec<Type> = elems.values().map(Value::ty).collect();
    let Some((unified, _)) = unify_impl(&types, unsafe_, 0) else {
        return Err(err_at(path, "collection elements cannot be unified"));
    };
    let mut out = BTreeMap::new();
    for (k, e) in elems {
        if e.ty() == unified {
            out.insert(k, e);
            continue;
        }
        path.push(Step::Key(k.clone()));
        let r = apply(&e, &unified, unsafe_, path);
        path.pop();
        out.insert(k, r?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Mismatch messages

/// cty's `MismatchMessage`: why `got` does not convert to `want`.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    mismatch_depth(got, want, 0)
}

fn required(want: &Type) -> String {
    format!("{} required", want.friendly_name_for_constraint())
}

fn mismatch_depth(got: &Type, want: &Type, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return required(want);
    }
    let d = depth + 1;
    match (got, want) {
        (Type::Object(ga), Type::Object(wa)) => {
            let mut missing: Vec<&String> = Vec::new();
            let mut unsafe_mismatch: Option<String> = None;
            let mut safe_mismatch: Option<String> = None;
            for (name, wty) in wa {
                let Some(gty) = ga.get(name) else {
                    missing.push(name);
                    continue;
                };
                if unsafe_mismatch.is_some() {
                    continue;
                }
                if !can_convert(gty, wty) {
                    unsafe_mismatch = Some(format!(
                        "attribute {}: {}",
                        go_quote(name),
                        mismatch_depth(gty, wty, d)
                    ));
                }
                if safe_mismatch.is_some() {
                    continue;
                }
                if !can_convert_safe(gty, wty) {
                    safe_mismatch = Some(format!(
                        "attribute {}: {}",
                        go_quote(name),
                        mismatch_depth(gty, wty, d)
                    ));
                }
            }
            match missing.as_slice() {
                [] => {}
                [one] => return format!("attribute {} is required", go_quote(one)),
                [a, b] => {
                    return format!(
                        "attributes {} and {} are required",
                        go_quote(a),
                        go_quote(b)
                    )
                }
                [init @ .., last] => {
                    let mut s = String::new();
                    for n in init {
                        s.push_str(&go_quote(n));
                        s.push_str(", ");
                    }
                    s.push_str("and ");
                    s.push_str(&go_quote(last));
                    return format!("attributes {s} are required");
                }
            }
            unsafe_mismatch
                .or(safe_mismatch)
                .unwrap_or_else(|| "incorrect object attributes".to_string())
        }
        (Type::Tuple(_), Type::List(e)) if **e == Type::Dynamic => {
            "all list elements must have the same type".into()
        }
        (Type::Tuple(_), Type::Set(e)) if **e == Type::Dynamic => {
            "all set elements must have the same type".into()
        }
        (Type::Object(_), Type::Map(e)) if **e == Type::Dynamic => {
            "all map elements must have the same type".into()
        }
        (Type::Tuple(_) | Type::Object(_), w) if w.is_collection() => {
            mismatch_from_structural(got, want, d)
        }
        (g, w) if g.is_collection() && w.is_collection() => {
            let kind_ok = match w {
                Type::List(_) | Type::Set(_) => g.is_list() || g.is_set(),
                _ => g.is_map(),
            };
            if !kind_ok {
                return required(want);
            }
            let (Some(ge), Some(we)) = (g.element_type(), w.element_type()) else {
                return required(want);
            };
            let noun = match w {
                Type::List(_) => "list element type",
                Type::Set(_) => "set element type",
                _ => "map element type",
            };
            format!("incorrect {noun}: {}", mismatch_depth(ge, we, d))
        }
        _ => required(want),
    }
}

fn mismatch_from_structural(got: &Type, want: &Type, depth: usize) -> String {
    let Some(wety) = want.element_type() else {
        return required(want);
    };
    match (got, want) {
        (Type::Tuple(etys), Type::List(_) | Type::Set(_)) => {
            for (i, gty) in etys.iter().enumerate() {
                if gty == wety || can_convert(gty, wety) {
                    continue;
                }
                return format!("element {i}: {}", mismatch_depth(gty, wety, depth));
            }
            format!(
                "all elements must be {}",
                wety.friendly_name_for_constraint()
            )
        }
        (Type::Object(atys), Type::Map(_)) => {
            for (name, gty) in atys {
                if gty == wety || can_convert(gty, wety) {
                    continue;
                }
                return format!(
                    "element {}: {}",
                    go_quote(name),
                    mismatch_depth(gty, wety, depth)
                );
            }
            format!(
                "all elements must be {}",
                wety.friendly_name_for_constraint()
            )
        }
        _ => required(want),
    }
}

// ---------------------------------------------------------------------------------------
// Unification

/// The single type all of `types` can convert to, if any (cty's `convert.UnifyUnsafe`).
pub fn unify(types: &[Type]) -> Option<Type> {
    unify_impl(types, true, 0).map(|(t, _)| t)
}

/// As [`unify`] with safe conversions only (cty's `convert.Unify`).
pub fn unify_safe(types: &[Type]) -> Option<Type> {
    unify_impl(types, false, 0).map(|(t, _)| t)
}

/// Unifies the types of `values` (as [`unify`]) and converts every value to the result.
/// When cty would unify "all as dynamic" (collections or structures mixed with values of
/// unknown type) every converted value is `Value::dynamic()`. `None` when there is no
/// common type or a conversion fails.
pub fn unify_values(values: &[Value]) -> Option<(Type, Vec<Value>)> {
    let types: Vec<Type> = values.iter().map(Value::ty).collect();
    let (ty, all_dynamic) = unify_impl(&types, true, 0)?;
    if all_dynamic {
        return Some((ty, values.iter().map(|_| Value::dynamic()).collect()));
    }
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        out.push(convert(v, &ty).ok()?);
    }
    Some((ty, out))
}

/// `unify(types, unsafe)`: the unified type and whether cty's conversions would turn every
/// value into `DynamicVal` (`unifyAllAsDynamic`).
fn unify_impl(types: &[Type], unsafe_: bool, depth: usize) -> Option<(Type, bool)> {
    if types.is_empty() || depth > MAX_DEPTH {
        return None;
    }
    let d = depth + 1;
    let mut uniq: Vec<Type> = Vec::new();
    for t in types {
        if !uniq.contains(t) {
            uniq.push(t.clone());
        }
    }
    let types = &uniq[..];
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let map_ct = count(Type::is_map);
    let list_ct = count(Type::is_list);
    let set_ct = count(Type::is_set);
    let object_ct = count(Type::is_object);
    let tuple_ct = count(Type::is_tuple);
    let dynamic_ct = count(Type::is_dynamic);
    let n = types.len();
    if map_ct > 0 && map_ct + dynamic_ct == n {
        return unify_collections(Type::map, types, unsafe_, dynamic_ct > 0, d);
    } else if map_ct > 0 && map_ct + object_ct + dynamic_ct == n {
        if let Some(r) = unify_structural_as(types, unsafe_, d, true) {
            return Some(r);
        }
    } else if list_ct > 0 && list_ct + dynamic_ct == n {
        return unify_collections(Type::list, types, unsafe_, dynamic_ct > 0, d);
    } else if list_ct > 0 && list_ct + tuple_ct + dynamic_ct == n {
        if let Some(r) = unify_structural_as(types, unsafe_, d, false) {
            return Some(r);
        }
    } else if set_ct > 0 && set_ct + dynamic_ct == n {
        return unify_collections(Type::set, types, unsafe_, dynamic_ct > 0, d);
    } else if object_ct > 0 && object_ct + dynamic_ct == n {
        return unify_objects(types, unsafe_, dynamic_ct > 0, d);
    } else if tuple_ct > 0 && tuple_ct + dynamic_ct == n {
        return unify_tuples(types, unsafe_, dynamic_ct > 0, d);
    } else if object_ct > 0 && tuple_ct > 0 {
        return None;
    }

    for want_idx in sort_types(types) {
        let want = &types[want_idx];
        let all = types
            .iter()
            .all(|t| t == want || conv_exists(t, want, unsafe_, d));
        if all {
            return Some((want.clone(), false));
        }
    }
    None
}

/// `unifyCollectionTypes`.
fn unify_collections(
    wrap: fn(Type) -> Type,
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
    depth: usize,
) -> Option<(Type, bool)> {
    if has_dynamic {
        return Some((Type::Dynamic, true));
    }
    let etys: Vec<Type> = types
        .iter()
        .filter_map(|t| t.element_type().cloned())
        .collect();
    let (ety, _) = unify_impl(&etys, unsafe_, depth)?;
    let ret = wrap(ety);
    types
        .iter()
        .all(|t| *t == ret || conv_exists(t, &ret, unsafe_, depth))
        .then_some((ret, false))
}

/// `unifyObjectsAsMaps` (maps = true) / `unifyTuplesAsList` (maps = false).
fn unify_structural_as(
    types: &[Type],
    unsafe_: bool,
    depth: usize,
    maps: bool,
) -> Option<(Type, bool)> {
    let structural: Vec<Type> = types
        .iter()
        .filter(|t| if maps { t.is_object() } else { t.is_tuple() })
        .cloned()
        .collect();
    let collected = if maps {
        unify_objects_to_map(&structural, unsafe_, depth)?
    } else {
        unify_tuples_to_list(&structural, unsafe_, depth)?
    };
    let replaced: Vec<Type> = types
        .iter()
        .map(|t| {
            let is_struct = if maps { t.is_object() } else { t.is_tuple() };
            if is_struct {
                collected.clone()
            } else {
                t.clone()
            }
        })
        .collect();
    let (ty, all_dyn) = unify_impl(&replaced, unsafe_, depth)?;
    let ok = if maps { ty.is_map() } else { ty.is_list() };
    ok.then_some((ty, all_dyn))
}

/// `unifyObjectTypes`.
fn unify_objects(
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
    depth: usize,
) -> Option<(Type, bool)> {
    if has_dynamic {
        return Some((Type::Dynamic, true));
    }
    let attr_sets: Vec<&BTreeMap<String, Type>> =
        types.iter().filter_map(Type::attribute_types).collect();
    let first = attr_sets.first()?;
    let same_names = attr_sets
        .iter()
        .all(|a| a.len() == first.len() && a.keys().all(|k| first.contains_key(k)));
    if !same_names {
        return unify_objects_to_map(types, unsafe_, depth).map(|t| (t, false));
    }
    let mut ret = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = attr_sets
            .iter()
            .filter_map(|a| a.get(name).cloned())
            .collect();
        let (t, _) = unify_impl(&across, unsafe_, depth)?;
        ret.insert(name.clone(), t);
    }
    let ret = Type::Object(ret);
    if types
        .iter()
        .all(|t| *t == ret || conv_exists(t, &ret, unsafe_, depth))
    {
        Some((ret, false))
    } else {
        unify_objects_to_map(types, unsafe_, depth).map(|t| (t, false))
    }
}

/// `unifyObjectTypesToMap`.
fn unify_objects_to_map(types: &[Type], unsafe_: bool, depth: usize) -> Option<Type> {
    let atys: Vec<Type> = types
        .iter()
        .filter_map(Type::attribute_types)
        .flat_map(|a| a.values().cloned())
        .collect();
    let (ety, _) = unify_impl(&atys, unsafe_, depth)?;
    let ret = Type::map(ety);
    types
        .iter()
        .all(|t| *t == ret || conv_exists(t, &ret, unsafe_, depth))
        .then_some(ret)
}

/// `unifyTupleTypes`.
fn unify_tuples(
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
    depth: usize,
) -> Option<(Type, bool)> {
    if has_dynamic {
        return Some((Type::Dynamic, true));
    }
    let elem_lists: Vec<&[Type]> = types.iter().filter_map(Type::tuple_element_types).collect();
    let first = elem_lists.first()?;
    if elem_lists.iter().any(|e| e.len() != first.len()) {
        return unify_tuples_to_list(types, unsafe_, depth).map(|t| (t, false));
    }
    let mut ret = Vec::with_capacity(first.len());
    for idx in 0..first.len() {
        let across: Vec<Type> = elem_lists
            .iter()
            .filter_map(|e| e.get(idx).cloned())
            .collect();
        let (t, _) = unify_impl(&across, unsafe_, depth)?;
        ret.push(t);
    }
    let ret = Type::Tuple(ret);
    if types
        .iter()
        .all(|t| *t == ret || conv_exists(t, &ret, unsafe_, depth))
    {
        Some((ret, false))
    } else {
        unify_tuples_to_list(types, unsafe_, depth).map(|t| (t, false))
    }
}

/// `unifyTupleTypesToList`.
fn unify_tuples_to_list(types: &[Type], unsafe_: bool, depth: usize) -> Option<Type> {
    let etys: Vec<Type> = types
        .iter()
        .filter_map(Type::tuple_element_types)
        .flat_map(|e| e.iter().cloned())
        .collect();
    let (ety, _) = unify_impl(&etys, unsafe_, depth)?;
    let ret = Type::list(ety);
    types
        .iter()
        .all(|t| *t == ret || conv_exists(t, &ret, unsafe_, depth))
        .then_some(ret)
}

/// cty's `compareTypes`: -1 when `a` is more general than `b`, 1 when less, 0 when
/// unrelated or equal.
fn compare_types(a: &Type, b: &Type, depth: usize) -> i8 {
    if depth > MAX_DEPTH {
        return 0;
    }
    let d = depth + 1;
    if *a == Type::Dynamic || *b == Type::Dynamic {
        return match (*a == Type::Dynamic, *b == Type::Dynamic) {
            (false, true) => -1,
            (true, false) => 1,
            _ => 0,
        };
    }
    if a.is_primitive() && b.is_primitive() {
        if *a == Type::String || *b == Type::String {
            return match (*a == Type::String, *b == Type::String) {
                (false, true) => 1,
                (true, false) => -1,
                _ => 0,
            };
        }
        return 0;
    }
    match (a, b) {
        (Type::List(_), Type::Set(_)) => return -1,
        (Type::Set(_), Type::List(_)) => return 1,
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare_types(x, y, d),
        _ => {}
    }
    let fold = |pairs: Vec<(&Type, &Type)>| -> i8 {
        let (mut a_super, mut b_super) = (false, false);
        for (x, y) in pairs {
            match compare_types(x, y, d) {
                c if c < 0 => a_super = true,
                c if c > 0 => b_super = true,
                _ => {}
            }
        }
        match (a_super, b_super) {
            (true, false) => -1,
            (false, true) => 1,
            _ => 0,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            let mut pairs = Vec::new();
            for (k, xt) in x {
                let Some(yt) = y.get(k) else {
                    return 0;
                };
                pairs.push((xt, yt));
            }
            fold(pairs)
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            fold(x.iter().zip(y).collect())
        }
        _ => 0,
    }
}

/// cty's `sortTypes`: indices in preference order (most general first), by a topological
/// sort of the "more general than" relation that keeps the given order among unrelated
/// types.
fn sort_types(types: &[Type]) -> Vec<usize> {
    let l = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); l];
    for i in 0..l {
        for j in (i + 1)..l {
            let c = compare_types(&types[i], &types[j], 0);
            if c < 0 {
                edges[i].push(j);
            } else if c > 0 {
                edges[j].push(i);
            }
        }
    }
    let mut in_degree = vec![0usize; l];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut result: Vec<usize> = (0..l).filter(|&i| in_degree[i] == 0).collect();
    let mut head = 0;
    while head < result.len() {
        let i = result[head];
        head += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                result.push(j);
            }
        }
    }
    result
}

// ---------------------------------------------------------------------------------------
// Defaults of optional attributes (`typeexpr.Defaults`)

/// The defaults of a type constraint's optional attributes (HCL's `typeexpr.Defaults`):
/// built from the type and the `(path, value)` pairs of its `optional(T, DEFAULT)`
/// attributes ([`Type::from_expr_with_defaults`], defaults evaluated), applied to a value
/// before it is converted to the type.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    ty: Type,
    values: BTreeMap<String, Value>,
    /// Keyed by attribute name (objects), tuple index, or `""` (list, set and map
    /// elements).
    children: BTreeMap<String, Defaults>,
}

impl Defaults {
    /// The defaults of `ty` given the paths of its defaults (steps as in
    /// [`Type::from_expr_with_optional`]: attribute names, `"*"` for collection elements,
    /// tuple indices). `None` when there are none.
    pub fn new(ty: &Type, defaults: &[(Vec<String>, Value)]) -> Option<Defaults> {
        let mut root = Defaults::of(ty.clone());
        for (path, value) in defaults {
            root.insert(path, value.clone());
        }
        (!root.is_empty()).then_some(root)
    }

    fn of(ty: Type) -> Defaults {
        Defaults {
            ty,
            values: BTreeMap::new(),
            children: BTreeMap::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.values.is_empty() && self.children.is_empty()
    }

    fn insert(&mut self, path: &[String], value: Value) {
        match path {
            [] => {}
            [name] => {
                self.values.insert(name.clone(), value);
            }
            [step, rest @ ..] => {
                let (key, ty) = match &self.ty {
                    Type::Object(atys) => (step.clone(), atys.get(step).cloned()),
                    Type::List(e) | Type::Set(e) | Type::Map(e) => {
                        (String::new(), Some((**e).clone()))
                    }
                    Type::Tuple(etys) => (
                        step.clone(),
                        step.parse::<usize>()
                            .ok()
                            .and_then(|i| etys.get(i).cloned()),
                    ),
                    _ => return,
                };
                let Some(ty) = ty else { return };
                self.children
                    .entry(key)
                    .or_insert_with(|| Defaults::of(ty))
                    .insert(rest, value);
            }
        }
    }

    /// `Defaults.Apply`: missing or null optional attributes get their defaults, at any
    /// depth; null and unknown values are left alone.
    pub fn apply(&self, v: &Value) -> Value {
        self.apply_depth(v, 0)
    }

    fn child(&self, key: &str) -> Option<&Defaults> {
        match &self.ty {
            Type::List(_) | Type::Set(_) | Type::Map(_) => self.children.get(""),
            Type::Tuple(_) | Type::Object(_) => self.children.get(key),
            _ => None,
        }
    }

    fn apply_depth(&self, v: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH || v.is_null() || v.is_unknown() || self.is_empty() {
            return v.clone();
        }
        let d = depth + 1;
        match v {
            Value::List(_, elems) | Value::Set(_, elems) | Value::Tuple(elems) => {
                let values: Vec<Value> = elems
                    .iter()
                    .enumerate()
                    .map(|(i, e)| match self.child(&i.to_string()) {
                        Some(c) => c.apply_depth(e, d),
                        None => e.clone(),
                    })
                    .collect();
                match v {
                    Value::List(ety, _) | Value::Set(ety, _) if values.is_empty() => match v {
                        Value::Set(..) => Value::Set(ety.clone(), values),
                        _ => Value::List(ety.clone(), values),
                    },
                    Value::List(..) | Value::Set(..) => match unify_values(&values) {
                        Some((ety, converted)) if matches!(v, Value::Set(..)) => {
                            Value::set(ety, converted)
                        }
                        Some((ety, converted)) => Value::List(ety, converted),
                        None => Value::Tuple(values),
                    },
                    _ => Value::Tuple(values),
                }
            }
            Value::Map(_, attrs) | Value::Object(attrs) => {
                let mut values: BTreeMap<String, Value> = attrs
                    .iter()
                    .map(|(k, e)| {
                        let e = match self.child(k) {
                            Some(c) => c.apply_depth(e, d),
                            None => e.clone(),
                        };
                        (k.clone(), e)
                    })
                    .collect();
                for (key, default) in &self.values {
                    if values.get(key).is_none_or(Value::is_null) {
                        let filled = match self.children.get(key) {
                            Some(c) => c.apply_depth(default, d),
                            None => default.clone(),
                        };
                        values.insert(key.clone(), filled);
                    }
                }
                if let Value::Map(ety, _) = v {
                    if values.is_empty() {
                        return Value::Map(ety.clone(), values);
                    }
                    let list: Vec<Value> = values.values().cloned().collect();
                    if let Some((ety, converted)) = unify_values(&list) {
                        return Value::Map(ety, values.into_keys().zip(converted).collect());
                    }
                }
                Value::Object(values)
            }
            _ => v.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_missing_and_null_optional_attributes_at_any_depth() {
        use crate::syntax::{parse_expr, SourceFile};
        let src = SourceFile::new(
            "t.tf",
            "object({ a = optional(string, \"da\"), inner = optional(object({ b = optional(number, 7) })), l = optional(list(object({ z = optional(bool, true), w = string })), []) })",
        );
        let expr = parse_expr(&src).unwrap();
        let tc = Type::from_expr_with_defaults(&expr).unwrap();
        let defaults: Vec<(Vec<String>, Value)> = tc
            .defaults
            .iter()
            .map(|(p, e)| {
                (
                    p.clone(),
                    crate::eval::expr(e, &crate::eval::EvalContext::empty(), &src).0,
                )
            })
            .collect();
        let d = Defaults::new(&tc.ty, &defaults).unwrap();
        let given = Value::object_from([(
            "l",
            Value::Tuple(vec![
                Value::object_from([("w", Value::string("1"))]),
                Value::object_from([("w", Value::string("2")), ("z", Value::Bool(false))]),
            ]),
        )]);
        let applied = d.apply(&given);
        let converted = convert_with_optional(&applied, &tc.ty, &tc.optional).unwrap();
        let expected = convert(
            &Value::object_from([
                ("a", Value::string("da")),
                ("inner", Value::Null(Type::object([("b", Type::Number)]))),
                (
                    "l",
                    Value::Tuple(vec![
                        Value::object_from([("w", Value::string("1")), ("z", Value::Bool(true))]),
                        Value::object_from([("w", Value::string("2")), ("z", Value::Bool(false))]),
                    ]),
                ),
            ]),
            &tc.ty,
        )
        .unwrap();
        assert_eq!(converted, expected);
        // Null is left alone (a nullable variable may be null).
        assert!(d.apply(&Value::Null(tc.ty.clone())).is_null());
        // Without defaults, two arguments to optional() are an error.
        assert!(Type::from_expr_with_optional(&expr).is_err());
    }

    fn n(s: &str) -> Value {
        Value::Number(Number::parse(s).unwrap_or_else(Number::zero))
    }
    fn s(x: &str) -> Value {
        Value::from(x)
    }
    fn conv(v: &Value, t: &Type) -> Result<Value, String> {
        convert(v, t).map_err(|e| e.to_string())
    }
    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::object_from(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())))
    }
    fn oty(pairs: &[(&str, Type)]) -> Type {
        Type::object(pairs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    #[test]
    fn primitives() {
        assert_eq!(conv(&n("1.50"), &Type::String), Ok(s("1.5")));
        assert_eq!(conv(&n("1e3"), &Type::String), Ok(s("1000")));
        assert_eq!(conv(&Value::from(true), &Type::String), Ok(s("true")));
        assert_eq!(conv(&s("12.5e1"), &Type::Number), Ok(n("125")));
        assert_eq!(conv(&s("-0.5"), &Type::Number), Ok(n("-0.5")));
        assert_eq!(
            conv(&s("abc"), &Type::Number),
            Err("a number is required".into())
        );
        assert_eq!(
            conv(&s(" 1"), &Type::Number),
            Err("a number is required".into())
        );
        assert_eq!(conv(&s("true"), &Type::Bool), Ok(Value::from(true)));
        assert_eq!(conv(&s("1"), &Type::Bool), Ok(Value::from(true)));
        assert_eq!(conv(&s("0"), &Type::Bool), Ok(Value::from(false)));
        assert_eq!(
            conv(&s("yes"), &Type::Bool),
            Err("a bool is required".into())
        );
        assert_eq!(
            conv(&s("True"), &Type::Bool),
            Err("a bool is required; to convert from string, use lowercase \"true\"".into())
        );
        assert_eq!(conv(&n("1"), &Type::Bool), Err("bool required".into()));
        assert_eq!(
            conv(&Value::from(true), &Type::Number),
            Err("number required".into())
        );
        assert_eq!(
            conv(&Value::tuple(vec![]), &Type::String),
            Err("string required".into())
        );
        assert_eq!(
            convert_safe(&s("1"), &Type::Number).map_err(|e| e.to_string()),
            Err("number required".into())
        );
    }

    #[test]
    fn nulls_unknowns_and_any() {
        assert_eq!(
            conv(&Value::Null(Type::Dynamic), &Type::String),
            Ok(Value::Null(Type::String))
        );
        assert_eq!(
            conv(&Value::Null(Type::String), &Type::Number),
            Ok(Value::Null(Type::Number))
        );
        assert_eq!(
            conv(&Value::Null(Type::String), &Type::list(Type::String)),
            Err("list of string required".into())
        );
        assert_eq!(
            conv(&Value::dynamic(), &Type::list(Type::String)),
            Ok(Value::Unknown(Type::list(Type::String)))
        );
        assert_eq!(
            conv(&Value::Unknown(Type::String), &Type::Number),
            Ok(Value::Unknown(Type::Number))
        );
        // Dynamic parts of the target take the source's types.
        assert_eq!(
            conv(
                &Value::Null(Type::list(Type::String)),
                &Type::list(Type::Dynamic)
            ),
            Ok(Value::Null(Type::list(Type::String)))
        );
        let t = Value::tuple(vec![s("a"), n("1")]);
        assert_eq!(conv(&t, &Type::Dynamic), Ok(t.clone()));
        assert_eq!(
            conv(&Value::Null(Type::String), &Type::Dynamic),
            Ok(Value::Null(Type::String))
        );
    }

    #[test]
    fn tuple_to_list_and_set() {
        let t = Value::tuple(vec![s("a"), n("1"), Value::from(true)]);
        assert_eq!(
            conv(&t, &Type::list(Type::String)),
            Ok(Value::list(Type::String, vec![s("a"), s("1"), s("true")]))
        );
        assert_eq!(
            conv(&t, &Type::list(Type::Dynamic)),
            Ok(Value::list(Type::String, vec![s("a"), s("1"), s("true")]))
        );
        assert_eq!(
            conv(&t, &Type::list(Type::Number)),
            Err("element 2: number required".into())
        );
        assert_eq!(
            conv(
                &Value::tuple(vec![n("1"), s("x")]),
                &Type::list(Type::Number)
            ),
            Err("[1]: a number is required".into())
        );
        let t2 = Value::tuple(vec![n("1"), Value::from(true)]);
        assert_eq!(
            conv(&t2, &Type::list(Type::Dynamic)),
            Err("all list elements must have the same type".into())
        );
        assert_eq!(
            conv(&t2, &Type::set(Type::Dynamic)),
            Err("all set elements must have the same type".into())
        );
        assert_eq!(
            conv(
                &Value::tuple(vec![n("1"), Value::empty_tuple()]),
                &Type::list(Type::Number)
            ),
            Err("element 1: number required".into())
        );
        assert_eq!(
            conv(
                &Value::tuple(vec![s("b"), s("a"), s("b")]),
                &Type::set(Type::String)
            ),
            Ok(Value::Set(Type::String, vec![s("a"), s("b")]))
        );
        assert_eq!(
            conv(&Value::empty_tuple(), &Type::list(Type::Dynamic)),
            Ok(Value::List(Type::Dynamic, vec![]))
        );
        assert_eq!(
            conv(&Value::empty_tuple(), &Type::set(Type::String)),
            Ok(Value::Set(Type::String, vec![]))
        );
        // Elements of object type unify attribute-wise.
        let objs = Value::tuple(vec![obj(&[("a", n("1"))]), obj(&[("a", s("x"))])]);
        assert_eq!(
            conv(&objs, &Type::list(Type::Dynamic)),
            Ok(Value::list(
                oty(&[("a", Type::String)]),
                vec![obj(&[("a", s("1"))]), obj(&[("a", s("x"))])]
            ))
        );
        // Differing attribute names unify to maps.
        let objs2 = Value::tuple(vec![obj(&[("a", n("1"))]), obj(&[("b", s("x"))])]);
        let want_map = |k: &str, v: Value| {
            Value::map(Type::String, [(k.to_string(), v)].into_iter().collect())
        };
        assert_eq!(
            conv(&objs2, &Type::list(Type::Dynamic)),
            Ok(Value::list(
                Type::map(Type::String),
                vec![want_map("a", s("1")), want_map("b", s("x"))]
            ))
        );
    }

    #[test]
    fn list_set_map_conversions() {
        let l = Value::list(Type::String, vec![s("b"), s("a"), s("b")]);
        assert_eq!(
            conv(&l, &Type::set(Type::String)),
            Ok(Value::Set(Type::String, vec![s("a"), s("b")]))
        );
        // cty's (odd but faithful) message for a safe list -> set conversion.
        assert_eq!(
            convert_safe(&l, &Type::set(Type::String)).map_err(|e| e.to_string()),
            Err("incorrect set element type: string required".into())
        );
        let set = Value::set(Type::Number, vec![n("2"), n("1")]);
        assert_eq!(
            conv(&set, &Type::list(Type::String)),
            Ok(Value::list(Type::String, vec![s("1"), s("2")]))
        );
        assert_eq!(
            conv(
                &Value::list(Type::String, vec![s("x")]),
                &Type::list(Type::Number)
            ),
            Err("[0]: a number is required".into())
        );
        assert_eq!(
            conv(
                &Value::list(Type::String, vec![]),
                &Type::list(Type::Dynamic)
            ),
            Ok(Value::List(Type::String, vec![]))
        );
        assert_eq!(
            conv(&Value::list(Type::Bool, vec![]), &Type::map(Type::Bool)),
            Err("map of bool required".into())
        );
        assert_eq!(
            conv(
                &Value::list(Type::list(Type::Bool), vec![]),
                &Type::list(Type::Number)
            ),
            Err("incorrect list element type: number required".into())
        );
        let m = Value::map(
            Type::String,
            [("k".to_string(), s("zz"))].into_iter().collect(),
        );
        assert_eq!(
            conv(&m, &Type::map(Type::Number)),
            Err("[\"k\"]: a number is required".into())
        );
        let sets_unknown = Value::set(Type::String, vec![s("a"), Value::Unknown(Type::String)]);
        assert_eq!(
            conv(&sets_unknown, &Type::list(Type::String)),
            Ok(Value::Unknown(Type::list(Type::String)))
        );
    }

    #[test]
    fn objects_and_maps() {
        let o = obj(&[("a", n("1")), ("b", s("x")), ("extra", Value::from(true))]);
        let want = oty(&[("a", Type::String), ("b", Type::String)]);
        assert_eq!(conv(&o, &want), Ok(obj(&[("a", s("1")), ("b", s("x"))])));
        assert_eq!(
            conv(&o, &oty(&[("a", Type::String), ("c", Type::String)])),
            Err("attribute \"c\" is required".into())
        );
        assert_eq!(
            conv(
                &o,
                &oty(&[
                    ("c", Type::String),
                    ("d", Type::String),
                    ("a", Type::String)
                ])
            ),
            Err("attributes \"c\" and \"d\" are required".into())
        );
        assert_eq!(
            conv(
                &o,
                &oty(&[
                    ("c", Type::String),
                    ("d", Type::String),
                    ("e", Type::String)
                ])
            ),
            Err("attributes \"c\", \"d\", and \"e\" are required".into())
        );
        assert_eq!(
            conv(&o, &oty(&[("a", Type::list(Type::String))])),
            Err("attribute \"a\": list of string required".into())
        );
        assert_eq!(
            conv(&o, &oty(&[("b", Type::Number)])),
            Err(".b: a number is required".into())
        );
        let nested = obj(&[("l", Value::tuple(vec![s("1"), s("x")]))]);
        assert_eq!(
            conv(&nested, &oty(&[("l", Type::list(Type::Number))])),
            Err(".l[1]: a number is required".into())
        );
        // object -> map
        let om = obj(&[("a", n("1")), ("b", s("x"))]);
        assert_eq!(
            conv(&om, &Type::map(Type::String)),
            Ok(Value::map(
                Type::String,
                [("a".to_string(), s("1")), ("b".to_string(), s("x"))]
                    .into_iter()
                    .collect()
            ))
        );
        assert_eq!(
            conv(&om, &Type::map(Type::Number)),
            Err("[\"b\"]: a number is required".into())
        );
        assert_eq!(
            conv(
                &obj(&[("a", n("1")), ("b", Value::from(true))]),
                &Type::map(Type::Dynamic)
            ),
            Err("all map elements must have the same type".into())
        );
        assert_eq!(
            conv(
                &obj(&[("a", Value::empty_tuple())]),
                &Type::map(Type::String)
            ),
            Err("element \"a\": string required".into())
        );
        assert_eq!(
            conv(&Value::empty_object(), &Type::map(Type::Dynamic)),
            Ok(Value::Map(Type::Dynamic, BTreeMap::new()))
        );
        // map -> object
        let m = Value::map(
            Type::String,
            [("a".to_string(), s("1")), ("z".to_string(), s("q"))]
                .into_iter()
                .collect(),
        );
        assert_eq!(
            conv(&m, &oty(&[("a", Type::Number)])),
            Ok(obj(&[("a", n("1"))]))
        );
        assert_eq!(
            conv(&m, &oty(&[("a", Type::Number), ("b", Type::String)])),
            Err("map has no element for required attribute \"b\"".into())
        );
        assert_eq!(
            convert_safe(&m, &oty(&[("a", Type::String)])).map_err(|e| e.to_string()),
            Err("object required".into())
        );
    }

    #[test]
    fn tuples() {
        let t = Value::tuple(vec![n("1"), s("2")]);
        assert_eq!(
            conv(&t, &Type::Tuple(vec![Type::String, Type::Number])),
            Ok(Value::tuple(vec![s("1"), n("2")]))
        );
        assert_eq!(
            conv(&t, &Type::Tuple(vec![Type::String])),
            Err("tuple required".into())
        );
    }

    #[test]
    fn unification() {
        assert_eq!(unify(&[Type::String, Type::Number]), Some(Type::String));
        assert_eq!(unify(&[Type::Number, Type::Bool]), None);
        assert_eq!(unify(&[Type::Number, Type::Dynamic]), Some(Type::Number));
        assert_eq!(unify(&[Type::Dynamic, Type::Dynamic]), Some(Type::Dynamic));
        assert_eq!(unify(&[]), None);
        assert_eq!(
            unify(&[oty(&[("a", Type::String)]), oty(&[("a", Type::Number)])]),
            Some(oty(&[("a", Type::String)]))
        );
        assert_eq!(
            unify(&[oty(&[("a", Type::String)]), oty(&[("b", Type::Number)])]),
            Some(Type::map(Type::String))
        );
        assert_eq!(
            unify(&[oty(&[("a", Type::Bool)]), oty(&[("a", Type::Number)])]),
            None
        );
        assert_eq!(
            unify(&[
                Type::Tuple(vec![Type::String]),
                Type::Tuple(vec![Type::Number])
            ]),
            Some(Type::Tuple(vec![Type::String]))
        );
        assert_eq!(
            unify(&[
                Type::Tuple(vec![Type::String]),
                Type::Tuple(vec![Type::Number, Type::Bool])
            ]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::list(Type::String), Type::list(Type::Number)]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::list(Type::String), Type::Tuple(vec![Type::Number])]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::map(Type::Number), oty(&[("a", Type::String)])]),
            Some(Type::map(Type::String))
        );
        assert_eq!(
            unify(&[Type::list(Type::String), Type::set(Type::String)]),
            Some(Type::list(Type::String))
        );
        assert_eq!(unify(&[oty(&[]), Type::Tuple(vec![])]), None);
        assert_eq!(
            unify(&[Type::list(Type::String), Type::Dynamic]),
            Some(Type::Dynamic)
        );
        assert_eq!(
            unify_safe(&[Type::String, Type::Number]),
            Some(Type::String)
        );
        assert_eq!(
            unify_safe(&[Type::String, Type::Dynamic]),
            Some(Type::Dynamic)
        );
        assert_eq!(unify_safe(&[Type::Number, Type::Bool]), None);
    }

    #[test]
    fn unify_values_converts() {
        let (t, vs) = unify_values(&[n("1"), s("a")]).unwrap_or((Type::Dynamic, vec![]));
        assert_eq!(t, Type::String);
        assert_eq!(vs, vec![s("1"), s("a")]);
        let (t, vs) = unify_values(&[Value::list(Type::String, vec![s("a")]), Value::dynamic()])
            .unwrap_or((Type::String, vec![]));
        assert_eq!(t, Type::Dynamic);
        assert_eq!(vs, vec![Value::dynamic(), Value::dynamic()]);
        assert!(unify_values(&[n("1"), Value::from(true)]).is_none());
    }

    #[test]
    fn optional_attributes() {
        let expr: hcl_edit::expr::Expression =
            "list(object({a=string, b=optional(number), c=optional(object({d=optional(bool)}))}))"
                .parse()
                .unwrap_or_else(|_| hcl_edit::expr::Expression::null());
        let (ty, opts) = Type::from_expr_with_optional(&expr).unwrap_or((Type::Dynamic, vec![]));
        let v = Value::tuple(vec![
            obj(&[("a", s("x"))]),
            obj(&[("a", s("y")), ("b", s("2")), ("c", Value::empty_object())]),
        ]);
        let got = convert_with_optional(&v, &ty, &opts).map_err(|e| e.to_string());
        let c_ty = oty(&[("d", Type::Bool)]);
        let elem_ty = oty(&[
            ("a", Type::String),
            ("b", Type::Number),
            ("c", c_ty.clone()),
        ]);
        assert_eq!(
            got,
            Ok(Value::list(
                elem_ty,
                vec![
                    obj(&[
                        ("a", s("x")),
                        ("b", Value::Null(Type::Number)),
                        ("c", Value::Null(c_ty))
                    ]),
                    obj(&[
                        ("a", s("y")),
                        ("b", n("2")),
                        ("c", obj(&[("d", Value::Null(Type::Bool))]))
                    ]),
                ]
            ))
        );
        let missing = Value::tuple(vec![obj(&[("b", n("1"))])]);
        assert_eq!(
            convert_with_optional(&missing, &ty, &opts).map_err(|e| e.to_string()),
            Err("element 0: attribute \"a\" is required".into())
        );
    }

    #[test]
    fn large_tuple_is_fast() {
        let elems: Vec<Value> = (0..20_000).map(|i| Value::from(i as i64)).collect();
        let t = Value::tuple(elems);
        let l = convert(&t, &Type::list(Type::Dynamic));
        assert!(matches!(l, Ok(Value::List(Type::Number, ref v)) if v.len() == 20_000));
    }
}
