//! The predicate table: one entry per predicate with its operand shape, what it holds on
//! null, the test itself and the text of what it expects. Synonyms are the grammar's
//! business (`grammar/cloudspec.pest`); they all arrive here as one [`PredicateKind`].

use std::net::IpAddr;

use ipnetwork::IpNetwork;

use super::compare::{equals, lit_text, Lit};
use super::truth::Truth;
use crate::model::Value;
use crate::syntax::ast::PredicateKind;

/// What a predicate takes after its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Nothing: `is null`, `ipv4`, `enabled`.
    Nothing,
    /// One literal of any kind: `== "gp2"`.
    Value,
    /// A list literal of choices: `within ["a", "b"]`.
    Choices,
    /// One number: `> 5`.
    Number,
    /// Two numbers: `between 1 and 5`.
    Range,
    /// One string: `starting with "prod-"`.
    Text,
    /// One IP address: `> ip "10.0.0.1"`.
    Address,
    /// One CIDR block: `within network "10.0.0.0/16"`.
    Network,
}

/// The kind of value a predicate applies to (static checks and messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Applies {
    AnyValue,
    Number,
    String,
    IpString,
    Bool,
}

impl Applies {
    /// `a number`, for messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Applies::AnyValue => "a value",
            Applies::Number => "a number",
            Applies::String => "a string",
            Applies::IpString => "an IP address or CIDR block",
            Applies::Bool => "a boolean",
        }
    }
}

/// A compiled operand.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Operand {
    Nothing,
    Value(Lit),
    Choices(Vec<Lit>),
    Number(f64),
    Range(f64, f64),
    Text(String),
    Address(IpAddr),
    Network(IpNetwork),
}

/// Why a predicate failed on a present value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    /// The value has the right type and does not satisfy the predicate.
    Mismatch,
    /// The value has the wrong type for this predicate.
    WrongType,
    /// A string that is not an IP address or CIDR block.
    NotAnAddress,
    /// An IPv4 value against an IPv6 operand or the other way round.
    OtherFamily,
}

/// The result of testing one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Test {
    Holds,
    Fails(Why),
    Unknown,
}

impl Test {
    pub(crate) fn truth(self) -> Truth {
        match self {
            Test::Holds => Truth::True,
            Test::Fails(_) => Truth::False,
            Test::Unknown => Truth::Unknown,
        }
    }
}

impl From<Truth> for Test {
    fn from(t: Truth) -> Test {
        match t {
            Truth::True => Test::Holds,
            Truth::False => Test::Fails(Why::Mismatch),
            Truth::Unknown => Test::Unknown,
        }
    }
}

/// One predicate.
#[derive(Debug)]
pub(crate) struct PredicateDef {
    pub kind: PredicateKind,
    pub shape: Shape,
    pub applies: Applies,
    /// Whether it holds on a missing or null value.
    pub on_null: bool,
    /// Tests a present, known value.
    pub test: fn(&Value, &Operand) -> Test,
    /// What it asks for, in words: `>= 50`.
    pub expected: fn(&Operand) -> String,
}

macro_rules! def {
    ($kind:ident, $shape:ident, $applies:ident, $on_null:expr, $test:expr, $expected:expr) => {
        PredicateDef {
            kind: PredicateKind::$kind,
            shape: Shape::$shape,
            applies: Applies::$applies,
            on_null: $on_null,
            test: $test,
            expected: $expected,
        }
    };
}

/// Every predicate, in the order of [`PredicateKind`].
pub(crate) static PREDICATES: &[PredicateDef] = &[
    def!(
        Null,
        Nothing,
        AnyValue,
        true,
        |_, _| Test::Fails(Why::Mismatch),
        |_| "null".into()
    ),
    def!(
        NotNull,
        Nothing,
        AnyValue,
        false,
        |_, _| Test::Holds,
        |_| "not null".into()
    ),
    def!(
        Eq,
        Value,
        AnyValue,
        false,
        |v, o| eq(v, o).into(),
        |o| format!("== {}", operand_text(o))
    ),
    def!(
        Ne,
        Value,
        AnyValue,
        true,
        |v, o| eq(v, o).not().into(),
        |o| format!("!= {}", operand_text(o))
    ),
    def!(
        Within,
        Choices,
        AnyValue,
        false,
        |v, o| within(v, o).into(),
        |o| format!("within {}", operand_text(o))
    ),
    def!(
        NotWithin,
        Choices,
        AnyValue,
        true,
        |v, o| within(v, o).not().into(),
        |o| { format!("not within {}", operand_text(o)) }
    ),
    def!(
        Gt,
        Number,
        Number,
        false,
        |v, o| number(v, o, |a, b| a > b),
        |o| format!("> {}", operand_text(o))
    ),
    def!(
        Gte,
        Number,
        Number,
        false,
        |v, o| number(v, o, |a, b| a >= b),
        |o| format!(">= {}", operand_text(o))
    ),
    def!(
        Lt,
        Number,
        Number,
        false,
        |v, o| number(v, o, |a, b| a < b),
        |o| format!("< {}", operand_text(o))
    ),
    def!(
        Lte,
        Number,
        Number,
        false,
        |v, o| number(v, o, |a, b| a <= b),
        |o| format!("<= {}", operand_text(o))
    ),
    def!(Between, Range, Number, false, between, |o| format!(
        "between {}",
        operand_text(o)
    )),
    def!(
        Empty,
        Nothing,
        String,
        false,
        |v, _| string(v, |s| s.is_empty()),
        |_| "empty (\"\")".into()
    ),
    def!(
        NotEmpty,
        Nothing,
        String,
        false,
        |v, _| string(v, |s| !s.is_empty()),
        |_| "not empty".into()
    ),
    def!(
        StartsWith,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| s.starts_with(t)),
        |o| { format!("starting with {}", operand_text(o)) }
    ),
    def!(
        NotStartsWith,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| !s.starts_with(t)),
        |o| { format!("not starting with {}", operand_text(o)) }
    ),
    def!(
        EndsWith,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| s.ends_with(t)),
        |o| { format!("ending with {}", operand_text(o)) }
    ),
    def!(
        NotEndsWith,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| !s.ends_with(t)),
        |o| { format!("not ending with {}", operand_text(o)) }
    ),
    def!(
        Contains,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| s.contains(t)),
        |o| { format!("containing {}", operand_text(o)) }
    ),
    def!(
        NotContains,
        Text,
        String,
        false,
        |v, o| text(v, o, |s, t| !s.contains(t)),
        |o| { format!("not containing {}", operand_text(o)) }
    ),
    def!(
        IpGt,
        Address,
        IpString,
        false,
        |v, o| ip_order(v, o, Order::Gt),
        |o| format!("> ip {}", operand_text(o))
    ),
    def!(
        IpGte,
        Address,
        IpString,
        false,
        |v, o| ip_order(v, o, Order::Gte),
        |o| { format!(">= ip {}", operand_text(o)) }
    ),
    def!(
        IpLt,
        Address,
        IpString,
        false,
        |v, o| ip_order(v, o, Order::Lt),
        |o| format!("< ip {}", operand_text(o))
    ),
    def!(
        IpLte,
        Address,
        IpString,
        false,
        |v, o| ip_order(v, o, Order::Lte),
        |o| { format!("<= ip {}", operand_text(o)) }
    ),
    def!(
        InNetwork,
        Network,
        IpString,
        false,
        |v, o| in_network(v, o, false),
        |o| { format!("within network {}", operand_text(o)) }
    ),
    def!(
        NotInNetwork,
        Network,
        IpString,
        false,
        |v, o| in_network(v, o, true),
        |o| { format!("not within network {}", operand_text(o)) }
    ),
    def!(
        Ipv4,
        Nothing,
        IpString,
        false,
        |v, _| family(v, true),
        |_| "an IPv4 address".into()
    ),
    def!(
        Ipv6,
        Nothing,
        IpString,
        false,
        |v, _| family(v, false),
        |_| "an IPv6 address".into()
    ),
    def!(True, Nothing, Bool, false, |v, _| boolean(v, true), |_| {
        "true".into()
    }),
    def!(
        False,
        Nothing,
        Bool,
        false,
        |v, _| boolean(v, false),
        |_| "false".into()
    ),
];

/// The table entry of a predicate.
pub(crate) fn def(kind: PredicateKind) -> &'static PredicateDef {
    PREDICATES
        .iter()
        .find(|d| d.kind == kind)
        .unwrap_or(&PREDICATES[0])
}

/// An operand in the language's notation.
pub(crate) fn operand_text(operand: &Operand) -> String {
    match operand {
        Operand::Nothing => String::new(),
        Operand::Value(lit) => lit_text(lit),
        Operand::Choices(lits) => lit_text(&Lit::List(lits.clone())),
        Operand::Number(n) => number_text(*n),
        Operand::Range(a, b) => format!("{} and {}", number_text(*a), number_text(*b)),
        Operand::Text(s) => serde_json::Value::String(s.clone()).to_string(),
        Operand::Address(ip) => ip.to_string(),
        Operand::Network(net) => net.to_string(),
    }
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn eq(value: &Value, operand: &Operand) -> Truth {
    match operand {
        Operand::Value(lit) => equals(value, lit),
        _ => Truth::False,
    }
}

fn within(value: &Value, operand: &Operand) -> Truth {
    let Operand::Choices(choices) = operand else {
        return Truth::False;
    };
    choices
        .iter()
        .fold(Truth::False, |acc, lit| acc.or(equals(value, lit)))
}

fn number(value: &Value, operand: &Operand, cmp: fn(f64, f64) -> bool) -> Test {
    match (value.as_f64(), operand) {
        (Some(v), Operand::Number(n)) => Test::from(Truth::from(cmp(v, *n))),
        (None, _) => Test::Fails(Why::WrongType),
        _ => Test::Fails(Why::Mismatch),
    }
}

fn between(value: &Value, operand: &Operand) -> Test {
    match (value.as_f64(), operand) {
        (Some(v), Operand::Range(lo, hi)) => Test::from(Truth::from(*lo <= v && v <= *hi)),
        (None, _) => Test::Fails(Why::WrongType),
        _ => Test::Fails(Why::Mismatch),
    }
}

fn string(value: &Value, test: fn(&str) -> bool) -> Test {
    match value {
        Value::Str(s) => Test::from(Truth::from(test(s))),
        _ => Test::Fails(Why::WrongType),
    }
}

fn text(value: &Value, operand: &Operand, test: fn(&str, &str) -> bool) -> Test {
    match (value, operand) {
        (Value::Str(s), Operand::Text(t)) => Test::from(Truth::from(test(s, t))),
        (Value::Str(_), _) => Test::Fails(Why::Mismatch),
        _ => Test::Fails(Why::WrongType),
    }
}

fn boolean(value: &Value, want: bool) -> Test {
    match value {
        Value::Bool(b) => Test::from(Truth::from(*b == want)),
        _ => Test::Fails(Why::WrongType),
    }
}

/// A string value as an address block: `"10.0.0.1"` is a /32, `"10.0.0.0/24"` a /24.
pub(crate) fn parse_block(value: &Value) -> Result<IpNetwork, Why> {
    match value {
        Value::Str(s) => s.trim().parse::<IpNetwork>().map_err(|_| Why::NotAnAddress),
        _ => Err(Why::WrongType),
    }
}

#[derive(Clone, Copy)]
enum Order {
    Gt,
    Gte,
    Lt,
    Lte,
}

fn ip_u128(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u128::from(u32::from(v4)),
        IpAddr::V6(v6) => u128::from(v6),
    }
}

fn ip_order(value: &Value, operand: &Operand, order: Order) -> Test {
    let block = match parse_block(value) {
        Ok(b) => b,
        Err(why) => return Test::Fails(why),
    };
    let Operand::Address(ip) = operand else {
        return Test::Fails(Why::Mismatch);
    };
    if block.is_ipv4() != ip.is_ipv4() {
        return Test::Fails(Why::OtherFamily);
    }
    let (first, last, op) = (
        ip_u128(block.network()),
        ip_u128(block.broadcast()),
        ip_u128(*ip),
    );
    let holds = match order {
        Order::Gt => first > op,
        Order::Gte => first >= op,
        Order::Lt => last < op,
        Order::Lte => last <= op,
    };
    Test::from(Truth::from(holds))
}

fn in_network(value: &Value, operand: &Operand, negated: bool) -> Test {
    let block = match parse_block(value) {
        Ok(b) => b,
        Err(why) => return Test::Fails(why),
    };
    let Operand::Network(net) = operand else {
        return Test::Fails(Why::Mismatch);
    };
    if block.is_ipv4() != net.is_ipv4() {
        return if negated {
            Test::Holds
        } else {
            Test::Fails(Why::OtherFamily)
        };
    }
    let inside = net.prefix() <= block.prefix() && net.contains(block.network());
    Test::from(Truth::from(inside != negated))
}

fn family(value: &Value, v4: bool) -> Test {
    match parse_block(value) {
        Ok(block) => Test::from(Truth::from(block.is_ipv4() == v4)),
        Err(why) => Test::Fails(why),
    }
}
