//! Specs and decoding (HCL's `hcldec` package): each [`Spec`] describes how one part of a
//! body becomes a value, which attributes and blocks it reads (the body schema it implies),
//! the type of its result and where that result comes from in the source.

use std::collections::BTreeMap;
use std::fmt;

use crate::body::{AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema, Expr};
use crate::convert::{convert, unify};
use crate::diag::{has_errors, Diagnostic, Range};
use crate::eval::{EvalContext, TraverseStep};
use crate::types::{go_quote, Type};
use crate::value::Value;

/// One spec. The variants are hcldec's `ObjectSpec`, `TupleSpec`, `AttrSpec`,
/// `LiteralSpec`, `BlockSpec`, `BlockListSpec`, `BlockSetSpec`, `BlockMapSpec`,
/// `BlockAttrsSpec`, `DefaultSpec` and `TransformExprSpec`.
#[derive(Clone)]
pub enum Spec {
    /// An object whose attributes are the results of the named specs (spec block `object`).
    Object(BTreeMap<String, Spec>),
    /// A tuple of the results of the specs, in order (spec block `array`).
    Tuple(Vec<Spec>),
    Attr(AttrSpec),
    Literal(Value),
    Block(BlockSpec),
    BlockList(BlockListSpec),
    /// As `BlockList`, producing a set (duplicates removed).
    BlockSet(BlockListSpec),
    BlockMap(BlockMapSpec),
    BlockAttrs(BlockAttrsSpec),
    /// The primary spec's result, or the default spec's when that is null.
    Default {
        primary: Box<Spec>,
        default: Box<Spec>,
    },
    Transform(TransformSpec),
}

/// The value of attribute `name`, converted to `ty`.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrSpec {
    pub name: String,
    pub ty: Type,
    pub required: bool,
}

/// The nested spec applied to the body of the single block of type `type_name`.
#[derive(Clone)]
pub struct BlockSpec {
    pub type_name: String,
    pub nested: Box<Spec>,
    pub required: bool,
}

/// The nested spec applied to each block of type `type_name` (a list or a set). Limits
/// apply when positive, as Go `int`s.
#[derive(Clone)]
pub struct BlockListSpec {
    pub type_name: String,
    pub nested: Box<Spec>,
    pub min_items: i64,
    pub max_items: i64,
}

/// A map (one level per label name) of the nested spec's results for each block.
#[derive(Clone)]
pub struct BlockMapSpec {
    pub type_name: String,
    pub label_names: Vec<String>,
    pub nested: Box<Spec>,
}

/// The attributes of the single block of type `type_name` as a map of `element_type`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockAttrsSpec {
    pub type_name: String,
    pub element_type: Type,
    pub required: bool,
}

/// `expr` evaluated in `ctx` extended with the variable `var_name` bound to the wrapped
/// spec's result. Without an expression the result is null (as a missing `result`
/// argument gives in hcldec).
#[derive(Clone)]
pub struct TransformSpec {
    pub wrapped: Box<Spec>,
    pub expr: Option<Expr>,
    pub ctx: EvalContext,
    pub var_name: String,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Object(m) => f.debug_map().entries(m.iter()).finish(),
            Spec::Tuple(v) => f.debug_list().entries(v.iter()).finish(),
            Spec::Attr(a) => a.fmt(f),
            Spec::Literal(v) => f.debug_tuple("Literal").field(v).finish(),
            Spec::Block(b) => f
                .debug_struct("Block")
                .field("type_name", &b.type_name)
                .field("required", &b.required)
                .field("nested", &b.nested)
                .finish(),
            Spec::BlockList(b) | Spec::BlockSet(b) => f
                .debug_struct(if matches!(self, Spec::BlockList(_)) {
                    "BlockList"
                } else {
                    "BlockSet"
                })
                .field("type_name", &b.type_name)
                .field("min_items", &b.min_items)
                .field("max_items", &b.max_items)
                .field("nested", &b.nested)
                .finish(),
            Spec::BlockMap(b) => f
                .debug_struct("BlockMap")
                .field("type_name", &b.type_name)
                .field("label_names", &b.label_names)
                .field("nested", &b.nested)
                .finish(),
            Spec::BlockAttrs(b) => b.fmt(f),
            Spec::Default { primary, default } => f
                .debug_struct("Default")
                .field("primary", primary)
                .field("default", default)
                .finish(),
            Spec::Transform(t) => f
                .debug_struct("Transform")
                .field("wrapped", &t.wrapped)
                .field("var_name", &t.var_name)
                .field("expr", &t.expr.as_ref().map(Expr::range))
                .finish(),
        }
    }
}

pub use crate::diag::range_string;

fn error(summary: impl Into<String>, detail: impl Into<String>, subject: Range) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(subject))
}

/// Decodes `body` with `spec` (hcldec's `Decode`): the body must hold exactly what the
/// spec's implied schema names. Returns the value and every diagnostic found.
pub fn decode(body: &Body, spec: &Spec, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    let schema = implied_schema(spec);
    let (content, mut diags) = body.content(&schema);
    let (val, more) = spec.decode_content(&content, ctx);
    diags.extend(more);
    (val, diags)
}

/// As [`decode`], but attributes and blocks the spec does not name are left over in the
/// returned body instead of being errors (hcldec's `PartialDecode`; nested block bodies
/// are still decoded completely).
pub fn partial_decode(
    body: &Body,
    spec: &Spec,
    ctx: &EvalContext,
) -> (Value, Body, Vec<Diagnostic>) {
    let schema = implied_schema(spec);
    let (content, rest, mut diags) = body.partial_content(&schema);
    let (val, more) = spec.decode_content(&content, ctx);
    diags.extend(more);
    (val, rest, diags)
}

/// The range of the source of the value `spec` would produce from `body`, or where it
/// could be inserted (hcldec's `SourceRange`).
pub fn source_range(body: &Body, spec: &Spec) -> Range {
    let schema = implied_schema(spec);
    let (content, _, _) = body.partial_content(&schema);
    spec.source_range(&content)
}

/// The type `spec` produces (hcldec's `ImpliedType`).
pub fn implied_type(spec: &Spec) -> Type {
    spec.implied_type()
}

/// The body schema `spec` reads (hcldec's `ImpliedSchema`): the attributes and block
/// types of the spec and of every spec that decodes the same body.
pub fn implied_schema(spec: &Spec) -> BodySchema {
    let mut schema = BodySchema::default();
    fn visit(s: &Spec, schema: &mut BodySchema) {
        if let Some(attrs) = s.attr_schemata() {
            schema.attributes.extend(attrs);
        }
        if let Some(blocks) = s.block_header_schemata() {
            schema.blocks.extend(blocks);
        }
        for child in s.same_body_children() {
            visit(child, schema);
        }
    }
    visit(spec, &mut schema);
    schema
}

/// One variable reference: the traversal's steps and its source range.
pub type VarRef = (Vec<TraverseStep>, Range);

/// The variable traversals decoding `body` with `spec` would evaluate (hcldec's
/// `Variables`), for callers that populate the evaluation context on demand.
pub fn variables(body: &Body, spec: &Spec) -> Vec<VarRef> {
    let schema = implied_schema(spec);
    let (content, _, _) = body.partial_content(&schema);
    let mut vars = Vec::new();
    fn visit(s: &Spec, content: &BodyContent, vars: &mut Vec<VarRef>) {
        vars.extend(s.variables_needed(content));
        for child in s.same_body_children() {
            visit(child, content, vars);
        }
    }
    visit(spec, &content, &mut vars);
    vars
}

/// hcldec's `UnknownBody`: the body of a block generated by a dynamic block whose
/// `for_each` is unknown.
fn is_unknown_body(body: &Body) -> bool {
    matches!(body.0, crate::body::BodyKind::Unknown(_))
}

fn blocks_of<'c>(content: &'c BodyContent, type_name: &'c str) -> impl Iterator<Item = &'c Block> {
    content
        .blocks
        .iter()
        .filter(move |b| b.type_name == type_name)
}

impl Spec {
    /// Specs that decode the same body as this one (hcldec's `visitSameBodyChildren`).
    fn same_body_children(&self) -> Vec<&Spec> {
        match self {
            Spec::Object(m) => m.values().collect(),
            Spec::Tuple(v) => v.iter().collect(),
            Spec::Default { primary, default } => vec![primary, default],
            Spec::Transform(t) => vec![&t.wrapped],
            _ => Vec::new(),
        }
    }

    /// The attributes this spec reads (`Some` for the spec types that read attributes).
    fn attr_schemata(&self) -> Option<Vec<AttributeSchema>> {
        match self {
            Spec::Attr(a) => Some(vec![AttributeSchema {
                name: a.name.clone(),
                required: a.required,
            }]),
            Spec::Default { primary, default } => {
                let mut out = primary.attr_schemata().unwrap_or_default();
                out.extend(default.attr_schemata().unwrap_or_default());
                Some(out)
            }
            _ => None,
        }
    }

    /// The block types this spec reads (`Some` for the spec types that read blocks).
    fn block_header_schemata(&self) -> Option<Vec<BlockHeaderSchema>> {
        let header = |type_name: &str, label_names: Vec<String>| {
            Some(vec![BlockHeaderSchema {
                type_name: type_name.to_string(),
                label_names,
            }])
        };
        match self {
            Spec::Block(b) => header(&b.type_name, Vec::new()),
            Spec::BlockList(b) | Spec::BlockSet(b) => header(&b.type_name, Vec::new()),
            Spec::BlockMap(b) => header(&b.type_name, b.label_names.clone()),
            Spec::BlockAttrs(b) => header(&b.type_name, Vec::new()),
            Spec::Default { primary, .. } => {
                Some(primary.block_header_schemata().unwrap_or_default())
            }
            _ => None,
        }
    }

    /// The type of this spec's result (hcldec's `impliedType`).
    pub fn implied_type(&self) -> Type {
        match self {
            Spec::Object(m) => Type::Object(
                m.iter()
                    .map(|(k, s)| (k.clone(), s.implied_type()))
                    .collect(),
            ),
            Spec::Tuple(v) => Type::Tuple(v.iter().map(Spec::implied_type).collect()),
            Spec::Attr(a) => a.ty.clone(),
            Spec::Literal(v) => v.ty(),
            Spec::Block(b) => b.nested.implied_type(),
            Spec::BlockList(b) => Type::list(b.nested.implied_type()),
            Spec::BlockSet(b) => Type::set(b.nested.implied_type()),
            Spec::BlockMap(b) => {
                let mut t = b.nested.implied_type();
                for _ in &b.label_names {
                    t = Type::map(t);
                }
                t
            }
            Spec::BlockAttrs(b) => Type::map(b.element_type.clone()),
            Spec::Default { primary, .. } => primary.implied_type(),
            Spec::Transform(t) => {
                let wrapped = Value::Unknown(t.wrapped.implied_type());
                t.evaluate(wrapped).0.ty()
            }
        }
    }

    /// Where this spec's value comes from in `content` (hcldec's `sourceRange`).
    fn source_range(&self, content: &BodyContent) -> Range {
        match self {
            Spec::Object(_) | Spec::Tuple(_) => content.missing_item_range.clone(),
            Spec::Attr(a) => content.attributes.get(&a.name).map_or_else(
                || content.missing_item_range.clone(),
                |attr| attr.expr.range(),
            ),
            Spec::Literal(_) => Range {
                filename: "<unknown>".into(),
                ..Range::default()
            },
            Spec::Block(BlockSpec {
                type_name, nested, ..
            })
            | Spec::BlockList(BlockListSpec {
                type_name, nested, ..
            })
            | Spec::BlockSet(BlockListSpec {
                type_name, nested, ..
            })
            | Spec::BlockMap(BlockMapSpec {
                type_name, nested, ..
            }) => match blocks_of(content, type_name).next() {
                Some(block) => source_range(&block.body, nested),
                None => content.missing_item_range.clone(),
            },
            Spec::BlockAttrs(b) => match blocks_of(content, &b.type_name).next() {
                Some(block) => block.def_range.clone(),
                None => content.missing_item_range.clone(),
            },
            Spec::Default { primary, .. } => primary.source_range(content),
            Spec::Transform(t) => t.wrapped.source_range(content),
        }
    }

    /// The variables this spec itself would evaluate (hcldec's `variablesNeeded`).
    fn variables_needed(&self, content: &BodyContent) -> Vec<VarRef> {
        match self {
            Spec::Attr(a) => content
                .attributes
                .get(&a.name)
                .map(|attr| attr.expr.variables())
                .unwrap_or_default(),
            Spec::Block(b) => match blocks_of(content, &b.type_name).next() {
                Some(block) => variables(&block.body, &b.nested),
                None => Vec::new(),
            },
            Spec::BlockList(BlockListSpec {
                type_name, nested, ..
            })
            | Spec::BlockSet(BlockListSpec {
                type_name, nested, ..
            })
            | Spec::BlockMap(BlockMapSpec {
                type_name, nested, ..
            }) => blocks_of(content, type_name)
                .flat_map(|block| variables(&block.body, nested))
                .collect(),
            Spec::BlockAttrs(b) => {
                let Some(block) = blocks_of(content, &b.type_name).next() else {
                    return Vec::new();
                };
                let (attrs, diags) = block.body.just_attributes();
                if has_errors(&diags) {
                    return Vec::new();
                }
                let mut vars: Vec<VarRef> = attrs
                    .values()
                    .flat_map(|attr| attr.expr.variables())
                    .collect();
                vars.sort_by_key(|(_, r)| r.start.byte);
                vars
            }
            _ => Vec::new(),
        }
    }

    /// Decodes `content` (already checked against this spec's implied schema).
    fn decode_content(&self, content: &BodyContent, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
        match self {
            Spec::Object(m) => {
                let mut diags = Vec::new();
                let mut vals = BTreeMap::new();
                for (k, s) in m {
                    let (v, d) = s.decode_content(content, ctx);
                    diags.extend(d);
                    vals.insert(k.clone(), v);
                }
                (Value::object(vals), diags)
            }
            Spec::Tuple(v) => {
                let mut diags = Vec::new();
                let mut vals = Vec::with_capacity(v.len());
                for s in v {
                    let (val, d) = s.decode_content(content, ctx);
                    diags.extend(d);
                    vals.push(val);
                }
                (Value::tuple(vals), diags)
            }
            Spec::Attr(a) => decode_attr(a, content, ctx),
            Spec::Literal(v) => (v.clone(), Vec::new()),
            Spec::Block(b) => decode_block(b, content, ctx),
            Spec::BlockList(b) => decode_block_list(b, content, ctx, false),
            Spec::BlockSet(b) => decode_block_list(b, content, ctx, true),
            Spec::BlockMap(b) => decode_block_map(b, content, ctx),
            Spec::BlockAttrs(b) => decode_block_attrs(b, content, ctx),
            Spec::Default { primary, default } => {
                let (val, mut diags) = primary.decode_content(content, ctx);
                if val.is_null() {
                    let (val, more) = default.decode_content(content, ctx);
                    diags.extend(more);
                    return (val, diags);
                }
                (val, diags)
            }
            Spec::Transform(t) => {
                let (wrapped, mut diags) = t.wrapped.decode_content(content, ctx);
                if has_errors(&diags) {
                    // As hcldec: no transform of a failed result (its errors would only
                    // distract from the cause).
                    return (Value::Unknown(self.implied_type()), diags);
                }
                let (val, more) = t.evaluate(wrapped);
                diags.extend(more);
                (val, diags)
            }
        }
    }
}

impl TransformSpec {
    fn evaluate(&self, wrapped: Value) -> (Value, Vec<Diagnostic>) {
        let Some(expr) = &self.expr else {
            return (Value::Null(Type::Dynamic), Vec::new());
        };
        let ctx = self
            .ctx
            .child(BTreeMap::from([(self.var_name.clone(), wrapped)]));
        expr.value(&ctx)
    }
}

fn decode_attr(a: &AttrSpec, content: &BodyContent, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    let Some(attr) = content.attributes.get(&a.name) else {
        // A missing required attribute was reported when building `content`.
        return (Value::Null(a.ty.clone()), Vec::new());
    };
    let (val, mut diags) = attr.expr.value(ctx);
    match convert(&val, &a.ty) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(error(
                "Incorrect attribute value type",
                format!(
                    "Inappropriate value for attribute {}: {}.",
                    go_quote(&a.name),
                    e.message
                ),
                attr.expr.range(),
            ));
            // An unknown value of the right type keeps the result usable for analysis.
            (Value::Unknown(a.ty.clone()), diags)
        }
    }
}

fn decode_block(
    b: &BlockSpec,
    content: &BodyContent,
    ctx: &EvalContext,
) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut found: Option<&Block> = None;
    for candidate in blocks_of(content, &b.type_name) {
        if let Some(first) = found {
            diags.push(error(
                format!("Duplicate {} block", b.type_name),
                format!(
                    "Only one block of type {} is allowed. Previous definition was at {}.",
                    go_quote(&b.type_name),
                    range_string(&first.def_range)
                ),
                candidate.def_range.clone(),
            ));
            break;
        }
        found = Some(candidate);
    }
    let Some(block) = found else {
        if b.required {
            diags.push(error(
                format!("Missing {} block", b.type_name),
                format!(
                    "A block of type {} is required here.",
                    go_quote(&b.type_name)
                ),
                content.missing_item_range.clone(),
            ));
        }
        return (Value::Null(b.nested.implied_type()), diags);
    };
    let (val, more) = decode(&block.body, &b.nested, ctx);
    diags.extend(more);
    (val, diags)
}

fn decode_block_list(
    b: &BlockListSpec,
    content: &BodyContent,
    ctx: &EvalContext,
    set: bool,
) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut elems = Vec::new();
    let mut ranges = Vec::new();
    for block in blocks_of(content, &b.type_name) {
        let (val, more) = decode(&block.body, &b.nested, ctx);
        diags.extend(more);
        if is_unknown_body(&block.body) {
            // One block of unknown content: the whole collection is unknown.
            let ty = b.nested.implied_type();
            let ty = if set { Type::set(ty) } else { Type::list(ty) };
            return (Value::Unknown(ty), diags);
        }
        elems.push(val);
        ranges.push(source_range(&block.body, &b.nested));
    }
    let count = i64::try_from(elems.len()).unwrap_or(i64::MAX);
    if count < b.min_items {
        diags.push(error(
            format!("Insufficient {} blocks", b.type_name),
            format!(
                "At least {} {} blocks are required.",
                b.min_items,
                go_quote(&b.type_name)
            ),
            content.missing_item_range.clone(),
        ));
    } else if b.max_items > 0 && count > b.max_items {
        let subject = usize::try_from(b.max_items)
            .ok()
            .and_then(|i| ranges.get(i))
            .cloned()
            .unwrap_or_else(|| content.missing_item_range.clone());
        diags.push(error(
            format!("Too many {} blocks", b.type_name),
            format!(
                "No more than {} {} blocks are allowed",
                b.max_items,
                go_quote(&b.type_name)
            ),
            subject,
        ));
    }
    let make = |ety: Type, elems: Vec<Value>| {
        if set {
            Value::set(ety, elems)
        } else {
            Value::list(ety, elems)
        }
    };
    if elems.is_empty() {
        return (make(b.nested.implied_type(), elems), diags);
    }
    // All elements of a list or set have one type: results that differ (because of `any`
    // attributes in the nested spec) must convert to a common type.
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let first_range = ranges.first().cloned().unwrap_or_default();
    let Some(ety) = unify(&types) else {
        diags.push(error(
            format!("Unconsistent argument types in {} blocks", b.type_name),
            "Corresponding attributes in all blocks of this type must be the same.",
            first_range,
        ));
        return (Value::Unknown(Type::Dynamic), diags);
    };
    let mut converted = Vec::with_capacity(elems.len());
    for (i, v) in elems.iter().enumerate() {
        match convert(v, &ety) {
            Ok(c) => converted.push(c),
            Err(e) => {
                diags.push(error(
                    format!("Unconsistent argument types in {} blocks", b.type_name),
                    format!("Block with index {i} has inconsistent argument types: {e}."),
                    ranges.get(i).cloned().unwrap_or_default(),
                ));
                return (Value::Unknown(Type::Dynamic), diags);
            }
        }
    }
    (make(ety, converted), diags)
}

/// The labels-to-values tree a `block_map` builds before it becomes nested maps.
enum Node {
    Leaf(Value),
    Branch(BTreeMap<String, Node>),
}

fn decode_block_map(
    b: &BlockMapSpec,
    content: &BodyContent,
    ctx: &EvalContext,
) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut root: BTreeMap<String, Node> = BTreeMap::new();
    let depth = b.label_names.len();
    for block in blocks_of(content, &b.type_name) {
        // Blocks with the wrong number of labels were reported (and left out) by `content`.
        if is_unknown_body(&block.body) {
            return (
                Value::Unknown(Spec::BlockMap(b.clone()).implied_type()),
                diags,
            );
        }
        let (Some(path), Some(key)) = (
            block.labels.get(..depth.saturating_sub(1)),
            depth.checked_sub(1).and_then(|i| block.labels.get(i)),
        ) else {
            continue;
        };
        let (val, more) = decode(&block.body, &b.nested, ctx);
        diags.extend(more);
        let target = match branch(&mut root, path) {
            Some(t) if !t.contains_key(key) => t,
            _ => {
                let labels: String = block
                    .labels
                    .iter()
                    .map(|l| format!(" {}", go_quote(l)))
                    .collect();
                diags.push(error(
                    format!("Duplicate {} block", b.type_name),
                    format!(
                        "A block for {}{labels} was already defined. The {} labels must be unique.",
                        b.type_name, b.type_name
                    ),
                    block.def_range.clone(),
                ));
                continue;
            }
        };
        target.insert(key.clone(), Node::Leaf(val));
    }
    if root.is_empty() {
        // As hcldec: an empty map of the nested type, whatever the number of labels.
        return (Value::map(b.nested.implied_type(), BTreeMap::new()), diags);
    }
    let range = content.missing_item_range.clone();
    match map_of(root) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(error(
                format!("Unconsistent argument types in {} blocks", b.type_name),
                format!(
                    "Corresponding attributes in all blocks of this type must be the same: {e}."
                ),
                range,
            ));
            (Value::Unknown(Type::Dynamic), diags)
        }
    }
}

/// The branch of `tree` at `path`, created as needed; `None` where a value is already
/// in the way.
fn branch<'t>(
    mut tree: &'t mut BTreeMap<String, Node>,
    path: &[String],
) -> Option<&'t mut BTreeMap<String, Node>> {
    for label in path {
        match tree
            .entry(label.clone())
            .or_insert_with(|| Node::Branch(BTreeMap::new()))
        {
            Node::Branch(m) => tree = m,
            Node::Leaf(_) => return None,
        }
    }
    Some(tree)
}

/// Nested maps from a label tree (as deep as the spec's label list, which is bounded). Elements of one map must share a type; differing ones
/// are converted to their unified type.
fn map_of(tree: BTreeMap<String, Node>) -> Result<Value, String> {
    let mut vals = BTreeMap::new();
    for (k, node) in tree {
        let v = match node {
            Node::Leaf(v) => v,
            Node::Branch(m) => map_of(m)?,
        };
        vals.insert(k, v);
    }
    let (ety, vals) = unify_map(vals)?;
    Ok(Value::map(ety, vals))
}

/// The common element type of map elements, with the elements converted to it.
fn unify_map(vals: BTreeMap<String, Value>) -> Result<(Type, BTreeMap<String, Value>), String> {
    let types: Vec<Type> = vals.values().map(Value::ty).collect();
    let Some(first) = types.first() else {
        return Ok((Type::Dynamic, vals));
    };
    if types.iter().all(|t| t == first) {
        return Ok((first.clone(), vals));
    }
    let ety = unify(&types).ok_or_else(|| "the values have no common type".to_string())?;
    let mut out = BTreeMap::new();
    for (k, v) in vals {
        let c = convert(&v, &ety).map_err(|e| e.to_string())?;
        out.insert(k, c);
    }
    Ok((ety, out))
}

fn decode_block_attrs(
    b: &BlockAttrsSpec,
    content: &BodyContent,
    ctx: &EvalContext,
) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut blocks = blocks_of(content, &b.type_name);
    let Some(block) = blocks.next() else {
        if b.required {
            diags.push(error(
                format!("Missing {} block", b.type_name),
                format!(
                    "A block of type {} is required here.",
                    go_quote(&b.type_name)
                ),
                content.missing_item_range.clone(),
            ));
        }
        return (Value::Null(Type::map(b.element_type.clone())), diags);
    };
    if let Some(other) = blocks.next() {
        diags.push(error(
            format!("Duplicate {} block", b.type_name),
            format!(
                "Only one block of type {} is allowed. Previous definition was at {}.",
                go_quote(&b.type_name),
                range_string(&block.def_range)
            ),
            other.def_range.clone(),
        ));
    }
    let (attrs, more) = block.body.just_attributes();
    diags.extend(more);
    if attrs.is_empty() {
        return (Value::map(b.element_type.clone(), BTreeMap::new()), diags);
    }
    let mut vals = BTreeMap::new();
    for (name, attr) in &attrs {
        let (val, more) = attr.expr.value(ctx);
        diags.extend(more);
        let val = match convert(&val, &b.element_type) {
            Ok(v) => v,
            Err(e) => {
                diags.push(error(
                    "Invalid attribute value",
                    format!(
                        "Invalid value for attribute of {} block: {}.",
                        go_quote(&b.type_name),
                        e.message
                    ),
                    attr.expr.range(),
                ));
                Value::Unknown(b.element_type.clone())
            }
        };
        vals.insert(name.clone(), val);
    }
    // With an element type of `any` the values may differ in type; a map needs one type.
    match unify_map(vals) {
        Ok((ety, vals)) => (Value::map(ety, vals), diags),
        Err(e) => {
            diags.push(error(
                "Invalid attribute value",
                format!(
                    "The attributes of the {} block must all have the same type ({e}).",
                    go_quote(&b.type_name)
                ),
                block.def_range.clone(),
            ));
            (Value::Unknown(Type::map(b.element_type.clone())), diags)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::parse_native;
    use crate::hcldec::load::load_spec;

    fn spec(text: &str) -> Spec {
        let (file, diags) = load_spec("spec.hcldec", text);
        assert!(diags.is_empty(), "{diags:?}");
        file.root
    }

    fn body(text: &str) -> Body {
        let (b, diags) = parse_native("in.hcl", text);
        assert!(diags.is_empty(), "{diags:?}");
        b.unwrap_or_else(Body::empty)
    }

    fn attr(name: &str, required: bool) -> AttributeSchema {
        AttributeSchema {
            name: name.into(),
            required,
        }
    }

    #[test]
    fn implied_schema_visits_same_body_specs_as_hcldec() {
        let s = spec(
            r#"object {
  attr "a" {
    required = true
  }
  default "d" {
    attr {
      name     = "p"
      required = true
    }
    attr {
      name = "q"
    }
  }
  transform "t" {
    block_list {
      block_type = "item"
      object {
        attr "inner" {
        }
      }
    }
    result = nested
  }
  block_map "m" {
    labels = ["x", "y"]
    object {}
  }
}
"#,
        );
        let schema = implied_schema(&s);
        // The default spec lists its specs' attributes, then each is visited again
        // (hcldec's `ImpliedSchema` does the same; duplicates are harmless).
        assert_eq!(
            schema.attributes,
            vec![
                attr("a", true),
                attr("p", true),
                attr("q", false),
                attr("p", true),
                attr("q", false),
            ]
        );
        let blocks: Vec<(String, Vec<String>)> = schema
            .blocks
            .iter()
            .map(|b| (b.type_name.clone(), b.label_names.clone()))
            .collect();
        assert_eq!(
            blocks,
            vec![
                ("m".to_string(), vec!["x".to_string(), "y".to_string()]),
                ("item".to_string(), vec![]),
            ]
        );
    }

    #[test]
    fn implied_types() {
        let s = spec(
            r#"object {
  attr "a" {
    type = list(number)
  }
  block_list "b" {
    object {
      attr "c" {
        type = bool
      }
    }
  }
  block_set "s" {
    literal {
      value = "x"
    }
  }
  block_map "m" {
    labels = ["k1", "k2"]
    attr {
      name = "v"
      type = string
    }
  }
  block_attrs "e" {
    element_type = number
  }
  array "t" {
    literal {
      value = true
    }
  }
  transform "n" {
    attr {
      name = "x"
      type = number
    }
    result = nested * 2
  }
  transform "u" {
    attr {
      name = "y"
      type = string
    }
    result = upper(nested)
  }
}
"#,
        );
        assert_eq!(
            implied_type(&s).to_string(),
            "object({a=list(number),b=list(object({c=bool})),e=map(number),m=map(map(string)),n=number,s=set(string),t=tuple([bool]),u=string})"
        );
    }

    #[test]
    fn source_ranges() {
        let s = spec(
            r#"block_list {
  block_type = "item"
  attr {
    name = "v"
  }
}
"#,
        );
        let b = body("item {\n  v = 1\n}\nitem {\n  v = 22\n}\n");
        let r = source_range(&b, &s);
        assert_eq!((r.start.line, r.start.column, r.end.column), (2, 7, 8));
        let lit = spec("literal {\n  value = 1\n}\n");
        assert_eq!(source_range(&b, &lit).filename, "<unknown>");
    }

    #[test]
    fn variables_of_each_spec_type() {
        let s = spec(
            r#"object {
  attr "a" {
  }
  block "b" {
    attr {
      name = "x"
    }
  }
  block_list "l" {
    attr {
      name = "x"
    }
  }
  block_attrs "e" {
    element_type = any
  }
}
"#,
        );
        let b = body(
            "a = v1 + v2.k\nb {\n  x = v3[0]\n}\nl {\n  x = v4\n}\nl {\n  x = v5\n}\ne {\n  z = v7\n  y = v6\n}\n",
        );
        let roots: Vec<String> = variables(&b, &s)
            .iter()
            .filter_map(|(steps, _)| match steps.first() {
                Some(TraverseStep::Root(n)) => Some(n.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(roots, ["v1", "v2", "v3", "v7", "v6", "v4", "v5"]);
    }

    #[test]
    fn partial_decode_leaves_the_rest() {
        let s = spec("object {\n  attr \"a\" {\n  }\n}\n");
        let b = body("a = 1\nb = 2\nc {\n}\n");
        let (v, rest, diags) = partial_decode(&b, &s, &EvalContext::empty());
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v, Value::object_from([("a", Value::from(1))]));
        let (content, _, _) = rest.partial_content(&BodySchema {
            attributes: vec![attr("b", true)],
            blocks: vec![BlockHeaderSchema {
                type_name: "c".into(),
                label_names: vec![],
            }],
        });
        let attrs: Vec<&String> = content.attributes.keys().collect();
        assert_eq!(attrs, ["b"]);
    }

    #[test]
    fn blocks_of_unknown_content_make_the_collection_unknown() {
        let s = spec(
            r#"object {
  block_list "r" {
    attr {
      name = "v"
      type = number
    }
  }
  block_map "m" {
    labels = ["k"]
    attr {
      name = "v"
      type = number
    }
  }
}
"#,
        );
        let b = body(
            "dynamic \"r\" {\n  for_each = unknown\n  content {\n    v = 1\n  }\n}\ndynamic \"m\" {\n  for_each = unknown\n  labels = [\"x\"]\n  content {\n    v = 1\n  }\n}\n",
        );
        let ctx = EvalContext::empty().with_variables(BTreeMap::from([(
            "unknown".to_string(),
            Value::Unknown(Type::list(Type::Number)),
        )]));
        let b = crate::body::expand_dynamic(b, &ctx);
        let (v, diags) = decode(&b, &s, &ctx);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            v,
            Value::object_from([
                ("r", Value::Unknown(Type::list(Type::Number))),
                ("m", Value::Unknown(Type::map(Type::Number))),
            ])
        );
    }

    #[test]
    fn errors_carry_hcl_ranges_in_details() {
        let s = spec("block {\n  block_type = \"b\"\n  literal {\n    value = 1\n  }\n}\n");
        let b = body("b {\n}\nb {\n}\n");
        let (_, diags) = decode(&b, &s, &EvalContext::empty());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Duplicate b block");
        assert_eq!(
            diags[0].detail,
            "Only one block of type \"b\" is allowed. Previous definition was at in.hcl:1,1-2."
        );
        let multi = Range {
            filename: "f".into(),
            start: crate::diag::Pos {
                line: 1,
                column: 3,
                byte: 2,
            },
            end: crate::diag::Pos {
                line: 4,
                column: 2,
                byte: 20,
            },
        };
        assert_eq!(range_string(&multi), "f:1,3-4,2");
    }
}
