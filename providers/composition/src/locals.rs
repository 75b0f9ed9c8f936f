//! `locals` blocks (contract section 3, "Locals"): all blocks of a scope together, in
//! dependency order; names must be unique, must not shadow anything visible, must refer to
//! defined names, and must not form a cycle. A local that fails to evaluate is unknown and
//! leaves a warning.

use std::collections::{BTreeMap, BTreeSet};

use cloudspec_hcl::body::{Attribute, Block};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::{Diagnostic, Range};

use crate::eval::downgrade;

/// The locals declared by the `locals` blocks among `blocks`, in source order. A
/// duplicate name is an error.
pub(crate) fn declared(blocks: &[Block]) -> Result<Vec<Attribute>, Vec<Diagnostic>> {
    let mut out: Vec<Attribute> = Vec::new();
    let mut diags = Vec::new();
    for block in blocks.iter().filter(|b| b.type_name == "locals") {
        let (attrs, ds) = block.body.just_attributes();
        if cloudspec_hcl::diag::has_errors(&ds) {
            diags.extend(ds);
            continue;
        }
        let mut attrs: Vec<Attribute> = attrs.into_values().collect();
        attrs.sort_by_key(|a| a.range.start.byte);
        for attr in attrs {
            if out.iter().any(|a| a.name == attr.name) {
                diags.push(error(
                    format!("local {:?}: duplicate local declaration", attr.name),
                    "",
                    &attr.range,
                ));
                continue;
            }
            out.push(attr);
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// The root name of each variable an attribute refers to, with its range.
pub(crate) fn references(attr: &Attribute) -> Vec<(String, Range)> {
    attr.expr
        .variables()
        .into_iter()
        .filter_map(|(steps, range)| match steps.first() {
            Some(TraverseStep::Root(name)) => Some((name.clone(), range)),
            _ => None,
        })
        .collect()
}

/// The range of a traversal's root name (`req` in `req.composite`).
pub(crate) fn root_range(name: &str, range: &Range) -> Range {
    let mut r = range.clone();
    r.end.byte = r.start.byte + name.len();
    r.end.line = r.start.line;
    r.end.column = r.start.column + name.chars().count();
    r
}

/// The static checks of one scope's locals: no shadowing of `visible`, every reference
/// defined, no cycle. Returns the names the scope adds.
pub(crate) fn check(visible: &BTreeSet<String>, locals: &[Attribute]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for attr in locals {
        if visible.contains(&attr.name) {
            diags.push(error("attempt to shadow variable", &attr.name, &attr.range));
        }
    }
    let names: BTreeSet<&str> = locals.iter().map(|a| a.name.as_str()).collect();
    let mut deps: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for attr in locals {
        let mut mine = Vec::new();
        for (root, range) in references(attr) {
            if names.contains(root.as_str()) {
                mine.push(root);
            } else if !visible.contains(&root) {
                diags.push(error(
                    "reference to non-existent variable",
                    &root,
                    &root_range(&root, &range),
                ));
            }
        }
        deps.insert(attr.name.as_str(), mine);
    }
    if !diags.is_empty() {
        return diags;
    }
    // Cycles, found from each name in name order.
    let by_name: BTreeMap<&str, &Attribute> = locals.iter().map(|a| (a.name.as_str(), a)).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    for name in names.iter() {
        let mut path = Vec::new();
        if let Some(d) = find_cycle(name, &deps, &by_name, &mut path, &mut done) {
            diags.push(d);
            break;
        }
    }
    diags
}

fn find_cycle(
    name: &str,
    deps: &BTreeMap<&str, Vec<String>>,
    by_name: &BTreeMap<&str, &Attribute>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Diagnostic> {
    if done.contains(name) {
        return None;
    }
    if let Some(at) = path.iter().position(|p| p == name) {
        let mut cycle: Vec<&str> = path[at..].iter().map(String::as_str).collect();
        cycle.push(name);
        let attr = by_name.get(name)?;
        return Some(error(
            format!("cycle found: {}", cycle.join(" \u{2192} ")),
            "",
            &attr.expr.range(),
        ));
    }
    path.push(name.to_string());
    for dep in deps.get(name).into_iter().flatten() {
        if let Some(d) = find_cycle(dep, deps, by_name, path, done) {
            return Some(d);
        }
    }
    path.pop();
    done.insert(name.to_string());
    None
}

/// Evaluates a scope's locals (already checked) in dependency order, in a child of `ctx`.
/// Failures leave the local unknown and their diagnostics as warnings.
pub(crate) fn evaluate(ctx: &EvalContext, locals: &[Attribute]) -> (EvalContext, Vec<Diagnostic>) {
    if locals.is_empty() {
        return (ctx.clone(), Vec::new());
    }
    let names: BTreeSet<&str> = locals.iter().map(|a| a.name.as_str()).collect();
    let by_name: BTreeMap<&str, &Attribute> = locals.iter().map(|a| (a.name.as_str(), a)).collect();
    let mut child = ctx.child(BTreeMap::new());
    let mut diags = Vec::new();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    let mut order: Vec<&str> = names.iter().copied().collect();
    // Depth-first from each name: dependencies first (the checks ruled out cycles; a
    // visiting set keeps a cycle from looping anyway).
    let mut visiting: BTreeSet<&str> = BTreeSet::new();
    while let Some(name) = order.first().copied() {
        order.remove(0);
        eval_one(
            name,
            &by_name,
            &names,
            &mut child,
            &mut done,
            &mut visiting,
            &mut diags,
        );
    }
    (child, diags)
}

fn eval_one<'a>(
    name: &'a str,
    by_name: &BTreeMap<&'a str, &'a Attribute>,
    names: &BTreeSet<&'a str>,
    ctx: &mut EvalContext,
    done: &mut BTreeSet<&'a str>,
    visiting: &mut BTreeSet<&'a str>,
    diags: &mut Vec<Diagnostic>,
) {
    if done.contains(name) || !visiting.insert(name) {
        return;
    }
    let Some(attr) = by_name.get(name) else {
        return;
    };
    for (root, _) in references(attr) {
        if let Some(dep) = names.get(root.as_str()) {
            eval_one(dep, by_name, names, ctx, done, visiting, diags);
        }
    }
    let (value, ds) = attr.expr.value(ctx);
    diags.extend(downgrade(ds));
    ctx.set_variable(name, value);
    visiting.remove(name);
    done.insert(name);
}

/// An error diagnostic shaped as upstream's `ToErrorDiag(summary, detail, range)`.
pub(crate) fn error(summary: impl Into<String>, detail: &str, range: &Range) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(range.clone()))
}
