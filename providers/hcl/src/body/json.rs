//! JSON-syntax bodies and expressions (HCL's `json` package): bodies as an object or an
//! array of objects, schema-directed interpretation of properties, block labels through
//! nested objects, `"//"` comments, strings as templates in full-expression mode, and the
//! static analyses.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hcl_edit::expr::Expression;

use super::{
    char_range, name_suggestion, range_between, range_string, Attribute, Block, Body, BodyContent,
    BodyKind, BodySchema, Expr, Traversal,
};
use crate::convert::convert;
use crate::diag::{Diagnostic, Pos, Range};
use crate::eval::{self, EvalContext};
use crate::json::{self as cjson, JsonKind, JsonNode};
use crate::number::Number;
use crate::syntax::{self, SourceFile};
use crate::types::{go_quote, Type};
use crate::value::Value;

/// A JSON value with HCL's ranges.
#[derive(Debug)]
pub(crate) struct JNode {
    pub(crate) kind: JKind,
    /// The whole value (brace to brace for objects, quote to quote for strings).
    pub(crate) range: Range,
}

#[derive(Debug)]
pub(crate) enum JKind {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Arc<JNode>>),
    Object(Vec<JProp>),
}

#[derive(Debug)]
pub(crate) struct JProp {
    pub(crate) name: String,
    /// The name's string token, quotes included.
    pub(crate) name_range: Range,
    pub(crate) value: Arc<JNode>,
}

impl JProp {
    /// `hcl.RangeBetween(NameRange, Value.Range())`: an attribute's range.
    fn attr_range(&self) -> Range {
        range_between(&self.name_range, &self.value.range)
    }

    /// The property name as a string expression (object keys are templates).
    fn name_node(&self) -> Arc<JNode> {
        Arc::new(JNode {
            kind: JKind::String(self.name.clone()),
            range: self.name_range.clone(),
        })
    }
}

impl JNode {
    /// The opening brace or bracket of a container; the whole value otherwise.
    pub(crate) fn start_range(&self) -> Range {
        match self.kind {
            JKind::Array(_) | JKind::Object(_) => {
                char_range(&self.range.filename, self.range.start)
            }
            _ => self.range.clone(),
        }
    }

    /// The closing brace of an object.
    fn close_range(&self) -> Range {
        let end = self.range.end;
        Range {
            filename: self.range.filename.clone(),
            start: Pos {
                line: end.line,
                column: end.column.saturating_sub(1).max(1),
                byte: end.byte.saturating_sub(1),
            },
            end,
        }
    }

    fn placeholder(filename: &str) -> JNode {
        let p = Pos {
            line: 1,
            column: 1,
            byte: 0,
        };
        JNode {
            kind: JKind::Object(Vec::new()),
            range: Range {
                filename: filename.to_string(),
                start: p,
                end: p,
            },
        }
    }
}

fn convert_node(node: JsonNode, filename: &str) -> Result<JNode, Box<Diagnostic>> {
    let range = Range {
        filename: filename.to_string(),
        start: node.start,
        end: node.end,
    };
    let kind = match node.kind {
        JsonKind::Null => JKind::Null,
        JsonKind::Bool(b) => JKind::Bool(b),
        JsonKind::Number(raw) => match Number::parse(&raw) {
            Some(n) => JKind::Number(n),
            None => {
                return Err(Box::new(Diagnostic::error(
                    "Invalid JSON number",
                    "There is a syntax error in the given JSON number.",
                    Some(range),
                )))
            }
        },
        JsonKind::String(s) => JKind::String(s),
        JsonKind::Array(items) => JKind::Array(
            items
                .into_iter()
                .map(|n| convert_node(n, filename).map(Arc::new))
                .collect::<Result<_, _>>()?,
        ),
        JsonKind::Object(props) => JKind::Object(
            props
                .into_iter()
                .map(|p| {
                    Ok(JProp {
                        name: p.name,
                        name_range: Range {
                            filename: filename.to_string(),
                            start: p.name_start,
                            end: p.name_end,
                        },
                        value: Arc::new(convert_node(p.value, filename)?),
                    })
                })
                .collect::<Result<_, Box<Diagnostic>>>()?,
        ),
    };
    Ok(JNode { kind, range })
}

/// Parses a JSON-syntax file.
pub(crate) fn parse(name: &str, text: &str) -> (Option<Body>, Vec<Diagnostic>) {
    let parsed = match cjson::parse_all(text, true) {
        Ok(node) => node,
        Err(errors) => {
            // Every error HCL's parser reports, not just the first.
            let diags = errors
                .into_iter()
                .map(|e| {
                    let subject = Range {
                        filename: name.to_string(),
                        start: e.pos,
                        end: e.end,
                    };
                    Diagnostic::error(e.summary, e.message, Some(subject))
                })
                .collect();
            return (None, diags);
        }
    };
    let root = match convert_node(parsed, name) {
        Ok(root) => root,
        Err(d) => return (None, vec![*d]),
    };
    let mut diags = Vec::new();
    let root = match root.kind {
        JKind::Object(_) | JKind::Array(_) => root,
        _ => {
            diags.push(Diagnostic::error(
                "Root value must be object",
                "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
                Some(root.start_range()),
            ));
            JNode::placeholder(name)
        }
    };
    (Some(JsonBody::body(Arc::new(root))), diags)
}

/// A JSON body: an object or an array of objects (or, for a block body, any value: errors
/// are reported when its content is requested), plus the names a `partial_content` took.
#[derive(Clone, Debug)]
pub(crate) struct JsonBody {
    node: Arc<JNode>,
    hidden: Arc<BTreeSet<String>>,
}

impl JsonBody {
    fn body(node: Arc<JNode>) -> Body {
        Body(BodyKind::Json(JsonBody {
            node,
            hidden: Arc::default(),
        }))
    }

    pub(crate) fn missing_item_range(&self) -> Range {
        match self.node.kind {
            JKind::Object(_) => self.node.close_range(),
            _ => self.node.start_range(),
        }
    }

    pub(crate) fn content(&self, schema: &BodySchema) -> (BodyContent, Vec<Diagnostic>) {
        let (content, used, mut diags) = self.partial(schema);
        let mut candidates: Vec<&str> = schema
            .attributes
            .iter()
            .filter(|a| !used.contains(&a.name))
            .map(|a| a.name.as_str())
            .collect();
        candidates.extend(schema.blocks.iter().map(|b| b.type_name.as_str()));
        // HCL collects the properties again here, reporting their errors a second time.
        let (props, prop_diags) = collect_deep_attrs(&self.node, None);
        diags.extend(prop_diags);
        for prop in props {
            if prop.name == "//" || used.contains(&prop.name) {
                continue;
            }
            let suggestion = name_suggestion(&prop.name, &candidates)
                .map(|s| format!(" Did you mean {}?", go_quote(&s)))
                .unwrap_or_default();
            diags.push(Diagnostic::error(
                "Extraneous JSON object property",
                format!(
                    "No argument or block type is named {}.{suggestion}",
                    go_quote(&prop.name)
                ),
                Some(prop.name_range.clone()),
            ));
        }
        (content, diags)
    }

    pub(crate) fn partial_content(
        &self,
        schema: &BodySchema,
    ) -> (BodyContent, Body, Vec<Diagnostic>) {
        let (content, used, diags) = self.partial(schema);
        let remain = Body(BodyKind::Json(JsonBody {
            node: self.node.clone(),
            hidden: Arc::new(used),
        }));
        (content, remain, diags)
    }

    fn partial(&self, schema: &BodySchema) -> (BodyContent, BTreeSet<String>, Vec<Diagnostic>) {
        let (props, mut diags) = collect_deep_attrs(&self.node, None);
        let mut used = (*self.hidden).clone();
        let mut content = BodyContent {
            missing_item_range: self.missing_item_range(),
            ..BodyContent::default()
        };
        for prop in props {
            if self.hidden.contains(&prop.name) {
                continue;
            }
            if let Some(attr_s) = schema.attributes.iter().find(|a| a.name == prop.name) {
                if let Some(existing) = content.attributes.get(&attr_s.name) {
                    diags.push(Diagnostic::error(
                        "Duplicate argument",
                        format!(
                            "The argument {} was already set at {}.",
                            go_quote(&prop.name),
                            range_string(&existing.range)
                        ),
                        Some(prop.name_range.clone()),
                    ));
                    continue;
                }
                content.attributes.insert(
                    attr_s.name.clone(),
                    Attribute {
                        name: attr_s.name.clone(),
                        expr: Expr::json(prop.value.clone()),
                        range: prop.attr_range(),
                        name_range: prop.name_range.clone(),
                    },
                );
                used.insert(prop.name.clone());
            } else if let Some(block_s) = schema.blocks.iter().find(|b| b.type_name == prop.name) {
                let mut labels = Vec::new();
                unpack_block(
                    &prop.value,
                    &block_s.type_name,
                    &prop.name_range,
                    &block_s.label_names,
                    &mut labels,
                    &mut content.blocks,
                    &mut diags,
                );
                used.insert(prop.name.clone());
            }
        }
        for attr_s in &schema.attributes {
            if attr_s.required && !content.attributes.contains_key(&attr_s.name) {
                diags.push(Diagnostic::error(
                    "Missing required argument",
                    format!(
                        "The argument {} is required, but no definition was found.",
                        go_quote(&attr_s.name)
                    ),
                    Some(self.missing_item_range()),
                ));
            }
        }
        (content, used, diags)
    }

    pub(crate) fn item_names(&self, names: &mut super::ItemNames) {
        let (props, _) = collect_deep_attrs(&self.node, None);
        for prop in props {
            if prop.name != "//" && !self.hidden.contains(&prop.name) {
                names.add_attribute(&prop.name);
            }
        }
    }

    pub(crate) fn just_attributes(&self) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
        let mut attrs: BTreeMap<String, Attribute> = BTreeMap::new();
        let mut diags = Vec::new();
        let JKind::Object(props) = &self.node.kind else {
            diags.push(Diagnostic::error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                Some(self.node.start_range()),
            ));
            return (attrs, diags);
        };
        for prop in props {
            if prop.name == "//" || self.hidden.contains(&prop.name) {
                continue;
            }
            if let Some(existing) = attrs.get(&prop.name) {
                diags.push(Diagnostic::error(
                    "Duplicate attribute definition",
                    format!(
                        "The argument {} was already set at {}.",
                        go_quote(&prop.name),
                        range_string(&existing.range)
                    ),
                    Some(prop.name_range.clone()),
                ));
                continue;
            }
            attrs.insert(
                prop.name.clone(),
                Attribute {
                    name: prop.name.clone(),
                    expr: Expr::json(prop.value.clone()),
                    range: prop.attr_range(),
                    name_range: prop.name_range.clone(),
                },
            );
        }
        (attrs, diags)
    }
}

/// Flattens an object or an array of objects into its properties, in order. `label_name`
/// tailors the errors to a label level of a block.
fn collect_deep_attrs<'a>(
    node: &'a JNode,
    label_name: Option<&str>,
) -> (Vec<&'a JProp>, Vec<Diagnostic>) {
    let mut props = Vec::new();
    let mut diags = Vec::new();
    match &node.kind {
        JKind::Null => {}
        JKind::Object(ps) => props.extend(ps.iter()),
        JKind::Array(items) => {
            for item in items {
                match &item.kind {
                    JKind::Object(ps) => props.extend(ps.iter()),
                    _ => diags.push(Diagnostic::error(
                        "Incorrect JSON value type",
                        match label_name {
                            Some(label) => format!(
                                "A JSON object is required here, to specify {label} labels for this block."
                            ),
                            None => "A JSON object is required here, to define arguments and child blocks.".to_string(),
                        },
                        Some(item.start_range()),
                    )),
                }
            }
        }
        _ => diags.push(Diagnostic::error(
            "Incorrect JSON value type",
            match label_name {
                Some(label) => format!(
                    "Either a JSON object or JSON array of objects is required here, to specify {label} labels for this block."
                ),
                None => "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.".to_string(),
            },
            Some(node.start_range()),
        )),
    }
    (props, diags)
}

/// Peels the label levels off a block property's value, then adds one block per body
/// object (HCL's `unpackBlock`).
#[allow(clippy::too_many_arguments)]
fn unpack_block(
    node: &Arc<JNode>,
    type_name: &str,
    type_range: &Range,
    labels_left: &[String],
    labels_used: &mut Vec<(String, Range)>,
    blocks: &mut Vec<Block>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some((label_name, rest)) = labels_left.split_first() {
        let (props, prop_diags) = collect_deep_attrs(node, Some(label_name));
        diags.extend(prop_diags);
        if props.is_empty() {
            diags.push(Diagnostic::error(
                "Missing block label",
                format!(
                    "At least one object property is required, whose name represents the {type_name} block's {label_name}."
                ),
                Some(node.start_range()),
            ));
            return;
        }
        for prop in props {
            labels_used.push((prop.name.clone(), prop.name_range.clone()));
            unpack_block(
                &prop.value,
                type_name,
                type_range,
                rest,
                labels_used,
                blocks,
                diags,
            );
            labels_used.pop();
        }
        return;
    }
    let labels: Vec<String> = labels_used.iter().map(|(l, _)| l.clone()).collect();
    let label_ranges: Vec<Range> = labels_used.iter().map(|(_, r)| r.clone()).collect();
    let make = |body: &Arc<JNode>, def_range: Range| Block {
        type_name: type_name.to_string(),
        labels: labels.clone(),
        body: JsonBody::body(body.clone()),
        def_range,
        type_range: type_range.clone(),
        label_ranges: label_ranges.clone(),
    };
    match &node.kind {
        JKind::Null => {}
        JKind::Object(_) => blocks.push(make(node, node.start_range())),
        JKind::Array(items) => {
            for item in items {
                blocks.push(make(item, node.start_range()));
            }
        }
        _ => diags.push(Diagnostic::error(
            "Incorrect JSON value type",
            format!(
                "Either a JSON object or a JSON array is required, representing the contents of one or more {} blocks.",
                go_quote(type_name)
            ),
            Some(node.start_range()),
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Expressions

/// True for HCL's nil evaluation context: no variables and no functions anywhere in the
/// scope chain. JSON strings are then literal strings, not templates.
fn is_nil_context(ctx: &EvalContext) -> bool {
    !ctx.variables_allowed() && !ctx.functions_allowed()
}

/// The source of a string's content, positioned just after its opening quote (as HCL
/// does: escapes removed by JSON decoding shift later columns on the same line).
fn template_source(node: &JNode, s: &str) -> SourceFile {
    let start = node.range.start;
    SourceFile::with_base(
        node.range.filename.clone(),
        s,
        Pos {
            line: start.line,
            column: start.column + 1,
            byte: start.byte + 1,
        },
    )
}

/// The source of a string's content for static analyses, positioned at the opening quote
/// itself (as HCL's `AsTraversal` and `ExprCall` do for JSON strings).
pub(crate) fn native_source(node: &JNode) -> Option<SourceFile> {
    match &node.kind {
        JKind::String(s) => Some(SourceFile::with_base(
            node.range.filename.clone(),
            s.as_str(),
            node.range.start,
        )),
        _ => None,
    }
}

/// A string's content parsed as a native expression (for the static analyses).
pub(crate) fn native_expr(node: &JNode) -> Option<(Expression, Arc<SourceFile>)> {
    let src = native_source(node)?;
    let expr = syntax::parse_expr(&src).ok()?;
    Some((expr, Arc::new(src)))
}

/// Evaluates a JSON value as an expression (HCL's `expression.Value`).
pub(crate) fn value(node: &JNode, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    match &node.kind {
        JKind::String(s) => {
            if is_nil_context(ctx) {
                return (Value::String(s.clone()), Vec::new());
            }
            let src = template_source(node, s);
            match syntax::parse_template(&src) {
                Ok(t) => eval::template(&t, ctx, &src),
                Err(d) => (Value::dynamic(), vec![d]),
            }
        }
        JKind::Number(n) => (Value::Number(n.clone()), Vec::new()),
        JKind::Bool(b) => (Value::Bool(*b), Vec::new()),
        JKind::Null => (Value::Null(Type::Dynamic), Vec::new()),
        JKind::Array(items) => {
            let mut diags = Vec::new();
            let vals = items
                .iter()
                .map(|item| {
                    let (v, d) = value(item, ctx);
                    diags.extend(d);
                    v
                })
                .collect();
            (Value::Tuple(vals), diags)
        }
        JKind::Object(props) => object_value(props, ctx),
    }
}

fn object_value(props: &[JProp], ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut attrs: BTreeMap<String, Value> = BTreeMap::new();
    let mut ranges: BTreeMap<String, Range> = BTreeMap::new();
    let mut known = true;
    for prop in props {
        // Property names are templates too (in full-expression mode), as object keys can
        // be expressions in the native syntax.
        let (name, name_diags) = value(&prop.name_node(), ctx);
        let (val, val_diags) = value(&prop.value, ctx);
        diags.extend(name_diags);
        diags.extend(val_diags);
        let name = match convert(&name, &Type::String) {
            Ok(n) => n,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Invalid object key expression",
                    format!("Cannot use this expression as an object key: {e}."),
                    Some(prop.name_range.clone()),
                ));
                continue;
            }
        };
        let name = match name {
            Value::Null(_) => {
                diags.push(Diagnostic::error(
                    "Invalid object key expression",
                    "Cannot use null value as an object key.",
                    Some(prop.name_range.clone()),
                ));
                continue;
            }
            Value::String(s) => s,
            _ => {
                // Unknown: the object's type cannot be known; keep going for the errors
                // of the other properties.
                known = false;
                continue;
            }
        };
        if let Some(first) = ranges.get(&name) {
            diags.push(Diagnostic::error(
                "Duplicate object attribute",
                format!(
                    "An attribute named {} was already defined at {}.",
                    go_quote(&name),
                    range_string(first)
                ),
                Some(prop.name_range.clone()),
            ));
            continue;
        }
        ranges.insert(name.clone(), prop.name_range.clone());
        attrs.insert(name, val);
    }
    if !known {
        return (Value::dynamic(), diags);
    }
    (Value::Object(attrs), diags)
}

/// HCL's `expression.Variables` for JSON values.
pub(crate) fn variables(node: &JNode) -> Vec<Traversal> {
    match &node.kind {
        JKind::String(s) => {
            let src = template_source(node, s);
            match syntax::parse_template(&src) {
                Ok(t) => {
                    let e = Expression::StringTemplate(t.into());
                    eval::variables(&e, &src)
                }
                Err(_) => Vec::new(),
            }
        }
        JKind::Array(items) => items.iter().flat_map(|i| variables(i)).collect(),
        JKind::Object(props) => props
            .iter()
            .flat_map(|p| {
                let mut vars = variables(&p.name_node());
                vars.extend(variables(&p.value));
                vars
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `ExprList`: the elements of an array.
pub(crate) fn as_list(node: &JNode) -> Option<Vec<Expr>> {
    match &node.kind {
        JKind::Array(items) => Some(items.iter().map(|i| Expr::json(i.clone())).collect()),
        _ => None,
    }
}

/// `ExprMap`: the properties of an object, names as string expressions.
pub(crate) fn as_map(node: &JNode) -> Option<Vec<(Expr, Expr)>> {
    match &node.kind {
        JKind::Object(props) => Some(
            props
                .iter()
                .map(|p| (Expr::json(p.name_node()), Expr::json(p.value.clone())))
                .collect(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_ranges() {
        let (body, diags) = parse("t.json", "{\"a\": {}}");
        assert!(diags.is_empty());
        let body = body.unwrap();
        let r = body.missing_item_range();
        assert_eq!((r.start.byte, r.end.byte), (8, 9));
    }

    #[test]
    fn nil_context_keeps_strings_literal() {
        let node = JNode {
            kind: JKind::String("${a}".into()),
            range: Range::default(),
        };
        let (v, d) = value(&node, &EvalContext::empty());
        assert!(d.is_empty());
        assert_eq!(v, Value::from("${a}"));
    }
}
