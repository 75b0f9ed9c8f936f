//! The value language of mapping files: hcldec's spec blocks (`object`, `array`, `attr`,
//! `literal`, `block`, `block_list`, `block_set`, `block_map`, `block_attrs`, `default`,
//! `transform`) plus `ref`, `unknown` and `parent`, as a tree of [`Node`]s, and its
//! decoder.
//!
//! The decoder follows hcldec's semantics with the differences a scanner needs:
//!
//! - It is partial at every level: a spec reads what it names and ignores the rest, as a
//!   resource body holds meta-arguments and arguments no mapping reads. Nothing validates
//!   (`required`, `min_items`, `max_items` are refused by the loader): a mapping never
//!   rejects a configuration the provider accepts.
//! - Lists of blocks are tuples (each element its own type), so elements holding
//!   different kinds of value (a known bool, an unknown) never need a common type.
//!   `block_set` keeps source order and drops duplicates.
//! - A body is read the same in both syntaxes; a `block_list` marked
//!   `attributes_as_blocks` also reads an attribute of that name holding a list of objects
//!   (Terraform's attributes-as-blocks mode: `ingress = [...]`, and `.tf.json`, where such
//!   a list is always an attribute).
//! - `literal` values and `transform` results are expressions evaluated per resource in
//!   the mapping scope: the mapping functions, `local`, `self` (and
//!   `parent` in a `derive`), with `nested` in a transform.
//! - Evaluation errors are collected (the interpreter reports them as warnings) and give
//!   an unknown value; decoding never stops.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;

use cloudspec_hcl::body::{
    Attribute, AttributeSchema, Block, BlockHeaderSchema, Body, BodySchema, Expr,
};
use cloudspec_hcl::convert::convert;
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Range, Type, Value};

use super::values::{self, for_expression, Marker};

/// One spec: how part of a body becomes a value.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// An object of the named specs' values.
    Object(BTreeMap<String, Node>),
    /// A tuple of the specs' values, in order.
    Array(Vec<Node>),
    /// The value of attribute `name`, converted to `ty` (`any`: as it is).
    Attr { name: String, ty: Type },
    /// An expression of the mapping scope.
    Literal(Expr),
    /// The nested spec applied to the single block `type_name`; null when absent (or the
    /// nested spec applied to an empty body, with `empty_if_absent`).
    Block {
        type_name: String,
        nested: Box<Node>,
        empty_if_absent: bool,
    },
    /// The nested spec applied to each block `type_name`, as a tuple.
    BlockList {
        type_name: String,
        nested: Box<Node>,
        set: bool,
        attributes_as_blocks: bool,
    },
    /// An object (one level per label) of the nested spec's values for each block.
    BlockMap {
        type_name: String,
        labels: Vec<String>,
        nested: Box<Node>,
    },
    /// The attributes of the single block `type_name`, as an object.
    BlockAttrs {
        type_name: String,
        element_type: Type,
    },
    /// The first of the specs' values that is not null.
    Default(Vec<Node>),
    /// `result` evaluated with `nested` bound to the nested spec's value.
    Transform {
        nested: Box<Node>,
        result: Option<Expr>,
    },
    /// The nested spec's value as an association to `target` (see [`values::associate`]).
    Ref { nested: Box<Node>, target: String },
    /// A value known only after apply.
    Unknown { reason: String, not_null: bool },
    /// The nested spec applied to the body of the resource a `derive` block derives from.
    Parent(Box<Node>),
    /// The nested spec's value, or an unknown when it is null (unset Optional+Computed).
    Computed {
        nested: Box<Node>,
        reason: String,
        not_null: bool,
    },
    /// The nested spec's value, or `default` (an expression, converted to `ty`) when it
    /// is null.
    OrElse {
        nested: Box<Node>,
        default: Expr,
        ty: Type,
    },
}

/// Where a spec reads: a body (in the configuration's scope, with its attributes once
/// read: [`Src::body`]), a value (an element of an attributes-as-blocks list), or nothing
/// (an absent block decoded as empty).
#[derive(Clone, Debug)]
pub(crate) enum Src {
    Body(Body, OnceCell<BTreeMap<String, Attribute>>),
    Value(Value),
    Empty,
}

impl Src {
    pub fn body(body: Body) -> Src {
        Src::Body(body, OnceCell::new())
    }
}

/// The attribute `name` of a source's body, as [`body_attribute`] finds it, from every
/// attribute of the body read once (a spec reads many).
fn src_attribute<'s>(
    body: &Body,
    attrs: &'s OnceCell<BTreeMap<String, Attribute>>,
    name: &str,
) -> Option<&'s Attribute> {
    attrs
        .get_or_init(|| {
            let schema = BodySchema {
                attributes: body.item_names().schema().attributes,
                blocks: Vec::new(),
            };
            body.partial_content(&schema).0.attributes
        })
        .get(name)
}

/// A block (or element of an attributes-as-blocks list) found in a source.
pub(crate) struct Item {
    pub src: Src,
    pub labels: Vec<String>,
    /// Where it is written (blocks: the header; list elements: the attribute).
    pub range: Option<Range>,
}

/// The blocks of one type in a source: known, or unknown (a dynamic block over an unknown
/// collection, an unknown list).
pub(crate) enum Items {
    Known(Vec<Item>),
    Unknown,
}

/// Decodes specs for one resource.
pub(crate) struct Decoder<'a> {
    /// The scope of the configuration's expressions (the instance's).
    pub config: &'a EvalContext,
    /// The mapping scope: functions, `local`, `self`, `parent`.
    pub mapping: &'a EvalContext,
    /// The parent resource's body, inside a `derive`.
    pub parent: Option<&'a Src>,
    /// Every diagnostic of decoding (evaluation errors, values of the wrong type).
    pub diags: RefCell<Vec<Diagnostic>>,
}

impl<'a> Decoder<'a> {
    pub fn new(config: &'a EvalContext, mapping: &'a EvalContext) -> Decoder<'a> {
        Decoder {
            config,
            mapping,
            parent: None,
            diags: RefCell::new(Vec::new()),
        }
    }

    fn report(&self, diags: Vec<Diagnostic>) {
        self.diags.borrow_mut().extend(diags);
    }

    /// Evaluates an expression of the mapping in `ctx`.
    fn eval(&self, expr: &Expr, ctx: &EvalContext) -> Value {
        let (v, diags) = expr.value(ctx);
        self.report(diags);
        v
    }

    pub fn decode(&self, node: &Node, src: &Src) -> Value {
        match node {
            Node::Object(props) => Value::Object(
                props
                    .iter()
                    .map(|(k, n)| (k.clone(), self.decode(n, src)))
                    .collect(),
            ),
            Node::Array(nodes) => Value::Tuple(nodes.iter().map(|n| self.decode(n, src)).collect()),
            Node::Attr { name, ty } => match self.attr(src, name) {
                None => Value::Null(Type::Dynamic),
                Some((v, range)) => self.convert(v, ty, range),
            },
            Node::Literal(expr) => self.eval(expr, self.mapping),
            Node::Block {
                type_name,
                nested,
                empty_if_absent,
            } => match self.items(src, type_name, 0, false) {
                Items::Unknown => Value::dynamic(),
                Items::Known(items) => match items.into_iter().next() {
                    Some(item) => self.decode(nested, &item.src),
                    None if *empty_if_absent => self.decode(nested, &Src::Empty),
                    None => Value::Null(Type::Dynamic),
                },
            },
            Node::BlockList {
                type_name,
                nested,
                set,
                attributes_as_blocks,
            } => match self.items(src, type_name, 0, *attributes_as_blocks) {
                Items::Unknown => Value::dynamic(),
                Items::Known(items) => {
                    let mut out: Vec<Value> = Vec::with_capacity(items.len());
                    for item in items {
                        let v = self.decode(nested, &item.src);
                        if !(*set && out.contains(&v)) {
                            out.push(v);
                        }
                    }
                    Value::Tuple(out)
                }
            },
            Node::BlockMap {
                type_name,
                labels,
                nested,
            } => self.block_map(src, type_name, labels, nested),
            Node::BlockAttrs {
                type_name,
                element_type,
            } => self.block_attrs(src, type_name, element_type),
            Node::Default(nodes) => {
                for n in nodes {
                    let v = self.decode(n, src);
                    if !v.is_null() {
                        return v;
                    }
                }
                Value::Null(Type::Dynamic)
            }
            Node::Transform { nested, result } => {
                let v = self.decode(nested, src);
                let Some(expr) = result else {
                    return Value::Null(Type::Dynamic);
                };
                let ctx = self
                    .mapping
                    .child(BTreeMap::from([("nested".to_string(), for_expression(&v))]));
                self.eval(expr, &ctx)
            }
            Node::Ref { nested, target } => {
                let v = self.decode(nested, src);
                match values::associate(target, &v) {
                    Ok(r) => r,
                    Err(message) => {
                        self.report(vec![Diagnostic::error(
                            "Invalid reference",
                            format!("An association to {target}: {message}."),
                            None,
                        )]);
                        Value::dynamic()
                    }
                }
            }
            Node::Unknown { reason, not_null } => values::unknown(reason, *not_null),
            Node::Parent(nested) => match self.parent {
                Some(p) => self.decode(nested, p),
                None => Value::Null(Type::Dynamic),
            },
            Node::Computed {
                nested,
                reason,
                not_null,
            } => {
                let v = self.decode(nested, src);
                if v.is_null() {
                    values::unknown(reason, *not_null)
                } else {
                    v
                }
            }
            Node::OrElse {
                nested,
                default,
                ty,
            } => {
                let v = self.decode(nested, src);
                if !v.is_null() {
                    return v;
                }
                let d = self.eval(default, self.mapping);
                if *ty == Type::Dynamic || d.is_null() {
                    return d;
                }
                convert(&d, ty).unwrap_or(d)
            }
        }
    }

    /// The value of attribute `name` (and where it is written), `None` when it is absent.
    fn attr(&self, src: &Src, name: &str) -> Option<(Value, Option<Range>)> {
        match src {
            Src::Empty => None,
            Src::Value(v) => match v {
                Value::Object(m) | Value::Map(_, m) => m.get(name).map(|v| (v.clone(), None)),
                Value::Unknown(_) => Some((Value::dynamic(), None)),
                _ => None,
            },
            Src::Body(body, attrs) => {
                let attr = src_attribute(body, attrs, name)?;
                let (v, diags) = attr.expr.value(self.config);
                self.report(diags);
                Some((v, Some(attr.expr.range())))
            }
        }
    }

    /// `v` converted to `ty`. A computed attribute of another resource (an identity) where
    /// a number or a bool is expected is unknown (not null); any other value of the wrong
    /// type is an unknown with a diagnostic.
    fn convert(&self, v: Value, ty: &Type, range: Option<Range>) -> Value {
        if *ty == Type::Dynamic {
            return v;
        }
        match convert(&v, ty) {
            Ok(c) => c,
            Err(e) => {
                if let Value::String(s) = &v {
                    if let Some(Marker::Identity { address, attr }) = values::marker(s) {
                        return values::unknown(
                            &format!("the {attr} of {address}, known after apply"),
                            true,
                        );
                    }
                    if s.contains('\u{1}') {
                        return Value::Unknown(ty.clone());
                    }
                }
                self.report(vec![Diagnostic::error(
                    "Incorrect attribute value type",
                    format!("Inappropriate value: {}.", e.message),
                    range,
                )]);
                Value::Unknown(ty.clone())
            }
        }
    }

    /// The blocks `type_name` with `labels` labels in `src`; with `attributes_as_blocks`,
    /// an attribute of that name holding a list of objects is read as the blocks.
    pub fn items(
        &self,
        src: &Src,
        type_name: &str,
        labels: usize,
        attributes_as_blocks: bool,
    ) -> Items {
        match src {
            Src::Empty => Items::Known(Vec::new()),
            Src::Value(v) => value_items(v, type_name, None),
            Src::Body(body, attrs) => {
                if attributes_as_blocks {
                    if let Some(attr) = src_attribute(body, attrs, type_name) {
                        let (v, diags) = attr.expr.value(self.config);
                        self.report(diags);
                        let holder = Value::Object(BTreeMap::from([(type_name.to_string(), v)]));
                        return value_items(&holder, type_name, Some(attr.range.clone()));
                    }
                }
                let label_names: Vec<String> = (0..labels).map(|i| format!("label{i}")).collect();
                let schema = BodySchema {
                    attributes: Vec::new(),
                    blocks: vec![BlockHeaderSchema::new(type_name, label_names)],
                };
                // Structural diagnostics (an argument of this name, wrong label counts) are
                // Terraform's to report; a mapping reads what is there.
                let (content, _, _) = body.partial_content(&schema);
                let mut items = Vec::new();
                for Block {
                    labels,
                    body,
                    def_range,
                    ..
                } in content.blocks
                {
                    if body.is_unknown() {
                        return Items::Unknown;
                    }
                    items.push(Item {
                        src: Src::body(body),
                        labels,
                        range: Some(def_range),
                    });
                }
                Items::Known(items)
            }
        }
    }

    fn block_map(&self, src: &Src, type_name: &str, labels: &[String], nested: &Node) -> Value {
        let items = match self.items(src, type_name, labels.len(), false) {
            Items::Unknown => return Value::dynamic(),
            Items::Known(items) => items,
        };
        let mut root: BTreeMap<String, Value> = BTreeMap::new();
        for item in items {
            let v = self.decode(nested, &item.src);
            insert_at(&mut root, &item.labels, v);
        }
        Value::Object(root)
    }

    fn block_attrs(&self, src: &Src, type_name: &str, element_type: &Type) -> Value {
        let items = match self.items(src, type_name, 0, false) {
            Items::Unknown => return Value::dynamic(),
            Items::Known(items) => items,
        };
        let Some(item) = items.into_iter().next() else {
            return Value::Null(Type::Dynamic);
        };
        let attrs: BTreeMap<String, (Value, Option<Range>)> = match &item.src {
            Src::Body(body, _) => {
                let (attrs, diags) = body.just_attributes();
                self.report(diags);
                attrs
                    .into_iter()
                    .map(|(name, a)| {
                        let (v, diags) = a.expr.value(self.config);
                        self.report(diags);
                        (name, (v, Some(a.expr.range())))
                    })
                    .collect()
            }
            Src::Value(Value::Object(m) | Value::Map(_, m)) => m
                .iter()
                .map(|(k, v)| (k.clone(), (v.clone(), None)))
                .collect(),
            Src::Value(_) | Src::Empty => BTreeMap::new(),
        };
        Value::Object(
            attrs
                .into_iter()
                .map(|(k, (v, range))| (k, self.convert(v, element_type, range)))
                .collect(),
        )
    }
}

/// The attribute `name` of `body`, if written (as an attribute: in the native syntax a
/// block of that name is not one).
pub(crate) fn body_attribute(body: &Body, name: &str) -> Option<cloudspec_hcl::body::Attribute> {
    let schema = BodySchema {
        attributes: vec![AttributeSchema::new(name, false)],
        blocks: Vec::new(),
    };
    let (mut content, _, _) = body.partial_content(&schema);
    content.attributes.remove(name)
}

/// True when `body` writes `name` as a non-null attribute or as a block.
pub(crate) fn body_declares(body: &Body, ctx: &EvalContext, name: &str) -> bool {
    if let Some(attr) = body_attribute(body, name) {
        let (v, _) = attr.expr.value(ctx);
        return !v.is_null();
    }
    let schema = BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema::new(name, Vec::<String>::new())],
    };
    let (content, _, _) = body.partial_content(&schema);
    !content.blocks.is_empty()
}

/// The elements of the list `holder[name]` as blocks.
fn value_items(holder: &Value, name: &str, range: Option<Range>) -> Items {
    let v = match holder {
        Value::Object(m) | Value::Map(_, m) => m.get(name),
        Value::Unknown(_) => return Items::Unknown,
        _ => None,
    };
    let elems: Vec<Value> = match v {
        None | Some(Value::Null(_)) => Vec::new(),
        Some(Value::Unknown(_)) => return Items::Unknown,
        Some(Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items)) => items.clone(),
        Some(other @ (Value::Object(_) | Value::Map(..))) => vec![other.clone()],
        Some(_) => Vec::new(),
    };
    let mut items = Vec::with_capacity(elems.len());
    for e in elems {
        match e {
            Value::Unknown(_) => return Items::Unknown,
            Value::Null(_) => {}
            e => items.push(Item {
                src: Src::Value(e),
                labels: Vec::new(),
                range: range.clone(),
            }),
        }
    }
    Items::Known(items)
}

/// Sets `v` at the path `labels` of nested objects.
fn insert_at(tree: &mut BTreeMap<String, Value>, labels: &[String], v: Value) {
    match labels {
        [] => {}
        [last] => {
            tree.entry(last.clone()).or_insert(v);
        }
        [first, rest @ ..] => {
            let entry = tree
                .entry(first.clone())
                .or_insert_with(|| Value::Object(BTreeMap::new()));
            if let Value::Object(inner) = entry {
                insert_at(inner, rest, v);
            }
        }
    }
}
