//! Parsing and the static passes (contract section 3, "Static checks"): every file parses,
//! every block matches its schema (upstream's `schemas.go`), function definitions are
//! sound, every expression refers only to names defined where it stands, every `invoke`
//! names a defined function with fitting arguments, and every requirement has one sound
//! selector. All errors of these passes are reported together.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use cloudspec_hcl::body::{
    parse_native, AttributeSchema, Block, BlockHeaderSchema, BodyContent, BodySchema, Expr,
};
use cloudspec_hcl::diag::has_errors;
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::functions::FunctionTable;
use cloudspec_hcl::{Diagnostic, Range, Value};

use crate::functions::{self, check_invokes, UserFunction};
use crate::locals::{self, error};
use crate::{Composition, Failure};

/// A parsed, checked composition, ready to evaluate.
pub(crate) struct Program {
    /// The top-level blocks of every file, in file order.
    pub blocks: Vec<Block>,
    pub table: Arc<FunctionTable>,
    /// Each file's text by name (for the source excerpts of incomplete-value messages).
    pub sources: BTreeMap<String, String>,
}

impl Program {
    /// The source text of `r` (upstream's `sourceCode`), `[unknown source]` when out of reach.
    pub(crate) fn source(&self, r: &Range) -> String {
        self.sources
            .get(&r.filename)
            .and_then(|t| t.get(r.start.byte..r.end.byte))
            .unwrap_or("[unknown source]")
            .to_string()
    }
}

fn attrs(names: &[(&str, bool)]) -> Vec<AttributeSchema> {
    names
        .iter()
        .map(|(n, required)| AttributeSchema::new(*n, *required))
        .collect()
}

fn block(name: &str, labels: &[&str]) -> BlockHeaderSchema {
    BlockHeaderSchema::new(name, labels.iter().copied())
}

fn group_blocks() -> Vec<BlockHeaderSchema> {
    vec![
        block("locals", &[]),
        block("group", &[]),
        block("resource", &["name"]),
        block("resources", &["baseName"]),
        block("composite", &["object"]),
        block("context", &[]),
        block("requirement", &["name"]),
    ]
}

fn resource_blocks() -> Vec<BlockHeaderSchema> {
    vec![
        block("locals", &[]),
        block("ready", &[]),
        block("composite", &["object"]),
        block("context", &[]),
    ]
}

/// The schema of a block type's body (`None`: `locals`, attributes only).
pub(crate) fn schema(type_name: &str) -> Option<BodySchema> {
    Some(match type_name {
        "top" => {
            let mut blocks = group_blocks();
            blocks.push(block("function", &["name"]));
            BodySchema {
                attributes: Vec::new(),
                blocks,
            }
        }
        "group" => BodySchema {
            attributes: attrs(&[("condition", false)]),
            blocks: group_blocks(),
        },
        "resource" => BodySchema {
            attributes: attrs(&[("body", true), ("condition", false)]),
            blocks: resource_blocks(),
        },
        "resources" => BodySchema {
            attributes: attrs(&[("condition", false), ("for_each", true), ("name", false)]),
            blocks: vec![
                block("locals", &[]),
                block("composite", &["object"]),
                block("template", &[]),
                block("context", &[]),
            ],
        },
        "template" => BodySchema {
            attributes: attrs(&[("body", true)]),
            blocks: resource_blocks(),
        },
        "composite" => BodySchema {
            attributes: attrs(&[("body", true)]),
            blocks: vec![block("locals", &[])],
        },
        "context" => BodySchema {
            attributes: attrs(&[("key", true), ("value", true)]),
            blocks: vec![block("locals", &[])],
        },
        "ready" => BodySchema {
            attributes: attrs(&[("value", true)]),
            blocks: vec![block("locals", &[])],
        },
        "requirement" => BodySchema {
            attributes: attrs(&[("condition", false)]),
            blocks: vec![block("locals", &[]), block("select", &[])],
        },
        "select" => BodySchema {
            attributes: attrs(&[
                ("apiVersion", true),
                ("kind", true),
                ("matchName", false),
                ("matchLabels", false),
            ]),
            blocks: Vec::new(),
        },
        "function" => functions::function_schema(),
        "arg" => functions::arg_schema(),
        _ => return None,
    })
}

/// A block's content under its type's schema (schema errors were ruled out by the checks).
pub(crate) fn content(b: &Block) -> BodyContent {
    match schema(&b.type_name) {
        Some(s) => b.body.content(&s).0,
        None => BodyContent::default(),
    }
}

/// Parses and checks a composition.
pub(crate) fn compile(composition: &Composition) -> Result<Program, Failure> {
    if composition.files.is_empty() {
        return Err(Failure::message("no HCL input files found"));
    }
    let mut diags = Vec::new();
    let mut blocks = Vec::new();
    let mut sources = BTreeMap::new();
    let top = schema("top").unwrap_or_default();
    for file in &composition.files {
        sources.insert(file.name.clone(), file.text.clone());
        let (body, ds) = parse_native(&file.name, &file.text);
        let errors = has_errors(&ds);
        diags.extend(
            ds.into_iter()
                .filter(|d| d.severity == cloudspec_hcl::Severity::Error),
        );
        let Some(body) = body else { continue };
        if errors {
            continue;
        }
        let (c, ds) = body.content(&top);
        if has_errors(&ds) {
            diags.extend(ds);
            continue;
        }
        diags.extend(structure(&c.blocks));
        blocks.extend(c.blocks);
    }
    if !diags.is_empty() {
        return Err(Failure { diagnostics: diags });
    }
    let functions = functions::define(&blocks).map_err(|diagnostics| Failure { diagnostics })?;
    let mut checker = Checker {
        user: &functions.user,
        diags: Vec::new(),
    };
    let mut visible = BTreeSet::new();
    visible.insert("req".to_string());
    checker.scope(&visible, "top", &blocks, &BTreeMap::new());
    if !checker.diags.is_empty() {
        return Err(Failure {
            diagnostics: checker.diags,
        });
    }
    Ok(Program {
        blocks,
        table: functions.table,
        sources,
    })
}

/// Schema errors of nested blocks, recursively; collections need one `template` and
/// `composite` blocks are `status` or `connection`.
fn structure(blocks: &[Block]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for b in blocks {
        let Some(s) = schema(&b.type_name) else {
            let (_, ds) = b.body.just_attributes();
            diags.extend(
                ds.into_iter()
                    .filter(|d| d.severity == cloudspec_hcl::Severity::Error),
            );
            continue;
        };
        let (c, ds) = b.body.content(&s);
        if has_errors(&ds) {
            diags.extend(ds);
            continue;
        }
        match b.type_name.as_str() {
            "resources" => {
                let templates: Vec<&Block> = c
                    .blocks
                    .iter()
                    .filter(|t| t.type_name == "template")
                    .collect();
                let base = &b.labels[0];
                match templates.as_slice() {
                    [] => diags.push(error(
                        format!("no template block for resource collection {base}"),
                        "",
                        &b.def_range,
                    )),
                    [_] => {}
                    [_, second, ..] => diags.push(error(
                        format!("multiple template blocks for resource collection {base}"),
                        "",
                        &second.def_range,
                    )),
                }
            }
            "composite" => {
                let what = &b.labels[0];
                if what != "status" && what != "connection" {
                    diags.push(error(
                        format!("invalid composite label: {what}"),
                        "",
                        &b.label_ranges[0],
                    ));
                }
            }
            _ => {}
        }
        diags.extend(structure(&c.blocks));
    }
    diags
}

struct Checker<'a> {
    user: &'a BTreeMap<String, UserFunction>,
    diags: Vec<Diagnostic>,
}

impl Checker<'_> {
    /// Checks one expression: defined roots and sound `invoke` calls.
    fn expr(&mut self, visible: &BTreeSet<String>, e: &Expr) {
        for (steps, range) in e.variables() {
            if let Some(cloudspec_hcl::eval::TraverseStep::Root(root)) = steps.first() {
                if !visible.contains(root) {
                    self.diags.push(error(
                        "reference to non-existent variable",
                        root,
                        &locals::root_range(root, &range),
                    ));
                }
            }
        }
        self.diags.extend(check_invokes(e, self.user));
    }

    /// Checks a block body of kind `kind` whose nested blocks are `blocks` and attributes
    /// `attributes`, with `visible` names from the enclosing scopes.
    fn scope(
        &mut self,
        visible: &BTreeSet<String>,
        kind: &str,
        blocks: &[Block],
        attributes: &BTreeMap<String, cloudspec_hcl::body::Attribute>,
    ) {
        let mut visible = visible.clone();
        if matches!(kind, "resource" | "template" | "resources") {
            visible.insert("self".to_string());
        }
        if kind == "template" {
            visible.insert("each".to_string());
        }
        let declared = match locals::declared(blocks) {
            Ok(l) => l,
            Err(ds) => {
                self.diags.extend(ds);
                return;
            }
        };
        // Every error of the scope is reported; the locals count as declared even when
        // one of them is wrong, so that their uses are not reported again.
        self.diags.extend(locals::check(&visible, &declared));
        for l in &declared {
            self.diags.extend(check_invokes(&l.expr, self.user));
        }
        visible.extend(declared.iter().map(|l| l.name.clone()));
        for (name, attr) in attributes {
            if kind == "resources" && name == "name" {
                let mut with_each = visible.clone();
                with_each.insert("each".to_string());
                self.expr(&with_each, &attr.expr);
            } else {
                self.expr(&visible, &attr.expr);
            }
        }
        for b in blocks {
            if matches!(b.type_name.as_str(), "locals" | "function") {
                continue;
            }
            if b.type_name == "requirement" {
                self.diags.extend(requirement_checks(b));
            }
            let c = content(b);
            self.scope(&visible, &b.type_name, &c.blocks, &c.attributes);
        }
    }
}

/// The selector checks of one `requirement` block, run even when its condition is false:
/// one `select` block with exactly one of `matchName` and `matchLabels`, and literal values
/// of the right types.
pub(crate) fn requirement_checks(b: &Block) -> Vec<Diagnostic> {
    let name = &b.labels[0];
    let c = content(b);
    let selects: Vec<&Block> = c
        .blocks
        .iter()
        .filter(|s| s.type_name == "select")
        .collect();
    let select = match selects.as_slice() {
        [] => return vec![error("no select block in requirement", name, &b.def_range)],
        [s] => *s,
        [_, second, ..] => {
            return vec![error(
                "multiple select blocks in requirement",
                name,
                &second.def_range,
            )]
        }
    };
    let sc = content(select);
    let has_name = sc.attributes.contains_key("matchName");
    let has_labels = sc.attributes.contains_key("matchLabels");
    if has_name && has_labels {
        return vec![error(
            "requirement selector has both matchName and matchLabels",
            name,
            &select.def_range,
        )];
    }
    if !has_name && !has_labels {
        return vec![error(
            "requirement selector has neither matchName nor matchLabels",
            name,
            &select.def_range,
        )];
    }
    let mut diags = Vec::new();
    let ctx = EvalContext::empty().with_variables(BTreeMap::new());
    let literal = |e: &Expr| -> Option<Value> {
        let (v, _) = e.value(&ctx);
        v.is_wholly_known().then_some(v)
    };
    for (attr, what) in [
        ("apiVersion", "api version"),
        ("kind", "kind"),
        ("matchName", "matchName"),
    ] {
        if let Some(a) = sc.attributes.get(attr) {
            if let Some(v) = literal(&a.expr) {
                if !matches!(v, Value::String(_)) {
                    diags.push(error(
                        format!("{what} in requirement selector was not a string"),
                        name,
                        &a.expr.range(),
                    ));
                }
            }
        }
    }
    if let Some(a) = sc.attributes.get("matchLabels") {
        if let Some(v) = literal(&a.expr) {
            match &v {
                Value::Object(m) => {
                    for (k, v) in m {
                        if !matches!(v, Value::String(_)) {
                            diags.push(error(
                                format!(
                                    "match label {k:?} in requirement selector was not a string"
                                ),
                                name,
                                &a.expr.range(),
                            ));
                        }
                    }
                }
                _ => diags.push(error(
                    "matchLabels in requirement selector was not an object",
                    name,
                    &a.expr.range(),
                )),
            }
        }
    }
    diags
}
