//! Dynamic blocks (HCL's `ext/dynblock`): `dynamic "TYPE" { for_each, iterator, labels,
//! content }` expands into blocks of type TYPE when a schema asks for TYPE blocks.
//!
//! - `for_each` is evaluated in the context given to [`expand_dynamic`] (plus the iterators
//!   of enclosing dynamic blocks); it must be a collection or structural value, not null.
//!   An unknown `for_each` produces one block whose attributes are all unknown.
//! - The iterator (named by `iterator`, by default TYPE) is an object with `key` (index,
//!   map key, or the element itself for sets) and `value`; it is visible to `labels` and to
//!   every expression in `content`, including nested dynamic blocks (which see all
//!   enclosing iterators).
//! - `labels` is a static list of expressions, one per label the schema's block type has.
//! - Blocks are expanded lazily, when content is requested; nested blocks are expanded in
//!   turn. `just_attributes` passes through to the original body, as dynblock does.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{
    abs_traversal_for_expr, expr_list, Attribute, AttributeSchema, Block, BlockHeaderSchema, Body,
    BodyContent, BodyKind, BodySchema, Expr,
};
use crate::convert::convert;
use crate::diag::{has_errors, Diagnostic, Range};
use crate::eval::{EvalContext, TraverseStep};
use crate::types::{go_quote, Type};
use crate::value::Value;

/// `ext/dynblock.Expand`: a body whose `dynamic` blocks expand when its content is
/// requested. `ctx` is the context `for_each` and `labels` are evaluated in.
pub fn expand_dynamic(body: Body, ctx: &EvalContext) -> Body {
    Body(BodyKind::Expand(Arc::new(ExpandBody {
        original: body,
        for_each_ctx: ctx.clone(),
        iteration: None,
        hidden_attrs: BTreeSet::new(),
        hidden_blocks: BTreeMap::new(),
    })))
}

/// One step of a dynamic block's iteration, and the iterations of the dynamic blocks
/// around it.
#[derive(Debug)]
pub(crate) struct Iteration {
    iterator_name: String,
    key: Value,
    value: Value,
    inherited: BTreeMap<String, Arc<Iteration>>,
}

impl Iteration {
    fn make_child(
        parent: Option<&Arc<Iteration>>,
        iterator_name: String,
        key: Value,
        value: Value,
    ) -> Arc<Iteration> {
        let mut inherited = BTreeMap::new();
        if let Some(p) = parent {
            inherited.extend(p.inherited.iter().map(|(k, v)| (k.clone(), v.clone())));
            inherited.insert(p.iterator_name.clone(), p.clone());
        }
        Arc::new(Iteration {
            iterator_name,
            key,
            value,
            inherited,
        })
    }

    fn object(&self) -> Value {
        Value::object_from([("key", self.key.clone()), ("value", self.value.clone())])
    }

    /// A child of `base` with this iterator and the inherited ones as variables.
    pub(crate) fn eval_context(&self, base: &EvalContext) -> EvalContext {
        let mut vars: BTreeMap<String, Value> = self
            .inherited
            .iter()
            .map(|(name, it)| (name.clone(), it.object()))
            .collect();
        vars.insert(self.iterator_name.clone(), self.object());
        base.child(vars)
    }

    /// Whether `name` is this iterator or an inherited one.
    pub(crate) fn defines(&self, name: &str) -> bool {
        self.iterator_name == name || self.inherited.contains_key(name)
    }
}

fn eval_context_for(i: Option<&Arc<Iteration>>, base: &EvalContext) -> EvalContext {
    match i {
        Some(i) => i.eval_context(base),
        None => base.clone(),
    }
}

pub(crate) struct ExpandBody {
    original: Body,
    for_each_ctx: EvalContext,
    /// Set when nested inside a dynamic block.
    iteration: Option<Arc<Iteration>>,
    hidden_attrs: BTreeSet<String>,
    hidden_blocks: BTreeMap<String, BlockHeaderSchema>,
}

/// What a `dynamic` block says, once checked.
struct ExpandSpec {
    block_type: String,
    block_type_range: Range,
    def_range: Range,
    for_each: Value,
    iterator_name: String,
    label_exprs: Vec<Expr>,
    content_body: Body,
}

fn dynamic_block_schema(with_labels: bool) -> BodySchema {
    let mut attributes = vec![
        AttributeSchema::new("for_each", true),
        AttributeSchema::new("iterator", false),
    ];
    if with_labels {
        attributes.push(AttributeSchema::new("labels", true));
    }
    BodySchema {
        attributes,
        blocks: vec![BlockHeaderSchema::new("content", Vec::<String>::new())],
    }
}

fn can_iterate(t: &Type) -> bool {
    matches!(
        t,
        Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)
    )
}

impl ExpandBody {
    pub(crate) fn content(&self, schema: &BodySchema) -> (BodyContent, Vec<Diagnostic>) {
        let ext = self.extend_schema(schema);
        let (raw, mut diags) = self.original.content(&ext);
        let (blocks, block_diags) = self.expand_blocks(schema, raw.blocks, false);
        diags.extend(block_diags);
        let content = BodyContent {
            attributes: self.prepare_attributes(raw.attributes),
            blocks,
            missing_item_range: self.original.missing_item_range(),
        };
        (content, diags)
    }

    pub(crate) fn partial_content(
        &self,
        schema: &BodySchema,
    ) -> (BodyContent, Body, Vec<Diagnostic>) {
        let ext = self.extend_schema(schema);
        // The original's remaining body is not used: ours keeps the dynamic blocks of the
        // types not taken yet.
        let (raw, _, mut diags) = self.original.partial_content(&ext);
        let (blocks, block_diags) = self.expand_blocks(schema, raw.blocks, true);
        diags.extend(block_diags);
        let content = BodyContent {
            attributes: self.prepare_attributes(raw.attributes),
            blocks,
            missing_item_range: self.original.missing_item_range(),
        };
        let mut hidden_attrs = self.hidden_attrs.clone();
        hidden_attrs.extend(schema.attributes.iter().map(|a| a.name.clone()));
        let mut hidden_blocks = self.hidden_blocks.clone();
        hidden_blocks.extend(
            schema
                .blocks
                .iter()
                .map(|b| (b.type_name.clone(), b.clone())),
        );
        let remain = ExpandBody {
            original: self.original.clone(),
            for_each_ctx: self.for_each_ctx.clone(),
            iteration: self.iteration.clone(),
            hidden_attrs,
            hidden_blocks,
        };
        (content, Body(BodyKind::Expand(Arc::new(remain))), diags)
    }

    pub(crate) fn just_attributes(&self) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
        // Blocks are not allowed in this mode and dynamic blocks only produce blocks.
        self.original.just_attributes()
    }

    pub(crate) fn missing_item_range(&self) -> Range {
        self.original.missing_item_range()
    }

    pub(crate) fn item_names(&self, names: &mut super::ItemNames) {
        // The dynamic blocks (in the JSON syntax a `dynamic` property is one too), then
        // everything else.
        let dynamic_schema = BodySchema {
            attributes: Vec::new(),
            blocks: vec![BlockHeaderSchema::new("dynamic", ["type"])],
        };
        let (dynamic, rest, _) = self.original.partial_content(&dynamic_schema);
        let rest = rest.item_names();
        for a in &rest.attributes {
            if !self.hidden_attrs.contains(a) {
                names.add_attribute(a);
            }
        }
        for b in &rest.blocks {
            if !self.hidden_blocks.contains_key(&b.type_name) {
                names.add_block(&b.type_name, b.label_names.len());
            }
        }
        for block in &dynamic.blocks {
            let Some(real_type) = block.labels.first() else {
                continue;
            };
            if self.hidden_blocks.contains_key(real_type) {
                continue;
            }
            let (attrs, _) = block.body.just_attributes();
            let labels = attrs
                .get("labels")
                .and_then(|l| l.expr.as_list())
                .map_or(0, |l| l.len());
            names.add_block(real_type, labels);
        }
    }

    /// The schema plus the `dynamic` block type and whatever an earlier partial decode
    /// took (so that the original body does not report those as unexpected).
    fn extend_schema(&self, schema: &BodySchema) -> BodySchema {
        let mut ext = schema.clone();
        ext.blocks.push(BlockHeaderSchema::new("dynamic", ["type"]));
        ext.blocks.extend(self.hidden_blocks.values().cloned());
        ext.attributes.extend(
            self.hidden_attrs
                .iter()
                .map(|name| AttributeSchema::new(name.clone(), false)),
        );
        ext
    }

    fn prepare_attributes(&self, raw: BTreeMap<String, Attribute>) -> BTreeMap<String, Attribute> {
        raw.into_iter()
            .filter(|(name, _)| !self.hidden_attrs.contains(name))
            .map(|(name, attr)| match &self.iteration {
                Some(i) => {
                    let expr = Expr::wrapped(attr.expr.clone(), i.clone());
                    (name, Attribute { expr, ..attr })
                }
                None => (name, attr),
            })
            .collect()
    }

    fn expand_child(&self, child: Body, i: Option<Arc<Iteration>>) -> Body {
        let for_each_ctx = eval_context_for(i.as_ref(), &self.for_each_ctx);
        Body(BodyKind::Expand(Arc::new(ExpandBody {
            original: child,
            for_each_ctx,
            iteration: i,
            hidden_attrs: BTreeSet::new(),
            hidden_blocks: BTreeMap::new(),
        })))
    }

    fn expand_blocks(
        &self,
        schema: &BodySchema,
        raw_blocks: Vec<Block>,
        partial: bool,
    ) -> (Vec<Block>, Vec<Diagnostic>) {
        let mut blocks = Vec::new();
        let mut diags = Vec::new();
        for raw in raw_blocks {
            if raw.type_name != "dynamic" {
                if !self.hidden_blocks.contains_key(&raw.type_name) {
                    let body = self.expand_child(raw.body.clone(), self.iteration.clone());
                    blocks.push(Block { body, ..raw });
                }
                continue;
            }
            let Some(real_type) = raw.labels.first() else {
                continue;
            };
            if self.hidden_blocks.contains_key(real_type) {
                continue;
            }
            let Some(block_s) = schema.blocks.iter().find(|b| &b.type_name == real_type) else {
                if !partial {
                    diags.push(Diagnostic::error(
                        "Unsupported block type",
                        format!(
                            "Blocks of type {} are not expected here.",
                            go_quote(real_type)
                        ),
                        raw.label_ranges.first().cloned(),
                    ));
                }
                continue;
            };
            let (spec, spec_diags) = self.decode_spec(block_s, &raw);
            diags.extend(spec_diags);
            let Some(spec) = spec else {
                continue;
            };
            if spec.for_each.is_known() {
                for (key, value) in spec.for_each.elements().unwrap_or_default() {
                    // Each generated block is a step of the evaluation's budget (nested
                    // dynamic blocks multiply).
                    if let Some(budget) = crate::budget::Budget::current() {
                        if let Err(e) = budget.step(1) {
                            if budget.first_report() {
                                diags.push(Diagnostic::error(
                                    "Evaluation too expensive",
                                    e.detail(),
                                    Some(spec.def_range.clone()),
                                ));
                            }
                            return (blocks, diags);
                        }
                    }
                    let i = Iteration::make_child(
                        self.iteration.as_ref(),
                        spec.iterator_name.clone(),
                        key,
                        value,
                    );
                    let (block, block_diags) = spec.new_block(&i, &self.for_each_ctx);
                    diags.extend(block_diags);
                    if let Some(mut block) = block {
                        block.body = self.expand_child(block.body, Some(i));
                        blocks.push(block);
                    }
                }
            } else {
                // An unknown collection: one block whose content is all unknown.
                let i = Iteration::make_child(
                    self.iteration.as_ref(),
                    spec.iterator_name.clone(),
                    Value::dynamic(),
                    Value::dynamic(),
                );
                let (block, block_diags) = spec.new_block(&i, &self.for_each_ctx);
                diags.extend(block_diags);
                if let Some(mut block) = block {
                    let expanded = self.expand_child(block.body, Some(i));
                    block.body = Body(BodyKind::Unknown(Arc::new(expanded)));
                    blocks.push(block);
                }
            }
        }
        (blocks, diags)
    }

    fn decode_spec(
        &self,
        block_s: &BlockHeaderSchema,
        raw: &Block,
    ) -> (Option<ExpandSpec>, Vec<Diagnostic>) {
        let schema = dynamic_block_schema(!block_s.label_names.is_empty());
        let (spec_content, mut diags) = raw.body.content(&schema);
        if has_errors(&diags) {
            return (None, diags);
        }
        let Some(each_attr) = spec_content.attributes.get("for_each") else {
            return (None, diags);
        };
        let (for_each, each_diags) = each_attr.expr.value(&self.for_each_ctx);
        diags.extend(each_diags);
        if has_errors(&diags) {
            return (None, diags);
        }
        let ty = for_each.ty();
        if !can_iterate(&ty) && ty != Type::Dynamic {
            diags.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                format!(
                    "Cannot use a {} value in for_each. An iterable collection is required.",
                    ty.friendly_name()
                ),
                Some(each_attr.expr.range()),
            ));
            return (None, diags);
        }
        if for_each.is_null() {
            diags.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                "Cannot use a null value in for_each.",
                Some(each_attr.expr.range()),
            ));
            return (None, diags);
        }

        let mut iterator_name = block_s.type_name.clone();
        if let Some(it_attr) = spec_content.attributes.get("iterator") {
            let (steps, range) = match abs_traversal_for_expr(&it_attr.expr) {
                Ok(t) => t,
                Err(d) => {
                    diags.extend(d);
                    return (None, diags);
                }
            };
            match steps.as_slice() {
                [TraverseStep::Root(name)] => iterator_name = name.clone(),
                _ => {
                    diags.push(Diagnostic::error(
                        "Invalid dynamic iterator name",
                        "Dynamic iterator must be a single variable name.",
                        Some(range),
                    ));
                    return (None, diags);
                }
            }
        }

        let mut label_exprs = Vec::new();
        if let Some(labels_attr) = spec_content.attributes.get("labels") {
            label_exprs = match expr_list(&labels_attr.expr) {
                Ok(l) => l,
                Err(d) => {
                    diags.extend(d);
                    return (None, diags);
                }
            };
            let want = block_s.label_names.len();
            let detail = format!(
                "Blocks of type {} require {want} label(s).",
                go_quote(&block_s.type_name)
            );
            if label_exprs.len() > want {
                diags.push(Diagnostic::error(
                    "Extraneous dynamic block label",
                    detail,
                    label_exprs.get(want).map(Expr::range),
                ));
                return (None, diags);
            } else if label_exprs.len() < want {
                diags.push(Diagnostic::error(
                    "Insufficient dynamic block labels",
                    detail,
                    Some(labels_attr.expr.range()),
                ));
                return (None, diags);
            }
        }

        let mut content_blocks = spec_content.blocks.into_iter();
        let Some(content) = content_blocks.next() else {
            diags.push(Diagnostic::error(
                "Missing dynamic content block",
                "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                Some(spec_content.missing_item_range),
            ));
            return (None, diags);
        };
        if let Some(extra) = content_blocks.next() {
            diags.push(Diagnostic::error(
                "Extraneous dynamic content block",
                "Only one nested content block is allowed for each dynamic block.",
                Some(extra.def_range),
            ));
            return (None, diags);
        }

        let spec = ExpandSpec {
            block_type: block_s.type_name.clone(),
            block_type_range: raw.label_ranges.first().cloned().unwrap_or_default(),
            def_range: raw.def_range.clone(),
            for_each,
            iterator_name,
            label_exprs,
            content_body: content.body,
        };
        (Some(spec), diags)
    }
}

impl ExpandSpec {
    fn new_block(&self, i: &Arc<Iteration>, ctx: &EvalContext) -> (Option<Block>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut labels = Vec::new();
        let mut label_ranges = Vec::new();
        let l_ctx = i.eval_context(ctx);
        for label_expr in &self.label_exprs {
            let (val, label_diags) = label_expr.value(&l_ctx);
            let failed = has_errors(&label_diags);
            diags.extend(label_diags);
            if failed {
                return (None, diags);
            }
            let invalid = |detail: String| {
                Diagnostic::error(
                    "Invalid dynamic block label",
                    detail,
                    Some(label_expr.range()),
                )
            };
            match convert(&val, &Type::String) {
                Err(e) => {
                    diags.push(invalid(format!(
                        "Cannot use this value as a dynamic block label: {e}."
                    )));
                    return (None, diags);
                }
                Ok(Value::Null(_)) => {
                    diags.push(invalid(
                        "Cannot use a null value as a dynamic block label.".to_string(),
                    ));
                    return (None, diags);
                }
                Ok(Value::String(s)) => {
                    labels.push(s);
                    label_ranges.push(label_expr.range());
                }
                Ok(_) => {
                    diags.push(invalid(
                        "This value is not yet known. Dynamic block labels must be immediately-known values."
                            .to_string(),
                    ));
                    return (None, diags);
                }
            }
        }
        let block = Block {
            type_name: self.block_type.clone(),
            labels,
            body: self.content_body.clone(),
            def_range: self.def_range.clone(),
            type_range: self.block_type_range.clone(),
            label_ranges,
        };
        (Some(block), diags)
    }
}
