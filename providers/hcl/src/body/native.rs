//! Native-syntax bodies: hclsyntax's `Body.Content`, `PartialContent` and `JustAttributes`
//! over the tree hcl-edit parses, with hclsyntax's ranges and diagnostics.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range as Span;
use std::sync::Arc;

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block as EditBlock, Body as EditBody, Structure};
use hcl_edit::Span as _;

use super::recover;
use super::{
    char_range, name_suggestion, range_between, range_string, start_point, Attribute, Block, Body,
    BodyContent, BodyKind, BodySchema, Expr,
};
use crate::diag::{Diagnostic, Range};
use crate::syntax::{self, SourceFile};
use crate::types::go_quote;

/// One body of a parsed file, with the ranges hclsyntax would report.
#[derive(Debug)]
pub(crate) struct Node {
    attrs: Vec<NativeAttr>,
    blocks: Vec<NativeBlock>,
    missing_item_range: Range,
}

#[derive(Debug)]
struct NativeAttr {
    name: String,
    expr: Arc<Expression>,
    src: Arc<SourceFile>,
    range: Range,
    name_range: Range,
}

#[derive(Debug)]
struct NativeBlock {
    type_name: String,
    labels: Vec<String>,
    type_range: Range,
    label_ranges: Vec<Range>,
    open_brace_range: Range,
    body: Arc<Node>,
}

impl NativeBlock {
    fn def_range(&self) -> Range {
        match self.label_ranges.last() {
            Some(last) => range_between(&self.type_range, last),
            None => self.type_range.clone(),
        }
    }
}

/// A native body plus the names a previous `partial_content` consumed.
#[derive(Clone, Debug)]
pub(crate) struct NativeBody {
    node: Arc<Node>,
    hidden_attrs: Arc<BTreeSet<String>>,
    hidden_blocks: Arc<BTreeSet<String>>,
}

/// At most this many redefined attributes are reported in one file.
const MAX_REDEFINITIONS: usize = 64;

/// Parses a native-syntax file.
///
/// hcl-edit rejects a body that sets an attribute twice, where HCL's parser reports
/// "Attribute redefined" and goes on with the first definition. To do as HCL does, the
/// redefinition's name is replaced (for the parser only, keeping every byte offset) by a
/// placeholder and the file parsed again; the redefinitions are then reported and left out.
pub(crate) fn parse(name: &str, text: &str) -> (Option<Body>, Vec<Diagnostic>) {
    let src = Arc::new(SourceFile::new(name, text));
    let mut redefined: BTreeMap<usize, String> = BTreeMap::new();
    let mut masked: Option<String> = None;
    let mut syntax_errors: Vec<Diagnostic> = Vec::new();
    loop {
        let parsed = match &masked {
            None => syntax::parse_body(&src),
            Some(t) => syntax::parse_body(&SourceFile::new(name, t.as_str())),
        };
        let err = match parsed {
            Ok(_) if !syntax_errors.is_empty() => {
                let mut diags = redefinitions_without_tree(&src, &redefined);
                diags.append(&mut syntax_errors);
                return (None, diags);
            }
            Ok(body) => {
                let start = skip_blanks(&src.text, 0);
                let missing = start_point(&src.range(start..start));
                let mut builder = Builder {
                    src: src.clone(),
                    redefined,
                    diags: Vec::new(),
                };
                let node = builder.build(body, missing);
                return (Some(NativeBody::body(Arc::new(node))), builder.diags);
            }
            Err(err) => err,
        };
        let current = masked.as_deref().unwrap_or(&src.text);
        let offset = err.subject.as_ref().map(|r| r.start.byte);
        let mask = match offset {
            Some(offset)
                if err.detail.contains("found redefined attribute")
                    && redefined.len() < MAX_REDEFINITIONS
                    && !redefined.contains_key(&offset) =>
            {
                placeholder_at(current, offset).map(|m| (offset, m))
            }
            _ => None,
        };
        let Some((offset, (original, replaced))) = mask else {
            // A syntax error: keep it, blank out the top-level item it is in and parse
            // again, so that the file reports every error (as HCL's parser recovers).
            syntax_errors.push(single_line_body(
                current,
                &src,
                unclosed_block(current, &src, err),
            ));
            let next = offset.and_then(|at| {
                let scan = recover::scan(current);
                let item = scan
                    .items
                    .iter()
                    .copied()
                    .find(|(s, e)| *s <= at && at < (*e).max(*s + 1))?;
                Some(recover::blank(current, item))
            });
            match next {
                Some(text)
                    if syntax_errors.len() < recover::MAX_SYNTAX_ERRORS
                        && syntax_errors.len() * text.len() <= recover::MAX_REPARSED_BYTES
                        && masked.as_deref() != Some(text.as_str()) =>
                {
                    masked = Some(text);
                    continue;
                }
                _ => {
                    let mut diags = redefinitions_without_tree(&src, &redefined);
                    diags.append(&mut syntax_errors);
                    return (None, diags);
                }
            }
        };
        redefined.insert(offset, original);
        masked = Some(replaced);
    }
}

/// In a single-line block body (`a { d {} }`), HCL takes the first identifier as an
/// argument name and reports a following block or label from that identifier through the
/// next token ("Argument definition required"); hcl-edit at the token alone.
fn single_line_body(text: &str, src: &SourceFile, err: Diagnostic) -> Diagnostic {
    let Some(at) = err.subject.as_ref().map(|r| r.start.byte) else {
        return err;
    };
    let line_start = text
        .get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |n| n + 1);
    let Some(prefix) = text.get(line_start..at) else {
        return err;
    };
    let Some(brace) = prefix.rfind('{') else {
        return err;
    };
    let Some(between) = prefix.get(brace + 1..) else {
        return err;
    };
    let ident = between.trim();
    let is_ident = !ident.is_empty()
        && ident.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && ident
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let next = text.get(at..).and_then(|r| r.chars().next());
    let next_len = match next {
        Some('{') | Some('"') => 1,
        Some(c) if c.is_alphabetic() || c == '_' => text.get(at..).map_or(1, |r| {
            r.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(r.len())
        }),
        _ => return err,
    };
    if !is_ident {
        return err;
    }
    let ident_start = line_start + brace + 1 + (between.len() - between.trim_start().len());
    Diagnostic::error(
        "Argument definition required",
        format!(
            "A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
            go_quote(ident)
        ),
        Some(src.range(ident_start..at + next_len)),
    )
}

/// HCL reports a block left open at the end of the file at its opening brace ("Unclosed
/// configuration block"); hcl-edit at the end. Other errors are kept as they are.
fn unclosed_block(text: &str, src: &SourceFile, err: Diagnostic) -> Diagnostic {
    let at_end = err.subject.as_ref().is_some_and(|r| {
        text.get(r.start.byte..)
            .is_some_and(|rest| rest.trim().is_empty())
    });
    if !at_end {
        return err;
    }
    match recover::scan(text).open.last() {
        Some((brace, b'{')) => Diagnostic::error(
            "Unclosed configuration block",
            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
            Some(src.range(*brace..*brace + 1)),
        ),
        _ => err,
    }
}

/// The identifier at `offset` of `text` and the text with that identifier replaced by a
/// placeholder of the same length that occurs nowhere else (ASCII identifiers only, so
/// positions do not change).
fn placeholder_at(text: &str, offset: usize) -> Option<(String, String)> {
    let rest = text.get(offset..)?;
    let len = rest.bytes().take_while(|b| is_ident_byte(*b)).count();
    let ident = rest.get(..len)?;
    let followed_by_unicode = rest.as_bytes().get(len).is_some_and(|b| *b >= 0x80);
    let starts_well = ident.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if len == 0 || followed_by_unicode || !starts_well {
        return None;
    }
    let fills = std::iter::once('_').chain('A'..='Z').chain('a'..='z');
    let placeholder = fills
        .map(|c| {
            let mut p = String::with_capacity(len);
            p.push(c);
            p.push_str(&"_".repeat(len - 1));
            p
        })
        .find(|p| !contains_word(text, p))?;
    let mut out = String::with_capacity(text.len());
    out.push_str(text.get(..offset)?);
    out.push_str(&placeholder);
    out.push_str(text.get(offset + len..)?);
    Some((ident.to_string(), out))
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Whether `word` occurs in `text` as a whole identifier.
fn contains_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(word).any(|(i, _)| {
        let before = i.checked_sub(1).and_then(|j| bytes.get(j)).copied();
        let after = bytes.get(i + word.len()).copied();
        !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte)
    })
}

/// Redefinitions found before a parse failure that left no tree to place them in.
fn redefinitions_without_tree(
    src: &SourceFile,
    redefined: &BTreeMap<usize, String>,
) -> Vec<Diagnostic> {
    redefined
        .iter()
        .map(|(offset, name)| {
            Diagnostic::error(
                "Attribute redefined",
                format!(
                    "The argument {} was already set. Each argument may be set only once.",
                    go_quote(name)
                ),
                Some(src.range(*offset..offset + name.len())),
            )
        })
        .collect()
}

fn range_of(src: &SourceFile, span: Option<Span<usize>>) -> Range {
    src.range(span.unwrap_or(0..0))
}

/// The offset of the first byte at or after `from` that is not a space, a tab or part of
/// a `/* ... */` comment.
fn skip_blanks(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(b'/') if bytes.get(i + 1) == Some(&b'*') => {
                match text.get(i + 2..).and_then(|rest| rest.find("*/")) {
                    Some(end) => i += 2 + end + 2,
                    None => return i,
                }
            }
            _ => return i,
        }
    }
}

/// Turns hcl-edit's tree into bodies with HCL's ranges, leaving out (and reporting) the
/// redefined attributes found while parsing.
struct Builder {
    src: Arc<SourceFile>,
    /// Offset of a redefinition's name → the name.
    redefined: BTreeMap<usize, String>,
    diags: Vec<Diagnostic>,
}

impl Builder {
    fn build(&mut self, body: EditBody, missing_item_range: Range) -> Node {
        let src = self.src.clone();
        let mut attrs: Vec<NativeAttr> = Vec::new();
        let mut blocks = Vec::new();
        for structure in body {
            match structure {
                Structure::Attribute(a) => {
                    let name_range = range_of(&src, a.key.span());
                    if let Some(name) = self.redefined.get(&name_range.start.byte) {
                        let detail = match attrs.iter().find(|x| &x.name == name) {
                            Some(first) => format!(
                                "The argument {} was already set at {}. Each argument may be set only once.",
                                go_quote(name),
                                range_string(&first.name_range)
                            ),
                            None => format!(
                                "The argument {} was already set. Each argument may be set only once.",
                                go_quote(name)
                            ),
                        };
                        self.diags.push(Diagnostic::error(
                            "Attribute redefined",
                            detail,
                            Some(name_range),
                        ));
                        continue;
                    }
                    attrs.push(NativeAttr {
                        name: a.key.as_str().to_string(),
                        name_range,
                        range: range_of(&src, a.span()),
                        expr: Arc::new(a.value),
                        src: src.clone(),
                    });
                }
                Structure::Block(b) => {
                    let block = self.build_block(b);
                    blocks.push(block);
                }
            }
        }
        Node {
            attrs,
            blocks,
            missing_item_range,
        }
    }

    fn build_block(&mut self, b: EditBlock) -> NativeBlock {
        let src = self.src.clone();
        let src = &src;
        let type_span = b.ident.span();
        let label_spans: Vec<Option<Span<usize>>> = b.labels.iter().map(|l| l.span()).collect();
        let header_end = label_spans
            .iter()
            .rev()
            .find_map(|s| s.as_ref().map(|s| s.end))
            .or(type_span.as_ref().map(|s| s.end))
            .unwrap_or(0);
        let open = skip_blanks(&src.text, header_end);
        let open = if src.text.as_bytes().get(open) == Some(&b'{') {
            open
        } else {
            header_end
        };
        let open_brace_range = char_range(&src.name, src.pos(open));
        let one_line = b.body.prefer_oneline();
        let first_attr_start = b.body.iter().find_map(|s| match s {
            Structure::Attribute(a) => a.span().map(|s| s.start),
            Structure::Block(_) => None,
        });
        let body_missing = match first_attr_start {
            Some(start) if one_line => src.range(start..start),
            _ => start_point(&open_brace_range),
        };
        NativeBlock {
            type_name: b.ident.as_str().to_string(),
            labels: b.labels.iter().map(|l| l.as_str().to_string()).collect(),
            type_range: range_of(src, type_span),
            label_ranges: label_spans.into_iter().map(|s| range_of(src, s)).collect(),
            open_brace_range,
            body: Arc::new(self.build(b.body, body_missing)),
        }
    }
}

impl NativeBody {
    fn body(node: Arc<Node>) -> Body {
        Body(BodyKind::Native(NativeBody {
            node,
            hidden_attrs: Arc::default(),
            hidden_blocks: Arc::default(),
        }))
    }

    pub(crate) fn missing_item_range(&self) -> Range {
        self.node.missing_item_range.clone()
    }

    pub(crate) fn content(&self, schema: &BodySchema) -> (BodyContent, Vec<Diagnostic>) {
        let (content, remain, mut diags) = self.partial(schema);
        for attr in &self.node.attrs {
            if remain.hidden_attrs.contains(&attr.name) {
                continue;
            }
            let candidates: Vec<&str> = schema
                .attributes
                .iter()
                .filter(|a| !content.attributes.contains_key(&a.name))
                .map(|a| a.name.as_str())
                .collect();
            let suggestion = match name_suggestion(&attr.name, &candidates) {
                Some(s) => format!(" Did you mean {}?", go_quote(&s)),
                None if schema.blocks.iter().any(|b| b.type_name == attr.name) => format!(
                    " Did you mean to define a block of type {}?",
                    go_quote(&attr.name)
                ),
                None => String::new(),
            };
            diags.push(Diagnostic::error(
                "Unsupported argument",
                format!(
                    "An argument named {} is not expected here.{suggestion}",
                    go_quote(&attr.name)
                ),
                Some(attr.name_range.clone()),
            ));
        }
        for block in &self.node.blocks {
            if remain.hidden_blocks.contains(&block.type_name) {
                continue;
            }
            let candidates: Vec<&str> =
                schema.blocks.iter().map(|b| b.type_name.as_str()).collect();
            let suggestion = match name_suggestion(&block.type_name, &candidates) {
                Some(s) => format!(" Did you mean {}?", go_quote(&s)),
                None if schema.attributes.iter().any(|a| a.name == block.type_name) => format!(
                    " Did you mean to define argument {}? If so, use the equals sign to assign it a value.",
                    go_quote(&block.type_name)
                ),
                None => String::new(),
            };
            diags.push(Diagnostic::error(
                "Unsupported block type",
                format!(
                    "Blocks of type {} are not expected here.{suggestion}",
                    go_quote(&block.type_name)
                ),
                Some(block.type_range.clone()),
            ));
        }
        (content, diags)
    }

    pub(crate) fn partial_content(
        &self,
        schema: &BodySchema,
    ) -> (BodyContent, Body, Vec<Diagnostic>) {
        let (content, remain, diags) = self.partial(schema);
        (content, Body(BodyKind::Native(remain)), diags)
    }

    fn partial(&self, schema: &BodySchema) -> (BodyContent, NativeBody, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut hidden_attrs = (*self.hidden_attrs).clone();
        let mut hidden_blocks = (*self.hidden_blocks).clone();
        let mut attributes = BTreeMap::new();
        for attr_s in &schema.attributes {
            let found = self.node.attrs.iter().find(|a| a.name == attr_s.name);
            match found {
                Some(attr) if !hidden_attrs.contains(&attr_s.name) => {
                    hidden_attrs.insert(attr_s.name.clone());
                    attributes.insert(attr.name.clone(), hcl_attribute(attr));
                }
                _ => {
                    if attr_s.required {
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
            }
        }

        let mut blocks = Vec::new();
        for block in &self.node.blocks {
            if hidden_blocks.contains(&block.type_name) {
                continue;
            }
            let Some(block_s) = schema
                .blocks
                .iter()
                .find(|b| b.type_name == block.type_name)
            else {
                continue;
            };
            let want = block_s.label_names.len();
            let name = &block.type_name;
            if block.labels.len() > want {
                let (detail, subject) = if want == 0 {
                    (
                        format!("No labels are expected for {name} blocks."),
                        block.label_ranges.first(),
                    )
                } else {
                    (
                        format!(
                            "Only {want} labels ({}) are expected for {name} blocks.",
                            block_s.label_names.join(", ")
                        ),
                        block.label_ranges.get(want),
                    )
                };
                diags.push(Diagnostic::error(
                    format!("Extraneous label for {name}"),
                    detail,
                    subject.cloned(),
                ));
                continue;
            }
            if block.labels.len() < want {
                let missing = block_s
                    .label_names
                    .get(block.labels.len())
                    .map_or("label", String::as_str);
                diags.push(Diagnostic::error(
                    format!("Missing {missing} for {name}"),
                    format!(
                        "All {name} blocks must have {want} labels ({}).",
                        block_s.label_names.join(", ")
                    ),
                    Some(block.open_brace_range.clone()),
                ));
                continue;
            }
            blocks.push(Block {
                type_name: block.type_name.clone(),
                labels: block.labels.clone(),
                body: NativeBody::body(block.body.clone()),
                def_range: block.def_range(),
                type_range: block.type_range.clone(),
                label_ranges: block.label_ranges.clone(),
            });
        }
        // Block types are hidden only now, so that every block of a type is taken.
        for block_s in &schema.blocks {
            hidden_blocks.insert(block_s.type_name.clone());
        }
        let remain = NativeBody {
            node: self.node.clone(),
            hidden_attrs: Arc::new(hidden_attrs),
            hidden_blocks: Arc::new(hidden_blocks),
        };
        let content = BodyContent {
            attributes,
            blocks,
            missing_item_range: self.missing_item_range(),
        };
        (content, remain, diags)
    }

    pub(crate) fn item_names(&self, names: &mut super::ItemNames) {
        for attr in &self.node.attrs {
            if !self.hidden_attrs.contains(&attr.name) {
                names.add_attribute(&attr.name);
            }
        }
        for block in &self.node.blocks {
            if !self.hidden_blocks.contains(&block.type_name) {
                names.add_block(&block.type_name, block.labels.len());
            }
        }
    }

    pub(crate) fn just_attributes(&self) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        if let Some(example) = self.node.blocks.first() {
            diags.push(Diagnostic::error(
                format!("Unexpected {} block", go_quote(&example.type_name)),
                "Blocks are not allowed here.",
                Some(example.type_range.clone()),
            ));
        }
        let attrs = self
            .node
            .attrs
            .iter()
            .filter(|a| !self.hidden_attrs.contains(&a.name))
            .map(|a| (a.name.clone(), hcl_attribute(a)))
            .collect();
        (attrs, diags)
    }
}

fn hcl_attribute(attr: &NativeAttr) -> Attribute {
    Attribute {
        name: attr.name.clone(),
        expr: Expr::native(attr.expr.clone(), attr.src.clone()),
        range: attr.range.clone(),
        name_range: attr.name_range.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_native, AttributeSchema, BlockHeaderSchema};
    use super::*;
    use crate::diag::Pos;

    fn pos(line: usize, column: usize, byte: usize) -> Pos {
        Pos { line, column, byte }
    }

    fn body(text: &str) -> Body {
        let (b, diags) = parse_native("t.hcl", text);
        assert!(diags.is_empty(), "{diags:?}");
        b.unwrap()
    }

    #[test]
    fn block_ranges_follow_hclsyntax() {
        let b = body("foo \"a\" b /* c */ {\n  x = 1\n}\n");
        let schema = BodySchema {
            attributes: vec![],
            blocks: vec![BlockHeaderSchema::new("foo", ["x", "y"])],
        };
        let (content, diags) = b.content(&schema);
        assert!(diags.is_empty(), "{diags:?}");
        let block = &content.blocks[0];
        assert_eq!(block.labels, vec!["a", "b"]);
        assert_eq!(
            (block.type_range.start, block.type_range.end),
            (pos(1, 1, 0), pos(1, 4, 3))
        );
        assert_eq!(
            (block.label_ranges[0].start, block.label_ranges[0].end),
            (pos(1, 5, 4), pos(1, 8, 7))
        );
        assert_eq!(
            (block.def_range.start, block.def_range.end),
            (pos(1, 1, 0), pos(1, 10, 9))
        );
        let missing = block.body.missing_item_range();
        assert_eq!(
            (missing.start, missing.end),
            (pos(1, 19, 18), pos(1, 19, 18))
        );
    }

    #[test]
    fn one_line_block_body_starts_at_its_attribute() {
        let b = body("foo { x = 1 }\n");
        let schema = BodySchema {
            attributes: vec![],
            blocks: vec![BlockHeaderSchema::new("foo", Vec::<String>::new())],
        };
        let (content, _) = b.content(&schema);
        let inner = &content.blocks[0].body;
        assert_eq!(inner.missing_item_range().start, pos(1, 7, 6));
        let (_, diags) = inner.content(&BodySchema {
            attributes: vec![AttributeSchema::new("y", true)],
            blocks: vec![],
        });
        assert_eq!(diags.len(), 2);
        assert_eq!(diags[0].summary, "Missing required argument");
        assert_eq!(diags[1].summary, "Unsupported argument");
        assert_eq!(
            diags[1].detail,
            "An argument named \"x\" is not expected here. Did you mean \"y\"?"
        );
    }

    #[test]
    fn file_missing_item_range_is_the_first_token() {
        let b = body("  \t/* c */ a = 1\n");
        assert_eq!(b.missing_item_range().start, pos(1, 12, 11));
        let b = body("");
        assert_eq!(b.missing_item_range().start, pos(1, 1, 0));
    }
}
