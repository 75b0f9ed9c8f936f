//! The predicate table: every [`PredicateKind`] with its spellings and the operands it takes.
//!
//! The grammar (`grammar/cloudspec.pest`, rules `p_*`) recognises the words; this table is
//! what the parser checks operands against, what the docs list, and what the tests walk to
//! prove every spelling reaches its kind.

use super::ast::PredicateKind;

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
        }
    }
}

/// One predicate: its kind, its spellings (without the optional leading `is`), its operands.
#[derive(Debug, Clone, Copy)]
pub struct PredicateSpec {
    pub kind: PredicateKind,
    /// Every accepted spelling, canonical first, lower-case and single-spaced.
    pub spellings: &'static [&'static str],
    pub operands: Operands,
    /// One line for the docs and for help texts.
    pub meaning: &'static str,
}

macro_rules! ip_forms {
    ($($op:literal),*) => {
        &[$(
            concat!($op, " ip address"), concat!($op, " ip"),
            concat!($op, " id address"), concat!($op, " id"),
        )*]
    };
}

/// Every predicate of the language, in the order the docs list them.
pub const PREDICATES: &[PredicateSpec] = &[
    PredicateSpec {
        kind: PredicateKind::Null,
        spellings: &["null"],
        operands: Operands::None,
        meaning: "the value does not exist",
    },
    PredicateSpec {
        kind: PredicateKind::NotNull,
        spellings: &["not null"],
        operands: Operands::None,
        meaning: "the value exists",
    },
    PredicateSpec {
        kind: PredicateKind::Eq,
        spellings: &["equal to", "=="],
        operands: Operands::Value,
        meaning: "the value equals another value",
    },
    PredicateSpec {
        kind: PredicateKind::Ne,
        spellings: &["not equal to", "!="],
        operands: Operands::Value,
        meaning: "the value does not equal another value",
    },
    PredicateSpec {
        kind: PredicateKind::Within,
        spellings: &["within"],
        operands: Operands::List,
        meaning: "the value is one of a list of values",
    },
    PredicateSpec {
        kind: PredicateKind::NotWithin,
        spellings: &["not within"],
        operands: Operands::List,
        meaning: "the value is none of a list of values",
    },
    PredicateSpec {
        kind: PredicateKind::Gt,
        spellings: &["greater than", ">", "gt"],
        operands: Operands::Number,
        meaning: "the number is greater than another number",
    },
    PredicateSpec {
        kind: PredicateKind::Gte,
        spellings: &["greater than or equal to", ">=", "gte"],
        operands: Operands::Number,
        meaning: "the number is greater than or equal to another number",
    },
    PredicateSpec {
        kind: PredicateKind::Lt,
        spellings: &["less than", "<", "lt"],
        operands: Operands::Number,
        meaning: "the number is less than another number",
    },
    PredicateSpec {
        kind: PredicateKind::Lte,
        spellings: &["less than or equal to", "<=", "lte"],
        operands: Operands::Number,
        meaning: "the number is less than or equal to another number",
    },
    PredicateSpec {
        kind: PredicateKind::Between,
        spellings: &["between"],
        operands: Operands::TwoNumbers,
        meaning: "the number lies between two numbers, both ends included",
    },
    PredicateSpec {
        kind: PredicateKind::Empty,
        spellings: &["empty"],
        operands: Operands::None,
        meaning: "the string is \"\"",
    },
    PredicateSpec {
        kind: PredicateKind::NotEmpty,
        spellings: &["not empty"],
        operands: Operands::None,
        meaning: "the string is not \"\"",
    },
    PredicateSpec {
        kind: PredicateKind::StartsWith,
        spellings: &["starting with"],
        operands: Operands::Text,
        meaning: "the string starts with another string",
    },
    PredicateSpec {
        kind: PredicateKind::NotStartsWith,
        spellings: &["not starting with", "not starting"],
        operands: Operands::Text,
        meaning: "the string does not start with another string",
    },
    PredicateSpec {
        kind: PredicateKind::EndsWith,
        spellings: &["ending with"],
        operands: Operands::Text,
        meaning: "the string ends with another string",
    },
    PredicateSpec {
        kind: PredicateKind::NotEndsWith,
        spellings: &["not ending with"],
        operands: Operands::Text,
        meaning: "the string does not end with another string",
    },
    PredicateSpec {
        kind: PredicateKind::Contains,
        spellings: &["containing"],
        operands: Operands::Text,
        meaning: "the string contains another string",
    },
    PredicateSpec {
        kind: PredicateKind::NotContains,
        spellings: &["not containing"],
        operands: Operands::Text,
        meaning: "the string does not contain another string",
    },
    PredicateSpec {
        kind: PredicateKind::IpGt,
        spellings: ip_forms!["greater than", ">", "gt"],
        operands: Operands::IpAddress,
        meaning: "the IP address is greater than another address",
    },
    PredicateSpec {
        kind: PredicateKind::IpGte,
        spellings: ip_forms!["greater than or equal to", ">=", "gte"],
        operands: Operands::IpAddress,
        meaning: "the IP address is greater than or equal to another address",
    },
    PredicateSpec {
        kind: PredicateKind::IpLt,
        spellings: ip_forms!["less than", "<", "lt"],
        operands: Operands::IpAddress,
        meaning: "the IP address is less than another address",
    },
    PredicateSpec {
        kind: PredicateKind::IpLte,
        spellings: ip_forms!["less than or equal to", "<=", "lte"],
        operands: Operands::IpAddress,
        meaning: "the IP address is less than or equal to another address",
    },
    PredicateSpec {
        kind: PredicateKind::InNetwork,
        spellings: &["within network", "within network cidr"],
        operands: Operands::Network,
        meaning: "the IP address (or CIDR block) lies within a network",
    },
    PredicateSpec {
        kind: PredicateKind::NotInNetwork,
        spellings: &["not within network", "not within network cidr"],
        operands: Operands::Network,
        meaning: "the IP address (or CIDR block) does not lie within a network",
    },
    PredicateSpec {
        kind: PredicateKind::Ipv4,
        spellings: &["ipv4"],
        operands: Operands::None,
        meaning: "the value is an IPv4 address",
    },
    PredicateSpec {
        kind: PredicateKind::Ipv6,
        spellings: &["ipv6"],
        operands: Operands::None,
        meaning: "the value is an IPv6 address",
    },
    PredicateSpec {
        kind: PredicateKind::True,
        spellings: &["true", "enabled"],
        operands: Operands::None,
        meaning: "the value is the boolean true",
    },
    PredicateSpec {
        kind: PredicateKind::False,
        spellings: &["false", "disabled"],
        operands: Operands::None,
        meaning: "the value is the boolean false",
    },
];

/// The table entry of `kind`.
pub fn spec_of(kind: PredicateKind) -> &'static PredicateSpec {
    PREDICATES
        .iter()
        .find(|p| p.kind == kind)
        .unwrap_or(&PREDICATES[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_exactly_one_entry() {
        for p in PREDICATES {
            assert_eq!(PREDICATES.iter().filter(|q| q.kind == p.kind).count(), 1);
            assert_eq!(spec_of(p.kind).kind, p.kind);
        }
        assert_eq!(PREDICATES.len(), 29);
    }
}
