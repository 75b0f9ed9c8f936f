//! The canonical layout printer (`cloudspec fmt`).
//!
//! Layout (documented for users in docs/language.md, "Formatting"):
//! - `Spec` at column 0, a blank line, then each `Group` at column 0 with a blank line
//!   between groups; `Rule` indented 2; its metadata, `On`, `With`, `Assert` and `And`
//!   lines indented 4. Metadata lines keep their order from the source.
//! - One statement per line: `With`/`Assert` and their first statement share a line, each
//!   further statement starts a line with `And`, or with `Or` when it starts another
//!   alternative (`and` binds tighter than `or`, so the lines read as written).
//! - A nested body `( ... )` that holds a single predicate statement (and no comment) stays
//!   on one line: `> subnet ( map_public_ip_on_launch is false )`. Any other body opens
//!   with `(` at the end of the line, puts one statement per line indented two more (the
//!   second and later ones starting with `and` or `or`), and closes with `)` on its own line.
//! - Keywords are capitalised as in the seed (`Spec`, `Group`, ...), `and` inside
//!   parentheses, quantifiers and predicate words are lower-case; predicate words are the
//!   ones the user wrote (a synonym is never swapped for another). Counting quantifiers
//!   print as `at least N`, `at most N`, `exactly N`; a duration's unit agrees with its
//!   count (`1 day`, `90 days`, whichever of `day`/`days` was written).
//! - Comments are kept: a comment alone on its line is printed on its own line before the
//!   line that follows it in the source (at that line's indent); a comment after code is
//!   appended to the line holding the code before it.

use super::ast::{
    Body, Literal, Predicate, PredicateKind, Quantifier, Rule, Span, Spec, Statement, Tail,
};
use super::lexer::{self, Comment};

/// Each statement of `body` with the word that starts it: `first` for the first statement,
/// `and` for the next ones of an alternative, `or` for the first of each further one.
fn joined<'b>(
    body: &'b Body,
    first: &'b str,
    and: &'b str,
    or: &'b str,
) -> impl Iterator<Item = (&'b str, &'b Statement)> {
    body.alternatives
        .iter()
        .enumerate()
        .flat_map(move |(a, alternative)| {
            alternative.iter().enumerate().map(move |(i, statement)| {
                let prefix = match (a, i) {
                    (0, 0) => first,
                    (_, 0) => or,
                    _ => and,
                };
                (prefix, statement)
            })
        })
}

/// Prints `spec` in canonical layout, keeping the comments found in `source` (the text
/// `spec` was parsed from; pass `""` for a tree built in code).
pub fn format(spec: &Spec, source: &str) -> String {
    let mut printer = Printer {
        source,
        lines: Vec::new(),
        comments: lexer::comments(source),
    };
    printer.spec(spec);
    printer.finish()
}

/// One output line. `anchor` is the source offset of the first token printed on it
/// (`None` for blank lines); comments are placed relative to anchors.
struct Line {
    indent: usize,
    /// Indent of own-line comments placed before this line (deeper before a closing `)`).
    comment_indent: usize,
    text: String,
    anchor: Option<usize>,
}

struct Printer<'s> {
    source: &'s str,
    lines: Vec<Line>,
    comments: Vec<Comment>,
}

impl Printer<'_> {
    fn push(&mut self, indent: usize, text: String, anchor: usize) {
        self.lines.push(Line {
            indent,
            comment_indent: indent,
            text,
            anchor: Some(anchor),
        });
    }

    fn blank(&mut self) {
        self.lines.push(Line {
            indent: 0,
            comment_indent: 0,
            text: String::new(),
            anchor: None,
        });
    }

    fn spec(&mut self, spec: &Spec) {
        self.push(
            0,
            format!("Spec {}", quote(&spec.description.value)),
            spec.span.start,
        );
        for group in &spec.groups {
            self.blank();
            self.push(
                0,
                format!("Group {}", quote(&group.name.value)),
                group.span.start,
            );
            for rule in &group.rules {
                self.rule(rule);
            }
        }
    }

    fn rule(&mut self, rule: &Rule) {
        self.push(
            2,
            format!("Rule {}", quote(&rule.name.value)),
            rule.span.start,
        );
        let mut metadata: Vec<(Span, String)> = Vec::new();
        if let Some(sev) = &rule.severity {
            metadata.push((sev.span, format!("Severity {}", sev.value)));
        }
        if let Some(rem) = &rule.remediation {
            metadata.push((rem.span, format!("Remediation {}", quote(&rem.value))));
        }
        for reference in &rule.references {
            metadata.push((
                reference.span,
                format!("Reference {}", quote(&reference.value)),
            ));
        }
        metadata.sort_by_key(|(span, _)| span.start);
        for (span, text) in metadata {
            self.push(4, text, span.start);
        }
        self.push(4, format!("On {}", rule.on.value), rule.on.span.start);
        self.clause("With", &rule.with);
        self.clause("Assert", &rule.assert);
    }

    /// `With first` / `And second` / `Or third` ..., or `Assert ...`.
    fn clause(&mut self, keyword: &str, body: &Body) {
        for (prefix, statement) in joined(body, keyword, "And", "Or") {
            self.statement(4, &format!("{prefix} "), statement);
        }
    }

    fn statement(&mut self, indent: usize, prefix: &str, statement: &Statement) {
        let head = format!("{prefix}{}", self.statement_head(statement));
        match &statement.tail {
            Tail::Predicate(predicate) => {
                let text = format!("{head} {}", self.predicate(predicate));
                self.push(indent, text, statement.span.start);
            }
            Tail::Nested(body) => self.body(indent, head, statement, body),
        }
    }

    fn body(&mut self, indent: usize, head: String, owner: &Statement, body: &Body) {
        if let Some(inline) = self.inline_body(owner, body) {
            self.push(indent, format!("{head} ( {inline} )"), owner.span.start);
            return;
        }
        self.push(indent, format!("{head} ("), owner.span.start);
        for (prefix, statement) in joined(body, "", "and ", "or ") {
            self.statement(indent + 2, prefix, statement);
        }
        self.push(indent, ")".to_string(), owner.span.end.saturating_sub(1));
        if let Some(close) = self.lines.last_mut() {
            close.comment_indent = indent + 2;
        }
    }

    /// The one-line text of a body holding one predicate statement and no comment.
    fn inline_body(&self, owner: &Statement, body: &Body) -> Option<String> {
        let [alternative] = body.alternatives.as_slice() else {
            return None;
        };
        let [only] = alternative.as_slice() else {
            return None;
        };
        let Tail::Predicate(predicate) = &only.tail else {
            return None;
        };
        // Comments are in source order: the first at or after the body's start decides.
        let first = self
            .comments
            .partition_point(|c| c.span.start < owner.span.start);
        let has_comment = self
            .comments
            .get(first)
            .is_some_and(|c| c.span.start < owner.span.end);
        if has_comment {
            return None;
        }
        Some(format!(
            "{} {}",
            self.statement_head(only),
            self.predicate(predicate)
        ))
    }

    /// `[quantifier ][> ]name["key"]...`; the quantifier word as written (`all`, `every`).
    fn statement_head(&self, statement: &Statement) -> String {
        let mut out = String::new();
        if let Some(q) = &statement.quantifier {
            out.push_str(&self.quantifier_word(q.value, q.span));
            out.push(' ');
        }
        if statement.path.association.is_some() {
            out.push_str("> ");
        }
        out.push_str(&statement.path.name.value);
        for key in &statement.path.keys {
            out.push('[');
            out.push_str(&quote(&key.value));
            out.push(']');
        }
        out
    }

    fn quantifier_word(&self, quantifier: Quantifier, span: Span) -> String {
        let written = self
            .source
            .get(span.start..span.end)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let synonyms: &[&str] = match quantifier {
            Quantifier::Any => &["any", "some"],
            Quantifier::Every => &["every", "all"],
            Quantifier::No => &["no", "none"],
            // Normalized: lower-case words, single spaces, the count in decimal.
            Quantifier::AtLeast(n) => return format!("at least {n}"),
            Quantifier::AtMost(n) => return format!("at most {n}"),
            Quantifier::Exactly(n) => return format!("exactly {n}"),
        };
        if synonyms.contains(&written.as_str()) {
            written
        } else {
            synonyms.first().copied().unwrap_or("every").to_string()
        }
    }

    fn predicate(&self, predicate: &Predicate) -> String {
        let operands: Vec<String> = predicate.operands.iter().map(|o| self.literal(o)).collect();
        let words = &predicate.words;
        let text = match (predicate.kind, operands.as_slice()) {
            (PredicateKind::Between, [low, high]) => format!("{words} {low} and {high}"),
            (_, []) => words.clone(),
            (_, ops) => format!("{words} {}", ops.join(" ")),
        };
        // `older than 90 days`: the unit's word agrees with the count (`1 day`).
        match (&predicate.unit, predicate.operands.as_slice()) {
            (Some(unit), [Literal::Int(n)]) => format!("{text} {}", unit.value.word(n.value)),
            (Some(unit), _) => format!("{text} {}", unit.value.word(2)),
            (None, _) => text,
        }
    }

    fn literal(&self, literal: &Literal) -> String {
        match literal {
            Literal::Str(s) => quote(&s.value),
            Literal::Int(i) => i.value.to_string(),
            Literal::Float(f) => self.float(f.value, f.span),
            Literal::Bool(b) => b.value.to_string(),
            Literal::List(items) => {
                let items: Vec<String> = items.value.iter().map(|i| self.literal(i)).collect();
                format!("[{}]", items.join(", "))
            }
            Literal::Container(entries) => {
                let entries: Vec<String> = entries
                    .value
                    .iter()
                    .map(|(name, value)| format!("{} = {}", name.value, self.literal(value)))
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }

    /// A decimal as the user wrote it when that reads back as the same value (`1e3`),
    /// else Rust's shortest round-trip form (always with `.` or `e`, so it stays a decimal).
    fn float(&self, value: f64, span: Span) -> String {
        let written = self.source.get(span.start..span.end).unwrap_or_default();
        let looks_decimal = written.contains(['.', 'e', 'E']);
        if looks_decimal
            && written
                .parse::<f64>()
                .is_ok_and(|v| v.to_bits() == value.to_bits())
        {
            return written.to_ascii_lowercase();
        }
        format!("{value:?}")
    }

    /// Joins the lines, placing every comment.
    ///
    /// Each comment finds its line by binary search (linear time overall, not comments ×
    /// lines): the first line with an anchor after the comment is the first whose running
    /// maximum of anchors is after it; the last line anchored at or before it is the last
    /// whose running minimum from the end is at or before it.
    fn finish(self) -> String {
        let mut before: Vec<Vec<&str>> = vec![Vec::new(); self.lines.len()];
        let mut after: Vec<Vec<&str>> = vec![Vec::new(); self.lines.len()];
        let mut at_end: Vec<&str> = Vec::new();
        let mut running_max = Vec::with_capacity(self.lines.len());
        let mut max = None;
        for line in &self.lines {
            max = max.max(line.anchor);
            running_max.push(max);
        }
        let mut running_min = vec![usize::MAX; self.lines.len()];
        let mut min = usize::MAX;
        for (i, line) in self.lines.iter().enumerate().rev() {
            min = min.min(line.anchor.unwrap_or(usize::MAX));
            if let Some(slot) = running_min.get_mut(i) {
                *slot = min;
            }
        }
        for comment in &self.comments {
            let text = self
                .source
                .get(comment.span.start..comment.span.end)
                .unwrap_or("#")
                .trim_end();
            let at = comment.span.start;
            if comment.own_line {
                // First line with an anchor after `at`.
                let i = running_max.partition_point(|m| !m.is_some_and(|a| a > at));
                if i < self.lines.len() {
                    push_at(&mut before, i, text);
                } else {
                    at_end.push(text);
                }
            } else {
                // Last line with an anchor at or before `at`.
                let n = running_min.partition_point(|&m| m <= at);
                match n.checked_sub(1) {
                    Some(i) => push_at(&mut after, i, text),
                    None => push_at(&mut before, 0, text),
                }
            }
        }
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            for comment in before.get(i).into_iter().flatten() {
                out.push_str(&" ".repeat(line.comment_indent));
                out.push_str(comment);
                out.push('\n');
            }
            if !line.text.is_empty() {
                out.push_str(&" ".repeat(line.indent));
                out.push_str(&line.text);
            }
            for comment in after.get(i).into_iter().flatten() {
                out.push(' ');
                out.push_str(comment);
            }
            out.push('\n');
        }
        for comment in at_end {
            out.push_str(comment);
            out.push('\n');
        }
        out
    }
}

fn push_at<'a>(slots: &mut [Vec<&'a str>], i: usize, text: &'a str) {
    if let Some(slot) = slots.get_mut(i) {
        slot.push(text);
    }
}

/// A string literal that reads back as `text`.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
