//! Property tests of the syntax module: `parse` never panics on any input, and for any
//! generated tree, `format` prints text that parses back to the same tree and is already
//! in canonical layout.

use cloudspec::syntax::ast::{
    Body, Group, Literal, MemberPath, Predicate, Quantifier, Rule, Severity, Span, Spanned, Spec,
    Statement, Tail, TimeUnit,
};
use cloudspec::syntax::format::{format, quote};
use cloudspec::syntax::parse;
use cloudspec::syntax::pattern::compile_pattern;
use cloudspec::syntax::predicates::{Operands, PREDICATES};
use proptest::prelude::*;

fn sp<T>(value: T) -> Spanned<T> {
    Spanned::new(value, Span::default())
}

/// Words that may start a predicate: a quantified member with such a name would read back
/// as a member named after the quantifier (`any is true`), so quantified names avoid them.
const PREDICATE_STARTS: &[&str] = &[
    "is",
    "not",
    "null",
    "equal",
    "within",
    "greater",
    "less",
    "gt",
    "gte",
    "lt",
    "lte",
    "between",
    "empty",
    "starting",
    "ending",
    "containing",
    "ipv4",
    "ipv6",
    "true",
    "false",
    "enabled",
    "disabled",
    "older",
    "newer",
    "before",
    "after",
    "matching",
];

/// Member names, with keyword-like ones over-represented.
fn member_name() -> impl Strategy<Value = String> {
    let keywords = prop::sample::select(vec![
        "end", "enabled", "size", "type", "null", "empty", "with", "Assert", "true", "is", "not",
        "Rule", "group", "all", "no", "any", "every", "some", "none", "between", "On", "spec",
        "ip", "network", "gt", "at", "least", "most", "exactly", "older", "before", "after",
        "matching", "days", "day", "or", "Or", "orders", "origin",
    ])
    .prop_map(str::to_string);
    prop_oneof![
        2 => "[A-Za-z_][A-Za-z0-9_-]{0,6}".prop_filter("and is not a member", |s| !s.eq_ignore_ascii_case("and")),
        1 => keywords,
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[ -~]{0,12}"]
}

fn number() -> impl Strategy<Value = Literal> {
    prop_oneof![
        any::<i64>().prop_map(|v| Literal::Int(sp(v))),
        prop::num::f64::NORMAL.prop_map(|v| Literal::Float(sp(v))),
        prop::num::f64::ZERO.prop_map(|v| Literal::Float(sp(v))),
        (-1000i32..1000, 0u8..4)
            .prop_map(|(m, e)| Literal::Float(sp(f64::from(m) / 10f64.powi(i32::from(e))))),
    ]
}

fn literal() -> impl Strategy<Value = Literal> {
    let leaf = prop_oneof![
        text().prop_map(|s| Literal::Str(sp(s))),
        number(),
        any::<bool>().prop_map(|b| Literal::Bool(sp(b))),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| Literal::List(sp(v))),
            prop::collection::vec((member_name().prop_map(sp), inner), 0..3)
                .prop_map(|v| Literal::Container(sp(v))),
        ]
    })
}

fn list() -> impl Strategy<Value = Literal> {
    prop::collection::vec(literal(), 0..4).prop_map(|v| Literal::List(sp(v)))
}

fn operands(shape: Operands) -> BoxedStrategy<Vec<Literal>> {
    let ip = prop::sample::select(vec!["10.0.0.1", "::1", "192.168.0.1", "2001:db8::1"]);
    let net = prop::sample::select(vec!["10.0.0.0/8", "0.0.0.0/0", "fd00::/8", "172.16.0.1"]);
    match shape {
        Operands::None => Just(vec![]).boxed(),
        Operands::Value => literal().prop_map(|l| vec![l]).boxed(),
        Operands::Number => number().prop_map(|l| vec![l]).boxed(),
        // `between` wants its smaller bound first (a reversed range is an error).
        Operands::TwoNumbers => (number(), number())
            .prop_map(|(a, b)| {
                let value = |l: &Literal| match l {
                    Literal::Int(i) => i.value as f64,
                    Literal::Float(f) => f.value,
                    _ => 0.0,
                };
                if value(&a) <= value(&b) {
                    vec![a, b]
                } else {
                    vec![b, a]
                }
            })
            .boxed(),
        Operands::Text => text().prop_map(|s| vec![Literal::Str(sp(s))]).boxed(),
        Operands::List => list().prop_map(|l| vec![l]).boxed(),
        Operands::IpAddress => ip
            .prop_map(|s| vec![Literal::Str(sp(s.to_string()))])
            .boxed(),
        Operands::Network => net
            .prop_map(|s| vec![Literal::Str(sp(s.to_string()))])
            .boxed(),
        Operands::Duration => prop_oneof![0i64..1000, Just(1i64), 0..=i64::MAX]
            .prop_map(|n| vec![Literal::Int(sp(n))])
            .boxed(),
        Operands::Timestamp => timestamp().prop_map(|s| vec![Literal::Str(sp(s))]).boxed(),
        Operands::Pattern => pattern().prop_map(|s| vec![Literal::Str(sp(s))]).boxed(),
    }
}

/// The unit of a predicate taking `shape` (`Some` for a duration only).
fn unit(shape: Operands) -> BoxedStrategy<Option<Spanned<TimeUnit>>> {
    match shape {
        Operands::Duration => {
            prop::sample::select(vec![TimeUnit::Minutes, TimeUnit::Hours, TimeUnit::Days])
                .prop_map(|u| Some(sp(u)))
                .boxed()
        }
        _ => Just(None).boxed(),
    }
}

/// Valid timestamp literals: dates, UTC times, offsets, fractions of a second.
fn timestamp() -> impl Strategy<Value = String> {
    let date = (1970u32..2200, 1u32..=12, 1u32..=28);
    prop_oneof![
        date.clone()
            .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        (date.clone(), 0u32..24, 0u32..60, 0u32..60).prop_map(|((y, m, d), h, mi, s)| format!(
            "{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"
        )),
        (
            date,
            0u32..24,
            prop::sample::select(vec![
                "+02:00",
                "-05:30",
                "+00:00",
                ".5Z",
                ".123456789+01:00"
            ])
        )
            .prop_map(|((y, m, d), h, tail)| format!("{y:04}-{m:02}-{d:02}T{h:02}:00:00{tail}")),
    ]
}

/// Valid patterns: hand-picked ones with escapes, quotes and classes, and random text
/// (escaped when it is not a valid pattern as it stands).
fn pattern() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "^prod-",
            "^\\d+$",
            "\"quoted\"",
            "a\\\\b",
            "(?i)^arn:aws:iam::[0-9]{12}:root$",
            "[[:alpha:]]+",
            "\\p{Greek}",
            "é+|😀",
            "\t\n",
            "",
        ])
        .prop_map(str::to_string),
        text().prop_map(|s| if compile_pattern(&s).is_ok() {
            s
        } else {
            regex::escape(&s)
        }),
    ]
}

fn predicate() -> impl Strategy<Value = Predicate> {
    (
        0..PREDICATES.len(),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_flat_map(|(i, spelling, with_is)| {
            let spec = &PREDICATES[i];
            let words = spec.spellings[spelling.index(spec.spellings.len())];
            let words = if with_is {
                format!("is {words}")
            } else {
                words.to_string()
            };
            (operands(spec.operands), unit(spec.operands)).prop_map(move |(operands, unit)| {
                Predicate {
                    kind: spec.kind,
                    operands,
                    words: words.clone(),
                    unit,
                    span: Span::default(),
                }
            })
        })
}

fn quantifier() -> impl Strategy<Value = Option<Spanned<Quantifier>>> {
    prop_oneof![
        3 => Just(None),
        1 => prop::sample::select(vec![Quantifier::Any, Quantifier::Every, Quantifier::No]).prop_map(|q| Some(sp(q))),
        1 => (0u8..3, prop_oneof![0u64..5, any::<u64>()]).prop_map(|(which, n)| Some(sp(match which {
            0 => Quantifier::AtLeast(n),
            1 => Quantifier::AtMost(n),
            _ => Quantifier::Exactly(n),
        }))),
    ]
}

/// A statement; `body` generates nested bodies (one level shallower).
fn statement_with(body: BoxedStrategy<Body>) -> impl Strategy<Value = Statement> {
    let tail =
        prop_oneof![2 => predicate().prop_map(Tail::Predicate), 1 => body.prop_map(Tail::Nested)];
    (
        quantifier(),
        any::<bool>(),
        member_name(),
        prop::collection::vec(text(), 0..2),
        tail,
    )
        .prop_map(|(quantifier, assoc, name, keys, tail)| {
            let association = assoc && matches!(tail, Tail::Nested(_));
            let ambiguous = !association
                && PREDICATE_STARTS
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(&name));
            Statement {
                quantifier: if ambiguous { None } else { quantifier },
                path: MemberPath {
                    association: association.then(Span::default),
                    name: sp(name),
                    keys: if association {
                        vec![]
                    } else {
                        keys.into_iter().map(sp).collect()
                    },
                },
                tail,
                span: Span::default(),
            }
        })
}

/// Statements joined by `and` and `or`: one to three alternatives of one to three statements.
fn alternatives<S: Strategy<Value = Statement>>(statement: S) -> impl Strategy<Value = Body> {
    prop::collection::vec(prop::collection::vec(statement, 1..3), 1..4)
        .prop_map(|alternatives| Body { alternatives })
}

fn statements() -> impl Strategy<Value = Body> {
    let flat = alternatives(
        (quantifier(), member_name(), predicate()).prop_map(|(q, name, p)| {
            let ambiguous = PREDICATE_STARTS
                .iter()
                .any(|w| w.eq_ignore_ascii_case(&name));
            Statement {
                quantifier: if ambiguous { None } else { q },
                path: MemberPath {
                    association: None,
                    name: sp(name),
                    keys: vec![],
                },
                tail: Tail::Predicate(p),
                span: Span::default(),
            }
        }),
    );
    flat.prop_recursive(3, 16, 3, |inner| {
        alternatives(statement_with(inner.boxed()))
    })
}

fn rule(index: usize) -> impl Strategy<Value = Rule> {
    (
        text(),
        prop::option::of(prop::sample::select(Severity::ALL.to_vec())),
        prop::collection::vec(text(), 0..3),
        prop::option::of(text()),
        "[A-Za-z0-9]{1,4}(:[A-Za-z0-9_.-]{1,5}){2,3}",
        prop_oneof![Just(Body::default()), statements()],
        statements(),
    )
        .prop_map(
            move |(name, severity, references, remediation, on, with, assert)| Rule {
                name: sp(format!("{name}{index}")),
                severity: severity.map(sp),
                references: references.into_iter().map(sp).collect(),
                remediation: remediation.map(sp),
                on: sp(on),
                with,
                assert,
                span: Span::default(),
            },
        )
}

fn group(index: usize) -> impl Strategy<Value = Group> {
    (text(), prop::collection::vec(0..1usize, 1..3))
        .prop_flat_map(move |(name, rules)| {
            let rules: Vec<_> = (0..rules.len()).map(rule).collect();
            (Just(name), rules)
        })
        .prop_map(move |(name, rules)| Group {
            name: sp(format!("{name}{index}")),
            rules,
            span: Span::default(),
        })
}

fn spec() -> impl Strategy<Value = Spec> {
    (text(), 1..3usize)
        .prop_flat_map(|(description, n)| {
            (Just(description), (0..n).map(group).collect::<Vec<_>>())
        })
        .prop_map(|(description, groups)| Spec {
            description: sp(description),
            groups,
            span: Span::default(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parse_never_panics_on_strings(source in any::<String>()) {
        let _ = parse(&source);
    }

    #[test]
    fn parse_never_panics_on_token_soup(tokens in prop::collection::vec(prop::sample::select(vec![
        "Spec", "\"s\"", "Group", "\"g\"", "Rule", "\"r\"", "On", "a:b:c", "With", "Assert", "And", "and",
        "x", ">", "(", ")", "[", "]", "{", "}", "=", ",", "==", "is", "not", "null", "between", "1", "-2.5",
        "ip", "within", "network", "\"10.0.0.0/8\"", "all", "no", "#c\n", "\"\\q\"", "\"open", "\n",
        "Severity", "high", "Reference", "Remediation", "99999999999999999999", "true", "greater", "than",
        "at", "least", "most", "exactly", "-1", "older", "newer", "days", "weeks", "before", "after",
        "\"2026-01-01\"", "\"2026-13-01\"", "matching", "\"(\"", "\"^\\d\"", "\"^\\\\d\"",
    ]), 0..60)) {
        let source = tokens.join(" ");
        let parsed = parse(&source);
        if let Some(spec) = parsed.ok() {
            let text = format(spec, &source);
            let again = parse(&text);
            prop_assert_eq!(again.spec.as_ref(), Some(spec));
        }
    }

    #[test]
    fn formatted_trees_parse_back_unchanged(spec in spec()) {
        let text = format(&spec, "");
        let parsed = parse(&text);
        prop_assert!(parsed.diagnostics.is_empty(), "{}\n{:#?}", text, parsed.diagnostics);
        prop_assert_eq!(parsed.spec.as_ref(), Some(&spec), "{}", text);
        let again = format(parsed.spec.as_ref().expect("parsed"), &text);
        prop_assert_eq!(again, text);
    }
}

/// Tokens for edits of a valid text: every structure word, punctuation, broken strings,
/// comments and line breaks of each kind.
const SOUP: &[&str] = &[
    "Spec",
    "\"s\"",
    "Group",
    "\"g\"",
    "Rule",
    "\"r\"",
    "On",
    "a:b:c",
    "With",
    "Assert",
    "And",
    "and",
    "x",
    ">",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "==",
    "is",
    "not",
    "null",
    "between",
    "1",
    "-2.5",
    "ip",
    "within",
    "network",
    "all",
    "no",
    "#c\n",
    "\"\\q\"",
    "\"open",
    "\n",
    "\r",
    "\r\n",
    "Severity",
    "high",
    "Reference",
    "Remediation",
    "true",
    "greater",
    "than",
    "1e999",
    "99999999999999999999",
    "group",
    "rule",
    "\"g0\"",
    "\"r0\"",
    "at",
    "least",
    "most",
    "exactly",
    "2",
    "1.5",
    "older",
    "newer",
    "than",
    "day",
    "hours",
    "weeks",
    "before",
    "after",
    "\"2026-01-01\"",
    "\"yesterday\"",
    "matching",
    "\"(\"",
    "\"^\\d+$\"",
    "\"^\\\\d+$\"",
];

/// `text` split at spaces, with each edit applied: delete, replace or insert a token.
fn edited(text: &str, edits: &[(prop::sample::Index, u8, prop::sample::Index)]) -> String {
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    for (at, kind, with) in edits {
        if tokens.is_empty() {
            break;
        }
        let i = at.index(tokens.len());
        let new = SOUP[with.index(SOUP.len())].to_string();
        match kind % 3 {
            0 => {
                tokens.remove(i);
            }
            1 => tokens[i] = new,
            _ => tokens.insert(i, new),
        }
    }
    tokens.join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// The item-at-a-time parse gives exactly the whole-file parse's tree (spans included)
    /// and diagnostics, on valid files and on files with a few random edits.
    #[test]
    fn item_parse_is_the_whole_file_parse(
        spec in spec(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), any::<prop::sample::Index>()), 0..4),
    ) {
        let text = edited(&format(&spec, ""), &edits);
        let items = parse(&text);
        let whole = cloudspec::syntax::parse_whole_file(&text);
        prop_assert_eq!(format!("{:?}", items.spec), format!("{:?}", whole.spec), "{}", text);
        prop_assert_eq!(items.diagnostics, whole.diagnostics, "{}", text);
    }

    #[test]
    fn item_parse_is_the_whole_file_parse_on_token_soup(tokens in prop::collection::vec(prop::sample::select(SOUP.to_vec()), 0..60)) {
        let text = format!("Spec \"s\" Group \"g\" {}", tokens.join(" "));
        let items = parse(&text);
        let whole = cloudspec::syntax::parse_whole_file(&text);
        prop_assert_eq!(format!("{:?}", items.spec), format!("{:?}", whole.spec), "{}", text);
        prop_assert_eq!(items.diagnostics, whole.diagnostics, "{}", text);
    }

    /// The line index used for many look-ups in one text counts lines as
    /// `cloudspec_model::input::line_col` does (`\n`, `\r\n`, lone `\r`).
    #[test]
    fn line_index_agrees_with_line_col(chars in prop::collection::vec(prop::sample::select(vec!['a', '\n', '\r', 'é', ' ', '😀']), 0..40)) {
        let text: String = chars.into_iter().collect();
        let index = cloudspec::diagnostic::LineIndex::new(&text);
        for offset in 0..=text.len() + 1 {
            prop_assert_eq!(
                index.line_col(offset),
                cloudspec_model::input::line_col(&text, offset),
                "{:?} at {}", text, offset
            );
        }
    }
}

/// A statement `x matching <literal>` in a minimal file.
fn pattern_file(literal: &str) -> String {
    format!("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x matching {literal} And y not matching {literal}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text as a pattern, quoted properly or pasted raw between quotes: compiling,
    /// parsing and formatting never panic, and a pattern that parses formats back to itself.
    #[test]
    fn patterns_from_random_input_never_panic(
        raw in prop_oneof![any::<String>(), "[()\\[\\]{}*+?|^$.\\\\dws0-9a,\"-]{0,16}"],
    ) {
        let compiled = compile_pattern(&raw);
        if let Err(why) = &compiled {
            prop_assert!(!why.contains('\n') && !why.is_empty(), "{:?}: {:?}", raw, why);
        }
        for source in [pattern_file(&quote(&raw)), pattern_file(&format!("\"{raw}\""))] {
            let parsed = parse(&source);
            if let Some(spec) = parsed.ok() {
                let text = format(spec, &source);
                let again = parse(&text);
                prop_assert!(again.diagnostics.is_empty(), "{}\n{:#?}", text, again.diagnostics);
                prop_assert_eq!(again.spec.as_ref(), Some(spec));
                prop_assert_eq!(format(again.spec.as_ref().expect("parsed"), &text), text);
            }
        }
        // A quoted pattern is rejected exactly when the regex crate rejects it.
        let quoted = parse(&pattern_file(&quote(&raw)));
        prop_assert_eq!(quoted.has_errors(), compiled.is_err(), "{:?}", raw);
        if compiled.is_err() {
            prop_assert!(quoted.diagnostics.iter().all(|d| d.code == "invalid-pattern"));
        }
    }

    /// Counts, durations and timestamps from random text never panic the parser.
    #[test]
    fn counting_and_time_forms_never_panic(
        count in "-?[0-9]{0,25}(\\.[0-9]{0,3})?(e[0-9]{0,4})?",
        unit in "[a-zA-Z_]{0,8}",
        stamp in any::<String>(),
    ) {
        for source in [
            format!("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert at least {count} x ( y == 1 )"),
            format!("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert exactly {count} > x ( y == 1 )"),
            format!("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x older than {count} {unit}"),
            format!("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x before {}", quote(&stamp)),
        ] {
            let parsed = parse(&source);
            if let Some(spec) = parsed.ok() {
                let text = format(spec, &source);
                let again = parse(&text);
                prop_assert_eq!(again.spec.as_ref(), Some(spec));
            }
        }
    }
}

/// Patterns that backtracking engines take exponential time on run in linear time, and a
/// pattern whose compiled form is huge is an error, not an allocation.
#[test]
fn pathological_patterns_are_linear_or_rejected() {
    let input = "a".repeat(200_000);
    let start = std::time::Instant::now();
    for p in ["(a+)+$", "(a|aa)+b", "(a*)*b", "^(a|a?)+$", "(.*a){20}"] {
        let re = compile_pattern(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let _ = re.is_match(&input);
    }
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    for p in [
        "(((a{100}){100}){100})",
        "\\w{1000}{1000}",
        "[\\p{L}]{100000}",
    ] {
        let Err(e) = compile_pattern(p) else {
            panic!("{p} compiled")
        };
        assert!(e.contains("size limit"), "{p}: {e}");
    }
}
