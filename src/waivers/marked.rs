//! A small YAML tree whose every node knows its line and column, built from
//! saphyr-parser's events, so that waiver errors can point at the offending entry.
//!
//! Scalars stay text (a waiver file has no numbers or booleans that matter, but a plain
//! `true` or `42` is told apart so that a text field can refuse it); anchors and aliases are
//! resolved by copying; tags are ignored.
//!
//! Bounded: a document expands to at most [`MAX_NODES`] nodes, aliases included (a
//! "billion laughs" file of a few hundred bytes is an error at the alias that goes over,
//! not gigabytes of copies), and nests at most [`MAX_DEPTH`] collections deep.
//! [`check_expansion`] applies the same bounds to any YAML text without building it.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};

/// At most this many nodes in a document once its aliases are expanded.
pub(crate) const MAX_NODES: usize = 1_000_000;
/// At most this many collections nested in one another.
pub(crate) const MAX_DEPTH: usize = 128;

/// A position in the file, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
}

impl Pos {
    fn of(span: &Span) -> Pos {
        Pos {
            line: span.start.line(),
            column: span.start.col() + 1,
        }
    }
}

/// A YAML node with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A scalar; `null` is a plain `~`, `null` or nothing at all.
    Scalar {
        text: String,
        null: bool,
        /// Written without quotes (so `true` or `42` is a boolean or a number).
        plain: bool,
        pos: Pos,
    },
    Seq {
        items: Vec<Node>,
        pos: Pos,
    },
    /// Keys in file order, duplicates kept (the caller reports them).
    Map {
        entries: Vec<(Node, Node)>,
        pos: Pos,
    },
}

impl Node {
    pub(crate) fn pos(&self) -> Pos {
        match self {
            Node::Scalar { pos, .. } | Node::Seq { pos, .. } | Node::Map { pos, .. } => *pos,
        }
    }

    /// What the node is, in words, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Scalar { null: true, .. } => "nothing",
            Node::Scalar {
                plain: true, text, ..
            } if is_bool(text) => "a boolean",
            Node::Scalar {
                plain: true, text, ..
            } if is_number(text) => "a number",
            Node::Scalar { .. } => "a text value",
            Node::Seq { .. } => "a list",
            Node::Map { .. } => "a mapping",
        }
    }
}

/// YAML 1.2 core schema booleans.
fn is_bool(text: &str) -> bool {
    matches!(text, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// YAML 1.2 core schema numbers: integers (decimal, `0o`, `0x`), floats, `.inf`, `.nan`.
fn is_number(text: &str) -> bool {
    let t = text.strip_prefix(['+', '-']).unwrap_or(text);
    if matches!(t, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return !oct.is_empty() && oct.chars().all(|c| ('0'..='7').contains(&c));
    }
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let digits = mantissa.replacen('.', "", 1);
    let mantissa_ok =
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && mantissa != ".";
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// A YAML syntax error: where, and the parser's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

impl From<ScanError> for SyntaxError {
    fn from(e: ScanError) -> Self {
        SyntaxError {
            pos: Pos {
                line: e.marker().line(),
                column: e.marker().col() + 1,
            },
            message: e.info().to_string(),
        }
    }
}

/// Parses the first document of a waiver file; `None` when the text holds no document. A
/// second document is an error.
pub(crate) fn parse(text: &str) -> Result<Option<Node>, SyntaxError> {
    parse_one(text, "a waiver file")
}

/// Parses the first document of `text`, which is `what` (`a controls file`) in messages;
/// `None` when the text holds no document. A second document is an error.
pub(crate) fn parse_one(text: &str, what: &str) -> Result<Option<Node>, SyntaxError> {
    let mut builder = Builder::default();
    let mut budget = Budget::default();
    let mut parser = Parser::new_from_str(text);
    let mut documents = 0;
    for item in &mut parser {
        let (event, span) = item?;
        budget.event(&event, &span)?;
        if let Event::DocumentStart(_) = event {
            documents += 1;
            if documents > 1 {
                return Err(SyntaxError {
                    pos: Pos::of(&span),
                    message: format!("{what} holds one YAML document; remove this `---` and what follows it, or merge the documents"),
                });
            }
        }
        builder.event(event, &span)?;
    }
    Ok(builder.root)
}

/// Checks that every document of `text` stays within [`MAX_NODES`] and [`MAX_DEPTH`] once
/// its aliases are expanded, without building it (for YAML read by other parsers).
pub(crate) fn check_expansion(text: &str) -> Result<(), SyntaxError> {
    let mut budget = Budget::default();
    for item in Parser::new_from_str(text) {
        let (event, span) = item?;
        if let Event::DocumentStart(_) = event {
            budget = Budget::default();
        }
        budget.event(&event, &span)?;
    }
    Ok(())
}

/// Counts the nodes a document expands to: each anchor's size is remembered, and an alias
/// costs as much as what it repeats.
#[derive(Debug, Default)]
struct Budget {
    total: usize,
    /// Each open collection's anchor and size so far (itself included).
    open: Vec<(usize, usize)>,
    sizes: HashMap<usize, usize>,
}

impl Budget {
    fn event(&mut self, event: &Event<'_>, span: &Span) -> Result<(), SyntaxError> {
        let pos = Pos::of(span);
        match event {
            Event::Scalar(_, _, anchor, _) => self.place(1, 1, *anchor, pos),
            Event::Alias(id) => {
                let size = self.sizes.get(id).copied().unwrap_or(1);
                self.place(size, size, 0, pos)
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.open.len() >= MAX_DEPTH {
                    return Err(SyntaxError {
                        pos,
                        message: format!(
                            "collections nested more than {MAX_DEPTH} deep; cloudspec reads YAML up to that depth"
                        ),
                    });
                }
                self.open.push((*anchor, 0));
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (anchor, size) = self.open.pop().unwrap_or((0, 0));
                self.place(size.saturating_add(1), 1, anchor, pos)
            }
            _ => Ok(()),
        }
    }

    /// A finished node: `subtree` nodes in all, `new` of them not counted yet (a
    /// collection's children were counted as they finished).
    fn place(
        &mut self,
        subtree: usize,
        new: usize,
        anchor: usize,
        pos: Pos,
    ) -> Result<(), SyntaxError> {
        self.total = self.total.saturating_add(new);
        if self.total > MAX_NODES {
            return Err(SyntaxError {
                pos,
                message: format!(
                    "the document expands to more than {MAX_NODES} values (aliases repeat too much)"
                ),
            });
        }
        if anchor != 0 {
            self.sizes.insert(anchor, subtree);
        }
        if let Some((_, parent)) = self.open.last_mut() {
            *parent = parent.saturating_add(subtree);
        }
        Ok(())
    }
}

/// A collection being built: its position, anchor, and what it holds so far.
#[derive(Debug)]
enum Open {
    Seq(Pos, usize, Vec<Node>),
    /// A mapping and the key waiting for its value.
    Map(Pos, usize, Vec<(Node, Node)>, Option<Node>),
}

/// Turns events into a tree.
#[derive(Debug, Default)]
struct Builder {
    stack: Vec<Open>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
}

impl Builder {
    fn event(&mut self, event: Event<'_>, span: &Span) -> Result<(), SyntaxError> {
        let pos = Pos::of(span);
        match event {
            Event::Scalar(text, style, anchor, _) => {
                let null = style == ScalarStyle::Plain
                    && matches!(&*text, "" | "~" | "null" | "Null" | "NULL");
                let node = Node::Scalar {
                    text: text.into_owned(),
                    null,
                    plain: style == ScalarStyle::Plain,
                    pos,
                };
                self.finish(node, anchor);
            }
            Event::Alias(id) => {
                let node = self.anchors.get(&id).cloned().ok_or_else(|| SyntaxError {
                    pos,
                    message: "this alias names no anchor defined before it".into(),
                })?;
                self.finish(node, 0);
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Open::Seq(pos, anchor, Vec::new())),
            Event::MappingStart(anchor, _) => {
                self.stack.push(Open::Map(pos, anchor, Vec::new(), None));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    let (node, anchor) = match open {
                        Open::Seq(pos, anchor, items) => (Node::Seq { items, pos }, anchor),
                        Open::Map(pos, anchor, entries, _) => (Node::Map { entries, pos }, anchor),
                    };
                    self.finish(node, anchor);
                }
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd => {}
        }
        Ok(())
    }

    /// Places a finished node in its parent (or as the root), remembering its anchor.
    fn finish(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Open::Seq(_, _, items)) => items.push(node),
            Some(Open::Map(_, _, entries, key)) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
        }
    }
}

/// A mapping's entries by key (with the key's position).
pub(crate) type Fields<'a> = std::collections::BTreeMap<&'a str, (Pos, &'a Node)>;

/// A mapping's entries by key, after checking that every key is one of `known` and none
/// repeats; an error is its position and message (waiver and controls files alike).
pub(crate) fn mapping<'a>(
    node: &'a Node,
    what: &str,
    known: &[&str],
) -> Result<Fields<'a>, (Pos, String)> {
    let Node::Map { entries, .. } = node else {
        return Err((
            node.pos(),
            format!("{what} must be a mapping, found {}", node.kind()),
        ));
    };
    let mut out = Fields::new();
    for (key, value) in entries {
        let Node::Scalar { text, .. } = key else {
            return Err((key.pos(), "a key must be a plain name".to_string()));
        };
        if !known.contains(&text.as_str()) {
            return Err((
                key.pos(),
                format!(
                    "unknown field `{text}` in {what}; expected {}",
                    one_of(known)
                ),
            ));
        }
        if out.insert(text.as_str(), (key.pos(), value)).is_some() {
            return Err((key.pos(), format!("`{text}` is given twice in {what}")));
        }
    }
    Ok(out)
}

/// `a`, `a or b`, `a, b or c`: the names in backticks.
pub(crate) fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(node: &Node) -> (&str, Pos) {
        match node {
            Node::Scalar { text, pos, .. } => (text, *pos),
            other => panic!("not a scalar: {other:?}"),
        }
    }

    #[test]
    fn positions_are_one_based() {
        let root = parse("a:\n  - b: c\n").unwrap().unwrap();
        let Node::Map { entries, pos } = root else {
            panic!()
        };
        assert_eq!(pos, Pos { line: 1, column: 1 });
        assert_eq!(scalar(&entries[0].0), ("a", Pos { line: 1, column: 1 }));
        let Node::Seq { items, .. } = &entries[0].1 else {
            panic!()
        };
        let Node::Map { entries, .. } = &items[0] else {
            panic!()
        };
        assert_eq!(scalar(&entries[0].1), ("c", Pos { line: 2, column: 8 }));
    }

    #[test]
    fn empty_text_has_no_document() {
        assert_eq!(parse("# nothing\n").unwrap(), None);
    }

    #[test]
    fn aliases_copy_their_anchor() {
        let root = parse("a: &x {k: v}\nb: *x\n").unwrap().unwrap();
        let Node::Map { entries, .. } = root else {
            panic!()
        };
        assert!(matches!(&entries[1].1, Node::Map { entries, .. } if entries.len() == 1));
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse("a: [b\n").unwrap_err();
        assert_eq!(err.pos.line, 2);
    }

    #[test]
    fn a_second_document_is_an_error() {
        let err = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(err.pos, Pos { line: 2, column: 1 });
    }
}
