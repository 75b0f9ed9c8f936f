//! Collection functions: alltrue, anytrue, chunklist, coalesce, coalescelist, compact,
//! concat, contains, distinct, element, flatten, index, keys, length, lookup, matchkeys,
//! merge, one, range, reverse, setintersection, setproduct, setsubtract, setunion, slice,
//! sort, sum, transpose, values, zipmap.
//!
//! Each follows the cty stdlib function or Terraform 1.5 `funcs` function of the same
//! name: argument types, result types computed from the argument types (tuples stay
//! tuples, objects stay objects), unknown handling and error messages.
//!
//! cty short-circuits a call when an argument is *shallowly* unknown (a known list with
//! unknown elements still reaches the implementation), and a dynamic-typed argument to a
//! parameter that does not accept one makes the result an unknown of unknown type. Most
//! parameters here therefore opt in to unknowns and reproduce that logic themselves, so
//! that result types are as precise as cty's and partially known collections are
//! processed as cty processes them.

use std::collections::BTreeMap;

use super::numeric::go_int;
use super::{FuncError, Function, FunctionTable, Param};
use crate::convert::{convert, unify};
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    let any = |name: &str| Param::new(name, Type::Dynamic).allow_unknown();
    let list_any = |name: &str| Param::new(name, Type::list(Type::Dynamic)).allow_unknown();
    let set_any = |name: &str| Param::new(name, Type::set(Type::Dynamic)).allow_unknown();
    let number = |name: &str| Param::new(name, Type::Number).allow_unknown();

    t.add(Function::new(
        "alltrue",
        vec![Param::new("list", Type::list(Type::Bool)).allow_unknown()],
        Type::Bool,
        alltrue,
    ));
    t.add(Function::new(
        "anytrue",
        vec![Param::new("list", Type::list(Type::Bool)).allow_unknown()],
        Type::Bool,
        anytrue,
    ));
    t.add(Function::new(
        "chunklist",
        vec![list_any("list"), number("size")],
        Type::Dynamic,
        chunklist,
    ));
    t.add(
        Function::new("coalesce", vec![], Type::Dynamic, coalesce)
            .variadic(any("vals").allow_null()),
    );
    t.add(
        Function::new("coalescelist", vec![], Type::Dynamic, coalescelist)
            .variadic(any("vals").allow_null()),
    );
    t.add(Function::new(
        "compact",
        vec![Param::new("list", Type::list(Type::String))],
        Type::list(Type::String),
        compact,
    ));
    t.add(Function::new("concat", vec![], Type::Dynamic, concat).variadic(any("seqs")));
    t.add(Function::new(
        "contains",
        vec![any("list"), any("value")],
        Type::Bool,
        contains,
    ));
    t.add(Function::new(
        "distinct",
        vec![list_any("list")],
        Type::Dynamic,
        distinct,
    ));
    t.add(Function::new(
        "element",
        vec![any("list"), number("index")],
        Type::Dynamic,
        element,
    ));
    t.add(Function::new(
        "flatten",
        vec![any("list")],
        Type::Dynamic,
        flatten,
    ));
    t.add(Function::new(
        "index",
        vec![any("list"), any("value")],
        Type::Number,
        index,
    ));
    t.add(Function::new(
        "keys",
        vec![any("inputMap")],
        Type::Dynamic,
        keys,
    ));
    t.add(Function::new(
        "length",
        vec![any("value")],
        Type::Number,
        length,
    ));
    t.add(
        Function::new(
            "lookup",
            vec![
                any("inputMap"),
                Param::new("key", Type::String).allow_unknown(),
            ],
            Type::Dynamic,
            lookup,
        )
        .variadic(any("default").allow_null()),
    );
    t.add(Function::new(
        "matchkeys",
        vec![list_any("values"), list_any("keys"), list_any("searchset")],
        Type::Dynamic,
        matchkeys,
    ));
    t.add(Function::new("merge", vec![], Type::Dynamic, merge).variadic(any("maps").allow_null()));
    t.add(Function::new("one", vec![any("list")], Type::Dynamic, one));
    t.add(
        Function::new("range", vec![], Type::list(Type::Number), range)
            .variadic(Param::new("params", Type::Number)),
    );
    t.add(Function::new(
        "reverse",
        vec![any("list")],
        Type::Dynamic,
        reverse,
    ));
    t.add(
        Function::new(
            "setintersection",
            vec![set_any("first_set")],
            Type::Dynamic,
            setintersection,
        )
        .variadic(set_any("other_sets")),
    );
    t.add(Function::new("setproduct", vec![], Type::Dynamic, setproduct).variadic(any("sets")));
    t.add(Function::new(
        "setsubtract",
        vec![set_any("a"), set_any("b")],
        Type::Dynamic,
        setsubtract,
    ));
    t.add(
        Function::new(
            "setunion",
            vec![set_any("first_set")],
            Type::Dynamic,
            setunion,
        )
        .variadic(set_any("other_sets")),
    );
    t.add(Function::new(
        "slice",
        vec![any("list"), number("start_index"), number("end_index")],
        Type::Dynamic,
        slice,
    ));
    t.add(Function::new(
        "sort",
        vec![Param::new("list", Type::list(Type::String))],
        Type::list(Type::String),
        sort,
    ));
    t.add(Function::new("sum", vec![any("list")], Type::Number, sum));
    t.add(Function::new(
        "transpose",
        vec![Param::new("values", Type::map(Type::list(Type::String)))],
        Type::map(Type::list(Type::String)),
        transpose,
    ));
    t.add(Function::new(
        "values",
        vec![any("mapping")],
        Type::Dynamic,
        values,
    ));
    t.add(Function::new(
        "zipmap",
        vec![
            Param::new("keys", Type::list(Type::String)).allow_unknown(),
            any("values"),
        ],
        Type::Dynamic,
        zipmap,
    ));
}

/// Bound on the nesting depth `flatten` descends into.
const MAX_DEPTH: usize = 1000;
/// Bound on the number of elements `setproduct` may produce.
const MAX_PRODUCT: usize = 1_000_000;

fn arg(args: &[Value], i: usize) -> Result<&Value, FuncError> {
    args.get(i)
        .ok_or_else(|| FuncError::new(format!("missing argument {}", i + 1)))
}

/// The elements of a known list, set or tuple.
fn seq(v: &Value) -> Option<&[Value]> {
    match v {
        Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => Some(vs),
        _ => None,
    }
}

/// The length of a list, set or tuple when cty knows it: tuples always (from their type),
/// lists when known, sets when wholly known (unknown elements may coalesce).
fn known_len(v: &Value) -> Option<usize> {
    match v {
        Value::Unknown(Type::Tuple(ts)) => Some(ts.len()),
        Value::Unknown(_) | Value::Null(_) => None,
        Value::Set(..) if !v.is_wholly_known() => None,
        _ => v.len(),
    }
}

fn dynamic() -> Value {
    Value::Unknown(Type::Dynamic)
}

fn is_dyn(v: &Value) -> bool {
    v.ty() == Type::Dynamic
}

fn number_value(n: usize) -> Value {
    Value::Number(Number::from(n))
}

fn list_of(ety: Type, elems: Vec<Value>) -> Value {
    Value::list(ety, elems)
}

// ---------------------------------------------------------------------------------------

fn alltrue(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let Some(elems) = seq(list) else {
        return Ok(Value::Unknown(Type::Bool));
    };
    for v in elems {
        match v {
            Value::Unknown(_) => return Ok(Value::Unknown(Type::Bool)),
            Value::Bool(true) => {}
            _ => return Ok(Value::Bool(false)),
        }
    }
    Ok(Value::Bool(true))
}

fn anytrue(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let Some(elems) = seq(list) else {
        return Ok(Value::Unknown(Type::Bool));
    };
    let mut has_unknown = false;
    for v in elems {
        match v {
            Value::Unknown(_) => has_unknown = true,
            Value::Bool(true) => return Ok(Value::Bool(true)),
            _ => {}
        }
    }
    Ok(if has_unknown {
        Value::Unknown(Type::Bool)
    } else {
        Value::Bool(false)
    })
}

fn chunklist(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let size = arg(args, 1)?;
    let list_ty = list.ty();
    let ret = Type::list(list_ty.clone());
    if list.is_unknown() || size.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    let size = go_int(size).map_err(|e| FuncError::new(format!("invalid size: {e}")))?;
    if size < 0 {
        return Err(FuncError::new("the size argument must be positive"));
    }
    let (Value::List(ety, elems), Type::List(_)) = (list, &list_ty) else {
        return Ok(Value::Unknown(ret));
    };
    if elems.is_empty() {
        return Ok(list_of(list_ty, vec![]));
    }
    if size == 0 {
        return Ok(list_of(list_ty, vec![list.clone()]));
    }
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let chunks = elems
        .chunks(size)
        .map(|c| list_of(ety.clone(), c.to_vec()))
        .collect();
    Ok(list_of(list_ty, chunks))
}

fn coalesce(args: &[Value]) -> Result<Value, FuncError> {
    // Terraform's coalesce: the first argument that is neither null nor an empty string,
    // after converting all arguments to their unified type.
    let types: Vec<Type> = args.iter().map(Value::ty).collect();
    let Some(ret) = unify(&types) else {
        return Err(FuncError::new("all arguments must have the same type"));
    };
    for a in args {
        let v = convert(a, &ret).map_err(|e| FuncError::new(e.to_string()))?;
        match &v {
            Value::Unknown(_) => return Ok(Value::Unknown(ret)),
            Value::Null(_) => continue,
            Value::String(s) if ret == Type::String && s.is_empty() => continue,
            _ => return Ok(v),
        }
    }
    Err(FuncError::new("no non-null, non-empty-string arguments"))
}

fn coalescelist(args: &[Value]) -> Result<Value, FuncError> {
    if args.is_empty() {
        return Err(FuncError::new("at least one argument is required"));
    }
    let mut ret: Option<Type> = None;
    let mut types = Vec::with_capacity(args.len());
    for a in args {
        if a.is_unknown() {
            ret = Some(Type::Dynamic);
            break;
        }
        let ty = a.ty();
        if !matches!(ty, Type::List(_) | Type::Tuple(_)) {
            return Err(FuncError::new(
                "coalescelist arguments must be lists or tuples",
            ));
        }
        types.push(ty);
    }
    let ret = ret.unwrap_or_else(|| match types.split_first() {
        Some((first, rest)) if rest.iter().all(|t| t == first) => first.clone(),
        _ => Type::Dynamic,
    });
    for a in args {
        match a {
            Value::Unknown(_) => return Ok(Value::Unknown(ret)),
            Value::Null(_) => continue,
            _ if a.len().unwrap_or(0) > 0 => return Ok(a.clone()),
            _ => {}
        }
    }
    Err(FuncError::new("no non-null arguments"))
}

fn compact(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if !list.is_wholly_known() {
        return Ok(Value::Unknown(Type::list(Type::String)));
    }
    let elems = seq(list).unwrap_or(&[]);
    let out = elems
        .iter()
        .filter(|v| matches!(v, Value::String(s) if !s.is_empty()))
        .cloned()
        .collect();
    Ok(list_of(Type::String, out))
}

fn concat(args: &[Value]) -> Result<Value, FuncError> {
    if args.iter().any(is_dyn) {
        return Ok(dynamic());
    }
    if args.is_empty() {
        return Err(FuncError::new("at least one argument is required"));
    }
    // The result type: a list when all arguments are lists of a unifiable element type,
    // otherwise a tuple of all the elements' types.
    let mut ret: Option<Type> = None;
    if args.iter().all(|a| matches!(a.ty(), Type::List(_))) {
        let tys: Vec<Type> = args.iter().map(Value::ty).collect();
        ret = unify(&tys);
    }
    let ret = match ret {
        Some(t) => t,
        None => {
            let mut etys = Vec::new();
            let mut dynamic_result = false;
            for (i, a) in args.iter().enumerate() {
                match (a.ty(), a) {
                    (Type::Tuple(ts), _) => etys.extend(ts),
                    (Type::List(_), Value::Unknown(_)) => {
                        dynamic_result = true;
                        break;
                    }
                    (Type::List(ety), _) => {
                        let n = a.len().unwrap_or(0);
                        etys.extend(std::iter::repeat_n((*ety).clone(), n));
                    }
                    (ty, _) => {
                        return Err(FuncError::arg(
                            i,
                            format!(
                                "all arguments must be lists or tuples; got {}",
                                ty.friendly_name()
                            ),
                        ))
                    }
                }
            }
            if dynamic_result {
                Type::Dynamic
            } else {
                Type::Tuple(etys)
            }
        }
    };
    if args.iter().any(Value::is_unknown) {
        return Ok(Value::Unknown(ret));
    }
    match &ret {
        Type::List(ety) => {
            let mut out = Vec::new();
            for (i, a) in args.iter().enumerate() {
                let c = convert(a, &ret).map_err(|e| FuncError::arg(i, e.to_string()))?;
                out.extend(seq(&c).unwrap_or(&[]).iter().cloned());
            }
            Ok(list_of((**ety).clone(), out))
        }
        _ => {
            let mut out = Vec::new();
            for a in args {
                out.extend(seq(a).unwrap_or(&[]).iter().cloned());
            }
            Ok(Value::tuple(out))
        }
    }
}

fn contains(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let value = arg(args, 1)?;
    if is_dyn(list) || is_dyn(value) {
        return Ok(dynamic());
    }
    if list.is_unknown() || value.is_unknown() {
        return Ok(Value::Unknown(Type::Bool));
    }
    let Some(elems) = seq(list) else {
        return Err(FuncError::new("argument must be list, tuple, or set"));
    };
    let mut contains_unknown = false;
    for v in elems {
        match value.equals(v) {
            Value::Bool(true) => return Ok(Value::Bool(true)),
            Value::Bool(false) => {}
            _ => contains_unknown = true,
        }
    }
    Ok(if contains_unknown {
        Value::Unknown(Type::Bool)
    } else {
        Value::Bool(false)
    })
}

fn distinct(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let ret = list.ty();
    if !list.is_wholly_known() {
        return Ok(Value::Unknown(ret));
    }
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    let mut out: Vec<Value> = Vec::new();
    for v in seq(list).unwrap_or(&[]) {
        if !out.iter().any(|o| o.equals(v) == Value::Bool(true)) {
            out.push(v.clone());
        }
    }
    Ok(list_of(ety, out))
}

fn element(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let index = arg(args, 1)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    if let Value::Number(n) = index {
        if n.is_negative() {
            return Err(FuncError::new(
                "cannot use element function with a negative index",
            ));
        }
    }
    let ret = match list.ty() {
        Type::List(ety) => *ety,
        Type::Tuple(etys) => {
            if index.is_unknown() {
                Type::Dynamic
            } else {
                let i = go_int(index).map_err(|e| FuncError::new(format!("invalid index: {e}")))?;
                if etys.is_empty() {
                    return Err(FuncError::new(
                        "cannot use element function with an empty list",
                    ));
                }
                let i = (i as u64 % etys.len() as u64) as usize;
                etys.get(i).cloned().unwrap_or(Type::Dynamic)
            }
        }
        ty => {
            return Err(FuncError::new(format!(
                "cannot read elements from {}",
                ty.friendly_name()
            )))
        }
    };
    if list.is_unknown() || index.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    let i = go_int(index).map_err(|e| FuncError::new(format!("invalid index: {e}")))?;
    let elems = seq(list).unwrap_or(&[]);
    if elems.is_empty() {
        return Err(FuncError::new(
            "cannot use element function with an empty list",
        ));
    }
    let i = (i as u64 % elems.len() as u64) as usize;
    Ok(elems.get(i).cloned().unwrap_or(Value::Unknown(ret)))
}

fn flatten(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    let mut ret = Type::Dynamic;
    if list.is_wholly_known() {
        if !matches!(list.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
            return Err(FuncError::new("can only flatten lists, sets and tuples"));
        }
        let (out, known) = flattener(list, 0)?;
        if known {
            ret = Type::Tuple(out.iter().map(Value::ty).collect());
        }
    }
    if list.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    if list.len() == Some(0) {
        return Ok(Value::empty_tuple());
    }
    let (out, known) = flattener(list, 0)?;
    if !known {
        return Ok(Value::Unknown(ret));
    }
    Ok(Value::tuple(out))
}

/// Flattens nested lists, sets and tuples; `false` when an unknown sequence (or a set of
/// unknown length, or a value of unknown type) makes the result unknowable.
fn flattener(v: &Value, depth: usize) -> Result<(Vec<Value>, bool), FuncError> {
    if depth > MAX_DEPTH {
        return Err(FuncError::new("the value is nested too deeply to flatten"));
    }
    if known_len(v).is_none() {
        return Ok((Vec::new(), false));
    }
    let mut out = Vec::new();
    let mut known = true;
    for e in seq(v).unwrap_or(&[]) {
        if matches!(e, Value::Unknown(Type::Dynamic)) {
            known = false;
        }
        if matches!(e.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
            if e.is_unknown() {
                known = false;
                continue;
            }
            if e.is_null() {
                return Err(FuncError::new("cannot flatten a null sequence"));
            }
            let (res, k) = flattener(e, depth + 1)?;
            if k {
                out.extend(res);
            } else {
                known = false;
            }
        } else {
            out.push(e.clone());
        }
    }
    Ok((out, known))
}

fn index(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let value = arg(args, 1)?;
    if is_dyn(list) || is_dyn(value) {
        return Ok(dynamic());
    }
    if list.is_unknown() || value.is_unknown() {
        return Ok(Value::Unknown(Type::Number));
    }
    let elems = match list {
        Value::List(_, vs) | Value::Tuple(vs) => vs,
        _ => return Err(FuncError::new("argument must be a list or tuple")),
    };
    if elems.is_empty() {
        return Err(FuncError::new("cannot search an empty list"));
    }
    for (i, v) in elems.iter().enumerate() {
        match v.equals(value) {
            Value::Bool(true) => return Ok(number_value(i)),
            Value::Bool(false) => {}
            _ => return Ok(Value::Unknown(Type::Number)),
        }
    }
    Err(FuncError::new("item not found"))
}

fn keys(args: &[Value]) -> Result<Value, FuncError> {
    let m = arg(args, 0)?;
    match m.ty() {
        Type::Dynamic => Ok(dynamic()),
        Type::Object(attrs) => Ok(Value::tuple(
            attrs.keys().map(|k| Value::string(k.clone())).collect(),
        )),
        Type::Map(_) => match m {
            Value::Map(_, entries) => Ok(list_of(
                Type::String,
                entries.keys().map(|k| Value::string(k.clone())).collect(),
            )),
            _ => Ok(Value::Unknown(Type::list(Type::String))),
        },
        _ => Err(FuncError::arg(0, "must have map or object type")),
    }
}

fn length(args: &[Value]) -> Result<Value, FuncError> {
    let v = arg(args, 0)?;
    match (v.ty(), v) {
        (Type::Dynamic, _) => Ok(Value::Unknown(Type::Number)),
        (Type::Tuple(ts), _) => Ok(number_value(ts.len())),
        (Type::Object(attrs), _) => Ok(number_value(attrs.len())),
        (Type::String, Value::String(s)) => Ok(number_value(
            unicode_segmentation::UnicodeSegmentation::graphemes(s.as_str(), true).count(),
        )),
        (Type::String, _) => Ok(Value::Unknown(Type::Number)),
        (Type::List(_) | Type::Set(_) | Type::Map(_), _) => match known_len(v) {
            Some(n) => Ok(number_value(n)),
            None => Ok(Value::Unknown(Type::Number)),
        },
        _ => Err(FuncError::new(
            "argument must be a string, a collection type, or a structural type",
        )),
    }
}

fn lookup(args: &[Value]) -> Result<Value, FuncError> {
    if args.len() > 3 {
        return Err(FuncError::new(format!(
            "lookup() takes two or three arguments, got {}",
            args.len()
        )));
    }
    let m = arg(args, 0)?;
    let key = arg(args, 1)?;
    let default = args.get(2);
    if is_dyn(m) {
        return Ok(dynamic());
    }
    let ret = match m.ty() {
        Type::Object(attrs) => match key {
            Value::String(k) => match (attrs.get(k), default) {
                (Some(t), _) => t.clone(),
                (None, Some(d)) => d.ty(),
                (None, None) => {
                    return Err(FuncError::arg(
                        0,
                        format!("the given object has no attribute {}", go_quote(k)),
                    ))
                }
            },
            _ => Type::Dynamic,
        },
        Type::Map(ety) => {
            if let Some(d) = default {
                if convert(d, &ety).is_err() {
                    return Err(FuncError::arg(
                        2,
                        "the default value must have the same type as the map elements",
                    ));
                }
            }
            *ety
        }
        _ => {
            return Err(FuncError::arg(
                0,
                "lookup() requires a map as the first argument",
            ))
        }
    };
    let Value::String(k) = key else {
        return Ok(Value::Unknown(ret));
    };
    match m {
        Value::Object(attrs) | Value::Map(_, attrs) => {
            if let Some(v) = attrs.get(k) {
                return Ok(v.clone());
            }
        }
        _ => return Ok(Value::Unknown(ret)),
    }
    match default {
        Some(d) => convert(d, &ret).map_err(|e| FuncError::new(e.to_string())),
        None => Err(FuncError::new(format!(
            "lookup failed to find key {}",
            go_quote(k)
        ))),
    }
}

fn matchkeys(args: &[Value]) -> Result<Value, FuncError> {
    let values = arg(args, 0)?;
    let keys = arg(args, 1)?;
    let searchset = arg(args, 2)?;
    let Some(kty) = unify(&[keys.ty(), searchset.ty()]) else {
        return Err(FuncError::new(
            "keys and searchset must be of the same type",
        ));
    };
    let ret = values.ty();
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    if values.is_unknown() || keys.is_unknown() || searchset.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    if values.len() != keys.len() {
        return Err(FuncError::new("length of keys and values should be equal"));
    }
    let keys = convert(keys, &kty).map_err(|e| FuncError::new(e.to_string()))?;
    let searchset = convert(searchset, &kty).map_err(|e| FuncError::new(e.to_string()))?;
    let search = seq(&searchset).unwrap_or(&[]);
    if search.is_empty() {
        return Ok(list_of(ety, vec![]));
    }
    if !values.is_wholly_known() || !keys.is_wholly_known() {
        return Ok(Value::Unknown(ret));
    }
    let vals = seq(values).unwrap_or(&[]);
    let mut out = Vec::new();
    for (i, key) in seq(&keys).unwrap_or(&[]).iter().enumerate() {
        for s in search {
            match key.equals(s) {
                Value::Bool(true) => {
                    if let Some(v) = vals.get(i) {
                        out.push(v.clone());
                    }
                    break;
                }
                Value::Bool(false) => {}
                _ => return Ok(list_of(ety, vec![])),
            }
        }
    }
    Ok(list_of(ety, out))
}

fn merge(args: &[Value]) -> Result<Value, FuncError> {
    // The result type, as cty's MergeFunc computes it.
    let ret = if args.is_empty() {
        Type::Object(BTreeMap::new())
    } else {
        let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
        let mut first: Option<Type> = None;
        let mut matching = true;
        let mut attrs_known = true;
        let mut dynamic_arg = false;
        for a in args {
            let ty = a.ty();
            if ty == Type::Dynamic {
                dynamic_arg = true;
                break;
            }
            match (&ty, a) {
                (Type::Object(ats), _) if !a.is_null() => {
                    attrs.extend(ats.iter().map(|(k, t)| (k.clone(), t.clone())));
                }
                (Type::Object(_), _) => {}
                (Type::Map(ety), Value::Map(_, entries)) => {
                    for k in entries.keys() {
                        attrs.insert(k.clone(), (**ety).clone());
                    }
                }
                (Type::Map(_), Value::Null(_)) => {}
                (Type::Map(_), _) => attrs_known = false,
                _ => {
                    return Err(FuncError::new(format!(
                        "arguments must be maps or objects, got {}",
                        go_quote(&ty.friendly_name())
                    )))
                }
            }
            match &first {
                None => first = Some(ty),
                Some(f) if *f != ty => matching = false,
                Some(_) => {}
            }
        }
        if dynamic_arg {
            Type::Dynamic
        } else if matching {
            first.unwrap_or(Type::Object(BTreeMap::new()))
        } else if !attrs_known {
            Type::Dynamic
        } else {
            Type::Object(attrs)
        }
    };
    if args.iter().any(Value::is_unknown) {
        return Ok(Value::Unknown(ret));
    }
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for a in args {
        if let Value::Map(_, m) | Value::Object(m) = a {
            out.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    match ret {
        Type::Map(ety) => Ok(Value::map(*ety, out)),
        _ => Ok(Value::object(out)),
    }
}

fn one(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    let too_many = || {
        FuncError::arg(
            0,
            "must be a list, set, or tuple value with either zero or one elements",
        )
    };
    let ret = match list.ty() {
        Type::List(ety) | Type::Set(ety) => *ety,
        Type::Tuple(etys) => match etys.as_slice() {
            [] => Type::Dynamic,
            [t] => t.clone(),
            _ => return Err(too_many()),
        },
        _ => return Err(too_many()),
    };
    if list.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    match known_len(list) {
        None => Ok(Value::Unknown(ret)),
        Some(0) => Ok(Value::Null(ret)),
        Some(1) => Ok(seq(list)
            .and_then(|e| e.first())
            .cloned()
            .unwrap_or(Value::Null(ret))),
        Some(_) => Err(too_many()),
    }
}

fn range(args: &[Value]) -> Result<Value, FuncError> {
    let nums: Vec<&Number> = args.iter().filter_map(Value::as_number).collect();
    if nums.len() != args.len() {
        return Err(FuncError::new("number required"));
    }
    let zero = Number::zero();
    let (start, end, step) = match nums.as_slice() {
        [end] => {
            let step = if end.cmp(&&zero).is_lt() { -1 } else { 1 };
            (zero.clone(), (*end).clone(), Number::from_i64(step))
        }
        [start, end] => {
            let step = if end < start { -1 } else { 1 };
            ((*start).clone(), (*end).clone(), Number::from_i64(step))
        }
        [start, end, step] => ((*start).clone(), (*end).clone(), (*step).clone()),
        _ => return Err(FuncError::new("must have one, two, or three arguments")),
    };
    // cty checks `step == cty.Zero` by identity, which a zero from a configuration never
    // is: a zero step therefore runs into the 1024-element limit below (or yields nothing
    // when start >= end), exactly as in Terraform.
    let down = step < zero;
    if down {
        if end > start {
            return Err(FuncError::arg(
                1,
                "end must be less than start when step is negative",
            ));
        }
    } else if end < start {
        return Err(FuncError::arg(
            1,
            "end must be greater than start when step is positive",
        ));
    }
    let mut vals = Vec::new();
    let mut num = start;
    loop {
        if (down && num <= end) || (!down && num >= end) {
            break;
        }
        if vals.len() >= 1024 {
            return Err(FuncError::new("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"));
        }
        vals.push(Value::Number(num.clone()));
        num = num.add(&step);
    }
    Ok(list_of(Type::Number, vals))
}

fn reverse(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    let ret = match list.ty() {
        Type::Tuple(mut etys) => {
            etys.reverse();
            Type::Tuple(etys)
        }
        Type::List(ety) | Type::Set(ety) => Type::List(ety),
        ty => {
            return Err(FuncError::arg(
                0,
                format!(
                    "can only reverse list or tuple values, not {}",
                    ty.friendly_name()
                ),
            ))
        }
    };
    if list.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    let mut elems: Vec<Value> = seq(list).unwrap_or(&[]).to_vec();
    elems.reverse();
    match ret {
        Type::List(ety) => Ok(list_of(*ety, elems)),
        _ => Ok(Value::tuple(elems)),
    }
}

/// cty's `setOperationReturnType`: a set of the unified element types, ignoring empty
/// sets of unknown element type.
fn set_operation_type(args: &[Value]) -> Result<Type, FuncError> {
    let mut etys = Vec::new();
    for a in args {
        let ety = a.ty().element_type().cloned().unwrap_or(Type::Dynamic);
        if a.is_known() && a.len() == Some(0) && ety == Type::Dynamic {
            continue;
        }
        etys.push(ety);
    }
    if etys.is_empty() {
        return Ok(Type::set(Type::Dynamic));
    }
    match unify(&etys) {
        Some(t) => Ok(Type::set(t)),
        None => Err(FuncError::new(
            "given sets must all have compatible element types",
        )),
    }
}

#[derive(Clone, Copy)]
enum SetOp {
    Union,
    Intersection,
    Subtract,
}

fn set_operation(args: &[Value], op: SetOp) -> Result<Value, FuncError> {
    let ret = set_operation_type(args)?;
    if args.iter().any(Value::is_unknown) {
        return Ok(Value::Unknown(ret));
    }
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    let allow_unknowns = matches!(op, SetOp::Union);
    let mut result: Option<Vec<Value>> = None;
    for (i, a) in args.iter().enumerate() {
        let c = convert(a, &ret).map_err(|e| FuncError::arg(i, e.to_string()))?;
        if !allow_unknowns && !c.is_wholly_known() {
            return Ok(Value::Unknown(ret));
        }
        let elems = seq(&c).unwrap_or(&[]).to_vec();
        result = Some(match result {
            None => elems,
            Some(acc) => match op {
                SetOp::Union => acc.into_iter().chain(elems).collect(),
                SetOp::Intersection => acc.into_iter().filter(|v| elems.contains(v)).collect(),
                SetOp::Subtract => acc.into_iter().filter(|v| !elems.contains(v)).collect(),
            },
        });
    }
    Ok(Value::set(ety, result.unwrap_or_default()))
}

fn setunion(args: &[Value]) -> Result<Value, FuncError> {
    set_operation(args, SetOp::Union)
}

fn setintersection(args: &[Value]) -> Result<Value, FuncError> {
    set_operation(args, SetOp::Intersection)
}

fn setsubtract(args: &[Value]) -> Result<Value, FuncError> {
    set_operation(args, SetOp::Subtract)
}

fn setproduct(args: &[Value]) -> Result<Value, FuncError> {
    if args.iter().any(is_dyn) {
        return Ok(dynamic());
    }
    if args.len() < 2 {
        return Err(FuncError::new("at least two arguments are required"));
    }
    let mut list_count = 0usize;
    let mut etys = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        match a.ty() {
            Type::Set(ety) => etys.push(*ety),
            Type::List(ety) => {
                etys.push(*ety);
                list_count += 1;
            }
            Type::Tuple(ts) => {
                if ts.is_empty() {
                    etys.push(Type::Dynamic);
                } else {
                    match unify(&ts) {
                        Some(t) => etys.push(t),
                        None => {
                            return Err(FuncError::arg(i, "all elements must be of the same type"))
                        }
                    }
                }
                list_count += 1;
            }
            _ => return Err(FuncError::arg(i, "a set or a list is required")),
        }
    }
    let tuple_ty = Type::Tuple(etys.clone());
    let is_list = list_count == args.len();
    let ret = if is_list {
        Type::list(tuple_ty.clone())
    } else {
        Type::set(tuple_ty.clone())
    };
    if args.iter().any(Value::is_unknown) {
        return Ok(Value::Unknown(ret));
    }
    let mut total = 1usize;
    for a in args {
        match known_len(a) {
            None => return Ok(Value::Unknown(ret)),
            Some(n) => total = total.saturating_mul(n),
        }
    }
    if total > MAX_PRODUCT {
        return Err(FuncError::new(format!(
            "the product would have {total} elements, more than the {MAX_PRODUCT} allowed"
        )));
    }
    // Each argument's elements converted to the common element type.
    let mut columns: Vec<Vec<Value>> = Vec::with_capacity(args.len());
    for (j, a) in args.iter().enumerate() {
        let ty = etys.get(j).cloned().unwrap_or(Type::Dynamic);
        let mut col = Vec::new();
        for (n, v) in seq(a).unwrap_or(&[]).iter().enumerate() {
            let c = convert(v, &ty).map_err(|_| {
                FuncError::new(format!(
                    "failed to convert argVals[{j}][{n}] to {}; this is a bug in cty",
                    ty.friendly_name()
                ))
            })?;
            col.push(c);
        }
        columns.push(col);
    }
    let mut product = Vec::with_capacity(total);
    if total > 0 {
        let mut idx = vec![0usize; args.len()];
        for _ in 0..total {
            let tuple: Vec<Value> = idx
                .iter()
                .zip(&columns)
                .map(|(&n, col)| col.get(n).cloned().unwrap_or(Value::Null(Type::Dynamic)))
                .collect();
            product.push(Value::tuple(tuple));
            for j in (0..idx.len()).rev() {
                idx[j] += 1;
                if idx[j] < columns[j].len() {
                    break;
                }
                idx[j] = 0;
            }
        }
    }
    Ok(if is_list {
        list_of(tuple_ty, product)
    } else {
        Value::set(tuple_ty, product)
    })
}

/// cty's `sliceIndexes`: the validated start and end, and whether both are known.
fn slice_indexes(
    list: &Value,
    start: &Value,
    end: &Value,
) -> Result<(usize, usize, bool), FuncError> {
    let length = match list {
        Value::Unknown(Type::Tuple(ts)) => Some(ts.len()),
        _ => list.len(),
    };
    let mut s = 0usize;
    let mut e = 0usize;
    if start.is_known() {
        let v = go_int(start)
            .map_err(|err| FuncError::arg(1, format!("invalid start index: {err}")))?;
        if v < 0 {
            return Err(FuncError::arg(1, "start index must not be less than zero"));
        }
        s = usize::try_from(v).unwrap_or(usize::MAX);
        if matches!(length, Some(l) if s > l) {
            return Err(FuncError::arg(
                1,
                "start index must not be greater than the length of the list",
            ));
        }
    }
    if end.is_known() {
        let v =
            go_int(end).map_err(|err| FuncError::arg(2, format!("invalid end index: {err}")))?;
        if v < 0 {
            return Err(FuncError::arg(2, "end index must not be less than zero"));
        }
        e = usize::try_from(v).unwrap_or(usize::MAX);
        if matches!(length, Some(l) if e > l) {
            return Err(FuncError::arg(
                2,
                "end index must not be greater than the length of the list",
            ));
        }
    }
    let both = start.is_known() && end.is_known();
    if both && s > e {
        return Err(FuncError::arg(
            1,
            "start index must not be greater than end index",
        ));
    }
    Ok((s, e, both))
}

fn slice(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    let start = arg(args, 1)?;
    let end = arg(args, 2)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    let ty = list.ty();
    if matches!(ty, Type::Set(_)) {
        return Err(FuncError::arg(0, "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important"));
    }
    if !matches!(ty, Type::List(_) | Type::Tuple(_)) {
        return Err(FuncError::arg(0, "must be a list or tuple value"));
    }
    let (s, e, known) = slice_indexes(list, start, end)?;
    let ret = match &ty {
        Type::List(_) => ty.clone(),
        Type::Tuple(etys) if known => {
            Type::Tuple(etys.get(s..e).map(<[Type]>::to_vec).unwrap_or_default())
        }
        _ => Type::Dynamic,
    };
    if list.is_unknown() || start.is_unknown() || end.is_unknown() {
        return Ok(Value::Unknown(ret));
    }
    let elems = seq(list).unwrap_or(&[]);
    let out = elems.get(s..e).map(<[Value]>::to_vec).unwrap_or_default();
    match ret {
        Type::List(ety) => Ok(list_of(*ety, out)),
        _ => Ok(Value::tuple(out)),
    }
}

fn sort(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if !list.is_wholly_known() {
        return Ok(Value::Unknown(Type::list(Type::String)));
    }
    let mut strs: Vec<&str> = Vec::new();
    for (i, v) in seq(list).unwrap_or(&[]).iter().enumerate() {
        match v {
            Value::String(s) => strs.push(s),
            _ => {
                return Err(FuncError::new(format!(
                    "given list element {i} is null; a null string cannot be sorted"
                )))
            }
        }
    }
    strs.sort_unstable();
    Ok(list_of(
        Type::String,
        strs.into_iter().map(Value::string).collect(),
    ))
}

fn sum(args: &[Value]) -> Result<Value, FuncError> {
    let list = arg(args, 0)?;
    if is_dyn(list) {
        return Ok(dynamic());
    }
    if list.is_unknown() {
        return Ok(Value::Unknown(Type::Number));
    }
    let ty = list.ty();
    let Some(n) = list.len() else {
        return Err(FuncError::arg(0, "cannot sum noniterable"));
    };
    if n == 0 {
        return Err(FuncError::arg(0, "cannot sum an empty list"));
    }
    if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
        return Err(FuncError::arg(
            0,
            format!(
                "argument must be list, set, or tuple. Received {}",
                ty.friendly_name()
            ),
        ));
    }
    if !list.is_wholly_known() {
        return Ok(Value::Unknown(Type::Number));
    }
    let bad = || FuncError::arg(0, "argument must be list, set, or tuple of number values");
    let mut total: Option<Number> = None;
    for v in seq(list).unwrap_or(&[]) {
        if v.is_null() {
            return Err(bad());
        }
        let Ok(Value::Number(x)) = convert(v, &Type::Number) else {
            return Err(bad());
        };
        total = Some(match total {
            None => x,
            Some(t) => t.add(&x),
        });
    }
    Ok(Value::Number(total.unwrap_or_else(Number::zero)))
}

fn transpose(args: &[Value]) -> Result<Value, FuncError> {
    let input = arg(args, 0)?;
    let ret_ety = Type::list(Type::String);
    if !input.is_wholly_known() {
        return Ok(Value::Unknown(Type::map(ret_ety)));
    }
    let Value::Map(_, entries) = input else {
        return Err(FuncError::new("input must be a map of lists of strings"));
    };
    let mut tmp: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (k, list) in entries {
        let Value::List(_, elems) = list else {
            return Err(FuncError::new("input must be a map of lists of strings"));
        };
        for v in elems {
            let Value::String(s) = v else {
                return Err(FuncError::new("input must be a map of lists of strings"));
            };
            tmp.entry(s.clone()).or_default().push(k.clone());
        }
    }
    let out = tmp
        .into_iter()
        .map(|(k, mut ks)| {
            ks.sort();
            (
                k,
                list_of(Type::String, ks.into_iter().map(Value::string).collect()),
            )
        })
        .collect();
    Ok(Value::map(ret_ety, out))
}

fn values(args: &[Value]) -> Result<Value, FuncError> {
    let m = arg(args, 0)?;
    if is_dyn(m) {
        return Ok(dynamic());
    }
    let ret = match m.ty() {
        Type::Map(ety) => Type::List(ety),
        Type::Object(attrs) => Type::Tuple(attrs.into_values().collect()),
        _ => {
            return Err(FuncError::new(
                "values() requires a map as the first argument",
            ))
        }
    };
    match m {
        Value::Map(_, entries) | Value::Object(entries) => {
            let vals = entries.values().cloned().collect();
            match ret {
                Type::List(ety) => Ok(list_of(*ety, vals)),
                _ => Ok(Value::tuple(vals)),
            }
        }
        _ => Ok(Value::Unknown(ret)),
    }
}

fn zipmap(args: &[Value]) -> Result<Value, FuncError> {
    let keys = arg(args, 0)?;
    let values = arg(args, 1)?;
    if is_dyn(values) {
        return Ok(dynamic());
    }
    let key_elems = seq(keys);
    let ret = match values.ty() {
        Type::List(ety) => Type::Map(ety),
        Type::Tuple(vtys) => {
            if !keys.is_wholly_known() {
                Type::Dynamic
            } else {
                let ks = key_elems.unwrap_or(&[]);
                if ks.len() != vtys.len() {
                    return Err(FuncError::new(format!(
                        "number of keys ({}) does not match number of values ({})",
                        ks.len(),
                        vtys.len()
                    )));
                }
                let mut atys = BTreeMap::new();
                for (i, (k, t)) in ks.iter().zip(vtys).enumerate() {
                    let Value::String(k) = k else {
                        return Err(FuncError::new(format!(
                            "keys list has null value at index {i}"
                        )));
                    };
                    atys.insert(k.clone(), t);
                }
                Type::Object(atys)
            }
        }
        _ => {
            return Err(FuncError::new(
                "values argument must be a list or tuple value",
            ))
        }
    };
    if keys.is_unknown() || values.is_unknown() || !keys.is_wholly_known() {
        return Ok(Value::Unknown(ret));
    }
    let ks = key_elems.unwrap_or(&[]);
    let vs = seq(values).unwrap_or(&[]);
    if ks.len() != vs.len() {
        return Err(FuncError::new(format!(
            "number of keys ({}) does not match number of values ({})",
            ks.len(),
            vs.len()
        )));
    }
    let mut out = BTreeMap::new();
    for (i, (k, v)) in ks.iter().zip(vs).enumerate() {
        let Value::String(k) = k else {
            return Err(FuncError::new(format!(
                "keys list has null value at index {i}"
            )));
        };
        out.insert(k.clone(), v.clone());
    }
    match ret {
        Type::Map(ety) => Ok(Value::map(*ety, out)),
        _ => Ok(Value::object(out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::stdlib;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FuncError> {
        stdlib().call(name, &args)
    }
    fn s(v: &str) -> Value {
        Value::string(v)
    }
    fn n(v: i64) -> Value {
        Value::from(v)
    }
    fn strs(vs: &[&str]) -> Value {
        Value::list(Type::String, vs.iter().map(|v| s(v)).collect())
    }
    fn nums(vs: &[i64]) -> Value {
        Value::list(Type::Number, vs.iter().map(|&v| n(v)).collect())
    }
    fn tup(vs: Vec<Value>) -> Value {
        Value::tuple(vs)
    }
    fn obj(vs: Vec<(&str, Value)>) -> Value {
        Value::object_from(vs)
    }
    fn unk(t: Type) -> Value {
        Value::Unknown(t)
    }
    fn b(v: bool) -> Value {
        Value::Bool(v)
    }

    #[test]
    fn alltrue_anytrue() {
        let bools = |vs: Vec<Value>| Value::list(Type::Bool, vs);
        assert_eq!(
            call("alltrue", vec![bools(vec![b(true), b(true)])]),
            Ok(b(true))
        );
        assert_eq!(call("alltrue", vec![bools(vec![])]), Ok(b(true)));
        assert_eq!(
            call("alltrue", vec![bools(vec![b(false), unk(Type::Bool)])]),
            Ok(b(false))
        );
        assert_eq!(
            call("alltrue", vec![bools(vec![b(true), unk(Type::Bool)])]),
            Ok(unk(Type::Bool))
        );
        assert_eq!(
            call("alltrue", vec![tup(vec![s("true"), b(true)])]),
            Ok(b(true))
        );
        assert_eq!(
            call("anytrue", vec![bools(vec![b(false), b(true)])]),
            Ok(b(true))
        );
        assert_eq!(call("anytrue", vec![bools(vec![])]), Ok(b(false)));
        assert_eq!(
            call("anytrue", vec![bools(vec![unk(Type::Bool), b(true)])]),
            Ok(b(true))
        );
        assert_eq!(
            call("anytrue", vec![bools(vec![unk(Type::Bool), b(false)])]),
            Ok(unk(Type::Bool))
        );
    }

    #[test]
    fn chunklist_splits() {
        let l = strs(&["a", "b", "c", "d", "e"]);
        let chunks = Value::list(
            Type::list(Type::String),
            vec![strs(&["a", "b"]), strs(&["c", "d"]), strs(&["e"])],
        );
        assert_eq!(call("chunklist", vec![l.clone(), n(2)]), Ok(chunks));
        assert_eq!(
            call("chunklist", vec![l.clone(), n(0)]),
            Ok(Value::list(Type::list(Type::String), vec![l.clone()]))
        );
        assert_eq!(
            call("chunklist", vec![l, n(-1)]),
            Err(FuncError::new("the size argument must be positive"))
        );
        assert_eq!(
            call("chunklist", vec![unk(Type::list(Type::String)), n(1)]),
            Ok(unk(Type::list(Type::list(Type::String))))
        );
    }

    #[test]
    fn coalesce_functions() {
        assert_eq!(call("coalesce", vec![s(""), s("b")]), Ok(s("b")));
        assert_eq!(
            call("coalesce", vec![Value::Null(Type::Dynamic), n(1), n(2)]),
            Ok(n(1))
        );
        assert_eq!(call("coalesce", vec![n(1), s("b")]), Ok(s("1")));
        assert_eq!(
            call("coalesce", vec![unk(Type::String), s("b")]),
            Ok(unk(Type::String))
        );
        assert_eq!(
            call("coalesce", vec![Value::Null(Type::String), s("")]),
            Err(FuncError::new("no non-null, non-empty-string arguments"))
        );
        assert_eq!(
            call("coalesce", vec![n(1), strs(&["a"])]),
            Err(FuncError::new("all arguments must have the same type"))
        );
        assert_eq!(
            call("coalescelist", vec![tup(vec![]), tup(vec![s("a")])]),
            Ok(tup(vec![s("a")]))
        );
        assert_eq!(
            call("coalescelist", vec![s("a")]),
            Err(FuncError::new(
                "coalescelist arguments must be lists or tuples"
            ))
        );
        assert_eq!(
            call(
                "coalescelist",
                vec![strs(&[]), unk(Type::list(Type::String))]
            ),
            Ok(unk(Type::Dynamic))
        );
    }

    #[test]
    fn compact_and_distinct() {
        assert_eq!(
            call(
                "compact",
                vec![Value::list(
                    Type::String,
                    vec![s("a"), s(""), Value::Null(Type::String), s("b")]
                )]
            ),
            Ok(strs(&["a", "b"]))
        );
        assert_eq!(
            call("distinct", vec![strs(&["a", "b", "a", "c"])]),
            Ok(strs(&["a", "b", "c"]))
        );
        assert_eq!(
            call("distinct", vec![tup(vec![n(1), s("1")])]),
            Ok(strs(&["1"]))
        );
        assert_eq!(
            call(
                "distinct",
                vec![Value::list(Type::String, vec![unk(Type::String)])]
            ),
            Ok(unk(Type::list(Type::String)))
        );
    }

    #[test]
    fn concat_types() {
        assert_eq!(
            call("concat", vec![strs(&["a"]), strs(&["b"])]),
            Ok(strs(&["a", "b"]))
        );
        assert_eq!(
            call("concat", vec![tup(vec![s("a")]), tup(vec![n(1)])]),
            Ok(tup(vec![s("a"), n(1)]))
        );
        assert_eq!(
            call("concat", vec![strs(&["a"]), tup(vec![n(1)])]),
            Ok(tup(vec![s("a"), n(1)]))
        );
        assert_eq!(
            call("concat", vec![strs(&["a"]), s("b")]),
            Err(FuncError::arg(
                1,
                "all arguments must be lists or tuples; got string"
            ))
        );
        assert_eq!(
            call("concat", vec![]),
            Err(FuncError::new("at least one argument is required"))
        );
        assert_eq!(
            call("concat", vec![unk(Type::list(Type::String)), strs(&["a"])]),
            Ok(unk(Type::list(Type::String)))
        );
        assert_eq!(
            call(
                "concat",
                vec![unk(Type::list(Type::String)), tup(vec![s("a")])]
            ),
            Ok(unk(Type::Dynamic))
        );
        assert_eq!(
            call(
                "concat",
                vec![
                    Value::list(Type::String, vec![unk(Type::String)]),
                    strs(&["a"])
                ]
            ),
            Ok(Value::list(Type::String, vec![unk(Type::String), s("a")]))
        );
    }

    #[test]
    fn contains_and_index() {
        assert_eq!(
            call("contains", vec![strs(&["a", "b"]), s("b")]),
            Ok(b(true))
        );
        assert_eq!(
            call("contains", vec![strs(&["a", "b"]), s("c")]),
            Ok(b(false))
        );
        assert_eq!(call("contains", vec![nums(&[1]), s("1")]), Ok(b(false)));
        assert_eq!(
            call(
                "contains",
                vec![
                    Value::list(Type::String, vec![s("a"), unk(Type::String)]),
                    s("a")
                ]
            ),
            Ok(b(true))
        );
        assert_eq!(
            call(
                "contains",
                vec![
                    Value::list(Type::String, vec![s("a"), unk(Type::String)]),
                    s("b")
                ]
            ),
            Ok(unk(Type::Bool))
        );
        assert_eq!(
            call("contains", vec![s("abc"), s("b")]),
            Err(FuncError::new("argument must be list, tuple, or set"))
        );
        assert_eq!(
            call("index", vec![strs(&["a", "b", "c"]), s("b")]),
            Ok(n(1))
        );
        assert_eq!(
            call("index", vec![strs(&["a"]), s("z")]),
            Err(FuncError::new("item not found"))
        );
        assert_eq!(
            call("index", vec![strs(&[]), s("z")]),
            Err(FuncError::new("cannot search an empty list"))
        );
        assert_eq!(
            call("index", vec![obj(vec![]), s("z")]),
            Err(FuncError::new("argument must be a list or tuple"))
        );
    }

    #[test]
    fn element_wraps() {
        assert_eq!(
            call("element", vec![strs(&["a", "b", "c"]), n(1)]),
            Ok(s("b"))
        );
        assert_eq!(
            call("element", vec![strs(&["a", "b", "c"]), n(3)]),
            Ok(s("a"))
        );
        assert_eq!(
            call("element", vec![tup(vec![s("a"), n(1)]), n(1)]),
            Ok(n(1))
        );
        assert_eq!(
            call("element", vec![strs(&["a"]), n(-1)]),
            Err(FuncError::new(
                "cannot use element function with a negative index"
            ))
        );
        assert_eq!(
            call("element", vec![strs(&[]), n(0)]),
            Err(FuncError::new(
                "cannot use element function with an empty list"
            ))
        );
        assert_eq!(
            call("element", vec![s("x"), n(0)]),
            Err(FuncError::new("cannot read elements from string"))
        );
        assert_eq!(
            call("element", vec![tup(vec![s("a"), n(1)]), unk(Type::Number)]),
            Ok(unk(Type::Dynamic))
        );
    }

    #[test]
    fn flatten_nested() {
        assert_eq!(
            call(
                "flatten",
                vec![tup(vec![
                    strs(&["a", "b"]),
                    tup(vec![]),
                    tup(vec![strs(&["c"])])
                ])]
            ),
            Ok(tup(vec![s("a"), s("b"), s("c")]))
        );
        assert_eq!(call("flatten", vec![tup(vec![])]), Ok(tup(vec![])));
        assert_eq!(
            call("flatten", vec![s("a")]),
            Err(FuncError::new("can only flatten lists, sets and tuples"))
        );
        assert_eq!(
            call("flatten", vec![tup(vec![s("a"), unk(Type::String)])]),
            Ok(tup(vec![s("a"), unk(Type::String)]))
        );
        assert_eq!(
            call(
                "flatten",
                vec![tup(vec![s("a"), unk(Type::list(Type::String))])]
            ),
            Ok(unk(Type::Dynamic))
        );
    }

    #[test]
    fn keys_values_lookup() {
        let o = obj(vec![("b", n(2)), ("a", s("x"))]);
        let m = Value::map(
            Type::Number,
            BTreeMap::from([("b".to_string(), n(2)), ("a".to_string(), n(1))]),
        );
        assert_eq!(call("keys", vec![o.clone()]), Ok(tup(vec![s("a"), s("b")])));
        assert_eq!(call("keys", vec![m.clone()]), Ok(strs(&["a", "b"])));
        assert_eq!(
            call(
                "keys",
                vec![unk(Type::Object(BTreeMap::from([(
                    "k".to_string(),
                    Type::String
                )])))]
            ),
            Ok(tup(vec![s("k")]))
        );
        assert_eq!(
            call("keys", vec![s("x")]),
            Err(FuncError::arg(0, "must have map or object type"))
        );
        assert_eq!(call("values", vec![o.clone()]), Ok(tup(vec![s("x"), n(2)])));
        assert_eq!(call("values", vec![m.clone()]), Ok(nums(&[1, 2])));
        assert_eq!(
            call("values", vec![strs(&[])]),
            Err(FuncError::new(
                "values() requires a map as the first argument"
            ))
        );
        assert_eq!(call("lookup", vec![m.clone(), s("a")]), Ok(n(1)));
        assert_eq!(call("lookup", vec![m.clone(), s("z"), n(9)]), Ok(n(9)));
        assert_eq!(call("lookup", vec![m.clone(), s("z"), s("9")]), Ok(n(9)));
        assert_eq!(
            call("lookup", vec![m.clone(), s("z")]),
            Err(FuncError::new("lookup failed to find key \"z\""))
        );
        assert_eq!(
            call("lookup", vec![m, s("z"), strs(&[])]),
            Err(FuncError::arg(
                2,
                "the default value must have the same type as the map elements"
            ))
        );
        assert_eq!(call("lookup", vec![o.clone(), s("a")]), Ok(s("x")));
        assert_eq!(
            call("lookup", vec![o.clone(), s("z"), b(true)]),
            Ok(b(true))
        );
        assert_eq!(
            call("lookup", vec![o.clone(), s("z")]),
            Err(FuncError::arg(0, "the given object has no attribute \"z\""))
        );
        assert_eq!(
            call("lookup", vec![o, unk(Type::String)]),
            Ok(unk(Type::Dynamic))
        );
        assert_eq!(
            call("lookup", vec![strs(&[]), s("a")]),
            Err(FuncError::arg(
                0,
                "lookup() requires a map as the first argument"
            ))
        );
    }

    #[test]
    fn length_of_things() {
        assert_eq!(call("length", vec![s("héllo👍🏽")]), Ok(n(6)));
        assert_eq!(call("length", vec![strs(&["a", "b"])]), Ok(n(2)));
        assert_eq!(call("length", vec![obj(vec![("a", n(1))])]), Ok(n(1)));
        assert_eq!(
            call("length", vec![unk(Type::Tuple(vec![Type::String]))]),
            Ok(n(1))
        );
        assert_eq!(
            call(
                "length",
                vec![Value::list(Type::String, vec![unk(Type::String)])]
            ),
            Ok(n(1))
        );
        assert_eq!(
            call("length", vec![unk(Type::list(Type::String))]),
            Ok(unk(Type::Number))
        );
        assert_eq!(
            call("length", vec![unk(Type::Dynamic)]),
            Ok(unk(Type::Number))
        );
        assert_eq!(
            call("length", vec![n(1)]),
            Err(FuncError::new(
                "argument must be a string, a collection type, or a structural type"
            ))
        );
    }

    #[test]
    fn matchkeys_selects() {
        assert_eq!(
            call(
                "matchkeys",
                vec![
                    strs(&["i-1", "i-2", "i-3"]),
                    strs(&["a", "b", "a"]),
                    strs(&["a"])
                ]
            ),
            Ok(strs(&["i-1", "i-3"]))
        );
        assert_eq!(
            call(
                "matchkeys",
                vec![strs(&["i-1"]), strs(&["a", "b"]), strs(&["a"])]
            ),
            Err(FuncError::new("length of keys and values should be equal"))
        );
        assert_eq!(
            call("matchkeys", vec![strs(&["i-1"]), strs(&["a"]), strs(&[])]),
            Ok(strs(&[]))
        );
    }

    #[test]
    fn merge_types() {
        assert_eq!(
            call(
                "merge",
                vec![
                    obj(vec![("a", n(1))]),
                    obj(vec![("a", s("x")), ("b", b(true))])
                ]
            ),
            Ok(obj(vec![("a", s("x")), ("b", b(true))]))
        );
        let m1 = Value::map(Type::String, BTreeMap::from([("a".to_string(), s("1"))]));
        let m2 = Value::map(Type::String, BTreeMap::from([("b".to_string(), s("2"))]));
        assert_eq!(
            call("merge", vec![m1.clone(), m2]),
            Ok(Value::map(
                Type::String,
                BTreeMap::from([("a".to_string(), s("1")), ("b".to_string(), s("2"))])
            ))
        );
        assert_eq!(
            call("merge", vec![m1.clone(), obj(vec![("c", n(3))])]),
            Ok(obj(vec![("a", s("1")), ("c", n(3))]))
        );
        assert_eq!(call("merge", vec![]), Ok(obj(vec![])));
        assert_eq!(
            call("merge", vec![m1, Value::Null(Type::Dynamic)]),
            Ok(obj(vec![("a", s("1"))]))
        );
        assert_eq!(
            call("merge", vec![s("x")]),
            Err(FuncError::new(
                "arguments must be maps or objects, got \"string\""
            ))
        );
        assert_eq!(
            call(
                "merge",
                vec![obj(vec![("a", n(1))]), unk(Type::map(Type::String))]
            ),
            Ok(unk(Type::Dynamic))
        );
    }

    #[test]
    fn one_element() {
        assert_eq!(call("one", vec![strs(&[])]), Ok(Value::Null(Type::String)));
        assert_eq!(call("one", vec![strs(&["a"])]), Ok(s("a")));
        assert_eq!(
            call("one", vec![tup(vec![])]),
            Ok(Value::Null(Type::Dynamic))
        );
        assert_eq!(
            call("one", vec![strs(&["a", "b"])]),
            Err(FuncError::arg(
                0,
                "must be a list, set, or tuple value with either zero or one elements"
            ))
        );
    }

    #[test]
    fn range_sequences() {
        assert_eq!(call("range", vec![n(3)]), Ok(nums(&[0, 1, 2])));
        assert_eq!(call("range", vec![n(-3)]), Ok(nums(&[0, -1, -2])));
        assert_eq!(call("range", vec![n(1), n(4)]), Ok(nums(&[1, 2, 3])));
        assert_eq!(call("range", vec![n(4), n(1)]), Ok(nums(&[4, 3, 2])));
        assert_eq!(call("range", vec![n(0), n(10), n(4)]), Ok(nums(&[0, 4, 8])));
        assert_eq!(call("range", vec![n(5), n(5)]), Ok(nums(&[])));
        assert_eq!(
            call("range", vec![n(0), n(5), n(0)]),
            Err(FuncError::new("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"))
        );
        assert_eq!(
            call("range", vec![n(5), n(0), n(1)]),
            Err(FuncError::arg(
                1,
                "end must be greater than start when step is positive"
            ))
        );
        assert_eq!(
            call("range", vec![]),
            Err(FuncError::new("must have one, two, or three arguments"))
        );
    }

    #[test]
    fn reverse_and_slice() {
        assert_eq!(
            call("reverse", vec![strs(&["a", "b"])]),
            Ok(strs(&["b", "a"]))
        );
        assert_eq!(
            call("reverse", vec![tup(vec![s("a"), n(1)])]),
            Ok(tup(vec![n(1), s("a")]))
        );
        assert_eq!(
            call("reverse", vec![s("ab")]),
            Err(FuncError::arg(
                0,
                "can only reverse list or tuple values, not string"
            ))
        );
        assert_eq!(
            call("slice", vec![strs(&["a", "b", "c"]), n(1), n(3)]),
            Ok(strs(&["b", "c"]))
        );
        assert_eq!(
            call("slice", vec![tup(vec![s("a"), n(1)]), n(1), n(2)]),
            Ok(tup(vec![n(1)]))
        );
        assert_eq!(
            call("slice", vec![strs(&["a"]), n(0), n(2)]),
            Err(FuncError::arg(
                2,
                "end index must not be greater than the length of the list"
            ))
        );
        assert_eq!(
            call("slice", vec![strs(&["a"]), n(1), n(0)]),
            Err(FuncError::arg(
                1,
                "start index must not be greater than end index"
            ))
        );
        assert_eq!(
            call("slice", vec![Value::set(Type::String, vec![s("a")]), n(0), n(1)]),
            Err(FuncError::arg(0, "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important"))
        );
        assert_eq!(
            call("slice", vec![tup(vec![s("a")]), unk(Type::Number), n(1)]),
            Ok(unk(Type::Dynamic))
        );
    }

    #[test]
    fn set_functions() {
        let set = |vs: &[&str]| Value::set(Type::String, vs.iter().map(|v| s(v)).collect());
        assert_eq!(
            call("setunion", vec![strs(&["a", "b"]), strs(&["b", "c"])]),
            Ok(set(&["a", "b", "c"]))
        );
        assert_eq!(
            call(
                "setintersection",
                vec![strs(&["a", "b"]), strs(&["b", "c"])]
            ),
            Ok(set(&["b"]))
        );
        assert_eq!(
            call("setsubtract", vec![strs(&["a", "b"]), strs(&["b", "c"])]),
            Ok(set(&["a"]))
        );
        assert_eq!(
            call("setunion", vec![strs(&["a"]), tup(vec![])]),
            Ok(set(&["a"]))
        );
        assert_eq!(
            call(
                "setunion",
                vec![strs(&["a"]), Value::list(Type::list(Type::String), vec![])]
            ),
            Err(FuncError::new(
                "given sets must all have compatible element types"
            ))
        );
        assert_eq!(
            call("setproduct", vec![strs(&["a", "b"]), nums(&[1, 2])]),
            Ok(Value::list(
                Type::Tuple(vec![Type::String, Type::Number]),
                vec![
                    tup(vec![s("a"), n(1)]),
                    tup(vec![s("a"), n(2)]),
                    tup(vec![s("b"), n(1)]),
                    tup(vec![s("b"), n(2)]),
                ]
            ))
        );
        assert_eq!(
            call("setproduct", vec![strs(&["a"])]),
            Err(FuncError::new("at least two arguments are required"))
        );
        assert_eq!(
            call("setproduct", vec![strs(&["a"]), s("x")]),
            Err(FuncError::arg(1, "a set or a list is required"))
        );
    }

    #[test]
    fn sort_sum_transpose_zipmap() {
        assert_eq!(
            call("sort", vec![strs(&["b", "a", "B"])]),
            Ok(strs(&["B", "a", "b"]))
        );
        assert_eq!(call("sort", vec![nums(&[10, 9])]), Ok(strs(&["10", "9"])));
        assert_eq!(call("sum", vec![nums(&[1, 2, 3])]), Ok(n(6)));
        assert_eq!(call("sum", vec![tup(vec![n(1), s("2")])]), Ok(n(3)));
        assert_eq!(
            call("sum", vec![nums(&[])]),
            Err(FuncError::arg(0, "cannot sum an empty list"))
        );
        assert_eq!(
            call("sum", vec![s("x")]),
            Err(FuncError::arg(0, "cannot sum noniterable"))
        );
        assert_eq!(
            call("sum", vec![obj(vec![("a", n(1))])]),
            Err(FuncError::arg(
                0,
                "argument must be list, set, or tuple. Received object"
            ))
        );
        assert_eq!(
            call("sum", vec![tup(vec![n(1), s("x")])]),
            Err(FuncError::arg(
                0,
                "argument must be list, set, or tuple of number values"
            ))
        );
        let input = Value::map(
            Type::list(Type::String),
            BTreeMap::from([
                ("a".to_string(), strs(&["1", "2"])),
                ("b".to_string(), strs(&["2", "3"])),
            ]),
        );
        assert_eq!(
            call("transpose", vec![input]),
            Ok(Value::map(
                Type::list(Type::String),
                BTreeMap::from([
                    ("1".to_string(), strs(&["a"])),
                    ("2".to_string(), strs(&["a", "b"])),
                    ("3".to_string(), strs(&["b"])),
                ])
            ))
        );
        assert_eq!(
            call("zipmap", vec![strs(&["a", "b"]), nums(&[1, 2])]),
            Ok(Value::map(
                Type::Number,
                BTreeMap::from([("a".to_string(), n(1)), ("b".to_string(), n(2))])
            ))
        );
        assert_eq!(
            call("zipmap", vec![strs(&["a", "b"]), tup(vec![n(1), s("x")])]),
            Ok(obj(vec![("a", n(1)), ("b", s("x"))]))
        );
        assert_eq!(
            call("zipmap", vec![strs(&["a"]), nums(&[1, 2])]),
            Err(FuncError::new(
                "number of keys (1) does not match number of values (2)"
            ))
        );
        assert_eq!(
            call("zipmap", vec![strs(&["a"]), s("x")]),
            Err(FuncError::new(
                "values argument must be a list or tuple value"
            ))
        );
    }
}
