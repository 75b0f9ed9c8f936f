//! The predicate table: one row per [`PredicateKind`] with everything about it: its
//! spellings, the operands it takes, its meaning, the kind of value it applies to, whether it
//! holds on null, the test itself and the text of what it expects.
//!
//! The grammar (`grammar/cloudspec.pest`, rules `p_*`) recognises the words and the parser
//! maps them to a kind; the parser checks operands against [`PredicateDef::operands`], the
//! static checks read [`PredicateDef::applies`], the evaluator calls each row's `test` on
//! every value it tests, and the docs and tests walk the spellings. Row `i` is the kind
//! whose discriminant is `i`, so [`def`] is an index that cannot miss (checked when the
//! crate compiles, below).
//!
//! - `apply`: compiled operands and what each predicate does to a value.
//! - `compare`: value equality with literals, three-valued.
//!
//! Nothing here depends on `eval` or `check`: the syntax layer reads this table too.

mod apply;
mod compare;

pub use apply::{datetime_of, instant_of, parse_instant};
pub(crate) use apply::{Operand, Pattern, Test, Why};
pub(crate) use compare::Lit;

use apply::{
    between, boolean, eq, family, in_network, instant, ip_order, number, operand_text, pattern,
    string, text, within, Order,
};

use crate::model::Value;
use crate::syntax::ast::PredicateKind;

/// The operands a predicate takes after its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    /// No operand: `is null`, `is true`.
    None,
    /// Any value: `== "x"`, `== 5`, `== [1, 2]`, `== {a = 1}`.
    Value,
    /// An integer or decimal: `> 5`.
    Number,
    /// Two numbers joined by `and`: `between 1 and 5`.
    TwoNumbers,
    /// A string: `starting with "prod-"`.
    Text,
    /// A list: `within ["a", "b"]`.
    List,
    /// A string holding an IP address (or CIDR block): `> ip "10.0.0.1"`.
    IpAddress,
    /// A string holding a CIDR block (or a single address): `within network "10.0.0.0/8"`.
    Network,
    /// A non-negative integer and a time unit: `older than 90 days`.
    Duration,
    /// A string holding an RFC 3339 timestamp or a `YYYY-MM-DD` date: `before "2026-01-01"`.
    Timestamp,
    /// A string holding a regular expression (Rust `regex` syntax): `matching "^prod-"`.
    Pattern,
}

impl Operands {
    /// How many operands this shape takes.
    pub fn count(self) -> usize {
        match self {
            Operands::None => 0,
            Operands::TwoNumbers => 2,
            _ => 1,
        }
    }

    /// What one operand must be, in the user's words (`a number`).
    pub fn describe(self) -> &'static str {
        match self {
            Operands::None => "nothing",
            Operands::Value => "a value",
            Operands::Number | Operands::TwoNumbers => "a number",
            Operands::Text => "a string",
            Operands::List => "a list such as [\"a\", \"b\"]",
            Operands::IpAddress => "an IP address string such as \"10.0.0.1\"",
            Operands::Network => "a CIDR block string such as \"10.0.0.0/8\"",
            Operands::Duration => "a whole number of days, hours or minutes such as 90 days",
            Operands::Timestamp => {
                "a timestamp string such as \"2026-11-22T07:00:00Z\" or a date such as \"2026-11-22\""
            }
            Operands::Pattern => "a regular expression string such as \"^prod-\"",
        }
    }
}

/// The kind of value a predicate applies to (static checks and messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    AnyValue,
    Number,
    String,
    IpString,
    Bool,
    /// A string holding an RFC 3339 timestamp or a `YYYY-MM-DD` date.
    Timestamp,
}

impl Applies {
    /// `a number`, for messages.
    pub fn noun(self) -> &'static str {
        match self {
            Applies::AnyValue => "a value",
            Applies::Number => "a number",
            Applies::String => "a string",
            Applies::IpString => "an IP address or CIDR block",
            Applies::Bool => "a boolean",
            Applies::Timestamp => "a timestamp",
        }
    }
}

/// One predicate: everything the parser, the static checks, the evaluator and the docs know
/// about it.
#[derive(Debug, Clone, Copy)]
pub struct PredicateDef {
    pub kind: PredicateKind,
    /// Every accepted spelling (without the optional leading `is`), canonical first,
    /// lower-case and single-spaced.
    pub spellings: &'static [&'static str],
    pub operands: Operands,
    /// One line for the docs and for help texts.
    pub meaning: &'static str,
    /// The kind of value it applies to.
    pub applies: Applies,
    /// Whether it holds on a missing or null value.
    pub on_null: bool,
    /// Tests a present, known value (called once per value on the evaluator's hot path).
    pub(crate) test: fn(&Value, &Operand) -> Test,
    /// What it asks for, in words: `>= 50`.
    pub(crate) expected: fn(&Operand) -> String,
}

macro_rules! ip_forms {
    ($($op:literal),*) => {
        &[$(
            concat!($op, " ip address"), concat!($op, " ip"),
            concat!($op, " id address"), concat!($op, " id"),
        )*]
    };
}

/// Every predicate of the language, in the order of [`PredicateKind`] (which is also the
/// order the docs list them in): row `i` is the kind whose discriminant is `i`.
pub const PREDICATES: &[PredicateDef] = &[
    PredicateDef {
        kind: PredicateKind::Null,
        spellings: &["null"],
        operands: Operands::None,
        meaning: "the value does not exist",
        applies: Applies::AnyValue,
        on_null: true,
        test: |_, _| Test::Fails(Why::Mismatch),
        expected: |_| "null".into(),
    },
    PredicateDef {
        kind: PredicateKind::NotNull,
        spellings: &["not null"],
        operands: Operands::None,
        meaning: "the value exists",
        applies: Applies::AnyValue,
        on_null: false,
        test: |_, _| Test::Holds,
        expected: |_| "not null".into(),
    },
    PredicateDef {
        kind: PredicateKind::Eq,
        spellings: &["equal to", "=="],
        operands: Operands::Value,
        meaning: "the value equals another value",
        applies: Applies::AnyValue,
        on_null: false,
        test: |v, o| eq(v, o).into(),
        expected: |o| format!("== {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Ne,
        spellings: &["not equal to", "!="],
        operands: Operands::Value,
        meaning: "the value does not equal another value",
        applies: Applies::AnyValue,
        on_null: true,
        test: |v, o| eq(v, o).not().into(),
        expected: |o| format!("!= {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Within,
        spellings: &["within"],
        operands: Operands::List,
        meaning: "the value is one of a list of values",
        applies: Applies::AnyValue,
        on_null: false,
        test: |v, o| within(v, o).into(),
        expected: |o| format!("within {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotWithin,
        spellings: &["not within"],
        operands: Operands::List,
        meaning: "the value is none of a list of values",
        applies: Applies::AnyValue,
        on_null: true,
        test: |v, o| within(v, o).not().into(),
        expected: |o| format!("not within {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Gt,
        spellings: &["greater than", ">", "gt"],
        operands: Operands::Number,
        meaning: "the number is greater than another number",
        applies: Applies::Number,
        on_null: false,
        test: |v, o| number(v, o, |a, b| a > b),
        expected: |o| format!("> {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Gte,
        spellings: &["greater than or equal to", ">=", "gte"],
        operands: Operands::Number,
        meaning: "the number is greater than or equal to another number",
        applies: Applies::Number,
        on_null: false,
        test: |v, o| number(v, o, |a, b| a >= b),
        expected: |o| format!(">= {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Lt,
        spellings: &["less than", "<", "lt"],
        operands: Operands::Number,
        meaning: "the number is less than another number",
        applies: Applies::Number,
        on_null: false,
        test: |v, o| number(v, o, |a, b| a < b),
        expected: |o| format!("< {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Lte,
        spellings: &["less than or equal to", "<=", "lte"],
        operands: Operands::Number,
        meaning: "the number is less than or equal to another number",
        applies: Applies::Number,
        on_null: false,
        test: |v, o| number(v, o, |a, b| a <= b),
        expected: |o| format!("<= {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Between,
        spellings: &["between"],
        operands: Operands::TwoNumbers,
        meaning: "the number lies between two numbers, both ends included",
        applies: Applies::Number,
        on_null: false,
        test: between,
        expected: |o| format!("between {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Empty,
        spellings: &["empty"],
        operands: Operands::None,
        meaning: "the string is \"\"",
        applies: Applies::String,
        on_null: false,
        test: |v, _| string(v, |s| s.is_empty()),
        expected: |_| "empty (\"\")".into(),
    },
    PredicateDef {
        kind: PredicateKind::NotEmpty,
        spellings: &["not empty"],
        operands: Operands::None,
        meaning: "the string is not \"\"",
        applies: Applies::String,
        on_null: false,
        test: |v, _| string(v, |s| !s.is_empty()),
        expected: |_| "not empty".into(),
    },
    PredicateDef {
        kind: PredicateKind::StartsWith,
        spellings: &["starting with"],
        operands: Operands::Text,
        meaning: "the string starts with another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| s.starts_with(t)),
        expected: |o| format!("starting with {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotStartsWith,
        spellings: &["not starting with", "not starting"],
        operands: Operands::Text,
        meaning: "the string does not start with another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| !s.starts_with(t)),
        expected: |o| format!("not starting with {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::EndsWith,
        spellings: &["ending with"],
        operands: Operands::Text,
        meaning: "the string ends with another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| s.ends_with(t)),
        expected: |o| format!("ending with {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotEndsWith,
        spellings: &["not ending with"],
        operands: Operands::Text,
        meaning: "the string does not end with another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| !s.ends_with(t)),
        expected: |o| format!("not ending with {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Contains,
        spellings: &["containing"],
        operands: Operands::Text,
        meaning: "the string contains another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| s.contains(t)),
        expected: |o| format!("containing {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotContains,
        spellings: &["not containing"],
        operands: Operands::Text,
        meaning: "the string does not contain another string",
        applies: Applies::String,
        on_null: false,
        test: |v, o| text(v, o, |s, t| !s.contains(t)),
        expected: |o| format!("not containing {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::IpGt,
        spellings: ip_forms!["greater than", ">", "gt"],
        operands: Operands::IpAddress,
        meaning: "the IP address is greater than another address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| ip_order(v, o, Order::Gt),
        expected: |o| format!("> ip {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::IpGte,
        spellings: ip_forms!["greater than or equal to", ">=", "gte"],
        operands: Operands::IpAddress,
        meaning: "the IP address is greater than or equal to another address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| ip_order(v, o, Order::Gte),
        expected: |o| format!(">= ip {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::IpLt,
        spellings: ip_forms!["less than", "<", "lt"],
        operands: Operands::IpAddress,
        meaning: "the IP address is less than another address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| ip_order(v, o, Order::Lt),
        expected: |o| format!("< ip {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::IpLte,
        spellings: ip_forms!["less than or equal to", "<=", "lte"],
        operands: Operands::IpAddress,
        meaning: "the IP address is less than or equal to another address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| ip_order(v, o, Order::Lte),
        expected: |o| format!("<= ip {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::InNetwork,
        spellings: &["within network", "within network cidr"],
        operands: Operands::Network,
        meaning: "the IP address (or CIDR block) lies within a network",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| in_network(v, o, false),
        expected: |o| format!("within network {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotInNetwork,
        spellings: &["not within network", "not within network cidr"],
        operands: Operands::Network,
        meaning: "the IP address (or CIDR block) does not lie within a network",
        applies: Applies::IpString,
        on_null: false,
        test: |v, o| in_network(v, o, true),
        expected: |o| format!("not within network {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Ipv4,
        spellings: &["ipv4"],
        operands: Operands::None,
        meaning: "the value is an IPv4 address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, _| family(v, true),
        expected: |_| "an IPv4 address".into(),
    },
    PredicateDef {
        kind: PredicateKind::Ipv6,
        spellings: &["ipv6"],
        operands: Operands::None,
        meaning: "the value is an IPv6 address",
        applies: Applies::IpString,
        on_null: false,
        test: |v, _| family(v, false),
        expected: |_| "an IPv6 address".into(),
    },
    PredicateDef {
        kind: PredicateKind::True,
        spellings: &["true", "enabled"],
        operands: Operands::None,
        meaning: "the value is the boolean true",
        applies: Applies::Bool,
        on_null: false,
        test: |v, _| boolean(v, true),
        expected: |_| "true".into(),
    },
    PredicateDef {
        kind: PredicateKind::False,
        spellings: &["false", "disabled"],
        operands: Operands::None,
        meaning: "the value is the boolean false",
        applies: Applies::Bool,
        on_null: false,
        test: |v, _| boolean(v, false),
        expected: |_| "false".into(),
    },
    PredicateDef {
        kind: PredicateKind::OlderThan,
        spellings: &["older than"],
        operands: Operands::Duration,
        meaning: "the timestamp is further in the past than a duration before now",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t < at),
        expected: |o| format!("older than {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotOlderThan,
        spellings: &["not older than"],
        operands: Operands::Duration,
        meaning: "the timestamp is no further in the past than a duration before now",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t >= at),
        expected: |o| format!("not older than {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NewerThan,
        spellings: &["newer than"],
        operands: Operands::Duration,
        meaning: "the timestamp is more recent than a duration before now",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t > at),
        expected: |o| format!("newer than {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotNewerThan,
        spellings: &["not newer than"],
        operands: Operands::Duration,
        meaning: "the timestamp is not more recent than a duration before now",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t <= at),
        expected: |o| format!("not newer than {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Before,
        spellings: &["before"],
        operands: Operands::Timestamp,
        meaning: "the timestamp is before a time or date",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t < at),
        expected: |o| format!("before {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotBefore,
        spellings: &["not before"],
        operands: Operands::Timestamp,
        meaning: "the timestamp is not before a time or date",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t >= at),
        expected: |o| format!("not before {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::After,
        spellings: &["after"],
        operands: Operands::Timestamp,
        meaning: "the timestamp is after a time or date",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t > at),
        expected: |o| format!("after {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotAfter,
        spellings: &["not after"],
        operands: Operands::Timestamp,
        meaning: "the timestamp is not after a time or date",
        applies: Applies::Timestamp,
        on_null: false,
        test: |v, o| instant(v, o, |t, at| t <= at),
        expected: |o| format!("not after {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::Matching,
        spellings: &["matching"],
        operands: Operands::Pattern,
        meaning: "the string contains a match of a regular expression",
        applies: Applies::String,
        on_null: false,
        test: |v, o| pattern(v, o, true),
        expected: |o| format!("matching {}", operand_text(o)),
    },
    PredicateDef {
        kind: PredicateKind::NotMatching,
        spellings: &["not matching"],
        operands: Operands::Pattern,
        meaning: "the string contains no match of a regular expression",
        applies: Applies::String,
        on_null: false,
        test: |v, o| pattern(v, o, false),
        expected: |o| format!("not matching {}", operand_text(o)),
    },
];

/// The row of `kind`: an index, with no fallback (there is a row for every kind, in order).
pub fn def(kind: PredicateKind) -> &'static PredicateDef {
    &PREDICATES[kind as usize]
}

/// Every [`PredicateKind`], in declaration order: declared with the enum from one list
/// (`syntax::ast`), so it cannot miss a kind.
const KINDS: &[PredicateKind] = PredicateKind::ALL;

// When the crate compiles: as many rows as kinds, and row `i` is the kind with discriminant
// `i`. So every kind has exactly one row and `def` never indexes out of bounds.
const _: () = {
    assert!(
        PREDICATES.len() == KINDS.len(),
        "PREDICATES needs exactly one row per PredicateKind"
    );
    let mut i = 0;
    while i < PREDICATES.len() {
        assert!(
            PREDICATES[i].kind as usize == i,
            "PREDICATES must be in the order of PredicateKind"
        );
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_exactly_one_entry() {
        // `KINDS` holds every kind (declared with the enum from one list).
        for &kind in KINDS {
            let rows = PREDICATES.iter().filter(|row| row.kind == kind).count();
            assert_eq!(rows, 1, "{kind:?} has {rows} rows");
            assert_eq!(def(kind).kind, kind);
            assert_eq!(PREDICATES[kind as usize].kind, kind);
        }
        assert_eq!(PREDICATES.len(), KINDS.len());
        assert_eq!(PREDICATES.len(), 39);
    }

    #[test]
    fn every_row_has_a_spelling_and_a_meaning() {
        for row in PREDICATES {
            assert!(!row.spellings.is_empty(), "{:?}", row.kind);
            assert!(!row.meaning.is_empty(), "{:?}", row.kind);
            for spelling in row.spellings {
                assert_eq!(*spelling, spelling.to_lowercase(), "{:?}", row.kind);
                assert_eq!(
                    spelling.split_whitespace().collect::<Vec<_>>().join(" "),
                    *spelling,
                    "{:?}",
                    row.kind
                );
            }
        }
    }
}
