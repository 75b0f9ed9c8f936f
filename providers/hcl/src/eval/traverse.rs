//! Attribute access, indexing and splats (HCL's `hcl.GetAttr`, `hcl.Index`, traversal and
//! splat expressions).
//!
//! hcl-edit represents `a.b[0][*].c` as a source expression and a flat list of operators.
//! HCL's parser groups them: literal steps (`.name`, `[literal]`, legacy `.0`) form
//! traversals that stop at their first error; an index with a computed key is an index
//! expression; a full splat `[*]` applies all the operators after it to each element; an
//! attribute-only splat `.*` applies only the `.name`/`.0` steps directly after it.

// Diagnostics are plain data returned by value, as everywhere in this crate.
#![allow(clippy::result_large_err)]

use std::ops::Range as Span;

use hcl_edit::expr::{Expression, Traversal, TraversalOperator};
use hcl_edit::{Decorated, Span as _};

use super::vars::TraverseStep;
use super::{dynamic, go_quote, EvalContext, Evaluated, Evaluator};
use crate::convert::convert;
use crate::diag::{has_errors, Diagnostic, Range};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

const INVALID_INDEX: &str = "Invalid index";
const UNSUPPORTED_ATTR: &str = "Unsupported attribute";

fn index_error(detail: impl Into<String>, range: &Option<Range>) -> Diagnostic {
    Diagnostic::error(INVALID_INDEX, detail, range.clone())
}

/// `collection[key]` as HCL's `hcl.Index` computes it.
pub fn index(collection: &Value, key: &Value, range: Option<Range>) -> Result<Value, Diagnostic> {
    if collection.is_null() {
        return Err(Diagnostic::error(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
            range,
        ));
    }
    if key.is_null() {
        return Err(index_error(
            "Can't use a null value as an indexing key.",
            &range,
        ));
    }
    let ty = collection.ty();
    if key.ty() == Type::Dynamic || ty == Type::Dynamic {
        return Ok(dynamic());
    }
    match &ty {
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let want = if matches!(ty, Type::Map(_)) {
                Type::String
            } else {
                Type::Number
            };
            let key = convert(key, &want).map_err(|e| {
                index_error(
                    format!(
                        "The given key does not identify an element in this collection value: {e}."
                    ),
                    &range,
                )
            })?;
            match lookup(collection, &key) {
                Lookup::Unknown => Ok(match &ty {
                    Type::List(ety) | Type::Map(ety) => Value::Unknown((**ety).clone()),
                    _ => dynamic(),
                }),
                Lookup::Found(v) => Ok(v),
                Lookup::Missing => Err(missing_index(collection, &key, &range)),
            }
        }
        Type::Object(attrs) => {
            let was_number = key.ty() == Type::Number;
            let key = convert(key, &Type::String).map_err(|e| {
                index_error(
                    format!(
                        "The given key does not identify an element in this collection value: {e}."
                    ),
                    &range,
                )
            })?;
            let Value::String(name) = key else {
                return Ok(dynamic());
            };
            let Some(aty) = attrs.get(&name) else {
                let suggestion = if was_number {
                    " An object only supports looking up attributes by name, not by numeric index."
                } else {
                    ""
                };
                return Err(index_error(
                    format!(
                        "The given key does not identify an element in this collection value.{suggestion}"
                    ),
                    &range,
                ));
            };
            match collection {
                Value::Object(vals) => Ok(vals.get(&name).cloned().unwrap_or_else(dynamic)),
                _ => Ok(Value::Unknown(aty.clone())),
            }
        }
        Type::Set(_) => Err(index_error(
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
            &range,
        )),
        _ => Err(index_error("This value does not have any indices.", &range)),
    }
}

enum Lookup {
    Found(Value),
    Missing,
    Unknown,
}

/// cty's `HasIndex` + `Index` for lists, tuples and maps (key already converted).
fn lookup(collection: &Value, key: &Value) -> Lookup {
    match (collection, key) {
        (Value::Unknown(_), _) | (_, Value::Unknown(_)) => Lookup::Unknown,
        (Value::List(_, vs) | Value::Tuple(vs), Value::Number(n)) => {
            match n.is_integer().then(|| n.to_usize()).flatten() {
                Some(i) => vs.get(i).cloned().map_or(Lookup::Missing, Lookup::Found),
                None => Lookup::Missing,
            }
        }
        (Value::Map(_, m), Value::String(k)) => {
            m.get(k).cloned().map_or(Lookup::Missing, Lookup::Found)
        }
        _ => Lookup::Missing,
    }
}

fn missing_index(collection: &Value, key: &Value, range: &Option<Range>) -> Diagnostic {
    if let (Value::List(_, vs) | Value::Tuple(vs), Value::Number(n)) = (collection, key) {
        if !n.is_integer() {
            return index_error(
                "The given key does not identify an element in this collection value: indexing a sequence requires a whole number, but the given index has a fractional part.",
                range,
            );
        }
        if n.is_negative() {
            return index_error(
                "The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence.",
                range,
            );
        }
        if vs.is_empty() {
            return index_error(
                "The given key does not identify an element in this collection value: the collection has no elements.",
                range,
            );
        }
        return index_error(
            "The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.",
            range,
        );
    }
    index_error(
        "The given key does not identify an element in this collection value.",
        range,
    )
}

/// `obj.name` as HCL's `hcl.GetAttr` computes it.
pub fn get_attr(obj: &Value, name: &str, range: Option<Range>) -> Result<Value, Diagnostic> {
    if obj.is_null() {
        return Err(Diagnostic::error(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            range,
        ));
    }
    let ty = obj.ty();
    match &ty {
        Type::Object(attrs) => {
            let Some(aty) = attrs.get(name) else {
                return Err(Diagnostic::error(
                    UNSUPPORTED_ATTR,
                    format!(
                        "This object does not have an attribute named {}.",
                        go_quote(name)
                    ),
                    range,
                ));
            };
            match obj {
                Value::Object(vals) => Ok(vals.get(name).cloned().unwrap_or_else(dynamic)),
                _ => Ok(Value::Unknown(aty.clone())),
            }
        }
        Type::Map(ety) => match obj {
            Value::Map(_, m) => m.get(name).cloned().ok_or_else(|| {
                Diagnostic::error(
                    "Missing map element",
                    format!(
                        "This map does not have an element with the key {}.",
                        go_quote(name)
                    ),
                    range,
                )
            }),
            _ => Ok(Value::Unknown((**ety).clone())),
        },
        Type::Dynamic => Ok(dynamic()),
        Type::List(ety) if ety.is_object() => {
            let has = ety.attribute_types().is_some_and(|a| a.contains_key(name));
            let detail = if has {
                format!(
                    "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                    go_quote(name)
                )
            } else {
                "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".to_string()
            };
            Err(Diagnostic::error(UNSUPPORTED_ATTR, detail, range))
        }
        Type::Set(ety) if ety.is_object() => Err(Diagnostic::error(
            UNSUPPORTED_ATTR,
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?",
            range,
        )),
        t if t.is_primitive() => Err(Diagnostic::error(
            UNSUPPORTED_ATTR,
            format!(
                "Can't access attributes on a primitive-typed value ({}).",
                t.friendly_name()
            ),
            range,
        )),
        _ => Err(Diagnostic::error(
            UNSUPPORTED_ATTR,
            "This value does not have any attributes.",
            range,
        )),
    }
}

/// Evaluates an absolute traversal (a root variable and attribute/index steps) in `ctx`,
/// stopping at the first error (HCL's `Traversal.TraverseAbs`). Diagnostics point at `range`.
pub fn traverse_abs(steps: &[TraverseStep], ctx: &EvalContext, range: Option<Range>) -> Evaluated {
    let mut iter = steps.iter();
    let mut current = match iter.next() {
        Some(TraverseStep::Root(name)) => match ctx.variable(name) {
            Some(v) => v.clone(),
            None => {
                let (summary, detail) = if ctx.variables_allowed() {
                    (
                        "Unknown variable",
                        format!("There is no variable named {}.", go_quote(name)),
                    )
                } else {
                    (
                        "Variables not allowed",
                        "Variables may not be used here.".to_string(),
                    )
                };
                return (dynamic(), vec![Diagnostic::error(summary, detail, range)]);
            }
        },
        _ => return (dynamic(), Vec::new()),
    };
    for step in iter {
        let next = match step {
            TraverseStep::Root(name) | TraverseStep::Attr(name) => {
                get_attr(&current, name, range.clone())
            }
            TraverseStep::Index(key) => index(&current, key, range.clone()),
        };
        match next {
            Ok(v) => current = v,
            Err(d) => return (dynamic(), vec![d]),
        }
    }
    (current, Vec::new())
}

/// True for a literal index key (HCL turns `[literal]` into a traversal step).
pub(crate) fn is_literal_key(e: &Expression) -> bool {
    matches!(
        e,
        Expression::Number(_) | Expression::String(_) | Expression::Bool(_) | Expression::Null(_)
    )
}

/// A variable followed only by literal steps (HCL's `ScopeTraversalExpr` with 2+ steps).
pub(crate) fn is_static_traversal(t: &Traversal) -> bool {
    matches!(t.expr, Expression::Variable(_))
        && t.operators.iter().all(|op| match op.value() {
            TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_) => true,
            TraversalOperator::Index(e) => is_literal_key(e),
            _ => false,
        })
}

type Op = Decorated<TraversalOperator>;

impl Evaluator<'_> {
    pub(crate) fn traversal(&mut self, t: &Traversal, ctx: &EvalContext) -> Evaluated {
        let start = t.expr.span().map(|s| s.start);
        let (source, diags, failed, ops) = match &t.expr {
            Expression::Variable(v) => match ctx.variable(v.value().as_str()) {
                Some(root) => {
                    // Follow the leading steps that cannot fail by reference, so that only
                    // the value reached is copied (not a whole large variable).
                    let (reached, n) = simple_steps(root, &t.operators);
                    let rest = t.operators.get(n..).unwrap_or_default();
                    (reached.clone(), Vec::new(), false, rest)
                }
                None => {
                    let (val, d) = self.root_variable(v.value().as_str(), v.span(), ctx);
                    (val, d, true, &t.operators[..])
                }
            },
            other => {
                let (val, d) = self.eval(other, ctx);
                (val, d, false, &t.operators[..])
            }
        };
        self.apply_ops(source, diags, failed, ops, start, ctx)
    }

    /// Applies traversal operators to `val` (already carrying `diags`). `failed` means the
    /// current literal-step segment has already failed (its remaining steps are skipped).
    fn apply_ops(
        &mut self,
        mut val: Value,
        mut diags: Vec<Diagnostic>,
        mut failed: bool,
        ops: &[Op],
        start: Option<usize>,
        ctx: &EvalContext,
    ) -> Evaluated {
        let mut i = 0;
        while let Some(op) = ops.get(i) {
            match op.value() {
                TraversalOperator::GetAttr(name) => {
                    if !failed {
                        match get_attr(&val, name.value().as_str(), self.range_of(op)) {
                            Ok(v) => val = v,
                            Err(d) => {
                                diags.push(d);
                                val = dynamic();
                                failed = true;
                            }
                        }
                    }
                }
                TraversalOperator::LegacyIndex(n) => {
                    if let Some(d) = self.chained_legacy_index(ops, i) {
                        diags.push(d);
                        val = dynamic();
                        failed = true;
                    } else if !failed {
                        let key = Value::Number(Number::from_u64(*n.value()));
                        match index(&val, &key, self.range_of(op)) {
                            Ok(v) => val = v,
                            Err(d) => {
                                diags.push(d);
                                val = dynamic();
                                failed = true;
                            }
                        }
                    }
                }
                TraversalOperator::Index(key_expr) if is_literal_key(key_expr) => {
                    if !failed {
                        let (key, key_diags) = self.eval(key_expr, ctx);
                        let key_failed = has_errors(&key_diags);
                        diags.extend(key_diags);
                        if key_failed {
                            val = dynamic();
                            failed = true;
                        } else {
                            match index(&val, &key, self.range_of(op)) {
                                Ok(v) => val = v,
                                Err(d) => {
                                    diags.push(d);
                                    val = dynamic();
                                    failed = true;
                                }
                            }
                        }
                    }
                }
                TraversalOperator::Index(key_expr) => {
                    let (key, key_diags) = self.eval(key_expr, ctx);
                    diags.extend(key_diags);
                    match index(&val, &key, self.range_of(op)) {
                        Ok(v) => val = v,
                        Err(d) => {
                            diags.push(d);
                            val = dynamic();
                        }
                    }
                    failed = false;
                }
                TraversalOperator::FullSplat(_) => {
                    let each = ops.get(i + 1..).unwrap_or_default();
                    let marker = op.span();
                    if self.depth >= super::MAX_DEPTH {
                        diags.push(Diagnostic::error(
                            "Nesting too deep",
                            format!(
                                "Splat expressions may be nested at most {} levels deep.",
                                super::MAX_DEPTH
                            ),
                            self.range(marker),
                        ));
                        return (dynamic(), diags);
                    }
                    self.depth += 1;
                    let out = self.splat(val, diags, each, marker, start, ctx);
                    self.depth -= 1;
                    return out;
                }
                TraversalOperator::AttrSplat(_) => {
                    let rest = ops.get(i + 1..).unwrap_or_default();
                    let n = rest
                        .iter()
                        .take_while(|o| {
                            matches!(
                                o.value(),
                                TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_)
                            )
                        })
                        .count();
                    let each = rest.get(..n).unwrap_or_default();
                    let marker = op.span();
                    let (v, d) = self.splat(val, diags, each, marker, start, ctx);
                    val = v;
                    diags = d;
                    failed = false;
                    i += 1 + n;
                    continue;
                }
            }
            i += 1;
        }
        (val, diags)
    }

    /// HCL lexes `a.0.1` as `a` `.` `0.1` and rejects it; hcl-edit produces two legacy index
    /// steps. Detects the second of two legacy indexes written as one number literal.
    fn chained_legacy_index(&self, ops: &[Op], i: usize) -> Option<Diagnostic> {
        let prev = ops.get(i.checked_sub(1)?)?;
        let cur = ops.get(i)?;
        let (TraversalOperator::LegacyIndex(a), TraversalOperator::LegacyIndex(b)) =
            (prev.value(), cur.value())
        else {
            return None;
        };
        let (ps, cs) = (prev.span()?, cur.span()?);
        let between = self.src.slice(ps.end..cs.start)?;
        let cur_text = self.src.slice(cs.clone())?;
        if !between.is_empty() || !cur_text.starts_with('.') || cur_text.len() < 2 {
            return None;
        }
        let prev_text = self.src.slice(ps.clone())?;
        if !prev_text.ends_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        Some(Diagnostic::error(
            "Invalid legacy index syntax",
            format!(
                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{}][{}].",
                a.value(),
                b.value()
            ),
            Some(self.src.range(ps.start.saturating_add(1)..cs.end)),
        ))
    }

    /// HCL's `SplatExpr.Value`: `each` is applied to every element of `source`.
    fn splat(
        &mut self,
        source: Value,
        mut diags: Vec<Diagnostic>,
        each: &[Op],
        marker: Option<Span<usize>>,
        start: Option<usize>,
        ctx: &EvalContext,
    ) -> Evaluated {
        if has_errors(&diags) {
            return (dynamic(), diags);
        }
        let source_ty = source.ty();
        let auto_upgrade = !matches!(source_ty, Type::Tuple(_) | Type::List(_) | Type::Set(_));
        if source.is_null() {
            if auto_upgrade {
                return (Value::Tuple(Vec::new()), diags);
            }
            let subject = match (start, marker) {
                (Some(s), Some(m)) => Some(self.src.range(s..m.start)),
                (None, m) => self.range(m),
                (Some(_), None) => None,
            };
            diags.push(Diagnostic::error(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                subject,
            ));
            return (dynamic(), diags);
        }
        if source_ty == Type::Dynamic {
            return (dynamic(), diags);
        }
        let mut upgraded_unknown = false;
        let source = if auto_upgrade {
            upgraded_unknown = source.is_unknown();
            Value::Tuple(vec![source])
        } else {
            source
        };
        let source_ty = source.ty();
        if source.is_unknown() {
            let (ty, ty_diags) = self.splat_result_type(&source_ty, each, ctx);
            diags.extend(ty_diags);
            return (Value::Unknown(ty), diags);
        }
        let items: Vec<Value> = match &source {
            Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => vs.clone(),
            _ => Vec::new(),
        };
        let mut vals = Vec::with_capacity(items.len());
        let mut known = true;
        for item in items {
            let (v, d) = self.apply_ops(item, Vec::new(), false, each, None, ctx);
            if has_errors(&d) {
                known = false;
            }
            diags.extend(d);
            vals.push(v);
        }
        if upgraded_unknown {
            return (dynamic(), diags);
        }
        if !known {
            let (ty, _) = self.splat_result_type(&source_ty, each, ctx);
            return (Value::Unknown(ty), diags);
        }
        match source_ty {
            Type::List(_) | Type::Set(_) => {
                if vals.is_empty() {
                    let (ty, ty_diags) = self.splat_result_type(&source_ty, each, ctx);
                    diags.extend(ty_diags);
                    let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                    return (Value::List(ety, Vec::new()), diags);
                }
                (list_of(vals), diags)
            }
            _ => (Value::Tuple(vals), diags),
        }
    }

    /// The type a splat over a value of type `source_ty` produces (elements unknown).
    fn splat_result_type(
        &mut self,
        source_ty: &Type,
        each: &[Op],
        ctx: &EvalContext,
    ) -> (Type, Vec<Diagnostic>) {
        match source_ty {
            Type::List(ety) | Type::Set(ety) => {
                let item = Value::Unknown((**ety).clone());
                let (v, d) = self.apply_ops(item, Vec::new(), false, each, None, ctx);
                (Type::list(v.ty()), d)
            }
            Type::Tuple(etys) => {
                let mut diags = Vec::new();
                let mut tys = Vec::with_capacity(etys.len());
                for ety in etys {
                    let item = Value::Unknown(ety.clone());
                    let (v, d) = self.apply_ops(item, Vec::new(), false, each, None, ctx);
                    diags.extend(d);
                    tys.push(v.ty());
                }
                (Type::Tuple(tys), diags)
            }
            _ => (Type::Dynamic, Vec::new()),
        }
    }
}

/// Follows the leading `.name` and `.0` steps that select an existing element of a known
/// object, map, list or tuple (steps that never produce a diagnostic).
/// Returns the value reached and the number of steps taken.
fn simple_steps<'v>(mut current: &'v Value, ops: &[Op]) -> (&'v Value, usize) {
    let mut taken = 0;
    let is_legacy = |op: Option<&Op>| {
        op.is_some_and(|op| matches!(op.value(), TraversalOperator::LegacyIndex(_)))
    };
    for (i, op) in ops.iter().enumerate() {
        // `a.0.1` is an error (see `chained_legacy_index`): leave it to the full path.
        if is_legacy(Some(op)) && is_legacy(ops.get(i + 1)) {
            break;
        }
        let next = match (op.value(), current) {
            (TraversalOperator::GetAttr(name), Value::Object(m) | Value::Map(_, m)) => {
                m.get(name.value().as_str())
            }
            (TraversalOperator::LegacyIndex(i), Value::List(_, vs) | Value::Tuple(vs)) => {
                usize::try_from(*i.value()).ok().and_then(|i| vs.get(i))
            }
            _ => None,
        };
        match next {
            Some(v) => {
                current = v;
                taken += 1;
            }
            None => break,
        }
    }
    (current, taken)
}

/// A list of `vals` (all of one type, as splat results over a list are); a tuple when the
/// element types differ (which cty cannot represent as a list).
fn list_of(vals: Vec<Value>) -> Value {
    let first = vals.first().map(Value::ty).unwrap_or(Type::Dynamic);
    if vals.iter().all(|v| v.ty() == first) {
        Value::List(first, vals)
    } else {
        Value::Tuple(vals)
    }
}
