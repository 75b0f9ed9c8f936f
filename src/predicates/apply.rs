//! Applying a predicate to a value: the compiled operand, the result of a test, and the
//! functions the rows of [`PREDICATES`](super::PREDICATES) call to test a value and to say
//! what they expect. Only model values and the helpers beside this module: no `eval`.

use std::net::IpAddr;

use ipnetwork::IpNetwork;

use super::compare::{equals, lit_text, Lit};
use crate::model::Value;
use crate::truth::Truth;

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
    /// A point in time (nanoseconds since the Unix epoch) and how the rule wrote it:
    /// `older than 90 days` compiles to now minus 90 days with the text `90 days`;
    /// `before "2026-01-01"` to that midnight UTC with the text `"2026-01-01"`.
    Instant {
        at: i128,
        text: String,
    },
    /// A regular expression, compiled once per rule.
    Pattern(Pattern),
}

/// A compiled regular expression; two are equal when their sources are.
#[derive(Debug, Clone)]
pub(crate) struct Pattern(pub regex::Regex);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

/// A timestamp as the time predicates read it: an RFC 3339 timestamp with `Z` or an offset,
/// or a `YYYY-MM-DD` date taken as midnight UTC; nanoseconds since the Unix epoch.
pub fn parse_instant(text: &str) -> Option<i128> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(instant_of(&t));
    }
    if text.len() == 10 {
        let date = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
        return Some(instant_of(&date.and_hms_opt(0, 0, 0)?.and_utc()));
    }
    None
}

/// A time as time predicates compare them: nanoseconds since the Unix epoch.
pub fn instant_of<Tz: chrono::TimeZone>(t: &chrono::DateTime<Tz>) -> i128 {
    i128::from(t.timestamp()) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos())
}

/// The UTC time of an instant (nanoseconds since the Unix epoch), when chrono can hold it.
pub fn datetime_of(at: i128) -> Option<chrono::DateTime<chrono::Utc>> {
    let secs = i64::try_from(at.div_euclid(1_000_000_000)).ok()?;
    let nanos = u32::try_from(at.rem_euclid(1_000_000_000)).ok()?;
    chrono::DateTime::from_timestamp(secs, nanos)
}

/// Compares a timestamp value with an instant operand: a value that is not a string, or a
/// string that is not a timestamp, fails naming the type found.
pub(super) fn instant(value: &Value, operand: &Operand, cmp: fn(i128, i128) -> bool) -> Test {
    match (value, operand) {
        (Value::Str(s), Operand::Instant { at, .. }) => match parse_instant(s) {
            Some(t) => Test::from(Truth::from(cmp(t, *at))),
            None => Test::Fails(Why::WrongType),
        },
        (Value::Str(_), _) => Test::Fails(Why::Mismatch),
        _ => Test::Fails(Why::WrongType),
    }
}

/// Searches a string value for a pattern (`matching`), or for its absence.
pub(super) fn pattern(value: &Value, operand: &Operand, found: bool) -> Test {
    match (value, operand) {
        (Value::Str(s), Operand::Pattern(p)) => Test::from(Truth::from(p.0.is_match(s) == found)),
        (Value::Str(_), _) => Test::Fails(Why::Mismatch),
        _ => Test::Fails(Why::WrongType),
    }
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

/// An operand in the language's notation.
pub(super) fn operand_text(operand: &Operand) -> String {
    match operand {
        Operand::Nothing => String::new(),
        Operand::Value(lit) => lit_text(lit),
        Operand::Choices(lits) => lit_text(&Lit::List(lits.clone())),
        Operand::Number(n) => number_text(*n),
        Operand::Range(a, b) => format!("{} and {}", number_text(*a), number_text(*b)),
        Operand::Text(s) => serde_json::Value::String(s.clone()).to_string(),
        Operand::Address(ip) => ip.to_string(),
        Operand::Network(net) => net.to_string(),
        Operand::Instant { text, .. } => text.clone(),
        Operand::Pattern(p) => serde_json::Value::String(p.0.as_str().to_string()).to_string(),
    }
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(super) fn eq(value: &Value, operand: &Operand) -> Truth {
    match operand {
        Operand::Value(lit) => equals(value, lit),
        _ => Truth::False,
    }
}

pub(super) fn within(value: &Value, operand: &Operand) -> Truth {
    let Operand::Choices(choices) = operand else {
        return Truth::False;
    };
    choices
        .iter()
        .fold(Truth::False, |acc, lit| acc.or(equals(value, lit)))
}

pub(super) fn number(value: &Value, operand: &Operand, cmp: fn(f64, f64) -> bool) -> Test {
    match (value.as_f64(), operand) {
        (Some(v), Operand::Number(n)) => Test::from(Truth::from(cmp(v, *n))),
        (None, _) => Test::Fails(Why::WrongType),
        _ => Test::Fails(Why::Mismatch),
    }
}

pub(super) fn between(value: &Value, operand: &Operand) -> Test {
    match (value.as_f64(), operand) {
        (Some(v), Operand::Range(lo, hi)) => Test::from(Truth::from(*lo <= v && v <= *hi)),
        (None, _) => Test::Fails(Why::WrongType),
        _ => Test::Fails(Why::Mismatch),
    }
}

pub(super) fn string(value: &Value, test: fn(&str) -> bool) -> Test {
    match value {
        Value::Str(s) => Test::from(Truth::from(test(s))),
        _ => Test::Fails(Why::WrongType),
    }
}

pub(super) fn text(value: &Value, operand: &Operand, test: fn(&str, &str) -> bool) -> Test {
    match (value, operand) {
        (Value::Str(s), Operand::Text(t)) => Test::from(Truth::from(test(s, t))),
        (Value::Str(_), _) => Test::Fails(Why::Mismatch),
        _ => Test::Fails(Why::WrongType),
    }
}

pub(super) fn boolean(value: &Value, want: bool) -> Test {
    match value {
        Value::Bool(b) => Test::from(Truth::from(*b == want)),
        _ => Test::Fails(Why::WrongType),
    }
}

/// A string value as an address block: `"10.0.0.1"` is a /32, `"10.0.0.0/24"` a /24.
fn parse_block(value: &Value) -> Result<IpNetwork, Why> {
    match value {
        Value::Str(s) => s.trim().parse::<IpNetwork>().map_err(|_| Why::NotAnAddress),
        _ => Err(Why::WrongType),
    }
}

#[derive(Clone, Copy)]
pub(super) enum Order {
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

pub(super) fn ip_order(value: &Value, operand: &Operand, order: Order) -> Test {
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

pub(super) fn in_network(value: &Value, operand: &Operand, negated: bool) -> Test {
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

pub(super) fn family(value: &Value, v4: bool) -> Test {
    match parse_block(value) {
        Ok(block) => Test::from(Truth::from(block.is_ipv4() == v4)),
        Err(why) => Test::Fails(why),
    }
}
