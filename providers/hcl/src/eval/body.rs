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
//! An attribute and a block type of the same name, or blocks of one type with different
//! numbers of labels, are errors.

use std::collections::BTreeMap;

use hcl_edit::structure::{Body, Structure};

use super::{dynamic, go_quote, EvalContext, Evaluated, Evaluator};
use crate::diag::Diagnostic;
use crate::syntax::SourceFile;
use crate::value::Value;

/// Evaluates every attribute of `body` and of its nested blocks (shape in the module docs).
pub fn body_to_value(body: &Body, ctx: &EvalContext, src: &SourceFile) -> Evaluated {
    let deep = super::depth::exceeds(super::depth::Node::Body(body), super::INLINE_DEPTH);
    super::depth::on_big_stack(deep, || {
        let mut ev = Evaluator::new(src);
        let mut diags = Vec::new();
        let v = ev.body(body, ctx, &mut diags, 0);
        ev.finish((v, diags))
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
                Structure::Block(b) => {
                    let name = b.ident.value().as_str();
                    let consistent = groups
                        .get(name)
                        .and_then(|g| g.label_count)
                        .is_none_or(|n| n == b.labels.len());
                    if !consistent {
                        let earlier = groups.get(name).and_then(|g| g.label_count).unwrap_or(0);
                        diags.push(Diagnostic::error(
                            "Inconsistent block labels",
                            format!(
                                "All {} blocks must have the same number of labels; this one has {} but an earlier one has {earlier}.",
                                go_quote(name),
                                b.labels.len()
                            ),
                            self.range_of(&b.ident),
                        ));
                        continue;
                    }
                    let v = self.body(&b.body, ctx, diags, depth + 1);
                    let labels: Vec<String> =
                        b.labels.iter().map(|l| l.as_str().to_string()).collect();
                    let group = groups.entry(name.to_string()).or_default();
                    group.label_count = Some(b.labels.len());
                    group.first.get_or_insert_with(|| self.range_of(&b.ident));
                    group.tree.insert(&labels, v);
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
