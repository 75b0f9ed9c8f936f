//! The formatter: each fixture in tests/fixtures/fmt has its formatted output pinned
//! (tests/snapshots/fmt__*.snap), and for every fixture formatting is idempotent, keeps
//! every comment and never changes the AST.

use cloudspec::syntax::format::format;
use cloudspec::syntax::lexer::comments;
use cloudspec::syntax::parse;

fn fixtures() -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir("tests/fixtures/fmt")
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cloudspec"))
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    files
        .into_iter()
        .map(|p| {
            let stem = p
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("unnamed")
                .to_string();
            (stem, std::fs::read_to_string(&p).expect("read"))
        })
        .collect()
}

/// Formats `source`, which must parse without diagnostics.
fn fmt(source: &str) -> String {
    let parsed = parse(source);
    assert!(
        parsed.diagnostics.is_empty(),
        "{source}\n{:#?}",
        parsed.diagnostics
    );
    format(parsed.spec.as_ref().expect("spec"), source)
}

/// The comment texts of `source`, in order, trimmed.
fn comment_texts(source: &str) -> Vec<String> {
    comments(source)
        .iter()
        .map(|c| source[c.span.start..c.span.end].trim_end().to_string())
        .collect()
}

#[test]
fn fixtures_format_to_pinned_output() {
    for (name, source) in fixtures() {
        insta::assert_snapshot!(name, fmt(&source));
    }
}

#[test]
fn formatting_is_idempotent() {
    for (name, source) in fixtures() {
        let once = fmt(&source);
        assert_eq!(fmt(&once), once, "{name}");
    }
}

#[test]
fn formatting_keeps_the_ast() {
    for (name, source) in fixtures() {
        let before = parse(&source).spec;
        let after = parse(&fmt(&source)).spec;
        assert_eq!(before, after, "{name}");
    }
}

#[test]
fn formatting_keeps_every_comment() {
    for (name, source) in fixtures() {
        let mut before = comment_texts(&source);
        let mut after = comment_texts(&fmt(&source));
        // Two trailing comments on one output line merge into one; compare the text.
        before.sort();
        after.sort();
        assert_eq!(before.join(" "), after.join(" "), "{name}");
    }
}

#[test]
fn single_predicate_bodies_stay_on_one_line() {
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert > subnet (\n map_public_ip_on_launch is false\n)";
    assert!(fmt(source).contains("    Assert > subnet ( map_public_ip_on_launch is false )\n"));
}

#[test]
fn synonyms_and_quantifier_words_are_kept_as_written() {
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert ALL x GT 5 And some y Is Greater Than Or Equal To 1 And z enabled";
    let out = fmt(source);
    assert!(out.contains("Assert all x gt 5\n"), "{out}");
    assert!(
        out.contains("And some y is greater than or equal to 1\n"),
        "{out}"
    );
    assert!(out.contains("And z enabled\n"), "{out}");
}

#[test]
fn strings_and_numbers_round_trip() {
    let source = "Spec \"tab\\there \\\"q\\\" \\\\ \\u0001 é\" Group \"g\" Rule \"r\" On a:b:c Assert x == 1e3 and y == 0.1 and z == 1.0e-7 and w == -0.0";
    let out = fmt(source);
    assert!(
        out.starts_with("Spec \"tab\\there \\\"q\\\" \\\\ \\u0001 é\"\n"),
        "{out}"
    );
    assert!(out.contains("Assert x == 1e3\n"), "{out}");
    assert!(out.contains("And w == -0.0\n"), "{out}");
    assert_eq!(parse(&out).spec, parse(source).spec);
}

#[test]
fn counting_quantifiers_and_units_are_normalized() {
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert AT   Most\n 01 keys ( status == \"Active\" ) And Exactly 0 > groups ( x == 1 ) And x Is Older Than 1 DAYS And y NOT newer than 90 day And z older than 0 Hour And w newer than 2 minute";
    let out = fmt(source);
    assert!(
        out.contains("Assert at most 1 keys ( status == \"Active\" )\n"),
        "{out}"
    );
    assert!(out.contains("And exactly 0 > groups ( x == 1 )\n"), "{out}");
    assert!(out.contains("And x is older than 1 day\n"), "{out}");
    assert!(out.contains("And y not newer than 90 days\n"), "{out}");
    assert!(out.contains("And z older than 0 hours\n"), "{out}");
    assert!(out.contains("And w newer than 2 minutes\n"), "{out}");
    assert_eq!(fmt(&out), out);
    assert_eq!(parse(&out).spec, parse(source).spec);
}

#[test]
fn timestamps_and_patterns_keep_their_text_and_escapes() {
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c Assert x Before \"2026-01-01\" and y not after \"2026-01-01T09:00:00+02:00\" and z matching \"^\\\\d+\\\\.\\\"x\\\"$\" and w IS NOT MATCHING \"(?i)\\u00e9\"";
    let out = fmt(source);
    assert!(
        out.contains(
            "Assert x before \"2026-01-01\"\n    And y not after \"2026-01-01T09:00:00+02:00\"\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("And z matching \"^\\\\d+\\\\.\\\"x\\\"$\"\n"),
        "{out}"
    );
    assert!(out.contains("And w is not matching \"(?i)é\"\n"), "{out}");
    assert_eq!(fmt(&out), out);
    assert_eq!(parse(&out).spec, parse(source).spec);
}

#[test]
fn the_new_forms_fixture_formats_idempotently_and_keeps_its_tree_and_comments() {
    let source =
        std::fs::read_to_string("tests/fixtures/syntax/valid/counting-time-pattern.cloudspec")
            .expect("read");
    let once = fmt(&source);
    insta::assert_snapshot!("counting-time-pattern", once);
    assert_eq!(fmt(&once), once);
    assert_eq!(parse(&once).spec, parse(&source).spec);
    assert_eq!(comment_texts(&once), comment_texts(&source));
}

#[test]
fn or_starts_a_line_as_and_does() {
    let source = "Spec \"s\" Group \"g\" Rule \"r\" On a:b:c With x == 1 OR y == 1 Assert a == 1 and b == 1 or c == 1 And n ( d == 1 oR e == 1 ) And m ( f == 1 )";
    let out = fmt(source);
    assert_eq!(
        out,
        "Spec \"s\"\n\nGroup \"g\"\n  Rule \"r\"\n    On a:b:c\n    With x == 1\n    Or y == 1\n    Assert a == 1\n    And b == 1\n    Or c == 1\n    And n (\n      d == 1\n      or e == 1\n    )\n    And m ( f == 1 )\n"
    );
    assert_eq!(fmt(&out), out);
    assert_eq!(parse(&out).spec, parse(source).spec);
}
