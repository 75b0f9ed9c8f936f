//! A whole body as one value, for `cloudspec hcl eval`.
//!
//! Shape: an object with one attribute per body attribute (its evaluated value) and one
//! per block type. Blocks of a type without labels give a tuple of their bodies (each an
//! object of the same shape), in source order. Blocks with labels nest one object level
//! per label, keyed by the label, down to a tuple of the bodies with those labels:
//!
//! ```hcl
//! name = "x"
//! resource "aws_s3_bucket" "logs" { acl = "private" }
//! locals { a = 1 }
//! ```
//! gives `{"locals": [{"a": 1}], "name": "x",
//! "resource": {"aws_s3_bucket": {"logs": [{"acl": "private"}]}}}`.
//!
//! `dynamic "T"` blocks are expanded into the T blocks they generate (HCL's ext/dynblock
//! without a schema: labels are whatever `labels` gives).
//!
//! An attribute and a block type of the same name, or blocks of one type with different
//! numbers of labels, are errors.

use std::collections::BTreeMap;

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Body, Structure};

use super::{dynamic, go_quote, EvalContext, Evaluated, Evaluator};
use crate::diag::Diagnostic;
use crate::syntax::SourceFile;
use crate::value::Value;

/// Evaluates every attribute of `body` and of its nested blocks (shape in the module docs).
pub fn body_to_value(body: &Body, ctx: &EvalContext, src: &SourceFile) -> Evaluated {
    let deep = super::depth::exceeds(super::depth::Node::Body(body), super::INLINE_DEPTH);
    let budget = crate::budget::Budget::current_or_new();
    super::depth::on_big_stack(deep, || {
        budget.enter(|| {
            let mut ev = Evaluator::new(src, budget.clone());
            let mut diags = Vec::new();
            let v = ev.body(body, ctx, &mut diags, 0);
            ev.finish((v, diags))
        })
    })
}

/// More labels than this on one block are an error (the value nests one level per label).
const MAX_LABELS: usize = 64;

/// Evaluated blocks of one type, in source order.
#[derive(Default)]
struct BlockGroup {
    label_count: Option<usize>,
    first: Option<Option<crate::diag::Range>>,
    tree: LabelTree,
}

impl Evaluator<'_> {
    fn body(
        &mut self,
        body: &Body,
        ctx: &EvalContext,
        diags: &mut Vec<Diagnostic>,
        depth: usize,
    ) -> Value {
        if depth >= super::MAX_DEPTH {
            diags.push(Diagnostic::error(
                "Nesting too deep",
                format!(
                    "Blocks may be nested at most {} levels deep.",
                    super::MAX_DEPTH
                ),
                None,
            ));
            return dynamic();
        }
        let mut attrs: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, BlockGroup> = BTreeMap::new();
        for structure in body.iter() {
            match structure {
                Structure::Attribute(a) => {
                    let (v, d) = self.eval(&a.value, ctx);
                    diags.extend(d);
                    attrs.insert(a.key.value().as_str().to_string(), v);
                }
                Structure::Block(b) if b.labels.len() > MAX_LABELS => {
                    diags.push(Diagnostic::error(
                        "Too many block labels",
                        format!("A block may have at most {MAX_LABELS} labels."),
                        self.range_of(&b.ident),
                    ));
                }
                Structure::Block(b)
                    if b.ident.value().as_str() == "dynamic" && b.labels.len() == 1 =>
                {
                    let name = b.labels.first().map_or("", |l| l.as_str());
                    for (labels, v) in self.dynamic_block(b, ctx, diags, depth) {
                        self.add_block(&mut groups, name, labels, v, &b.ident, diags);
                    }
                }
                Structure::Block(b) => {
                    let v = self.body(&b.body, ctx, diags, depth + 1);
                    let labels: Vec<String> =
                        b.labels.iter().map(|l| l.as_str().to_string()).collect();
                    self.add_block(
                        &mut groups,
                        b.ident.value().as_str(),
                        labels,
                        v,
                        &b.ident,
                        diags,
                    );
                }
            }
        }
        for (name, group) in groups {
            if attrs.contains_key(&name) {
                diags.push(Diagnostic::error(
                    "Attribute and block of the same name",
                    format!(
                        "The name {} is used both by an argument and by a block type in this body.",
                        go_quote(&name)
                    ),
                    group.first.flatten(),
                ));
                continue;
            }
            attrs.insert(name, group.tree.into_value());
        }
        Value::Object(attrs)
    }

    /// Adds one evaluated block of type `name` to `groups`, checking that all blocks of a
    /// type have the same number of labels.
    fn add_block(
        &mut self,
        groups: &mut BTreeMap<String, BlockGroup>,
        name: &str,
        labels: Vec<String>,
        v: Value,
        at: &impl hcl_edit::Span,
        diags: &mut Vec<Diagnostic>,
    ) {
        let earlier = groups.get(name).and_then(|g| g.label_count);
        if let Some(earlier) = earlier.filter(|n| *n != labels.len()) {
            diags.push(Diagnostic::error(
                "Inconsistent block labels",
                format!(
                    "All {} blocks must have the same number of labels; this one has {} but an earlier one has {earlier}.",
                    go_quote(name),
                    labels.len()
                ),
                self.range_of(at),
            ));
            return;
        }
        let group = groups.entry(name.to_string()).or_default();
        group.label_count = Some(labels.len());
        group.first.get_or_insert_with(|| self.range_of(at));
        group.tree.insert(&labels, v);
    }

    /// Expands `dynamic "x" { for_each, iterator, labels, content {...} }` into the labels
    /// and evaluated bodies of the blocks it generates (HCL's ext/dynblock, without a
    /// schema: the labels are whatever `labels` gives). An unknown `for_each` generates
    /// nothing (nothing is known about the blocks); errors use dynblock's messages.
    fn dynamic_block(
        &mut self,
        b: &hcl_edit::structure::Block,
        ctx: &EvalContext,
        diags: &mut Vec<Diagnostic>,
        depth: usize,
    ) -> Vec<(Vec<String>, Value)> {
        let type_name = b.labels.first().map_or("", |l| l.as_str()).to_string();
        let mut for_each = None;
        let mut iterator = None;
        let mut labels_expr = None;
        let mut contents = Vec::new();
        for structure in b.body.iter() {
            match structure {
                Structure::Attribute(a) => match a.key.value().as_str() {
                    "for_each" => for_each = Some(&a.value),
                    "iterator" => iterator = Some(&a.value),
                    "labels" => labels_expr = Some(&a.value),
                    other => diags.push(Diagnostic::error(
                        "Unsupported argument",
                        format!(
                            "An argument named {} is not expected here.",
                            go_quote(other)
                        ),
                        self.range_of(&a.key),
                    )),
                },
                Structure::Block(c)
                    if c.ident.value().as_str() == "content" && c.labels.is_empty() =>
                {
                    contents.push(c)
                }
                Structure::Block(c) => diags.push(Diagnostic::error(
                    "Unsupported block type",
                    format!(
                        "Blocks of type {} are not expected here.",
                        go_quote(c.ident.value().as_str())
                    ),
                    self.range_of(&c.ident),
                )),
            }
        }
        let Some(for_each) = for_each else {
            diags.push(Diagnostic::error(
                "Missing required argument",
                "The argument \"for_each\" is required, but no definition was found.",
                self.range_of(&b.ident),
            ));
            return Vec::new();
        };
        let content = match contents.as_slice() {
            [one] => *one,
            [] => {
                diags.push(Diagnostic::error(
                    "Missing dynamic content block",
                    "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                    self.range_of(&b.ident),
                ));
                return Vec::new();
            }
            [_, extra, ..] => {
                diags.push(Diagnostic::error(
                    "Extraneous dynamic content block",
                    "Only one nested content block is allowed for each dynamic block.",
                    self.range_of(&extra.ident),
                ));
                return Vec::new();
            }
        };
        let iterator_name = match iterator {
            None => type_name,
            Some(Expression::Variable(v)) => v.value().as_str().to_string(),
            Some(other) => {
                diags.push(Diagnostic::error(
                    "Invalid dynamic iterator name",
                    "Dynamic iterator must be a single variable name.",
                    self.range_of(other),
                ));
                return Vec::new();
            }
        };
        let (collection, d) = self.eval(for_each, ctx);
        let failed = crate::diag::has_errors(&d);
        diags.extend(d);
        if failed || collection.is_unknown() {
            return Vec::new();
        }
        if collection.is_null() {
            diags.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                "Cannot use a null value in for_each.",
                self.range_of(for_each),
            ));
            return Vec::new();
        }
        let Some(elements) = collection.elements() else {
            diags.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                format!(
                    "Cannot use a {} value in for_each. An iterable collection is required.",
                    collection.ty().friendly_name()
                ),
                self.range_of(for_each),
            ));
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, value) in elements {
            let iter = Value::Object(BTreeMap::from([
                ("key".to_string(), key),
                ("value".to_string(), value),
            ]));
            let child = ctx.child(BTreeMap::from([(iterator_name.clone(), iter)]));
            let mut labels = Vec::new();
            if let Some(le) = labels_expr {
                let (lv, d) = self.eval(le, &child);
                let failed = crate::diag::has_errors(&d);
                diags.extend(d);
                if failed {
                    continue;
                }
                let items = match crate::convert::convert(
                    &lv,
                    &crate::types::Type::list(crate::types::Type::String),
                ) {
                    Ok(Value::List(_, items)) => items,
                    _ => {
                        diags.push(Diagnostic::error(
                            "Invalid dynamic block label",
                            "The labels must be a list of strings.",
                            self.range_of(le),
                        ));
                        continue;
                    }
                };
                for item in items {
                    match item {
                        Value::String(s) => labels.push(s),
                        _ => diags.push(Diagnostic::error(
                            "Invalid dynamic block label",
                            "Cannot use a null or unknown value as a dynamic block label.",
                            self.range_of(le),
                        )),
                    }
                }
            }
            let v = self.body(&content.body, &child, diags, depth + 1);
            out.push((labels, v));
        }
        out
    }
}

/// Block bodies keyed by their labels.
#[derive(Default)]
struct LabelTree {
    bodies: Vec<Value>,
    children: BTreeMap<String, LabelTree>,
}

impl LabelTree {
    fn insert(&mut self, labels: &[String], body: Value) {
        match labels.split_first() {
            None => self.bodies.push(body),
            Some((first, rest)) => self
                .children
                .entry(first.clone())
                .or_default()
                .insert(rest, body),
        }
    }

    fn into_value(self) -> Value {
        if self.children.is_empty() {
            Value::Tuple(self.bodies)
        } else {
            Value::Object(
                self.children
                    .into_iter()
                    .map(|(k, t)| (k, t.into_value()))
                    .collect(),
            )
        }
    }
}
