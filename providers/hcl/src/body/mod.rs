//! Bodies: HCL's syntax-agnostic information model (`hcl.Body`, `hcl.Expression`) for both
//! syntaxes, schema decoding, merged bodies and dynamic blocks.
//!
//! - [`parse_native`] reads the native syntax (through [`crate::syntax`] and hcl-edit),
//!   [`parse_json`] the JSON syntax (through [`crate::json::parse`]), [`parse_file`]
//!   chooses by file name (`.json` suffix: JSON).
//! - [`Body::content`], [`Body::partial_content`] and [`Body::just_attributes`] decode a body
//!   against a [`BodySchema`] as `hcl.Body` does, with HCL's diagnostics (summaries, details
//!   and subject ranges) for each syntax: "Unsupported argument", "Unsupported block type",
//!   "Missing required argument", "Extraneous label for ...", "Missing NAME for ...",
//!   "Extraneous JSON object property", "Incorrect JSON value type", "Duplicate argument"...
//! - [`Body::merge`] is `hcl.MergeBodies`; [`expand_dynamic`] is `ext/dynblock.Expand`.
//! - [`Expr`] is `hcl.Expression`: [`Expr::value`] evaluates (JSON strings are templates
//!   unless the context is the nil context [`EvalContext::empty`]), and the static analyses
//!   [`Expr::as_list`], [`Expr::as_map`], [`Expr::as_traversal`], [`Expr::as_call`],
//!   [`Expr::as_keyword`] follow `hcl.ExprList`, `hcl.ExprMap`, `hcl.AbsTraversalForExpr`,
//!   `hcl.ExprCall` and `hcl.ExprAsKeyword`; [`expr_list`], [`expr_map`],
//!   [`abs_traversal_for_expr`] and [`expr_call`] return HCL's diagnostics when the analysis
//!   does not apply.
//!
//! Ranges are `hcl.Range`s: native ranges as hclsyntax reports them (a block body's
//! "missing item range" is the zero-width range at its opening brace, a file's at its first
//! token), JSON ranges as HCL's JSON parser does (an object's missing item range is its
//! closing brace, an array's its opening bracket).

mod dynblock;
mod expr;
mod json;
mod native;
mod recover;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::diag::{Diagnostic, Pos, Range};
use crate::eval::TraverseStep;
use crate::types::go_quote;

pub use dynblock::expand_dynamic;
pub use expr::{abs_traversal_for_expr, expr_call, expr_list, expr_map, Expr};

/// An absolute traversal (`hcl.Traversal`): a root name, then attribute and index steps,
/// with the source range of the whole traversal.
pub type Traversal = (Vec<TraverseStep>, Range);

/// `hcl.AttributeSchema`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeSchema {
    pub name: String,
    pub required: bool,
}

impl AttributeSchema {
    pub fn new(name: impl Into<String>, required: bool) -> AttributeSchema {
        AttributeSchema {
            name: name.into(),
            required,
        }
    }
}

/// `hcl.BlockHeaderSchema`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHeaderSchema {
    pub type_name: String,
    pub label_names: Vec<String>,
}

impl BlockHeaderSchema {
    pub fn new<S: Into<String>>(
        type_name: impl Into<String>,
        label_names: impl IntoIterator<Item = S>,
    ) -> BlockHeaderSchema {
        BlockHeaderSchema {
            type_name: type_name.into(),
            label_names: label_names.into_iter().map(Into::into).collect(),
        }
    }
}

/// `hcl.BodySchema`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodySchema {
    pub attributes: Vec<AttributeSchema>,
    pub blocks: Vec<BlockHeaderSchema>,
}

/// `hcl.Attribute`: an attribute definition found in a body.
#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: String,
    pub expr: Expr,
    pub range: Range,
    pub name_range: Range,
}

/// `hcl.Block`: a block found in a body.
#[derive(Clone, Debug)]
pub struct Block {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: Body,
    pub def_range: Range,
    pub type_range: Range,
    pub label_ranges: Vec<Range>,
}

/// `hcl.BodyContent`: what a schema selected from a body. Blocks are in source order.
#[derive(Clone, Debug, Default)]
pub struct BodyContent {
    pub attributes: BTreeMap<String, Attribute>,
    pub blocks: Vec<Block>,
    pub missing_item_range: Range,
}

/// The attributes and block types a body holds, found without a schema: for callers that
/// have none (a Terraform resource whose provider schema is unknown), to build one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemNames {
    /// Attribute names, in source order. In the JSON syntax every property is one (only a
    /// schema tells a block from an attribute there).
    pub attributes: Vec<String>,
    /// Block types, in source order of their first block, each with as many label names
    /// as that block has labels. A body expanding `dynamic` blocks lists the types they
    /// generate (not `dynamic`).
    pub blocks: Vec<BlockHeaderSchema>,
}

impl ItemNames {
    /// A schema naming every item (no attribute required).
    pub fn schema(&self) -> BodySchema {
        BodySchema {
            attributes: self
                .attributes
                .iter()
                .map(|a| AttributeSchema::new(a.clone(), false))
                .collect(),
            blocks: self.blocks.clone(),
        }
    }

    fn add_attribute(&mut self, name: &str) {
        if !self.attributes.iter().any(|a| a == name) {
            self.attributes.push(name.to_string());
        }
    }

    fn add_block(&mut self, type_name: &str, labels: usize) {
        if !self.blocks.iter().any(|b| b.type_name == type_name) {
            let names = (1..=labels).map(|i| format!("label{i}"));
            self.blocks.push(BlockHeaderSchema::new(type_name, names));
        }
    }
}

/// A body (`hcl.Body`): native syntax, JSON syntax, a merge of several bodies, a body whose
/// `dynamic` blocks expand, or a body whose attributes are all unknown (the content of a
/// dynamic block with an unknown `for_each`). Cheap to clone.
#[derive(Clone)]
pub struct Body(pub(crate) BodyKind);

#[derive(Clone)]
pub(crate) enum BodyKind {
    Native(native::NativeBody),
    Json(json::JsonBody),
    Merged(Arc<[Body]>),
    Expand(Arc<dynblock::ExpandBody>),
    Unknown(Arc<Body>),
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.0 {
            BodyKind::Native(_) => "native",
            BodyKind::Json(_) => "json",
            BodyKind::Merged(_) => "merged",
            BodyKind::Expand(_) => "dynamic",
            BodyKind::Unknown(_) => "unknown",
        };
        write!(f, "Body({kind}, {})", self.missing_item_range())
    }
}

impl Body {
    /// `hcl.Body.Content`: the attributes and blocks `schema` names; anything else in the
    /// body is an error.
    pub fn content(&self, schema: &BodySchema) -> (BodyContent, Vec<Diagnostic>) {
        match &self.0 {
            BodyKind::Native(b) => b.content(schema),
            BodyKind::Json(b) => b.content(schema),
            BodyKind::Merged(bodies) => {
                let (content, _, diags) = merged_content(bodies, schema, false);
                (content, diags)
            }
            BodyKind::Expand(b) => b.content(schema),
            BodyKind::Unknown(b) => {
                let (content, diags) = b.content(schema);
                (unknown_content(content), diags)
            }
        }
    }

    /// `hcl.Body.PartialContent`: like [`Body::content`], but what the schema does not name
    /// is returned as the remaining body instead of being an error.
    pub fn partial_content(&self, schema: &BodySchema) -> (BodyContent, Body, Vec<Diagnostic>) {
        match &self.0 {
            BodyKind::Native(b) => b.partial_content(schema),
            BodyKind::Json(b) => b.partial_content(schema),
            BodyKind::Merged(bodies) => merged_content(bodies, schema, true),
            BodyKind::Expand(b) => b.partial_content(schema),
            BodyKind::Unknown(b) => {
                let (content, remain, diags) = b.partial_content(schema);
                (
                    unknown_content(content),
                    Body(BodyKind::Unknown(Arc::new(remain))),
                    diags,
                )
            }
        }
    }

    /// `hcl.Body.JustAttributes`: every attribute of the body (blocks are errors; in the
    /// JSON syntax the body must be a single object).
    pub fn just_attributes(&self) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
        match &self.0 {
            BodyKind::Native(b) => b.just_attributes(),
            BodyKind::Json(b) => b.just_attributes(),
            BodyKind::Merged(bodies) => merged_just_attributes(bodies),
            BodyKind::Expand(b) => b.just_attributes(),
            BodyKind::Unknown(b) => {
                let (attrs, diags) = b.just_attributes();
                (unknown_attributes(attrs), diags)
            }
        }
    }

    /// `hcl.Body.MissingItemRange`: where to report an item that is missing.
    pub fn missing_item_range(&self) -> Range {
        match &self.0 {
            BodyKind::Native(b) => b.missing_item_range(),
            BodyKind::Json(b) => b.missing_item_range(),
            BodyKind::Merged(bodies) => merged_missing_item_range(bodies),
            BodyKind::Expand(b) => b.missing_item_range(),
            BodyKind::Unknown(b) => b.missing_item_range(),
        }
    }

    /// `hcl.MergeBodies` (and `hcl.MergeFiles`): several bodies seen as one. Attributes may
    /// be defined in only one of them ("Duplicate argument"); blocks are concatenated in
    /// order. Merged bodies given here are flattened.
    pub fn merge(bodies: Vec<Body>) -> Body {
        let mut flat = Vec::with_capacity(bodies.len());
        for body in bodies {
            match body.0 {
                BodyKind::Merged(children) => flat.extend(children.iter().cloned()),
                other => flat.push(Body(other)),
            }
        }
        Body(BodyKind::Merged(flat.into()))
    }

    /// `hcl.EmptyBody`: a body without content.
    pub fn empty() -> Body {
        Body(BodyKind::Merged(Arc::from(Vec::new())))
    }

    /// The attributes and block types of this body, without a schema (see [`ItemNames`]);
    /// what an earlier `partial_content` took is left out.
    pub fn item_names(&self) -> ItemNames {
        let mut names = ItemNames::default();
        match &self.0 {
            BodyKind::Native(b) => b.item_names(&mut names),
            BodyKind::Json(b) => b.item_names(&mut names),
            BodyKind::Merged(bodies) => {
                for body in bodies.iter() {
                    let these = body.item_names();
                    for a in &these.attributes {
                        names.add_attribute(a);
                    }
                    for b in &these.blocks {
                        names.add_block(&b.type_name, b.label_names.len());
                    }
                }
            }
            BodyKind::Expand(b) => b.item_names(&mut names),
            BodyKind::Unknown(b) => return b.item_names(),
        }
        names
    }

    /// True for the body of a block generated from a dynamic block whose `for_each` is
    /// unknown (dynblock's `unknownBody`, whose `Unknown()` is true): every attribute in it
    /// is unknown, and hcldec makes the blocks' value unknown.
    pub fn is_unknown(&self) -> bool {
        matches!(self.0, BodyKind::Unknown(_))
    }
}

/// Parses a file in the native syntax. `None` when the file cannot be parsed (the
/// diagnostics say why).
pub fn parse_native(name: &str, text: &str) -> (Option<Body>, Vec<Diagnostic>) {
    native::parse(name, text)
}

/// Parses a file in the JSON syntax. The root must be an object or an array of objects
/// ("Root value must be object"; the body is then empty). `None` when the JSON itself is
/// invalid.
pub fn parse_json(name: &str, text: &str) -> (Option<Body>, Vec<Diagnostic>) {
    json::parse(name, text)
}

/// Parses a file in the syntax its name implies: a `.json` suffix means the JSON syntax,
/// anything else the native syntax.
pub fn parse_file(name: &str, text: &str) -> (Option<Body>, Vec<Diagnostic>) {
    if name.ends_with(".json") {
        parse_json(name, text)
    } else {
        parse_native(name, text)
    }
}

pub(crate) use crate::diag::range_string;

/// The zero-width range at the start of `r`.
pub(crate) fn start_point(r: &Range) -> Range {
    Range {
        filename: r.filename.clone(),
        start: r.start,
        end: r.start,
    }
}

/// `hcl.RangeBetween`.
pub(crate) fn range_between(a: &Range, b: &Range) -> Range {
    let start = if b.start.byte < a.start.byte {
        b.start
    } else {
        a.start
    };
    let end = if b.end.byte > a.end.byte {
        b.end
    } else {
        a.end
    };
    Range {
        filename: a.filename.clone(),
        start,
        end,
    }
}

/// A range of one ASCII character starting at `p`.
pub(crate) fn char_range(filename: &str, p: Pos) -> Range {
    Range {
        filename: filename.to_string(),
        start: p,
        end: Pos {
            line: p.line,
            column: p.column + 1,
            byte: p.byte + 1,
        },
    }
}

pub(crate) use crate::suggest::name_suggestion;

/// The first body's missing item range, or a placeholder for an empty merge.
fn merged_missing_item_range(bodies: &[Body]) -> Range {
    match bodies.first() {
        Some(b) => b.missing_item_range(),
        None => Range {
            filename: "<empty>".to_string(),
            ..Range::default()
        },
    }
}

fn merged_content(
    bodies: &[Body],
    schema: &BodySchema,
    partial: bool,
) -> (BodyContent, Body, Vec<Diagnostic>) {
    // Any one body may define a required attribute: check them after merging.
    let merged_schema = BodySchema {
        attributes: schema
            .attributes
            .iter()
            .map(|a| AttributeSchema::new(a.name.clone(), false))
            .collect(),
        blocks: schema.blocks.clone(),
    };
    let mut content = BodyContent {
        missing_item_range: merged_missing_item_range(bodies),
        ..BodyContent::default()
    };
    let mut leftovers = Vec::new();
    let mut diags = Vec::new();
    for body in bodies {
        let this = if partial {
            let (c, remain, d) = body.partial_content(&merged_schema);
            leftovers.push(remain);
            diags.extend(d);
            c
        } else {
            let (c, d) = body.content(&merged_schema);
            diags.extend(d);
            c
        };
        for attr in this.attributes.into_values() {
            if let Some(existing) = content.attributes.get(&attr.name) {
                diags.push(duplicate_argument(&attr, existing));
                continue;
            }
            content.attributes.insert(attr.name.clone(), attr);
        }
        content.blocks.extend(this.blocks);
    }
    for attr in &schema.attributes {
        if attr.required && !content.attributes.contains_key(&attr.name) {
            diags.push(Diagnostic::error(
                "Missing required argument",
                format!(
                    "The argument {} is required, but was not set.",
                    go_quote(&attr.name)
                ),
                None,
            ));
        }
    }
    (content, Body::merge(leftovers), diags)
}

/// An argument set in two of the merged bodies.
fn duplicate_argument(attr: &Attribute, existing: &Attribute) -> Diagnostic {
    Diagnostic::error(
        "Duplicate argument",
        format!(
            "Argument {} was already set at {}",
            go_quote(&attr.name),
            range_string(&existing.name_range)
        ),
        Some(attr.name_range.clone()),
    )
}

fn merged_just_attributes(bodies: &[Body]) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
    let mut attrs: BTreeMap<String, Attribute> = BTreeMap::new();
    let mut diags = Vec::new();
    for body in bodies {
        let (these, d) = body.just_attributes();
        diags.extend(d);
        for attr in sorted_by_position(these) {
            if let Some(existing) = attrs.get(&attr.name) {
                diags.push(duplicate_argument(&attr, existing));
                continue;
            }
            attrs.insert(attr.name.clone(), attr);
        }
    }
    (attrs, diags)
}

/// Attributes in source order (for diagnostics in a stable, readable order).
pub(crate) fn sorted_by_position(attrs: BTreeMap<String, Attribute>) -> Vec<Attribute> {
    let mut list: Vec<Attribute> = attrs.into_values().collect();
    list.sort_by_key(|a| a.name_range.start.byte);
    list
}

/// The content of an "unknown body": every attribute's value is unknown, nested blocks'
/// bodies too (dynblock's `unknownBody`).
fn unknown_content(content: BodyContent) -> BodyContent {
    BodyContent {
        attributes: unknown_attributes(content.attributes),
        blocks: content
            .blocks
            .into_iter()
            .map(|b| Block {
                body: Body(BodyKind::Unknown(Arc::new(b.body))),
                ..b
            })
            .collect(),
        missing_item_range: content.missing_item_range,
    }
}

fn unknown_attributes(attrs: BTreeMap<String, Attribute>) -> BTreeMap<String, Attribute> {
    attrs
        .into_iter()
        .map(|(name, attr)| {
            let range = attr.expr.range();
            (
                name,
                Attribute {
                    expr: Expr::static_value(crate::value::Value::dynamic(), range),
                    ..attr
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize, column: usize, byte: usize) -> Pos {
        Pos { line, column, byte }
    }

    #[test]
    fn range_strings_match_hcl() {
        let r = Range {
            filename: "a.hcl".into(),
            start: pos(3, 1, 20),
            end: pos(3, 15, 34),
        };
        assert_eq!(range_string(&r), "a.hcl:3,1-15");
        let r = Range {
            filename: "a.hcl".into(),
            start: pos(3, 1, 20),
            end: pos(4, 2, 40),
        };
        assert_eq!(range_string(&r), "a.hcl:3,1-4,2");
    }

    #[test]
    fn suggestions_take_the_first_close_candidate() {
        assert_eq!(
            name_suggestion("nmae", &["age", "name"]).as_deref(),
            Some("name")
        );
        assert_eq!(name_suggestion("zzzzzz", &["age", "name"]), None);
        assert_eq!(strsim::levenshtein("kitten", "sitting"), 3);
    }

    #[test]
    fn parse_file_chooses_syntax_by_suffix() {
        let (body, diags) = parse_file("a.hcl.json", r#"{"a": 1}"#);
        assert!(diags.is_empty(), "{diags:?}");
        assert!(matches!(body.map(|b| b.0), Some(BodyKind::Json(_))));
        let (body, diags) = parse_file("a.hcl", "a = 1\n");
        assert!(diags.is_empty(), "{diags:?}");
        assert!(matches!(body.map(|b| b.0), Some(BodyKind::Native(_))));
    }

    #[test]
    fn item_names_list_a_body_without_a_schema() {
        let (body, diags) = parse_native(
            "t.tf",
            "a = 1\nroot { x = 1 }\ndynamic \"ingress\" {\n  for_each = [1, 2]\n  content {\n    port = ingress.value\n  }\n}\nb = 2\nlabeled \"x\" \"y\" {}\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let body = body.unwrap();
        let names = body.item_names();
        assert_eq!(names.attributes, vec!["a", "b"]);
        let types: Vec<(&str, usize)> = names
            .blocks
            .iter()
            .map(|b| (b.type_name.as_str(), b.label_names.len()))
            .collect();
        assert_eq!(types, vec![("root", 0), ("dynamic", 1), ("labeled", 2)]);
        // Expanding dynamic blocks lists the types they generate.
        let ctx = crate::eval::EvalContext::new();
        let expanded = expand_dynamic(body, &ctx);
        let names = expanded.item_names();
        let types: Vec<&str> = names.blocks.iter().map(|b| b.type_name.as_str()).collect();
        assert_eq!(types, vec!["root", "labeled", "ingress"]);
        let (content, diags) = expanded.content(&names.schema());
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(content.blocks.len(), 4);
        // What a partial decode took is left out.
        let (_, remain, _) = expanded.partial_content(&BodySchema {
            attributes: vec![AttributeSchema::new("a", false)],
            blocks: vec![BlockHeaderSchema::new("ingress", Vec::<String>::new())],
        });
        let names = remain.item_names();
        assert_eq!(names.attributes, vec!["b"]);
        let types: Vec<&str> = names.blocks.iter().map(|b| b.type_name.as_str()).collect();
        assert_eq!(types, vec!["root", "labeled"]);
        // JSON: every property is an attribute.
        let (json, _) = parse_json(
            "t.tf.json",
            r#"{"a": 1, "//": "c", "root": {"x": 1}, "dynamic": {"ingress": {"for_each": [1], "content": {"p": 1}}}}"#,
        );
        let json = json.unwrap();
        assert_eq!(json.item_names().attributes, vec!["a", "root", "dynamic"]);
        let names = expand_dynamic(json, &ctx).item_names();
        assert_eq!(names.attributes, vec!["a", "root"]);
        assert_eq!(names.blocks.len(), 1);
        assert_eq!(names.blocks[0].type_name, "ingress");
    }

    #[test]
    fn empty_merged_body_has_placeholder_range() {
        let body = Body::merge(Vec::new());
        assert_eq!(body.missing_item_range().filename, "<empty>");
        let (content, diags) = body.content(&BodySchema {
            attributes: vec![AttributeSchema::new("a", true)],
            blocks: vec![],
        });
        assert!(content.attributes.is_empty());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Missing required argument");
        assert_eq!(
            diags[0].detail,
            "The argument \"a\" is required, but was not set."
        );
        assert_eq!(diags[0].subject, None);
    }
}
