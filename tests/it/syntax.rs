//! The language (docs/language.md): valid fixtures parse, every lexical rule of the contract
//! holds, every predicate spelling reaches its kind, and every invalid fixture's rendered
//! diagnostics are pinned (tests/snapshots/syntax__*.snap).

use std::path::Path;

use cloudspec::diagnostic::line_col;
use cloudspec::render_diagnostics::render;
use cloudspec::syntax::ast::{
    Body, Literal, PredicateKind, Quantifier, Severity, Spec, Statement, Tail,
};
use cloudspec::syntax::parse;
use cloudspec::syntax::predicates::{Operands, PREDICATES};

/// Parses `source`, failing the test on any diagnostic.
fn parse_ok(source: &str) -> Spec {
    let parsed = parse(source);
    assert!(
        parsed.diagnostics.is_empty(),
        "{source}\n{:#?}",
        parsed.diagnostics
    );
    parsed.spec.expect("a spec")
}

/// A minimal file whose only rule asserts `statements`.
fn wrap(statements: &str) -> String {
    format!(
        "Spec \"s\"\nGroup \"g\"\n  Rule \"r\"\n    On aws:ec2:instance\n    Assert {statements}\n"
    )
}

/// The statements of a body without `or`.
fn only(body: &Body) -> &[Statement] {
    assert_eq!(body.alternatives.len(), 1, "one alternative: {body:?}");
    &body.alternatives[0]
}

/// The Assert statements of the first rule (which has no `or`).
fn asserts(spec: &Spec) -> &[Statement] {
    only(&spec.groups[0].rules[0].assert)
}

/// The single Assert statement of `statements`.
fn statement(statements: &str) -> Statement {
    let spec = parse_ok(&wrap(statements));
    let list = asserts(&spec);
    assert_eq!(list.len(), 1, "{statements}");
    list[0].clone()
}

fn predicate_of(statement: &Statement) -> &cloudspec::syntax::ast::Predicate {
    match &statement.tail {
        Tail::Predicate(p) => p,
        Tail::Nested(_) => panic!("expected a predicate, got a nested body"),
    }
}

/// `(code, line, col)` of every diagnostic.
fn errors(source: &str) -> Vec<(&'static str, usize, usize)> {
    parse(source)
        .diagnostics
        .iter()
        .map(|d| {
            let (line, col) = line_col(source, d.span.start);
            (d.code, line, col)
        })
        .collect()
}

fn messages(source: &str) -> Vec<String> {
    parse(source)
        .diagnostics
        .into_iter()
        .map(|d| d.message)
        .collect()
}

fn files_in(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cloudspec"))
        .collect();
    files.sort();
    files
}

// ----- fixtures -------------------------------------------------------------------------

#[test]
fn valid_fixtures_parse_without_diagnostics() {
    let files = files_in("tests/fixtures/syntax/valid");
    assert!(files.len() >= 3);
    for file in files {
        let source = std::fs::read_to_string(&file).expect("read");
        let parsed = parse(&source);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}: {:#?}",
            file.display(),
            parsed.diagnostics
        );
        assert!(parsed.ok().is_some());
    }
}

#[test]
fn seed_example_builds_the_expected_tree() {
    let source = std::fs::read_to_string("tests/fixtures/syntax/valid/seed-example.cloudspec")
        .expect("read");
    let spec = parse_ok(&source);
    assert_eq!(spec.description.value, "Production environment");
    assert_eq!(spec.groups.len(), 2);
    let ec2 = &spec.groups[1].rules[0];
    assert_eq!(ec2.on.value, "aws:ec2:instance");
    assert_eq!(only(&ec2.with)[0].path.keys[0].value, "environment");
    let Tail::Nested(devices) = &only(&ec2.assert)[0].tail else {
        panic!("nested")
    };
    let devices = only(devices);
    assert!(devices[0].path.association.is_some());
    let Tail::Nested(volume) = &devices[0].tail else {
        panic!("nested")
    };
    let volume = only(volume);
    assert_eq!(volume.len(), 2);
    assert_eq!(predicate_of(&volume[1]).kind, PredicateKind::Gte);
}

#[test]
fn invalid_fixtures_render_pinned_diagnostics() {
    let files = files_in("tests/fixtures/syntax/invalid");
    assert!(files.len() >= 20, "only {} invalid fixtures", files.len());
    for file in files {
        let source = std::fs::read_to_string(&file).expect("read");
        let parsed = parse(&source);
        assert!(parsed.has_errors(), "{} should be invalid", file.display());
        let name = file.to_string_lossy().replace('\\', "/");
        let rendered = render(&name, &source, &parsed.diagnostics, false);
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("unnamed")
            .to_string();
        insta::assert_snapshot!(stem, rendered);
    }
}

// ----- lexical rules --------------------------------------------------------------------

#[test]
fn keywords_and_predicate_words_are_case_insensitive() {
    let spec = parse_ok(
        "SPEC \"s\" group \"g\" rULE \"r\" SEVERITY Critical on a:b:c WITH x EqUaL tO 1 aNd y IS NOT NULL ASSERT z == TRUE",
    );
    let rule = &spec.groups[0].rules[0];
    assert_eq!(
        rule.severity.as_ref().map(|s| s.value),
        Some(Severity::Critical)
    );
    assert_eq!(predicate_of(&only(&rule.with)[0]).words, "equal to");
    assert_eq!(predicate_of(&only(&rule.with)[1]).words, "is not null");
    assert!(
        matches!(predicate_of(&only(&rule.assert)[0]).operands[0], Literal::Bool(ref b) if b.value)
    );
}

#[test]
fn member_names_and_references_are_case_sensitive() {
    let s = statement("Size == 1");
    assert_eq!(s.path.name.value, "Size");
    let spec = parse_ok("Spec \"s\" Group \"g\" Rule \"r\" On K8s:S3.Aws:Bucket Assert x == 1");
    assert_eq!(spec.groups[0].rules[0].on.value, "K8s:S3.Aws:Bucket");
}

#[test]
fn any_whitespace_separates_words_inside_predicates() {
    let s = statement("size greater   than\n\t or   equal\n  to 5");
    let p = predicate_of(&s);
    assert_eq!(p.kind, PredicateKind::Gte);
    assert_eq!(p.words, "greater than or equal to");
    let s = statement("size is\n between\n 1 \n and\n 5");
    assert_eq!(predicate_of(&s).words, "is between");
}

#[test]
fn comments_run_to_the_end_of_the_line() {
    let spec = parse_ok(
        "# header\nSpec \"s\" # trailing\nGroup \"g\"\n# own line\n  Rule \"r\" On a:b:c Assert x greater # inside a predicate\n than 5",
    );
    assert_eq!(predicate_of(&asserts(&spec)[0]).kind, PredicateKind::Gt);
}

#[test]
fn hash_inside_a_string_is_not_a_comment() {
    let s = statement("name == \"a # b\"");
    assert!(matches!(&predicate_of(&s).operands[0], Literal::Str(v) if v.value == "a # b"));
}

#[test]
fn each_escape_is_decoded() {
    for (written, decoded) in [
        (r#"\""#, "\""),
        (r"\\", "\\"),
        (r"\n", "\n"),
        (r"\r", "\r"),
        (r"\t", "\t"),
        (r"\u00e9", "é"),
        (r"\u0041", "A"),
        (r"\ud83d\ude00", "😀"),
    ] {
        let s = statement(&format!("name == \"<{written}>\""));
        let Literal::Str(v) = &predicate_of(&s).operands[0] else {
            panic!("string")
        };
        assert_eq!(v.value, format!("<{decoded}>"), "{written}");
    }
}

#[test]
fn unknown_escape_is_an_error_at_the_escape() {
    let source = wrap("name == \"a\\qb\"");
    assert_eq!(errors(&source), vec![("invalid-escape", 5, 22)]);
    assert_eq!(
        errors(&wrap("name == \"\\u12\"")),
        vec![("invalid-escape", 5, 21)]
    );
}

#[test]
fn raw_line_break_in_a_string_is_an_error() {
    let source = "Spec \"first line\nsecond line\"\nGroup \"g\" Rule \"r\" On a:b:c Assert x == 1";
    let found = errors(source);
    assert_eq!(found.first(), Some(&("unterminated-string", 1, 6)));
}

#[test]
fn unterminated_string_is_an_error() {
    let source = wrap("name == \"abc");
    assert_eq!(errors(&source), vec![("unterminated-string", 5, 20)]);
    let found = errors("Spec \"abc");
    assert_eq!(found.first(), Some(&("unterminated-string", 1, 6)));
}

#[test]
fn numbers_integers_decimals_exponents_negatives() {
    let cases: [(&str, Literal); 7] = [
        ("0", int(0)),
        ("-12", int(-12)),
        ("9223372036854775807", int(i64::MAX)),
        ("-9223372036854775808", int(i64::MIN)),
        ("3.1415", float(31415.0 / 10000.0)),
        ("1e3", float(1000.0)),
        ("-0.5", float(-0.5)),
    ];
    for (text, expected) in cases {
        let s = statement(&format!("x == {text}"));
        assert_eq!(predicate_of(&s).operands[0], expected, "{text}");
    }
    let s = statement("x == 2.5E-3");
    assert_eq!(predicate_of(&s).operands[0], float(0.0025));
}

fn int(v: i64) -> Literal {
    Literal::Int(cloudspec::syntax::ast::Spanned::new(v, Default::default()))
}

fn float(v: f64) -> Literal {
    Literal::Float(cloudspec::syntax::ast::Spanned::new(v, Default::default()))
}

#[test]
fn integer_overflow_is_an_error_not_a_crash() {
    assert_eq!(
        errors(&wrap("x == 9223372036854775808")),
        vec![("number-out-of-range", 5, 17)]
    );
    assert_eq!(
        errors(&wrap("x == -99999999999999999999")),
        vec![("number-out-of-range", 5, 17)]
    );
    assert_eq!(
        errors(&wrap("x == 1e999")),
        vec![("number-out-of-range", 5, 17)]
    );
}

#[test]
fn trailing_garbage_is_an_error() {
    let source = format!("{}garbage here\n", wrap("x == 1"));
    assert_eq!(errors(&source), vec![("syntax", 6, 1)]);
    assert_eq!(
        errors(&format!("{})", wrap("x == 1"))),
        vec![("syntax", 6, 1)]
    );
}

#[test]
fn keyword_words_are_member_names() {
    for name in [
        "end", "enabled", "type", "size", "null", "empty", "with", "assert", "true", "is", "not",
        "rule", "On",
    ] {
        let s = statement(&format!("{name} == 1"));
        assert_eq!(s.path.name.value, name);
        assert!(s.quantifier.is_none());
    }
    let s = statement("null is null");
    assert_eq!(predicate_of(&s).kind, PredicateKind::Null);
}

#[test]
fn and_is_not_a_member_name() {
    let source = wrap("and == 1");
    let parsed = parse(&source);
    assert_eq!(errors(&source), vec![("syntax", 5, 12)]);
    assert!(parsed.diagnostics[0]
        .help
        .as_deref()
        .is_some_and(|h| h.contains("cannot be a member name")));
    assert!(parse(&wrap("AND == 1")).has_errors());
    assert_eq!(statement("andrew == 1").path.name.value, "andrew");
}

#[test]
fn quantifier_word_followed_by_a_predicate_is_a_member() {
    for (text, name, kind) in [
        ("all is true", "all", PredicateKind::True),
        ("no > 5", "no", PredicateKind::Gt),
        ("any == 1", "any", PredicateKind::Eq),
        ("every is null", "every", PredicateKind::Null),
        ("none not null", "none", PredicateKind::NotNull),
    ] {
        let s = statement(text);
        assert!(s.quantifier.is_none(), "{text}");
        assert_eq!(s.path.name.value, name);
        assert_eq!(predicate_of(&s).kind, kind);
    }
    let s = statement("all ( x == 1 )");
    assert!(s.quantifier.is_none());
    assert_eq!(s.path.name.value, "all");
    let s = statement("some[\"k\"] == 1");
    assert_eq!(s.path.name.value, "some");
}

#[test]
fn quantifier_words_quantify_the_member_after_them() {
    for (text, q, name) in [
        ("any size > 5", Quantifier::Any, "size"),
        ("some size > 5", Quantifier::Any, "size"),
        ("every size > 5", Quantifier::Every, "size"),
        ("ALL size > 5", Quantifier::Every, "size"),
        ("no > subnet ( x is null )", Quantifier::No, "subnet"),
        (
            "none ip_ranges ( cidr_ip == \"0.0.0.0/0\" )",
            Quantifier::No,
            "ip_ranges",
        ),
        ("all true == 5", Quantifier::Every, "true"),
        ("no > true ( x is null )", Quantifier::No, "true"),
    ] {
        let s = statement(text);
        assert_eq!(s.quantifier.as_ref().map(|q| q.value), Some(q), "{text}");
        assert_eq!(s.path.name.value, name, "{text}");
    }
}

#[test]
fn greater_than_sign_after_a_member_is_a_predicate() {
    let s = statement("size > 5");
    assert!(s.path.association.is_none());
    assert_eq!(predicate_of(&s).kind, PredicateKind::Gt);
    let s = statement("> volume ( size > 5 )");
    assert!(s.path.association.is_some());
    let Tail::Nested(body) = &s.tail else {
        panic!("nested")
    };
    assert_eq!(predicate_of(&only(body)[0]).kind, PredicateKind::Gt);
}

#[test]
fn association_with_a_predicate_directly_is_a_clear_error() {
    let source = wrap("> subnet is null");
    assert_eq!(errors(&source), vec![("syntax", 5, 21)]);
    assert_eq!(
        messages(&source),
        vec!["expected \"(\" after the association name"]
    );
}

#[test]
fn resource_references_have_three_or_more_parts() {
    for reference in [
        "aws:ec2:instance",
        "k8s:s3.aws.upbound.io:Bucket",
        "a:b:c:d",
        "x_1:y-2:z.3",
    ] {
        let spec = parse_ok(&format!(
            "Spec \"s\" Group \"g\" Rule \"r\" On {reference} Assert x == 1"
        ));
        assert_eq!(spec.groups[0].rules[0].on.value, reference);
    }
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On aws:ec2 Assert x == 1";
    assert_eq!(errors(source), vec![("syntax", 1, 32)]);
}

#[test]
fn keywords_are_word_bounded() {
    assert_eq!(statement("isolated == 1").path.name.value, "isolated");
    assert_eq!(predicate_of(&statement("x gte 1")).kind, PredicateKind::Gte);
    assert_eq!(predicate_of(&statement("x gt 1")).kind, PredicateKind::Gt);
    assert!(parse(&wrap("x nothing")).has_errors());
    assert!(parse(&wrap("x isnull")).has_errors());
}

#[test]
fn keys_chain() {
    let s = statement("tags[\"a\"][\"b:c\"] == 1");
    let keys: Vec<_> = s.path.keys.iter().map(|k| k.value.as_str()).collect();
    assert_eq!(keys, ["a", "b:c"]);
}

// ----- predicates -----------------------------------------------------------------------

/// Every spelling of the seed and language.md, with the kind it must reach.
const SPELLINGS: &[(&str, PredicateKind)] = &[
    ("is null", PredicateKind::Null),
    ("null", PredicateKind::Null),
    ("is not null", PredicateKind::NotNull),
    ("not null", PredicateKind::NotNull),
    ("is == 1", PredicateKind::Eq),
    ("== 1", PredicateKind::Eq),
    ("is equal to 1", PredicateKind::Eq),
    ("equal to \"x\"", PredicateKind::Eq),
    ("is != 1", PredicateKind::Ne),
    ("!= 1", PredicateKind::Ne),
    ("is not equal to 1", PredicateKind::Ne),
    ("is within [1, 2]", PredicateKind::Within),
    ("within [\"a\"]", PredicateKind::Within),
    ("is not within [1, 2]", PredicateKind::NotWithin),
    ("is > 1", PredicateKind::Gt),
    ("is greater than 1", PredicateKind::Gt),
    ("is gt 1", PredicateKind::Gt),
    ("is >= 1", PredicateKind::Gte),
    ("is greater than or equal to 1", PredicateKind::Gte),
    ("is gte 1.5", PredicateKind::Gte),
    ("is < 1", PredicateKind::Lt),
    ("is less than 1", PredicateKind::Lt),
    ("is lt 1", PredicateKind::Lt),
    ("is <= 1", PredicateKind::Lte),
    ("is less than or equal to 1", PredicateKind::Lte),
    ("is lte 1", PredicateKind::Lte),
    ("is between 1 and 2", PredicateKind::Between),
    ("between -1.5 AND 2", PredicateKind::Between),
    ("is empty", PredicateKind::Empty),
    ("is not empty", PredicateKind::NotEmpty),
    ("is starting with \"a\"", PredicateKind::StartsWith),
    ("is not starting \"a\"", PredicateKind::NotStartsWith),
    ("is not starting with \"a\"", PredicateKind::NotStartsWith),
    ("is ending with \"a\"", PredicateKind::EndsWith),
    ("is not ending with \"a\"", PredicateKind::NotEndsWith),
    ("is containing \"a\"", PredicateKind::Contains),
    ("is not containing \"a\"", PredicateKind::NotContains),
    ("is > ip address \"10.0.0.1\"", PredicateKind::IpGt),
    ("> ip \"10.0.0.1\"", PredicateKind::IpGt),
    (
        "is greater than ip address \"10.0.0.1\"",
        PredicateKind::IpGt,
    ),
    ("is gt ip address \"10.0.0.1\"", PredicateKind::IpGt),
    ("is >= ip address \"10.0.0.1\"", PredicateKind::IpGte),
    (
        "is greater than or equal to ip address \"10.0.0.1\"",
        PredicateKind::IpGte,
    ),
    ("is gte ip \"::1\"", PredicateKind::IpGte),
    ("is < id address \"10.0.0.1\"", PredicateKind::IpLt),
    ("is < ip \"10.0.0.1\"", PredicateKind::IpLt),
    ("is less than ip address \"10.0.0.1\"", PredicateKind::IpLt),
    ("is lt ip address \"10.0.0.1\"", PredicateKind::IpLt),
    ("is <= ip address \"10.0.0.1\"", PredicateKind::IpLte),
    (
        "is less than or equal to ip address \"10.0.0.24\"",
        PredicateKind::IpLte,
    ),
    ("is lte ip address \"10.0.0.1\"", PredicateKind::IpLte),
    (
        "is within network cidr \"10.0.0.0/8\"",
        PredicateKind::InNetwork,
    ),
    ("within network \"10.0.0.0/8\"", PredicateKind::InNetwork),
    (
        "is not within network cidr \"10.0.0.0/8\"",
        PredicateKind::NotInNetwork,
    ),
    (
        "not within network \"fd00::/8\"",
        PredicateKind::NotInNetwork,
    ),
    ("is ipv4", PredicateKind::Ipv4),
    ("is ipv6", PredicateKind::Ipv6),
    ("is true", PredicateKind::True),
    ("is false", PredicateKind::False),
    ("is enabled", PredicateKind::True),
    ("is disabled", PredicateKind::False),
    ("is older than 90 days", PredicateKind::OlderThan),
    ("older than 1 day", PredicateKind::OlderThan),
    ("is not older than 12 hours", PredicateKind::NotOlderThan),
    ("newer than 30 minutes", PredicateKind::NewerThan),
    ("is not newer than 1 minute", PredicateKind::NotNewerThan),
    ("is before \"2026-01-01\"", PredicateKind::Before),
    (
        "not before \"2026-01-01T00:00:00Z\"",
        PredicateKind::NotBefore,
    ),
    (
        "is after \"2026-01-01T09:30:00+02:00\"",
        PredicateKind::After,
    ),
    ("is not after \"2026-01-01\"", PredicateKind::NotAfter),
    ("is matching \"^prod-\"", PredicateKind::Matching),
    ("not matching \"a|b\"", PredicateKind::NotMatching),
];

#[test]
fn each_predicate_spelling_maps_to_its_kind() {
    for (text, kind) in SPELLINGS {
        for variant in [
            text.to_string(),
            text.to_uppercase().replace("\"A\"", "\"a\""),
        ] {
            let p = predicate_of(&statement(&format!("x {variant}"))).clone();
            assert_eq!(p.kind, *kind, "{variant}");
        }
    }
    let covered: std::collections::HashSet<_> = SPELLINGS.iter().map(|(_, k)| *k).collect();
    assert_eq!(
        covered.len(),
        PREDICATES.len(),
        "a kind has no spelling in SPELLINGS"
    );
}

/// A valid operand text for `shape`.
fn operand_for(shape: Operands) -> &'static str {
    match shape {
        Operands::None => "",
        Operands::Value => " \"v\"",
        Operands::Number => " 5",
        Operands::TwoNumbers => " 1 and 2",
        Operands::Text => " \"t\"",
        Operands::List => " [1, 2]",
        Operands::IpAddress => " \"10.0.0.1\"",
        Operands::Network => " \"10.0.0.0/8\"",
        Operands::Duration => " 90 days",
        Operands::Timestamp => " \"2026-01-01\"",
        Operands::Pattern => " \"^a\\\\d+$\"",
    }
}

#[test]
fn every_table_spelling_parses_with_and_without_is_and_keeps_its_words() {
    for spec in PREDICATES {
        for spelling in spec.spellings {
            for prefix in ["", "is ", "IS "] {
                let text = format!(
                    "x {prefix}{}{}",
                    spelling.to_uppercase(),
                    operand_for(spec.operands)
                );
                let p = predicate_of(&statement(&text)).clone();
                assert_eq!(p.kind, spec.kind, "{text}");
                assert_eq!(
                    p.words,
                    format!("{}{spelling}", prefix.to_lowercase()),
                    "{text}"
                );
                assert_eq!(p.operands.len(), spec.operands.count(), "{text}");
            }
        }
    }
}

#[test]
fn operands_of_the_wrong_type_are_errors() {
    for text in [
        "x > \"5\"",
        "x between 1 and \"2\"",
        "x within \"a\"",
        "x starting with 5",
        "x > ip 5",
        "x > ip \"not an ip\"",
        "x within network \"10.0.0.0/33\"",
        "x containing [\"a\"]",
    ] {
        let codes: Vec<_> = errors(&wrap(text)).into_iter().map(|(c, _, _)| c).collect();
        assert_eq!(codes, vec!["invalid-operand"], "{text}");
    }
}

// ----- metadata and duplicates ------------------------------------------------------------

#[test]
fn metadata_lines_in_any_order() {
    let spec = parse_ok(
        "Spec \"s\" Group \"g\" Rule \"r\"\n Reference \"A\"\n Remediation \"fix\"\n Reference \"B\"\n Severity medium\n On a:b:c Assert x == 1",
    );
    let rule = &spec.groups[0].rules[0];
    assert_eq!(
        rule.severity.as_ref().map(|s| s.value),
        Some(Severity::Medium)
    );
    assert_eq!(
        rule.remediation.as_ref().map(|s| s.value.as_str()),
        Some("fix")
    );
    let refs: Vec<_> = rule.references.iter().map(|r| r.value.as_str()).collect();
    assert_eq!(refs, ["A", "B"]);
}

#[test]
fn duplicate_or_unknown_metadata_is_an_error() {
    let base =
        |meta: &str| format!("Spec \"s\" Group \"g\" Rule \"r\"\n{meta}\nOn a:b:c Assert x == 1");
    assert_eq!(
        errors(&base("Severity low\nSeverity high")),
        vec![("duplicate-metadata", 3, 1)]
    );
    assert_eq!(
        errors(&base("Remediation \"a\"\nRemediation \"b\"")),
        vec![("duplicate-metadata", 3, 13)]
    );
    assert_eq!(
        errors(&base("Severity urgent")),
        vec![("unknown-severity", 2, 10)]
    );
    let help = parse(&base("Severity urgent")).diagnostics[0]
        .help
        .clone()
        .unwrap_or_default();
    for word in ["low", "medium", "high", "critical"] {
        assert!(help.contains(word), "{help}");
    }
}

#[test]
fn duplicate_groups_and_rules_point_at_the_second() {
    let source = "Spec \"s\"\nGroup \"g\" Rule \"r\" On a:b:c Assert x == 1\nGroup \"g\" Rule \"r\" On a:b:c Assert x == 1\n  Rule \"r\" On a:b:c Assert x == 1\n";
    assert_eq!(
        errors(source),
        vec![("duplicate-group", 3, 7), ("duplicate-rule", 4, 8)]
    );
    let parsed = parse(source);
    assert!(parsed
        .diagnostics
        .iter()
        .all(|d| d.label.as_deref().is_some_and(|l| l.contains("line"))));
    assert!(parsed.spec.is_some() && parsed.ok().is_none());
    let same_rule_other_group = "Spec \"s\" Group \"a\" Rule \"r\" On a:b:c Assert x == 1 Group \"b\" Rule \"r\" On a:b:c Assert x == 1";
    assert!(errors(same_rule_other_group).is_empty());
}

// ----- robustness -----------------------------------------------------------------------

#[test]
fn deep_nesting_is_rejected_without_recursing() {
    for open in ["(", "[", "{"] {
        let source = wrap(&format!("x {}", open.repeat(10_000)));
        let found = errors(&source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "nesting-too-deep");
    }
    let ok = format!("{}x == 1{}", "a ( ".repeat(60), " )".repeat(60));
    parse_ok(&wrap(&ok));
}

#[test]
fn syntax_errors_use_the_languages_words() {
    let cases = [
        ("", "expected \"Spec\" at the start of the file"),
        ("Spec", "expected a quoted string"),
        ("Spec \"s\"", "expected \"Group\""),
        ("Spec \"s\" Group \"g\"", "expected \"Rule\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" Assert", "expected a rule metadata line (\"Severity\", \"Remediation\" or \"Reference\") or \"On\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c", "expected \"With\" or \"Assert\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c With x == 1", "expected \"And\" or \"Assert\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert", "expected a member name or \">\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x bigger 5", "expected a predicate such as \"equal to\" or \"is not null\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x == 1 y", "expected \"And\" or the end of the rule"),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x ( y == 1", "expected \"and\" or \")\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x greater 1", "expected \"than\""),
        ("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x between 1 2", "expected \"and\" between the two numbers"),
    ];
    for (source, message) in cases {
        assert_eq!(messages(source), vec![message.to_string()], "{source}");
    }
}

#[test]
fn never_panics_on_tricky_inputs() {
    for source in [
        "\"",
        "\\",
        "Spec \"\\",
        "Spec \"\\u",
        "Spec \"\\ud800",
        "\u{feff}Spec",
        "Spec \"é\" Group \"ü\" Rule",
        "#",
        "Spec \"s\"\r\n",
    ] {
        let _ = parse(source);
    }
    assert!(Path::new("tests/fixtures/syntax/invalid").is_dir());
}

// ----- hostile input (issue 16) -----------------------------------------------------------

/// The file of `wrap(statements)` rendered without colour.
fn rendered(source: &str) -> String {
    render("a.cloudspec", source, &parse(source).diagnostics, false)
}

#[test]
fn a_long_line_is_shown_as_a_bounded_window_with_the_carets_in_place() {
    // Regression: the whole line was printed for every diagnostic on it (a 159 KB one-line
    // spec aborted `validate`).
    let source = format!(
        "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert {} == 1 bad",
        "x".repeat(5000)
    );
    let text = rendered(&source);
    assert_eq!(
        text,
        format!(
            "error[syntax]: expected \"And\" or the end of the rule\n --> a.cloudspec:1:5051\n  |\n1 | …{} == 1 bad\n  | {}^^^ found \"bad\"\n  |\n  = help: join statements with \"And\"; a rule ends where the next \"Rule\" or \"Group\" starts\n",
            "x".repeat(111),
            " ".repeat(118),
        )
    );
}

#[test]
fn a_secret_on_a_long_line_is_not_printed_whole() {
    let secret = format!("AWS_SECRET_ACCESS_KEY={}", "S".repeat(300));
    let source = format!("{secret} Spec");
    let text = rendered(&source);
    assert!(!text.contains(&secret), "{text}");
    let shown = text.lines().nth(3).unwrap_or_default();
    assert_eq!(shown, format!("1 | {}…", &secret[..120]));
}

#[test]
fn control_characters_in_the_shown_line_and_labels_are_escaped() {
    // Regression: terminal escape codes in a spec reached the terminal.
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x \u{1b}[31m == 1";
    let text = rendered(source);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert_eq!(
        text.lines().nth(3),
        Some("1 | Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x \\u{1b}[31m == 1")
    );
    // The caret is under the escape's first character, and as wide as the escape.
    assert_eq!(
        text.lines().nth(4),
        Some(format!("  | {}^^^^^^ found \"\\u{{1b}}\"", " ".repeat(46)).as_str())
    );
}

#[test]
fn long_tokens_are_cut_in_messages_and_labels() {
    let long = "y".repeat(10_000);
    let found = messages(&format!(
        "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x == 1 {long}"
    ));
    assert_eq!(
        found,
        vec!["expected \"And\" or the end of the rule".to_string()]
    );
    let label = parse(&format!(
        "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x == 1 {long}"
    ))
    .diagnostics[0]
        .label
        .clone();
    assert_eq!(label, Some(format!("found \"{}…\"", "y".repeat(60))));
    let digits = "9".repeat(100_000);
    assert_eq!(
        messages(&wrap(&format!("x < {digits}"))),
        vec![format!(
            "the integer {}… does not fit in 64 bits",
            "9".repeat(60)
        )]
    );
    assert_eq!(
        messages(&wrap(&format!("x < 1{digits}.5e3"))),
        vec![format!("the number 1{}… is too large", "9".repeat(59))]
    );
    assert_eq!(
        messages(&wrap("x < 1e10000001")),
        vec!["the number 1e10000001 is too large".to_string()]
    );
    let name = format!("\u{1b}]0;{}", "n".repeat(100));
    let source = format!(
        "Spec \"s\" Group \"g\" Rule \"{name}\" On a:b:c Assert x == 1 Rule \"{name}\" On a:b:c Assert x == 1"
    );
    assert_eq!(
        messages(&source),
        vec![format!(
            "rule \"\\u{{1b}}]0;{}…\" is defined twice",
            "n".repeat(56)
        )]
    );
    assert_eq!(
        messages(&wrap("x == \"\\\u{7}\"")),
        vec!["unknown escape \"\\\\u{7}\" in a string".to_string()]
    );
}

#[test]
fn a_file_with_a_million_errors_reports_the_first_hundred_and_a_count() {
    // Regression: every bad escape was a diagnostic held in memory and printed.
    let source = wrap(&format!("x within [{}]", vec!["\"\\q\""; 500].join(", ")));
    let parsed = parse(&source);
    assert_eq!(parsed.diagnostics.len(), 101);
    assert!(parsed.diagnostics[..100]
        .iter()
        .all(|d| d.code == "invalid-escape"));
    let last = &parsed.diagnostics[100];
    assert_eq!(last.code, "too-many-errors");
    assert_eq!(last.message, "400 more problems in this file not shown");
    assert_eq!(line_col(&source, last.span.start), (5, 623));
    let text = render("a.cloudspec", &source, &parsed.diagnostics, false);
    assert_eq!(text.matches("error[").count(), 101);
    assert!(
        text.ends_with(
            "  = help: at most 100 problems are shown per file; fix these and run again\n"
        ),
        "{text}"
    );
    // Any longer list is cut when rendered.
    let many = vec![parsed.diagnostics[0].clone(); 250];
    let text = render("a.cloudspec", &source, &many, false);
    assert_eq!(text.matches("error[").count(), 100);
    assert!(
        text.ends_with(
            "\n... and 150 more diagnostics in a.cloudspec not shown (at most 100 per file)\n"
        ),
        "{text}"
    );
}

#[test]
fn lone_carriage_returns_end_lines() {
    // Regression: with CR-only line endings every diagnostic was on line 1, and a comment
    // ran to the end of the file.
    let source =
        "# a comment\rSpec \"s\"\rGroup \"g\"\r  Rule \"r\"\r    On a:b:c\r    Assert x bigger 5\r";
    assert_eq!(errors(source), vec![("syntax", 6, 14)]);
    let text = rendered(source);
    assert!(text.contains(" --> a.cloudspec:6:14\n  |\n6 |     Assert x bigger 5\n  |              ^^^^^^ found \"bigger\"\n"), "{text}");
    let ok = parse_ok(
        "# c\rSpec \"s\" # d\rGroup \"g\"\r\n  Rule \"r\"\r    On a:b:c\r    Assert x == 1 # e\r",
    );
    assert_eq!(ok.groups[0].rules[0].name.value, "r");
    assert_eq!(line_col("a\rb\r\nc\nd", 7), (4, 1));
    // A string still may not span lines.
    assert_eq!(
        errors(&wrap("x == \"a\rb\"")).first().map(|e| e.0),
        Some("unterminated-string")
    );
}

#[test]
fn the_formatter_keeps_comments_of_cr_files_and_writes_lf() {
    let source =
        "Spec \"s\" # d\rGroup \"g\"\r  # own\r  Rule \"r\"\r    On a:b:c\r    Assert x == 1 # e\r";
    let spec = parse_ok(source);
    assert_eq!(
        cloudspec::syntax::format::format(&spec, source),
        "Spec \"s\" # d\n\nGroup \"g\"\n  # own\n  Rule \"r\"\n    On a:b:c\n    Assert x == 1 # e\n"
    );
}

#[test]
fn many_rules_parse_render_and_format_in_linear_time() {
    // 20k rules, each with a comment and a duplicate name: quadratic work (a line count from
    // the file start per diagnostic, a scan of every comment per line) took minutes here.
    let mut source = String::from("Spec \"s\"\nGroup \"g\"\n");
    for i in 0..20_000 {
        source.push_str(&format!(
            "  Rule \"r{}\" # c\n    On a:b:c\n    Assert x ( y == 1 )\n",
            i / 2
        ));
    }
    let parsed = parse(&source);
    assert_eq!(parsed.diagnostics.len(), 101);
    assert_eq!(
        parsed.diagnostics[0].label.as_deref(),
        Some("first defined on line 3")
    );
    let text = render("a", &source, &parsed.diagnostics, false);
    assert_eq!(text.matches("error[duplicate-rule]").count(), 100);
    let spec = parsed.spec.expect("a tree");
    let formatted = cloudspec::syntax::format::format(&spec, &source);
    assert_eq!(formatted.matches("# c").count(), 20_000);
}

#[test]
fn huge_inputs_do_not_panic() {
    for source in [
        format!("Spec \"{}\"", "\\".repeat(100_001)),
        format!(
            "Spec \"s\" Group \"g\" Rule \"r\" On {}",
            "a:".repeat(100_000)
        ),
        wrap(&format!("{} == 1", "m".repeat(1_000_000))),
        wrap(&format!("x within [{}1]", "1, ".repeat(100_000))),
        wrap(&format!("x {}", "and ".repeat(100_000))),
        wrap(&format!("x == 1{}", " and x == 1".repeat(100_000))),
        "\r".repeat(100_000),
        "#".repeat(100_000),
    ] {
        let parsed = parse(&source);
        let _ = render("a", &source, &parsed.diagnostics, false);
    }
}

#[test]
fn every_fixture_parses_item_by_item_as_whole() {
    let mut files = files_in("tests/fixtures/syntax/valid");
    files.extend(files_in("tests/fixtures/syntax/invalid"));
    for file in files {
        let source = std::fs::read_to_string(&file).expect("read");
        let items = parse(&source);
        let whole = cloudspec::syntax::parse_whole_file(&source);
        assert_eq!(
            format!("{:?}", items.spec),
            format!("{:?}", whole.spec),
            "{}",
            file.display()
        );
        assert_eq!(items.diagnostics, whole.diagnostics, "{}", file.display());
    }
}

// ----- counting quantifiers, time and pattern predicates (issue 20) -----------------------

/// `(code, line, column)` of `needle`'s first occurrence in the statements given to `wrap`
/// (ASCII only; `    Assert ` takes columns 1 to 11 of line 5).
fn at(code: &'static str, statements: &str, needle: &str) -> (&'static str, usize, usize) {
    let i = statements.find(needle).expect("needle in the statements");
    (code, 5, 12 + i)
}

#[test]
fn counting_quantifiers_stand_where_any_every_no_stand() {
    for (text, q, name, assoc) in [
        (
            "at least 1 > trails ( x is true )",
            Quantifier::AtLeast(1),
            "trails",
            true,
        ),
        (
            "AT MOST 1 access_keys ( status == \"Active\" )",
            Quantifier::AtMost(1),
            "access_keys",
            false,
        ),
        (
            "exactly 0 ports > 5",
            Quantifier::Exactly(0),
            "ports",
            false,
        ),
        (
            "at\n  least   18446744073709551615 x == 1",
            Quantifier::AtLeast(u64::MAX),
            "x",
            false,
        ),
        (
            "Exactly 3 tags[\"k\"] == 1",
            Quantifier::Exactly(3),
            "tags",
            false,
        ),
        ("at most 2 any == 1", Quantifier::AtMost(2), "any", false),
    ] {
        let s = statement(text);
        assert_eq!(s.quantifier.as_ref().map(|q| q.value), Some(q), "{text}");
        assert_eq!(s.path.name.value, name, "{text}");
        assert_eq!(s.path.association.is_some(), assoc, "{text}");
    }
}

#[test]
fn a_counting_quantifiers_span_covers_its_words_and_count() {
    let source = wrap("at  most 12 access_keys ( status == \"Active\" )");
    let spec = parse_ok(&source);
    let q = asserts(&spec)[0].quantifier.clone().expect("quantifier");
    assert_eq!(&source[q.span.start..q.span.end], "at  most 12");
}

#[test]
fn counting_words_without_a_count_are_member_names() {
    for (text, name) in [
        ("exactly == 1", "exactly"),
        ("exactly is true", "exactly"),
        ("at == 1", "at"),
        ("at ( least == 2 )", "at"),
        ("exactly > 5", "exactly"),
        ("at[\"least\"] == 1", "at"),
        ("least is null", "least"),
    ] {
        let s = statement(text);
        assert!(s.quantifier.is_none(), "{text}");
        assert_eq!(s.path.name.value, name, "{text}");
    }
    let s = statement("every exactly == 1");
    assert_eq!(s.quantifier.map(|q| q.value), Some(Quantifier::Every));
}

#[test]
fn count_mistakes_are_errors_at_the_count() {
    // `Assert ` ends at column 11 of line 5.
    let text = "at least access_keys ( x == 1 )";
    assert_eq!(errors(&wrap(text)), vec![at("syntax", text, "access_keys")]);
    assert_eq!(
        messages(&wrap("at least access_keys ( x == 1 )")),
        vec!["expected a count (a whole number such as 1)"]
    );
    for (text, needle, help) in [
        (
            "exactly keys ( x == 1 )",
            "keys",
            "after \"exactly\": exactly 1 keys ...",
        ),
        (
            "At Most > keys ( x == 1 )",
            ">",
            "after \"at most\": at most 1 > ...",
        ),
        (
            "at least \"1\" keys ( x == 1 )",
            "\"1\"",
            "after \"at least\": at least 1 > trails ( ... )",
        ),
    ] {
        let source = wrap(text);
        assert_eq!(errors(&source), vec![at("syntax", text, needle)], "{text}");
        let d = &parse(&source).diagnostics[0];
        assert_eq!(d.message, "expected a count (a whole number such as 1)");
        assert!(
            d.help.as_deref().is_some_and(|h| h.ends_with(help)),
            "{:?}",
            d.help
        );
    }
    // `exactly > 5` compares a member named `exactly`: the error comes after `>`.
    let text = "exactly > trails ( x == 1 )";
    assert_eq!(errors(&wrap(text)), vec![at("syntax", text, "trails")]);
    assert_eq!(
        parse(&wrap(text)).diagnostics[0].help.as_deref(),
        Some("\"exactly\" counts with a whole number after it: exactly 1 > trails ( ... ); without one, \"exactly\" is read as a member name")
    );
    let text = "at least -1 > trails ( x == 1 )";
    assert_eq!(errors(&wrap(text)), vec![at("invalid-count", text, "-1")]);
    assert_eq!(
        messages(&wrap("at least -1 > trails ( x == 1 )")),
        vec!["the count of \"at least\" cannot be negative, found -1"]
    );
    let text = "at most 1.5 keys ( x == 1 )";
    assert_eq!(errors(&wrap(text)), vec![at("invalid-count", text, "1.5")]);
    assert_eq!(
        messages(&wrap("exactly 1e3 keys ( x == 1 )")),
        vec!["the count of \"exactly\" must be a whole number, found 1e3"]
    );
    let text = "exactly 18446744073709551616 keys ( x == 1 )";
    assert_eq!(
        errors(&wrap(text)),
        vec![at("number-out-of-range", text, "1844")]
    );
    assert_eq!(
        messages(&wrap("at lest 1 keys ( x == 1 )")).len(),
        1,
        "a misspelt quantifier is one syntax error"
    );
}

#[test]
fn durations_take_a_unit_in_any_case_and_number() {
    use cloudspec::syntax::ast::TimeUnit;
    for (text, n, unit) in [
        ("x older than 90 days", 90, TimeUnit::Days),
        ("x older than 1 DAY", 1, TimeUnit::Days),
        ("x is not older than 2 day", 2, TimeUnit::Days),
        ("x newer than 12 Hours", 12, TimeUnit::Hours),
        ("x not newer than 1 hour", 1, TimeUnit::Hours),
        ("x newer than 0 minutes", 0, TimeUnit::Minutes),
        ("x older than\n 5\n minute", 5, TimeUnit::Minutes),
    ] {
        let s = statement(text);
        let p = predicate_of(&s);
        assert_eq!(p.operands, vec![int(n)], "{text}");
        assert_eq!(p.unit.as_ref().map(|u| u.value), Some(unit), "{text}");
    }
    let source = wrap("x older than 90 Days");
    let spec = parse_ok(&source);
    let p = predicate_of(&asserts(&spec)[0]);
    let unit = p.unit.clone().expect("unit");
    assert_eq!(&source[unit.span.start..unit.span.end], "Days");
    assert_eq!(p.words, "older than");
    assert!(source[p.span.start..p.span.end].ends_with("Days"));
    // A duration predicate followed by the next statement or clause.
    let spec = parse_ok(&wrap(
        "x older than 1 day and y == 1 And z newer than 2 hours",
    ));
    assert_eq!(asserts(&spec).len(), 3);
    let spec = parse_ok(&wrap("k ( x older than 1 day and y newer than 2 days )"));
    assert_eq!(asserts(&spec).len(), 1);
    let spec = parse_ok(
        "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c With x older than 1 day Assert y == 1 Rule \"t\" On a:b:c Assert x newer than 3 days Group \"h\" Rule \"r\" On a:b:c Assert x == 1",
    );
    assert_eq!(spec.groups.len(), 2);
    for p in [
        "x == 1",
        "x before \"2026-01-01\"",
        "x matching \"a\"",
        "x is null",
    ] {
        assert!(predicate_of(&statement(p)).unit.is_none(), "{p}");
    }
}

#[test]
fn duration_mistakes_are_errors_at_the_number_or_the_unit() {
    let cases: [(&str, (&'static str, &str), &str); 8] = [
        (
            "x older than 90 weeks",
            ("invalid-time-unit", "weeks"),
            "unknown time unit \"weeks\"",
        ),
        (
            "x older than 90",
            ("invalid-time-unit", "90"),
            "\"older than\" needs a time unit after 90",
        ),
        (
            "k ( x is newer than 90 ) and y == 1",
            ("invalid-time-unit", "90"),
            "\"newer than\" needs a time unit after 90",
        ),
        (
            "x newer than -5 days",
            ("invalid-duration", "-5"),
            "the duration of \"newer than\" cannot be negative, found -5",
        ),
        (
            "x not older than 1.5 days",
            ("invalid-duration", "1.5"),
            "the duration of \"not older than\" must be a whole number, found 1.5",
        ),
        (
            "x older than \"90 days\"",
            ("invalid-operand", "\"90"),
            "\"older than\" needs a whole number of days, hours or minutes such as 90 days, found a string",
        ),
        (
            "x older than true days",
            ("invalid-operand", "true"),
            "\"older than\" needs a whole number of days, hours or minutes such as 90 days, found a boolean",
        ),
        (
            "x older than 9223372036854775808 days",
            ("number-out-of-range", "922"),
            "the integer 9223372036854775808 does not fit in 64 bits",
        ),
    ];
    for (text, (code, needle), message) in cases {
        let source = wrap(text);
        assert_eq!(errors(&source), vec![at(code, text, needle)], "{text}");
        assert_eq!(messages(&source), vec![message.to_string()], "{text}");
    }
    // Both a bad number and a bad unit are reported.
    let text = "x older than -1.5 fortnights";
    assert_eq!(
        errors(&wrap(text)),
        vec![
            at("invalid-duration", text, "-1.5"),
            at("invalid-time-unit", text, "fortnights")
        ]
    );
    let help = |text: &str| {
        parse(&wrap(text)).diagnostics[0]
            .help
            .clone()
            .unwrap_or_default()
    };
    assert!(help("x older than 2 weeks").ends_with("older than 14 days"));
    assert!(help("x older than 1.5 days").ends_with("older than 36 hours"));
    assert!(help("x older than 2.5 hours").ends_with("older than 150 minutes"));
    assert!(help("x older than 90").ends_with("older than 90 days"));
    // A word after a predicate that takes no unit is a syntax error.
    assert_eq!(
        errors(&wrap("x == 5 days")),
        vec![at("syntax", "x == 5 days", "days")]
    );
    assert_eq!(
        messages(&wrap("x older than 5 (")),
        vec!["expected a time unit (days, hours or minutes), \"And\" or the end of the rule"]
    );
}

#[test]
fn timestamps_are_rfc3339_with_an_offset_or_dates() {
    for text in [
        "2026-01-01",
        "2026-01-01T00:00:00Z",
        "2026-01-01T09:30:00+02:00",
        "2026-01-01T09:30:00.123456-05:30",
        "2024-02-29",
    ] {
        let s = statement(&format!("x before \"{text}\""));
        assert!(
            matches!(&predicate_of(&s).operands[0], Literal::Str(v) if v.value == text),
            "{text}"
        );
    }
    for (text, help_end) in [
        ("yesterday", "after \"2026-11-22\""),
        ("2026-13-01", "after \"2026-01-31\""),
        ("2025-02-29", "after \"2026-01-31\""),
        ("2026-01-01T00:00:00", "after \"2026-01-01T00:00:00Z\""),
        ("2026-01-01T25:00:00Z", "after \"2026-11-22\""),
        ("", "after \"2026-11-22\""),
    ] {
        let statement = format!("x not after \"{text}\"");
        let source = wrap(&statement);
        assert_eq!(
            errors(&source),
            vec![at("invalid-timestamp", &statement, "\"")],
            "{text}"
        );
        assert_eq!(
            messages(&source),
            vec![format!("\"{text}\" is not a timestamp or a date")]
        );
        let help = parse(&source).diagnostics[0]
            .help
            .clone()
            .unwrap_or_default();
        assert!(help.ends_with(help_end), "{text}: {help}");
    }
    assert_eq!(
        errors(&wrap("x before 2026")),
        vec![at("invalid-operand", "x before 2026", "2026")]
    );
    // A timestamp with a bad escape is reported once, as the escape.
    let text = "x before \"2026\\q\"";
    assert_eq!(errors(&wrap(text)), vec![at("invalid-escape", text, "\\q")]);
}

#[test]
fn patterns_are_checked_with_the_regex_crate() {
    let s = statement("x matching \"^\\\\d+\\\\.\\\"q\\\"$\"");
    assert!(
        matches!(&predicate_of(&s).operands[0], Literal::Str(v) if v.value == "^\\d+\\.\"q\"$")
    );
    let source = wrap("x matching \"(\"");
    assert_eq!(
        errors(&source),
        vec![at("invalid-pattern", "x matching \"(\"", "\"")]
    );
    assert_eq!(
        messages(&source),
        vec!["\"(\" is not a valid regular expression"]
    );
    let d = &parse(&source).diagnostics[0];
    assert_eq!(
        d.help.as_deref(),
        Some("unclosed group; patterns use the syntax of Rust's regex crate (no look-around or backreferences)")
    );
    for bad in ["[a-", "a{2,1}", "(?=x)", "\\\\1", "*"] {
        let statement = format!("x not matching \"{bad}\"");
        let source = wrap(&statement);
        assert_eq!(
            errors(&source),
            vec![at("invalid-pattern", &statement, "\"")],
            "{bad}"
        );
        let help = parse(&source).diagnostics[0]
            .help
            .clone()
            .unwrap_or_default();
        assert!(!help.contains('\n'), "{help}");
    }
    assert_eq!(
        errors(&wrap("x matching 5")),
        vec![at("invalid-operand", "x matching 5", "5")]
    );
}

#[test]
fn an_unknown_escape_in_a_pattern_says_to_write_the_backslash_twice() {
    let text = "x matching \"^\\d+$\"";
    let source = wrap(text);
    // Reported once, as the escape (the pattern is not compiled).
    assert_eq!(errors(&source), vec![at("invalid-escape", text, "\\d")]);
    let d = &parse(&source).diagnostics[0];
    assert_eq!(d.message, "unknown escape \"\\d\" in a string");
    assert_eq!(
        d.help.as_deref(),
        Some("string escapes apply before the pattern is read, so write a regex backslash twice: \"\\\\d\" for the regex escape \\d, as in matching \"^\\\\d+$\"")
    );
    // Elsewhere the help is the general one.
    let other = &parse(&wrap("x == \"^\\d\"")).diagnostics[0];
    assert!(other
        .help
        .as_deref()
        .is_some_and(|h| h.starts_with("the escapes are")));
    let other = &parse(&wrap("x before \"\\d\"")).diagnostics[0];
    assert!(other
        .help
        .as_deref()
        .is_some_and(|h| h.starts_with("the escapes are")));
}

#[test]
fn new_predicate_words_are_member_names_too() {
    for name in [
        "older", "newer", "before", "after", "matching", "days", "at", "least", "most", "exactly",
    ] {
        let s = statement(&format!("{name} == 1"));
        assert_eq!(s.path.name.value, name);
    }
    assert_eq!(
        predicate_of(&statement("before before \"2026-01-01\"")).kind,
        PredicateKind::Before
    );
    // As for `any`, a quantifier word followed by a whole predicate is a member.
    let s = statement("any older than 5 days");
    assert!(s.quantifier.is_none());
    assert_eq!(s.path.name.value, "any");
}

// ----- or ---------------------------------------------------------------------------------

/// The member names of each alternative of `body`.
fn alternative_names(body: &Body) -> Vec<Vec<String>> {
    body.alternatives
        .iter()
        .map(|a| a.iter().map(|s| s.path.name.value.clone()).collect())
        .collect()
}

#[test]
fn or_splits_statements_into_alternatives_and_and_binds_tighter() {
    let spec = parse_ok(&wrap(
        "a == 1 and b == 1 or c == 1 And d == 1\n    OR e == 1",
    ));
    assert_eq!(
        alternative_names(&spec.groups[0].rules[0].assert),
        [vec!["a", "b"], vec!["c", "d"], vec!["e"]]
    );
    let s = statement("n ( a == 1 Or b == 1 and c == 1 )");
    let Tail::Nested(body) = &s.tail else {
        panic!("nested")
    };
    assert_eq!(alternative_names(body), [vec!["a"], vec!["b", "c"]]);
    let spec =
        parse_ok("Spec \"s\" Group \"g\" Rule \"r\" On a:b:c With x == 1 or y == 1 Assert z == 1");
    assert_eq!(
        alternative_names(&spec.groups[0].rules[0].with),
        [vec!["x"], vec!["y"]]
    );
}

#[test]
fn or_is_a_word_bounded_keyword_and_still_a_member_name() {
    let spec = parse_ok(&wrap("orders == 1 or origin == 2"));
    assert_eq!(
        alternative_names(&spec.groups[0].rules[0].assert),
        [vec!["orders"], vec!["origin"]]
    );
    // Where a member is expected, `or` is one (language.md: only `and` cannot be).
    let spec = parse_ok(&wrap("or == 1 or Or is true\n    Or or ( or > 1 )"));
    assert_eq!(
        alternative_names(&spec.groups[0].rules[0].assert),
        [vec!["or"], vec!["Or"], vec!["or"]]
    );
    // A quantifier word followed by a predicate is a member, also before `or`.
    let spec = parse_ok(&wrap("all is true or no == 2"));
    assert_eq!(
        alternative_names(&spec.groups[0].rules[0].assert),
        [vec!["all"], vec!["no"]]
    );
    // The predicate words with "or" in them are unchanged.
    let s = statement("size greater than or equal to 5");
    assert_eq!(predicate_of(&s).kind, PredicateKind::Gte);
    let spec = parse_ok(&wrap("size less than or equal to 5 or size gte 10"));
    let body = &spec.groups[0].rules[0].assert;
    assert_eq!(
        predicate_of(&body.alternatives[0][0]).kind,
        PredicateKind::Lte
    );
    assert_eq!(
        predicate_of(&body.alternatives[1][0]).kind,
        PredicateKind::Gte
    );
}

#[test]
fn a_dangling_or_is_a_positioned_error() {
    let help = "\"or\" joins two statements and needs one after it: a == 1 or b == 2; remove it if no other alternative is meant";
    for (statements, col, found) in [
        ("a == 1 or", 21, "found the end of the file"),
        ("a == 1 Or\n", 21, "found the end of the file"),
        ("x ( a == 1 or )", 26, "found \")\""),
        ("a == 1 or and b == 2", 22, "found \"and\""),
    ] {
        let source = wrap(statements);
        let parsed = parse(&source);
        assert_eq!(parsed.diagnostics.len(), 1, "{statements}");
        let d = &parsed.diagnostics[0];
        assert_eq!(d.code, "syntax");
        assert_eq!(d.message, "expected a member name or \">\"", "{statements}");
        assert_eq!(line_col(&source, d.span.start), (5, col), "{statements}");
        assert_eq!(d.label.as_deref(), Some(found), "{statements}");
        assert_eq!(d.help.as_deref(), Some(help), "{statements}");
    }
    // After the words of a duration, `or` is not a unit.
    assert_eq!(
        messages(&wrap("a older than 5 or b == 1")),
        ["\"older than\" needs a time unit after 5"]
    );
    // The expected lists read as before `or` existed.
    assert_eq!(
        messages(&wrap("x == 1 y")),
        ["expected \"And\" or the end of the rule"]
    );
    assert_eq!(
        messages(&wrap("n ( x == 1 y )")),
        ["expected \"and\" or \")\""]
    );
}
