//! The typed syntax tree of a `.cloudspec` file. Every node carries the byte [`Span`] of the
//! text it came from. Nothing here knows pest: the parser converts at its boundary.
//!
//! Equality (`PartialEq`) ignores spans, so "format then parse gives the same AST" is a
//! plain `==` (see [`Span`]).

use std::fmt;

/// A byte range in the source text. Spans never take part in equality or hashing.
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl PartialEq for Span {
    fn eq(&self, _other: &Span) -> bool {
        true
    }
}

/// Text from the source with its span: a decoded string literal, a member name, a reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// A whole file: `Spec "..."` and its groups.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub description: Spanned<String>,
    pub groups: Vec<Group>,
    pub span: Span,
}

/// `Group "..."` and its rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: Spanned<String>,
    pub rules: Vec<Rule>,
    pub span: Span,
}

/// `Rule "..."`: metadata, `On`, an optional `With` and a mandatory `Assert`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub name: Spanned<String>,
    pub severity: Option<Spanned<Severity>>,
    pub references: Vec<Spanned<String>>,
    pub remediation: Option<Spanned<String>>,
    /// The resource type: `aws:ec2:instance`.
    pub on: Spanned<String>,
    /// `With` statements (joined by `And` and `Or`); empty when there is no `With`.
    pub with: Body,
    /// `Assert` statements (joined by `And` and `Or`); never empty in a parsed rule.
    pub assert: Body,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 4] = [
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    /// Case-insensitive.
    pub fn parse(s: &str) -> Option<Severity> {
        Severity::ALL
            .into_iter()
            .find(|sev| sev.as_str().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Statements joined by `and` and `or`: a `With`, an `Assert`, or a `( ... )` body. `and`
/// binds tighter than `or` and nothing groups, so a body is a disjunction of conjunctions:
/// `A and B or C` is `[[A, B], [C]]`. A body without `or` has one alternative; only a rule
/// without `With` has an empty one (no alternatives), which holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Body {
    /// The alternatives (joined by `or`), each its statements (joined by `and`). No
    /// alternative is empty in a parsed file.
    pub alternatives: Vec<Vec<Statement>>,
}

impl Body {
    /// Statements joined by `and` only: one alternative (none when `statements` is empty).
    pub fn all(statements: Vec<Statement>) -> Body {
        if statements.is_empty() {
            Body::default()
        } else {
            Body {
                alternatives: vec![statements],
            }
        }
    }

    /// Every statement of every alternative, in source order.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> + '_ {
        self.alternatives.iter().flatten()
    }

    /// No statement at all (a rule without `With`).
    pub fn is_empty(&self) -> bool {
        self.alternatives.iter().all(Vec::is_empty)
    }

    /// Whether the statements are joined by `or` somewhere at this level (not counting
    /// bodies nested inside them).
    pub fn has_or(&self) -> bool {
        self.alternatives.len() > 1
    }
}

impl Rule {
    /// The rule's top-level statements: `With`'s, then `Assert`'s, every alternative.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> + '_ {
        self.with.statements().chain(self.assert.statements())
    }
}

/// One statement: `[quantifier] [>] name["key"]... (predicate | ( statements ))`.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub quantifier: Option<Spanned<Quantifier>>,
    pub path: MemberPath,
    pub tail: Tail,
    pub span: Span,
}

/// The member a statement reads.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberPath {
    /// `> name`: follow an association. The span is the `>`'s.
    pub association: Option<Span>,
    pub name: Spanned<String>,
    /// `["key"]` lookups, in order.
    pub keys: Vec<Spanned<String>>,
}

/// What a statement does with its member.
#[derive(Debug, Clone, PartialEq)]
pub enum Tail {
    /// `name predicate`.
    Predicate(Predicate),
    /// `name ( statement and statement or ... )`: correlated statements on each element.
    Nested(Body),
}

/// Quantifier words: `any`/`some`, `every`/`all`, `no`/`none`, and the counting forms
/// `at least N`, `at most N`, `exactly N` (language.md, "Counting, time and pattern
/// predicates"). The statement's `quantifier` span covers all the words and the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Any,
    Every,
    No,
    AtLeast(u64),
    AtMost(u64),
    Exactly(u64),
}

/// The unit of a time predicate's duration: `older than 90 days`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    Minutes,
    Hours,
    Days,
}

impl TimeUnit {
    /// Seconds in one unit.
    pub fn seconds(self) -> i64 {
        match self {
            TimeUnit::Minutes => 60,
            TimeUnit::Hours => 3600,
            TimeUnit::Days => 86_400,
        }
    }

    /// The unit's word for `n` of it, as the formatter prints it: `1 day`, `90 days`.
    pub fn word(self, n: i64) -> &'static str {
        match (self, n == 1) {
            (TimeUnit::Minutes, true) => "minute",
            (TimeUnit::Minutes, false) => "minutes",
            (TimeUnit::Hours, true) => "hour",
            (TimeUnit::Hours, false) => "hours",
            (TimeUnit::Days, true) => "day",
            (TimeUnit::Days, false) => "days",
        }
    }
}

/// A predicate as written: which one, its operands, and the words used.
#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    pub kind: PredicateKind,
    pub operands: Vec<Literal>,
    /// The predicate's words as written, lower-cased and single-spaced, without the operands:
    /// `"is greater than or equal to"`, `"gte"`, `">="`, `"is not within network cidr"`.
    /// The formatter prints these, so it never swaps a user's synonym for another.
    pub words: String,
    /// The unit after a duration operand (`older than 90 days`); `None` for every other
    /// predicate.
    pub unit: Option<Spanned<TimeUnit>>,
    pub span: Span,
}

/// Declares [`PredicateKind`] and [`PredicateKind::ALL`] from one list, so the list of
/// every kind cannot miss one.
macro_rules! predicate_kinds {
    ($($(#[$doc:meta])* $kind:ident,)*) => {
        /// Every predicate of the language. Synonyms map to one kind; the predicate table
        /// (`crate::predicates`) holds one row per kind with its spellings, operands,
        /// meaning, test and messages.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum PredicateKind {
            $($(#[$doc])* $kind,)*
        }

        impl PredicateKind {
            /// Every kind, in declaration order (the order of the predicate table's rows).
            pub const ALL: &'static [PredicateKind] = &[$(PredicateKind::$kind,)*];
        }
    };
}

predicate_kinds! {
    Null,
    NotNull,
    Eq,
    Ne,
    Within,
    NotWithin,
    Gt,
    Gte,
    Lt,
    Lte,
    Between,
    Empty,
    NotEmpty,
    StartsWith,
    NotStartsWith,
    EndsWith,
    NotEndsWith,
    Contains,
    NotContains,
    IpGt,
    IpGte,
    IpLt,
    IpLte,
    InNetwork,
    NotInNetwork,
    Ipv4,
    Ipv6,
    /// `true` and `enabled`.
    True,
    /// `false` and `disabled`.
    False,
    /// `older than N days|hours|minutes`: a timestamp strictly before now minus N.
    OlderThan,
    NotOlderThan,
    /// `newer than N days|hours|minutes`: a timestamp strictly after now minus N.
    NewerThan,
    NotNewerThan,
    /// `before "T"`: a timestamp strictly before T (a timestamp or a date).
    Before,
    NotBefore,
    /// `after "T"`: a timestamp strictly after T.
    After,
    NotAfter,
    /// `matching "REGEX"`: a string in which the pattern finds a match.
    Matching,
    NotMatching,
}

/// A literal operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Str(Spanned<String>),
    Int(Spanned<i64>),
    Float(Spanned<f64>),
    Bool(Spanned<bool>),
    /// `[v, v, ...]`.
    List(Spanned<Vec<Literal>>),
    /// `{name = value, ...}`.
    Container(Spanned<Vec<(Spanned<String>, Literal)>>),
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Str(s) => s.span,
            Literal::Int(s) => s.span,
            Literal::Float(s) => s.span,
            Literal::Bool(s) => s.span,
            Literal::List(s) => s.span,
            Literal::Container(s) => s.span,
        }
    }
}
