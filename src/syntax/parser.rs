//! Text to AST: runs the pest grammar, then builds the typed [`ast`](super::ast) from the
//! parse tree and reports every semantic problem (duplicates, bad operands, bad escapes,
//! numbers out of range) as a [`Diagnostic`]. Pest types never leave this module.

use std::collections::HashMap;
use std::net::IpAddr;

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::{
    Body, Group, Literal, MemberPath, Predicate, PredicateKind, Quantifier, Rule, Severity, Span,
    Spanned, Spec, Statement, Tail, TimeUnit,
};
use super::errors;
use super::grammar::{CloudSpecParser, Rule as G};
use super::lexer;
use super::pattern::compile_pattern;
use super::predicates::{def, Operands};
use crate::diagnostic::{quoted, Collector, Diagnostic, LineIndex};
use crate::predicates::parse_instant;

/// The result of parsing one file: the tree (when the structure could be recovered) and
/// every problem found.
///
/// `spec` is `Some` whenever the text matched the grammar, even if a semantic error (a
/// duplicate rule name, a bad escape, an operand of the wrong type) was found: check
/// [`Parsed::has_errors`] or use [`Parsed::ok`] before evaluating.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub spec: Option<Spec>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The tree, only when the file has no errors.
    pub fn ok(&self) -> Option<&Spec> {
        if self.has_errors() {
            None
        } else {
            self.spec.as_ref()
        }
    }
}

/// Parses a `.cloudspec` source text. Never panics.
///
/// The file is read one item at a time (the `Spec` line, each group head, each rule: the
/// grammar's `file_head`, `group_head` and `rule_item`), each turned into AST before the next
/// is parsed, so memory holds the tree plus one rule's parse tree rather than the parse tree
/// of the whole file. Diagnostics are exactly those of parsing `file` whole
/// ([`parse_whole_file`], pinned by a property test).
pub fn parse(source: &str) -> Parsed {
    if let Some(diag) = lexer::nesting_error(source) {
        return Parsed {
            spec: None,
            diagnostics: vec![diag],
        };
    }
    let mut builder = Builder::new(source);
    match builder.items() {
        Ok(spec) => builder.finish(spec),
        Err(failure) => failure.into_parsed(source),
    }
}

/// [`parse`] with the whole file in one pest parse tree: the reference the item-at-a-time
/// parse is tested against. Memory grows with the file's parse tree (about 150 times the
/// file); not for use on input.
#[doc(hidden)]
pub fn parse_whole_file(source: &str) -> Parsed {
    if let Some(diag) = lexer::nesting_error(source) {
        return Parsed {
            spec: None,
            diagnostics: vec![diag],
        };
    }
    match CloudSpecParser::parse(G::file, source) {
        Ok(mut pairs) => {
            let mut builder = Builder::new(source);
            let spec = pairs.next().and_then(|file| builder.file(file));
            builder.finish(spec)
        }
        Err(error) => SyntaxFailure {
            error: Box::new(error),
            offset: 0,
        }
        .into_parsed(source),
    }
}

/// A pest failure on the item starting at `offset` (boxed: the error is large and rare).
struct SyntaxFailure {
    error: Box<pest::error::Error<G>>,
    offset: usize,
}

impl SyntaxFailure {
    /// The syntax error and the problems of the strings before it (an unclosed string is
    /// often what confused the grammar); no tree.
    fn into_parsed(self, source: &str) -> Parsed {
        let syntax = errors::syntax_error(source, &self.error, self.offset);
        let mut diagnostics = Collector::default();
        lexer::string_errors_before(
            source,
            syntax.span.end.max(syntax.span.start + 1),
            &mut diagnostics,
        );
        diagnostics.push(syntax);
        Parsed {
            spec: None,
            diagnostics: diagnostics.finish(),
        }
    }
}

/// Builds the AST from a successful parse, collecting semantic diagnostics.
struct Builder<'s> {
    source: &'s str,
    /// Where the text of the pairs being built starts in `source` (items are parsed from
    /// `source[offset..]`; spans are made absolute).
    offset: usize,
    diags: Collector,
    /// Built on the first look-up of a line number (a duplicate name says where the first
    /// one is): one pass over the file, however many duplicates.
    lines: Option<LineIndex<'s>>,
}

/// `text` starts with `word` in any case.
fn starts_with_word(text: &str, word: &str) -> bool {
    text.get(..word.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(word))
}

impl<'s> Builder<'s> {
    fn new(source: &'s str) -> Self {
        Builder {
            source,
            offset: 0,
            diags: Collector::default(),
            lines: None,
        }
    }

    /// The absolute span of `pair`.
    fn span(&self, pair: &Pair<'_, G>) -> Span {
        let s = pair.as_span();
        Span::new(self.offset + s.start(), self.offset + s.end())
    }

    /// Parses the item `item` at `offset`: its pair and where the next item starts.
    fn item(&mut self, item: G, offset: usize) -> Result<(Pair<'s, G>, usize), SyntaxFailure> {
        let text = self.source.get(offset..).unwrap_or_default();
        let mut pairs = CloudSpecParser::parse(item, text).map_err(|error| SyntaxFailure {
            error: Box::new(error),
            offset,
        })?;
        let pair = pairs.next().ok_or_else(|| SyntaxFailure {
            error: Box::new(pest::error::Error::new_from_pos(
                pest::error::ErrorVariant::CustomError {
                    message: "an empty parse".into(),
                },
                pest::Position::from_start(text),
            )),
            offset,
        })?;
        let end = offset + pair.as_span().end();
        self.offset = offset;
        Ok((pair, end))
    }

    /// The file one item at a time (see [`parse`]). `Ok(None)`: the text matched but a part
    /// of the tree could not be built (never expected; reported by [`Builder::finish`]).
    fn items(&mut self) -> Result<Option<Spec>, SyntaxFailure> {
        let (head, mut pos) = self.item(G::file_head, 0)?;
        let mut description = None;
        let mut start = 0;
        for inner in head.into_inner() {
            if inner.as_rule() == G::spec_clause {
                start = self.span(&inner).start;
                description = inner
                    .into_inner()
                    .find(|p| p.as_rule() == G::string)
                    .map(|p| self.string(p));
            }
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut complete = true;
        while pos < self.source.len() {
            let rest = self.source.get(pos..).unwrap_or_default();
            if starts_with_word(rest, "group") {
                let (head, next) = self.item(G::group_head, pos)?;
                let span = self.span(&head);
                let name = head
                    .into_inner()
                    .find(|p| p.as_rule() == G::string)
                    .map(|p| self.string(p));
                match name {
                    Some(name) => groups.push(Group {
                        name,
                        rules: Vec::new(),
                        // Until its last rule is read.
                        span: Span::new(span.start, span.start),
                    }),
                    None => complete = false,
                }
                pos = next;
            } else {
                let (item, next) = self.item(G::rule_item, pos)?;
                let rule = item
                    .into_inner()
                    .find(|p| p.as_rule() == G::rule)
                    .and_then(|p| self.rule(p));
                match (rule, groups.last_mut()) {
                    (Some(rule), Some(group)) => {
                        // As pest spans `rule+` (`rule ~ rule*`): after a first rule with no
                        // other, the group's span takes in the blanks and comments after it.
                        let end = if group.rules.is_empty() {
                            next
                        } else {
                            rule.span.end
                        };
                        group.span = Span::new(group.span.start, end);
                        group.rules.push(rule);
                    }
                    _ => complete = false,
                }
                pos = next;
            }
        }
        if !complete {
            return Ok(None);
        }
        let end = groups.last().map_or(0, |g: &Group| g.span.end);
        Ok(description.map(|description| Spec {
            description,
            groups,
            span: Span::new(start, end.max(start)),
        }))
    }

    /// The parse's result from the tree built from a text that matched the grammar.
    fn finish(mut self, spec: Option<Spec>) -> Parsed {
        if spec.is_none() && !self.diags.has_errors() {
            self.diags.push(Diagnostic::error(
                "syntax",
                "the file could not be read as a spec",
                Span::new(0, 0),
            ));
        }
        if let Some(spec) = &spec {
            self.check_duplicates(spec);
        }
        Parsed {
            spec,
            diagnostics: self.diags.finish(),
        }
    }

    /// The line of byte `offset`.
    fn line_of(&mut self, offset: usize) -> usize {
        let source = self.source;
        self.lines
            .get_or_insert_with(|| LineIndex::new(source))
            .line_col(offset)
            .0
    }

    fn file(&mut self, pair: Pair<'s, G>) -> Option<Spec> {
        let mut description = None;
        let mut groups = Vec::new();
        let mut start = None;
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::spec_clause => {
                    start = Some(self.span(&inner).start);
                    description = inner
                        .into_inner()
                        .find(|p| p.as_rule() == G::string)
                        .map(|p| self.string(p));
                }
                G::group => groups.push(self.group(inner)?),
                _ => {}
            }
        }
        let end = groups.last().map_or(0, |g: &Group| g.span.end);
        let start = start.unwrap_or(0);
        Some(Spec {
            description: description?,
            groups,
            span: Span::new(start, end.max(start)),
        })
    }

    fn group(&mut self, pair: Pair<'s, G>) -> Option<Group> {
        let span = self.span(&pair);
        let mut name = None;
        let mut rules = Vec::new();
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::string => name = Some(self.string(inner)),
                G::rule => rules.push(self.rule(inner)?),
                _ => {}
            }
        }
        Some(Group {
            name: name?,
            rules,
            span,
        })
    }

    fn rule(&mut self, pair: Pair<'s, G>) -> Option<Rule> {
        let span = self.span(&pair);
        let mut name = None;
        let mut severity: Option<Spanned<Severity>> = None;
        let mut remediation: Option<Spanned<String>> = None;
        let mut references = Vec::new();
        let mut on = None;
        let mut with = Body::default();
        let mut assert = Body::default();
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::string => name = Some(self.string(inner)),
                G::severity => {
                    let value = self.severity(inner);
                    if let (Some(first), Some(second)) = (&severity, &value) {
                        self.duplicate_metadata("Severity", first.span, second.span);
                    } else if severity.is_none() {
                        severity = value;
                    }
                }
                G::remediation => {
                    let value = self.string_child(inner);
                    if let (Some(first), Some(second)) = (&remediation, &value) {
                        self.duplicate_metadata("Remediation", first.span, second.span);
                    } else if remediation.is_none() {
                        remediation = value;
                    }
                }
                G::reference => references.extend(self.string_child(inner)),
                G::on_clause => {
                    on = inner
                        .into_inner()
                        .find(|p| p.as_rule() == G::resource_ref)
                        .map(|p| Spanned::new(p.as_str().to_string(), self.span(&p)));
                }
                G::with_clause => with = self.statements(inner)?,
                G::assert_clause => assert = self.statements(inner)?,
                _ => {}
            }
        }
        Some(Rule {
            name: name?,
            severity,
            references,
            remediation,
            on: on?,
            with,
            assert,
            span,
        })
    }

    /// `Severity high`: the span covers the whole line.
    fn severity(&mut self, pair: Pair<'s, G>) -> Option<Spanned<Severity>> {
        let span = self.span(&pair);
        let level = pair
            .into_inner()
            .find(|p| p.as_rule() == G::severity_level)?;
        match Severity::parse(level.as_str()) {
            Some(sev) => Some(Spanned::new(sev, span)),
            None => {
                self.diags.push(
                    Diagnostic::error(
                        "unknown-severity",
                        format!("unknown severity \"{}\"", quoted(level.as_str())),
                        self.span(&level),
                    )
                    .with_label("not a severity")
                    .with_help("the severities are low, medium, high and critical"),
                );
                None
            }
        }
    }

    fn duplicate_metadata(&mut self, what: &str, first: Span, second: Span) {
        let line = self.line_of(first.start);
        self.diags.push(
            Diagnostic::error(
                "duplicate-metadata",
                format!("a rule has at most one \"{what}\" line"),
                second,
            )
            .with_label(format!("\"{what}\" was already given on line {line}"))
            .with_help(format!(
                "keep one \"{what}\" line; \"Reference\" is the only metadata that may repeat"
            )),
        );
    }

    /// The decoded string child of `pair` (`Remediation "..."`, `Reference "..."`).
    fn string_child(&mut self, pair: Pair<'s, G>) -> Option<Spanned<String>> {
        pair.into_inner()
            .find(|p| p.as_rule() == G::string)
            .map(|p| self.string(p))
    }

    /// The statements among `pair`'s children, split into alternatives at each `or` (`and`
    /// binds tighter: `A and B or C` is `[[A, B], [C]]`).
    fn statements(&mut self, pair: Pair<'s, G>) -> Option<Body> {
        let mut alternatives = vec![Vec::new()];
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::statement => {
                    let statement = self.statement(inner)?;
                    alternatives.last_mut()?.push(statement);
                }
                G::kw_or => alternatives.push(Vec::new()),
                _ => {}
            }
        }
        Some(Body { alternatives })
    }

    fn statement(&mut self, pair: Pair<'s, G>) -> Option<Statement> {
        let span = self.span(&pair);
        let mut quantifier = None;
        let mut counting = None;
        let mut body = None;
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::quantifier => {
                    quantifier = Some(Spanned::new(
                        quantifier_of(inner.as_str()),
                        self.span(&inner),
                    ))
                }
                G::count_quantifier => counting = Some(inner),
                G::association | G::property => body = Some(inner),
                _ => {}
            }
        }
        let body = body?;
        let (path, tail) = if body.as_rule() == G::association {
            self.association(body)?
        } else {
            self.property(body)?
        };
        if let Some(counting) = counting {
            quantifier = Some(self.count_quantifier(counting, &path)?);
        }
        Some(Statement {
            quantifier,
            path,
            tail,
            span,
        })
    }

    /// `at least N`, `at most N`, `exactly N`: the span covers the words and the count. A
    /// count that is negative, not whole or too large is reported at the count (the
    /// quantifier then counts 0, in a tree that has errors).
    fn count_quantifier(
        &mut self,
        pair: Pair<'s, G>,
        path: &MemberPath,
    ) -> Option<Spanned<Quantifier>> {
        let span = self.span(&pair);
        let mut words: Vec<String> = Vec::new();
        let mut count = None;
        for inner in pair.into_inner() {
            if inner.as_rule() == G::count {
                count = Some((inner.as_str(), self.span(&inner)));
            } else {
                words.push(inner.as_str().to_ascii_lowercase());
            }
        }
        let (text, count_span) = count?;
        let words = words.join(" ");
        let n = self.count_value(&words, text, count_span, path);
        let quantifier = match words.as_str() {
            "at least" => Quantifier::AtLeast(n),
            "at most" => Quantifier::AtMost(n),
            _ => Quantifier::Exactly(n),
        };
        Some(Spanned::new(quantifier, span))
    }

    /// The count `text` of the quantifier `words`, or 0 after reporting why it is not one.
    fn count_value(&mut self, words: &str, text: &str, span: Span, path: &MemberPath) -> u64 {
        let member = format!(
            "{}{}",
            if path.association.is_some() { "> " } else { "" },
            quoted(&path.name.value)
        );
        let problem = if text.contains(['.', 'e', 'E']) {
            Some(("must be a whole number", "not a whole number"))
        } else if text.starts_with('-') {
            Some(("cannot be negative", "a negative count"))
        } else {
            None
        };
        if let Some((what, label)) = problem {
            self.diags.push(
                Diagnostic::error(
                    "invalid-count",
                    format!("the count of \"{words}\" {what}, found {}", quoted(text)),
                    span,
                )
                .with_label(label)
                .with_help(format!(
                    "a count is a whole number, 0 or more: {words} 1 {member} ( ... ); to say that none match write no {member} ( ... )"
                )),
            );
            return 0;
        }
        match text.parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                self.diags.push(
                    Diagnostic::error(
                        "number-out-of-range",
                        format!("the count {} does not fit in 64 bits", quoted(text)),
                        span,
                    )
                    .with_label("out of range")
                    .with_help("counts range from 0 to 18446744073709551615"),
                );
                0
            }
        }
    }

    fn association(&mut self, pair: Pair<'s, G>) -> Option<(MemberPath, Tail)> {
        let mut marker = None;
        let mut name = None;
        let mut tail = None;
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::assoc_marker => marker = Some(self.span(&inner)),
                G::member_name => {
                    name = Some(Spanned::new(inner.as_str().to_string(), self.span(&inner)))
                }
                G::association_body => {
                    let nested = inner.into_inner().find(|p| p.as_rule() == G::nested)?;
                    tail = Some(Tail::Nested(self.statements(nested)?));
                }
                _ => {}
            }
        }
        Some((
            MemberPath {
                association: marker,
                name: name?,
                keys: Vec::new(),
            },
            tail?,
        ))
    }

    fn property(&mut self, pair: Pair<'s, G>) -> Option<(MemberPath, Tail)> {
        let mut name = None;
        let mut keys = Vec::new();
        let mut tail = None;
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::member_name => {
                    name = Some(Spanned::new(inner.as_str().to_string(), self.span(&inner)))
                }
                G::key => keys.extend(self.string_child(inner)),
                G::nested => tail = Some(Tail::Nested(self.statements(inner)?)),
                G::predicate => tail = Some(Tail::Predicate(self.predicate(inner)?)),
                _ => {}
            }
        }
        Some((
            MemberPath {
                association: None,
                name: name?,
                keys,
            },
            tail?,
        ))
    }

    fn predicate(&mut self, pair: Pair<'s, G>) -> Option<Predicate> {
        let span = self.span(&pair);
        let mut words: Vec<String> = Vec::new();
        let mut kind = None;
        let mut operands = Vec::new();
        let mut unit_word = None;
        // Whether the operand decoded without a problem (a pattern is only compiled then).
        let mut decoded = true;
        for inner in pair.into_inner() {
            if inner.as_rule() == G::kw_is {
                words.push(inner.as_str().to_ascii_lowercase());
                continue;
            }
            kind = predicate_kind(inner.as_rule());
            let shape = kind.map(|k| def(k).operands);
            let checked = matches!(shape, Some(Operands::Pattern | Operands::Timestamp));
            for part in inner.into_inner() {
                match part.as_rule() {
                    G::literal if checked => {
                        let as_pattern = shape == Some(Operands::Pattern);
                        let (literal, ok) = self.checked_literal(part, as_pattern)?;
                        decoded &= ok;
                        operands.push(literal);
                    }
                    G::literal => operands.push(self.literal(part)?),
                    G::time_unit => unit_word = Some((part.as_str(), self.span(&part))),
                    G::w_and => {}
                    _ => words.push(part.as_str().to_ascii_lowercase()),
                }
            }
        }
        let unit = unit_word.and_then(|(word, span)| unit_of(word).map(|u| Spanned::new(u, span)));
        let predicate = Predicate {
            kind: kind?,
            operands,
            words: words.join(" "),
            unit,
            span,
        };
        self.check_operands(&predicate);
        match def(predicate.kind).operands {
            Operands::Duration => self.check_duration(&predicate, unit_word),
            Operands::Timestamp if decoded => self.check_timestamp(&predicate),
            Operands::Pattern if decoded => self.check_pattern(&predicate),
            _ => {}
        }
        Some(predicate)
    }

    /// The operand of a predicate whose string is checked once decoded (a timestamp, a
    /// pattern), and whether the string decoded without a problem. In a pattern, an unknown
    /// escape gets a help about regex backslashes.
    fn checked_literal(&mut self, pair: Pair<'s, G>, pattern: bool) -> Option<(Literal, bool)> {
        let inner = pair.clone().into_inner().next()?;
        if inner.as_rule() != G::string {
            return Some((self.literal(pair)?, true));
        }
        let span = self.span(&inner);
        let (text, ok) = lexer::decode_literal_into(
            inner.as_str(),
            span.start,
            &mut self.diags,
            if pattern {
                lexer::Literal::Pattern
            } else {
                lexer::Literal::Text
            },
        );
        Some((Literal::Str(Spanned::new(text, span)), ok))
    }

    /// `older than 90 days`: a whole number of 0 or more, then a known unit.
    fn check_duration(&mut self, predicate: &Predicate, unit_word: Option<(&str, Span)>) {
        let words = predicate_words(predicate);
        let [operand] = predicate.operands.as_slice() else {
            return;
        };
        let (value, written) = match operand {
            Literal::Int(i) => (i.value as f64, i.value.to_string()),
            Literal::Float(f) => (f.value, self.text(f.span).to_string()),
            // A string, a list...: reported by `check_operands`.
            _ => return,
        };
        let span = operand.span();
        let unit = predicate.unit.as_ref().map(|u| u.value);
        let example_unit = unit.map_or("days", |u| u.word(2));
        match operand {
            Literal::Float(_) => {
                let smaller = unit.and_then(|u| match u {
                    TimeUnit::Days => Some((24.0, TimeUnit::Hours)),
                    TimeUnit::Hours => Some((60.0, TimeUnit::Minutes)),
                    TimeUnit::Minutes => None,
                });
                let help = match smaller {
                    Some((factor, small))
                        if value >= 0.0
                            && (value * factor).fract() == 0.0
                            && value * factor < 1e15 =>
                    {
                        let n = (value * factor) as i64;
                        format!(
                            "a duration is a whole number of days, hours or minutes: write {words} {n} {}",
                            small.word(n)
                        )
                    }
                    _ => format!(
                        "a duration is a whole number of days, hours or minutes: {words} 90 {example_unit}"
                    ),
                };
                self.diags.push(
                    Diagnostic::error(
                        "invalid-duration",
                        format!(
                            "the duration of \"{words}\" must be a whole number, found {}",
                            quoted(&written)
                        ),
                        span,
                    )
                    .with_label("not a whole number")
                    .with_help(help),
                );
            }
            Literal::Int(i) if i.value < 0 => {
                self.diags.push(
                    Diagnostic::error(
                        "invalid-duration",
                        format!(
                            "the duration of \"{words}\" cannot be negative, found {}",
                            i.value
                        ),
                        span,
                    )
                    .with_label("a negative duration")
                    .with_help(format!(
                        "a duration counts back from now and is 0 or more: {words} {} {}",
                        i.value.unsigned_abs(),
                        unit.map_or("days", |u| u
                            .word(i64::try_from(i.value.unsigned_abs()).unwrap_or(2)))
                    )),
                );
            }
            _ => {}
        }
        match unit_word {
            None => self.diags.push(
                Diagnostic::error(
                    "invalid-time-unit",
                    format!("\"{words}\" needs a time unit after {}", quoted(&written)),
                    span,
                )
                .with_label("no unit after this number")
                .with_help(format!(
                    "write days, hours or minutes after the number: {words} {} days",
                    quoted(&written)
                )),
            ),
            Some((word, word_span)) if unit.is_none() => {
                let lower = word.to_ascii_lowercase();
                let weeks = matches!(lower.as_str(), "week" | "weeks" | "w" | "wk" | "wks");
                let help = match operand {
                    Literal::Int(i) if weeks => match i.value.checked_mul(7) {
                        Some(days) => format!(
                            "the units are days, hours and minutes (or day, hour, minute): write {words} {days} {}",
                            TimeUnit::Days.word(days)
                        ),
                        None => "the units are days, hours and minutes (or day, hour, minute)".to_string(),
                    },
                    _ => format!(
                        "the units are days, hours and minutes (or day, hour, minute): {words} {} days",
                        quoted(&written)
                    ),
                };
                self.diags.push(
                    Diagnostic::error(
                        "invalid-time-unit",
                        format!("unknown time unit \"{}\"", quoted(word)),
                        word_span,
                    )
                    .with_label("not a time unit")
                    .with_help(help),
                );
            }
            Some(_) => {}
        }
    }

    /// `before "2026-01-01"`: an RFC 3339 timestamp with `Z` or an offset, or a date.
    fn check_timestamp(&mut self, predicate: &Predicate) {
        let [Literal::Str(s)] = predicate.operands.as_slice() else {
            return;
        };
        if parse_instant(&s.value).is_some() {
            return;
        }
        let words = predicate_words(predicate);
        let text = s.value.as_str();
        let help = if parse_instant(&format!("{text}Z")).is_some() {
            format!(
                "a timestamp needs \"Z\" (UTC) or an offset such as \"+02:00\": {words} \"{}Z\"",
                quoted(text)
            )
        } else if looks_like_date(text) && text.get(..10).and_then(parse_instant).is_none() {
            format!(
                "\"{}\" is not a day of the calendar; a date is written YYYY-MM-DD with a month from 01 to 12 and a day of that month: {words} \"2026-01-31\"",
                quoted(text.get(..10).unwrap_or(text))
            )
        } else {
            format!(
                "write an RFC 3339 timestamp with \"Z\" or an offset, or a date: {words} \"2026-11-22T07:00:00Z\", {words} \"2026-11-22T09:00:00+02:00\", {words} \"2026-11-22\""
            )
        };
        self.diags.push(
            Diagnostic::error(
                "invalid-timestamp",
                format!("\"{}\" is not a timestamp or a date", quoted(text)),
                s.span,
            )
            .with_label("expected a timestamp or a date")
            .with_help(help),
        );
    }

    /// `matching "^prod-"`: a pattern the regex crate compiles (within the size limit).
    fn check_pattern(&mut self, predicate: &Predicate) {
        let [Literal::Str(s)] = predicate.operands.as_slice() else {
            return;
        };
        if let Err(why) = compile_pattern(&s.value) {
            self.diags.push(
                Diagnostic::error(
                    "invalid-pattern",
                    format!("\"{}\" is not a valid regular expression", quoted(&s.value)),
                    s.span,
                )
                .with_label("invalid pattern")
                .with_help(format!(
                    "{}; patterns use the syntax of Rust's regex crate (no look-around or backreferences)",
                    cloudspec_model::input::escape_control(&why)
                )),
            );
        }
    }

    /// The source text of `span`.
    fn text(&self, span: Span) -> &'s str {
        self.source.get(span.start..span.end).unwrap_or_default()
    }

    fn literal(&mut self, pair: Pair<'s, G>) -> Option<Literal> {
        let inner = pair.into_inner().next()?;
        let span = self.span(&inner);
        Some(match inner.as_rule() {
            G::string => Literal::Str(self.string(inner)),
            G::number => self.number(inner.as_str(), span),
            G::boolean => Literal::Bool(Spanned::new(
                inner.as_str().eq_ignore_ascii_case("true"),
                span,
            )),
            G::list => {
                let items = inner
                    .into_inner()
                    .filter(|p| p.as_rule() == G::literal)
                    .map(|p| self.literal(p))
                    .collect::<Option<Vec<_>>>()?;
                Literal::List(Spanned::new(items, span))
            }
            G::container => {
                let entries = inner
                    .into_inner()
                    .filter(|p| p.as_rule() == G::entry)
                    .map(|p| self.entry(p))
                    .collect::<Option<Vec<_>>>()?;
                Literal::Container(Spanned::new(entries, span))
            }
            _ => return None,
        })
    }

    fn entry(&mut self, pair: Pair<'s, G>) -> Option<(Spanned<String>, Literal)> {
        let mut name = None;
        let mut value = None;
        for inner in pair.into_inner() {
            match inner.as_rule() {
                G::member_name => {
                    name = Some(Spanned::new(inner.as_str().to_string(), self.span(&inner)))
                }
                G::literal => value = self.literal(inner),
                _ => {}
            }
        }
        Some((name?, value?))
    }

    /// An integer (i64) or a decimal (f64); out-of-range values are reported, never a panic.
    fn number(&mut self, text: &str, span: Span) -> Literal {
        let is_decimal = text.contains(['.', 'e', 'E']);
        if is_decimal {
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => return Literal::Float(Spanned::new(v, span)),
                _ => self.diags.push(
                    Diagnostic::error(
                        "number-out-of-range",
                        format!("the number {} is too large", quoted(text)),
                        span,
                    )
                    .with_label("out of range")
                    .with_help("decimals must fit in a 64-bit float (about ±1.8e308)"),
                ),
            }
            return Literal::Float(Spanned::new(0.0, span));
        }
        match text.parse::<i64>() {
            Ok(v) => Literal::Int(Spanned::new(v, span)),
            Err(_) => {
                self.diags.push(
                    Diagnostic::error(
                        "number-out-of-range",
                        format!("the integer {} does not fit in 64 bits", quoted(text)),
                        span,
                    )
                    .with_label("out of range")
                    .with_help("integers range from -9223372036854775808 to 9223372036854775807; write a decimal (e.g. 1e20) for larger values"),
                );
                Literal::Int(Spanned::new(0, span))
            }
        }
    }

    fn string(&mut self, pair: Pair<'s, G>) -> Spanned<String> {
        let span = self.span(&pair);
        let text = lexer::decode_string_into(pair.as_str(), span.start, &mut self.diags);
        Spanned::new(text, span)
    }

    /// Reports operands that do not fit the predicate (see [`Operands`]).
    fn check_operands(&mut self, predicate: &Predicate) {
        let shape = def(predicate.kind).operands;
        for operand in &predicate.operands {
            if let Some(problem) = operand_problem(shape, operand) {
                let words = if predicate.words.is_empty() {
                    "this predicate"
                } else {
                    predicate.words.as_str()
                };
                self.diags.push(
                    Diagnostic::error(
                        "invalid-operand",
                        format!("\"{words}\" needs {}, found {problem}", shape.describe()),
                        operand.span(),
                    )
                    .with_label(format!("expected {}", shape.describe()))
                    .with_help(operand_help(predicate.kind, shape)),
                );
            }
        }
        if let [lo, hi] = predicate.operands.as_slice() {
            if let (Some(a), Some(b)) = (number_value(lo), number_value(hi)) {
                if a > b {
                    self.diags.push(
                        Diagnostic::error(
                            "invalid-operand",
                            "the lower bound of \"between\" is greater than the upper bound",
                            lo.span().join(hi.span()),
                        )
                        .with_label("this range holds no number")
                        .with_help("write the smaller number first: between 10 and 100"),
                    );
                }
            }
        }
    }

    /// Duplicate group names in the file and duplicate rule names in a group.
    fn check_duplicates(&mut self, spec: &Spec) {
        let mut groups: HashMap<&str, Span> = HashMap::new();
        for group in &spec.groups {
            if let Some(first) = groups.get(group.name.value.as_str()) {
                self.duplicate("duplicate-group", "group", &group.name, *first, "group names must be unique in a file (reports key on them); rename one of the groups");
            } else {
                groups.insert(&group.name.value, group.name.span);
            }
            let mut rules: HashMap<&str, Span> = HashMap::new();
            for rule in &group.rules {
                if let Some(first) = rules.get(rule.name.value.as_str()) {
                    self.duplicate("duplicate-rule", "rule", &rule.name, *first, "rule names must be unique in a group (reports key on them); rename one of the rules");
                } else {
                    rules.insert(&rule.name.value, rule.name.span);
                }
            }
        }
    }

    fn duplicate(
        &mut self,
        code: &'static str,
        what: &str,
        name: &Spanned<String>,
        first: Span,
        help: &str,
    ) {
        let line = self.line_of(first.start);
        self.diags.push(
            Diagnostic::error(
                code,
                format!("{what} \"{}\" is defined twice", quoted(&name.value)),
                name.span,
            )
            .with_label(format!("first defined on line {line}"))
            .with_help(help.to_string()),
        );
    }
}

/// The one table from grammar rule to predicate kind.
fn predicate_kind(r: G) -> Option<PredicateKind> {
    Some(match r {
        G::p_null => PredicateKind::Null,
        G::p_not_null => PredicateKind::NotNull,
        G::p_eq => PredicateKind::Eq,
        G::p_ne => PredicateKind::Ne,
        G::p_within => PredicateKind::Within,
        G::p_not_within => PredicateKind::NotWithin,
        G::p_gt => PredicateKind::Gt,
        G::p_gte => PredicateKind::Gte,
        G::p_lt => PredicateKind::Lt,
        G::p_lte => PredicateKind::Lte,
        G::p_between => PredicateKind::Between,
        G::p_empty => PredicateKind::Empty,
        G::p_not_empty => PredicateKind::NotEmpty,
        G::p_starts_with => PredicateKind::StartsWith,
        G::p_not_starts_with => PredicateKind::NotStartsWith,
        G::p_ends_with => PredicateKind::EndsWith,
        G::p_not_ends_with => PredicateKind::NotEndsWith,
        G::p_contains => PredicateKind::Contains,
        G::p_not_contains => PredicateKind::NotContains,
        G::p_ip_gt => PredicateKind::IpGt,
        G::p_ip_gte => PredicateKind::IpGte,
        G::p_ip_lt => PredicateKind::IpLt,
        G::p_ip_lte => PredicateKind::IpLte,
        G::p_in_network => PredicateKind::InNetwork,
        G::p_not_in_network => PredicateKind::NotInNetwork,
        G::p_ipv4 => PredicateKind::Ipv4,
        G::p_ipv6 => PredicateKind::Ipv6,
        G::p_true => PredicateKind::True,
        G::p_false => PredicateKind::False,
        G::p_older_than => PredicateKind::OlderThan,
        G::p_not_older_than => PredicateKind::NotOlderThan,
        G::p_newer_than => PredicateKind::NewerThan,
        G::p_not_newer_than => PredicateKind::NotNewerThan,
        G::p_before => PredicateKind::Before,
        G::p_not_before => PredicateKind::NotBefore,
        G::p_after => PredicateKind::After,
        G::p_not_after => PredicateKind::NotAfter,
        G::p_matching => PredicateKind::Matching,
        G::p_not_matching => PredicateKind::NotMatching,
        _ => return None,
    })
}

fn quantifier_of(word: &str) -> Quantifier {
    match word.to_ascii_lowercase().as_str() {
        "any" | "some" => Quantifier::Any,
        "no" | "none" => Quantifier::No,
        _ => Quantifier::Every,
    }
}

/// The unit a word names (`days`, `Hour`), if any.
fn unit_of(word: &str) -> Option<TimeUnit> {
    match word.to_ascii_lowercase().as_str() {
        "minute" | "minutes" => Some(TimeUnit::Minutes),
        "hour" | "hours" => Some(TimeUnit::Hours),
        "day" | "days" => Some(TimeUnit::Days),
        _ => None,
    }
}

/// The predicate's words for a message (`older than`), without a leading `is`.
fn predicate_words(predicate: &Predicate) -> &str {
    let words = predicate.words.as_str();
    words.strip_prefix("is ").unwrap_or(words)
}

/// `dddd-dd-dd` at the start of `text`: meant as a date.
fn looks_like_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 10
        && b.iter().take(10).enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// What is wrong with `operand` for `shape` (`None`: it fits).
fn operand_problem(shape: Operands, operand: &Literal) -> Option<String> {
    let fits = match (shape, operand) {
        (Operands::None, _) => false,
        (Operands::Value, _) => true,
        (Operands::Number | Operands::TwoNumbers, Literal::Int(_) | Literal::Float(_)) => true,
        (Operands::Text | Operands::Timestamp | Operands::Pattern, Literal::Str(_)) => true,
        (Operands::Duration, Literal::Int(_) | Literal::Float(_)) => true,
        (Operands::List, Literal::List(_)) => true,
        (Operands::IpAddress, Literal::Str(s)) => {
            return s.value.parse::<IpAddr>().is_err().then(|| {
                format!("\"{}\", which is not an IP address (a CIDR block is not an operand of an ordering)", quoted(&s.value))
            });
        }
        (Operands::Network, Literal::Str(s)) => {
            return (!is_ip_or_cidr(&s.value))
                .then(|| format!("\"{}\", which is not a CIDR block", quoted(&s.value)));
        }
        _ => false,
    };
    (!fits).then(|| describe_literal(operand).to_string())
}

/// `10.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`.
fn is_ip_or_cidr(text: &str) -> bool {
    let (addr, prefix) = match text.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (text, None),
    };
    let Ok(ip) = addr.parse::<IpAddr>() else {
        return false;
    };
    let max = if ip.is_ipv4() { 32 } else { 128 };
    prefix.is_none_or(|p| {
        p.parse::<u8>().is_ok_and(|n| n <= max) && p.bytes().all(|b| b.is_ascii_digit())
    })
}

fn number_value(literal: &Literal) -> Option<f64> {
    match literal {
        Literal::Int(i) => Some(i.value as f64),
        Literal::Float(f) => Some(f.value),
        _ => None,
    }
}

fn describe_literal(literal: &Literal) -> &'static str {
    match literal {
        Literal::Str(_) => "a string",
        Literal::Int(_) => "an integer",
        Literal::Float(_) => "a decimal",
        Literal::Bool(_) => "a boolean",
        Literal::List(_) => "a list",
        Literal::Container(_) => "a container",
    }
}

fn operand_help(kind: PredicateKind, shape: Operands) -> String {
    match (kind, shape) {
        (PredicateKind::Gt | PredicateKind::Gte | PredicateKind::Lt | PredicateKind::Lte, _) => {
            "numbers are written without quotes (size greater than 50); to compare IP addresses add \"ip\": > ip \"10.0.0.1\"".into()
        }
        (PredicateKind::Within | PredicateKind::NotWithin, _) => {
            "write the values in brackets: within [\"a\", \"b\"]; to test an IP range write within network \"10.0.0.0/8\"".into()
        }
        (_, Operands::IpAddress) => {
            "write the address in quotes: \"10.0.0.1\" or \"2001:db8::1\"".into()
        }
        (_, Operands::Network) => {
            "write the network in quotes: \"10.0.0.0/8\" or \"fd00::/8\"".into()
        }
        (_, Operands::Text) => "write the text in double quotes: starting with \"prod-\"".into(),
        (_, Operands::TwoNumbers) => "write two numbers: between 1 and 10".into(),
        (_, Operands::Duration) => {
            "write a whole number and a unit, without quotes: older than 90 days; to compare with a fixed time write before \"2026-01-01\"".into()
        }
        (_, Operands::Timestamp) => {
            "write the time in double quotes: before \"2026-01-01\" or before \"2026-01-01T00:00:00Z\"; for a time relative to now write older than 90 days".into()
        }
        (_, Operands::Pattern) => {
            "write the regular expression in double quotes: matching \"^prod-\"".into()
        }
        _ => format!("this predicate takes {}", shape.describe()),
    }
}
