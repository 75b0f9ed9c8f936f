//! A block's body as a value, without a schema: its arguments evaluated, nested blocks as
//! lists (tuples) of objects, `dynamic` blocks expanded. The shape both a resource's value
//! (what `aws_vpc.main.cidr_block` reads) and its raw properties are made of.

use std::collections::BTreeMap;

use cloudspec_hcl::body::{expand_dynamic, Attribute, Body, BodySchema};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Value};

/// Arguments of `resource` and `data` blocks that are Terraform's, not the resource's.
pub const META_ATTRS: &[&str] = &["count", "for_each", "provider", "depends_on"];
/// Nested blocks of `resource` and `data` blocks that are Terraform's.
pub const META_BLOCKS: &[&str] = &["lifecycle", "provisioner", "connection"];

/// Blocks nest at most this deep in a value (deeper ones are left out).
const MAX_DEPTH: usize = 64;

/// The value of `body` in `ctx` (see the module docs); at the top level the meta-arguments
/// are left out when `top` is true.
pub fn body_value(body: &Body, ctx: &EvalContext, top: bool) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let v = value_at(body, ctx, top, 0, &mut diags);
    (v, diags)
}

fn value_at(
    body: &Body,
    ctx: &EvalContext,
    top: bool,
    depth: usize,
    diags: &mut Vec<Diagnostic>,
) -> Value {
    if depth > MAX_DEPTH {
        return Value::dynamic();
    }
    let names = body.item_names();
    let mut schema = names.schema();
    if top {
        // In the JSON syntax the meta blocks read as arguments.
        schema.attributes.retain(|a| {
            !META_ATTRS.contains(&a.name.as_str()) && !META_BLOCKS.contains(&a.name.as_str())
        });
        schema
            .blocks
            .retain(|b| !META_BLOCKS.contains(&b.type_name.as_str()));
    }
    let (content, _, d) = body.partial_content(&schema);
    diags.extend(d);
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for (name, attr) in content.attributes {
        let (v, d) = attr.expr.value(ctx);
        diags.extend(d);
        out.insert(name, v);
    }
    let mut groups: BTreeMap<String, Option<Vec<Value>>> = BTreeMap::new();
    for block in content.blocks {
        let slot = groups
            .entry(block.type_name.clone())
            .or_insert(Some(Vec::new()));
        if block.body.is_unknown() {
            *slot = None;
            continue;
        }
        let v = value_at(&block.body, ctx, false, depth + 1, diags);
        if let Some(list) = slot {
            list.push(v);
        }
    }
    for (name, list) in groups {
        let v = match list {
            Some(list) => Value::Tuple(list),
            None => Value::dynamic(),
        };
        out.insert(name, v);
    }
    Value::Object(out)
}

/// The attribute `name` of the bodies merged as override files merge them (the last body
/// that sets it).
pub fn meta_attr(bodies: &[&Body], name: &str) -> Option<Attribute> {
    let schema = BodySchema {
        attributes: vec![cloudspec_hcl::body::AttributeSchema::new(name, false)],
        blocks: Vec::new(),
    };
    bodies.iter().rev().find_map(|b| {
        let (content, _, _) = b.partial_content(&schema);
        content.attributes.get(name).cloned()
    })
}

/// The body of one instance: `dynamic` blocks expanded in `ctx`, override bodies merged
/// as Terraform merges them (a later body's argument replaces an earlier one; its blocks of
/// a type, static or dynamic, replace every earlier block of that type).
pub fn instance_body(bodies: &[&Body], ctx: &EvalContext) -> Body {
    let expanded: Vec<Body> = bodies
        .iter()
        .map(|b| expand_dynamic((*b).clone(), ctx))
        .collect();
    if expanded.len() == 1 {
        return expanded.into_iter().next().unwrap_or_else(Body::empty);
    }
    let names: Vec<_> = expanded.iter().map(Body::item_names).collect();
    let mut pieces = Vec::with_capacity(expanded.len());
    for (i, body) in expanded.iter().enumerate() {
        let mut hide = BodySchema::default();
        let mine = &names[i];
        for later in names.iter().skip(i + 1) {
            // A name set again replaces what this body has of it, argument or blocks (in
            // the JSON syntax nested blocks read as arguments).
            let replaced = later
                .attributes
                .iter()
                .chain(later.blocks.iter().map(|b| &b.type_name));
            for name in replaced {
                if mine.attributes.contains(name)
                    && !hide.attributes.iter().any(|h| &h.name == name)
                {
                    hide.attributes
                        .push(cloudspec_hcl::body::AttributeSchema::new(
                            name.clone(),
                            false,
                        ));
                }
                if let Some(b) = mine.blocks.iter().find(|b| &b.type_name == name) {
                    if !hide.blocks.iter().any(|h| h.type_name == b.type_name) {
                        hide.blocks.push(b.clone());
                    }
                }
            }
        }
        if hide.attributes.is_empty() && hide.blocks.is_empty() {
            pieces.push(body.clone());
        } else {
            let (_, remain, _) = body.partial_content(&hide);
            pieces.push(remain);
        }
    }
    Body::merge(pieces)
}
