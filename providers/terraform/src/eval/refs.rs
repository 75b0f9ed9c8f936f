//! What a configuration refers to, found statically: the expressions of a block (without a
//! schema, `dynamic` iterators bound), their references (traversals), and every attribute
//! name an expression reads after a resource, a data source, a module output or any other
//! value (so that a resource's value can hold, unknown, every attribute anything reads
//! from it).

use std::collections::{BTreeMap, BTreeSet};

use cloudspec_hcl::body::{BlockHeaderSchema, Body, BodySchema, Expr};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::syntax::{parse_template, SourceFile};
use cloudspec_hcl::{Range, Value};
use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::template::{Directive, Element, Template};

/// Blocks nest at most this deep for the static analyses (deeper ones are not looked at:
/// the parser bounds nesting anyway).
const MAX_BLOCK_DEPTH: usize = 64;
/// Expressions nest at most this deep for the attribute-name walk.
const MAX_EXPR_DEPTH: usize = 256;

/// One expression of a block, with the `dynamic` iterator names visible to it.
#[derive(Clone, Debug)]
pub struct Found {
    pub expr: Expr,
    pub bound: Vec<String>,
}

/// A reference: a traversal's static steps and its range.
#[derive(Clone, Debug)]
pub struct Reference {
    pub steps: Vec<TraverseStep>,
    pub range: Range,
}

impl Reference {
    pub fn root(&self) -> &str {
        match self.steps.first() {
            Some(TraverseStep::Root(r)) => r,
            _ => "",
        }
    }

    /// The name of attribute step `i` (1 is the first after the root), if it is one.
    pub fn attr(&self, i: usize) -> Option<&str> {
        match self.steps.get(i) {
            Some(TraverseStep::Attr(a)) => Some(a),
            _ => None,
        }
    }
}

/// Every expression in `body` (attributes and nested blocks, `dynamic` blocks' `for_each`,
/// `labels` and content), except the attributes in `skip_attrs` and the blocks in
/// `skip_blocks` at the top level.
pub fn expressions(body: &Body, skip_attrs: &[&str], skip_blocks: &[&str]) -> Vec<Found> {
    let mut out = Vec::new();
    walk_body(body, skip_attrs, skip_blocks, &mut Vec::new(), &mut out, 0);
    out
}

fn walk_body(
    body: &Body,
    skip_attrs: &[&str],
    skip_blocks: &[&str],
    bound: &mut Vec<String>,
    out: &mut Vec<Found>,
    depth: usize,
) {
    if depth > MAX_BLOCK_DEPTH {
        return;
    }
    // `dynamic` blocks first (in the JSON syntax only a schema makes one a block).
    let dynamic_schema = BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema::new("dynamic", ["type"])],
    };
    let (dynamic, rest, _) = body.partial_content(&dynamic_schema);
    let names = rest.item_names();
    let (mut content, _, _) = rest.partial_content(&names.schema());
    content.blocks.extend(dynamic.blocks);
    let mut attrs: Vec<_> = content.attributes.into_values().collect();
    attrs.sort_by_key(|a| a.range.start.byte);
    for attr in attrs {
        if skip_attrs.contains(&attr.name.as_str()) {
            continue;
        }
        out.push(Found {
            expr: attr.expr,
            bound: bound.clone(),
        });
    }
    for block in content.blocks {
        if skip_blocks.contains(&block.type_name.as_str()) {
            continue;
        }
        if block.type_name != "dynamic" {
            walk_body(&block.body, &[], &[], bound, out, depth + 1);
            continue;
        }
        let Some(real_type) = block.labels.first() else {
            continue;
        };
        let (attrs, _) = block.body.just_attributes();
        let iterator = attrs
            .get("iterator")
            .and_then(|a| a.expr.as_keyword())
            .unwrap_or_else(|| real_type.clone());
        if let Some(fe) = attrs.get("for_each") {
            out.push(Found {
                expr: fe.expr.clone(),
                bound: bound.clone(),
            });
        }
        bound.push(iterator);
        if let Some(labels) = attrs.get("labels") {
            out.push(Found {
                expr: labels.expr.clone(),
                bound: bound.clone(),
            });
        }
        let content_schema = BodySchema {
            attributes: Vec::new(),
            blocks: vec![BlockHeaderSchema::new("content", Vec::<String>::new())],
        };
        let (inner, _, _) = block.body.partial_content(&content_schema);
        for c in inner.blocks {
            walk_body(&c.body, &[], &[], bound, out, depth + 1);
        }
        bound.pop();
    }
}

/// The references of expressions, leaving out `dynamic` iterators.
pub fn references(found: &[Found]) -> Vec<Reference> {
    let mut out = Vec::new();
    for f in found {
        for (steps, range) in f.expr.variables() {
            let root = match steps.first() {
                Some(TraverseStep::Root(r)) => r,
                _ => continue,
            };
            if f.bound.iter().any(|b| b == root) {
                continue;
            }
            out.push(Reference { steps, range });
        }
    }
    out
}

/// The attribute names expressions read from values.
#[derive(Clone, Debug, Default)]
pub struct ReadNames {
    /// Read from a resource (`aws_instance.web.private_ip`, `aws_instance.web[0].x`), by
    /// type (`aws_instance`, `data.aws_ami`).
    pub by_type: BTreeMap<String, BTreeSet<String>>,
    /// Read from inside a resource's attribute (`aws_instance.web.root_block_device[0].x`).
    pub nested: BTreeSet<String>,
    /// Read from any other value (`each.value.id`, `s.arn` in a `for`, `var.vpc.cidr`,
    /// `module.net.vpc.cidr_block`), which may be a resource.
    pub indirect: BTreeSet<String>,
    /// The functions called.
    pub functions: BTreeSet<String>,
}

/// How a traversal's root is followed by names: how many name the object (not read from
/// a value), and which type the next one is read from.
fn root_names(root: &str, resource_types: &BTreeSet<String>) -> (usize, Option<String>) {
    match root {
        "count" | "path" | "terraform" | "self" => (usize::MAX, None),
        "var" | "local" | "each" => (1, None),
        "module" => (2, None),
        "data" => (2, Some("data".to_string())),
        r if resource_types.contains(r) => (1, Some(r.to_string())),
        _ => (0, None),
    }
}

/// Adds to `out` every attribute name `expr` reads from a value (see the module docs).
pub fn read_attributes(expr: &Expr, resource_types: &BTreeSet<String>, out: &mut ReadNames) {
    let range = expr.range();
    if range.filename.ends_with(".json") {
        // A JSON expression: its strings are templates.
        let (value, _) = expr.value(&EvalContext::empty());
        let mut stack = vec![value];
        let mut budget = 100_000usize;
        while let Some(v) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            match v {
                Value::String(s) if s.contains("${") || s.contains("%{") => {
                    let src = SourceFile::new(range.filename.clone(), s.as_str());
                    if let Ok(t) = parse_template(&src) {
                        walk_template(&t, resource_types, out, 0);
                    }
                }
                Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => stack.extend(vs),
                Value::Map(_, m) | Value::Object(m) => stack.extend(m.into_values()),
                _ => {}
            }
        }
        return;
    }
    if let Some((e, _)) = expr.as_native() {
        walk_expr(&e, resource_types, out, 0);
    }
}

fn walk_expr(e: &Expression, types: &BTreeSet<String>, out: &mut ReadNames, depth: usize) {
    if depth > MAX_EXPR_DEPTH {
        return;
    }
    let d = depth + 1;
    match e {
        Expression::Null(_)
        | Expression::Bool(_)
        | Expression::Number(_)
        | Expression::String(_) => {}
        Expression::Variable(_) => {}
        Expression::Array(a) => a.iter().for_each(|i| walk_expr(i, types, out, d)),
        Expression::Object(o) => {
            for (k, v) in o.iter() {
                if let ObjectKey::Expression(ke) = k {
                    walk_expr(ke, types, out, d);
                }
                walk_expr(v.expr(), types, out, d);
            }
        }
        Expression::StringTemplate(t) => walk_template(t, types, out, d),
        Expression::HeredocTemplate(h) => walk_template(&h.template, types, out, d),
        Expression::Parenthesis(p) => walk_expr(p.inner(), types, out, d),
        Expression::Conditional(c) => {
            walk_expr(&c.cond_expr, types, out, d);
            walk_expr(&c.true_expr, types, out, d);
            walk_expr(&c.false_expr, types, out, d);
        }
        Expression::FuncCall(f) => {
            out.functions.insert(f.name.name.as_str().to_string());
            f.args.iter().for_each(|a| walk_expr(a, types, out, d));
        }
        Expression::Traversal(t) => {
            let (skip, mut of_type) = match &t.expr {
                Expression::Variable(v) => root_names(v.value().as_str(), types),
                other => {
                    walk_expr(other, types, out, d);
                    (0, None)
                }
            };
            let mut attrs = 0;
            for op in &t.operators {
                match op.value() {
                    TraversalOperator::GetAttr(name) => {
                        let name = name.value().as_str();
                        if attrs == 0 && of_type.as_deref() == Some("data") {
                            of_type = Some(format!("data.{name}"));
                        }
                        if attrs == skip {
                            match &of_type {
                                Some(t) => {
                                    out.by_type
                                        .entry(t.clone())
                                        .or_default()
                                        .insert(name.to_string());
                                }
                                None => {
                                    out.indirect.insert(name.to_string());
                                }
                            }
                        } else if attrs > skip {
                            if of_type.is_some() {
                                out.nested.insert(name.to_string());
                            } else {
                                out.indirect.insert(name.to_string());
                            }
                        }
                        attrs += 1;
                    }
                    TraversalOperator::Index(k) => walk_expr(k, types, out, d),
                    _ => {}
                }
            }
        }
        Expression::UnaryOp(u) => walk_expr(&u.expr, types, out, d),
        Expression::BinaryOp(b) => {
            walk_expr(&b.lhs_expr, types, out, d);
            walk_expr(&b.rhs_expr, types, out, d);
        }
        Expression::ForExpr(f) => {
            walk_expr(&f.intro.collection_expr, types, out, d);
            if let Some(k) = &f.key_expr {
                walk_expr(k, types, out, d);
            }
            walk_expr(&f.value_expr, types, out, d);
            if let Some(c) = &f.cond {
                walk_expr(&c.expr, types, out, d);
            }
        }
    }
}

fn walk_template(t: &Template, types: &BTreeSet<String>, out: &mut ReadNames, depth: usize) {
    if depth > MAX_EXPR_DEPTH {
        return;
    }
    let d = depth + 1;
    for element in t.iter() {
        match element {
            Element::Literal(_) => {}
            Element::Interpolation(i) => walk_expr(&i.expr, types, out, d),
            Element::Directive(dir) => match dir.as_ref() {
                Directive::If(x) => {
                    walk_expr(&x.if_expr.cond_expr, types, out, d);
                    walk_template(&x.if_expr.template, types, out, d);
                    if let Some(e) = &x.else_expr {
                        walk_template(&e.template, types, out, d);
                    }
                }
                Directive::For(x) => {
                    walk_expr(&x.for_expr.collection_expr, types, out, d);
                    walk_template(&x.for_expr.template, types, out, d);
                }
            },
        }
    }
}
