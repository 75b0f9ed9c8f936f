//! Turns a pest error into a [`Diagnostic`] in the language's own words: every grammar rule
//! maps to a phrase in one table ([`phrase`]); rule names never reach users.

use pest::error::{Error, ErrorVariant, InputLocation};

use super::ast::Span;
use super::grammar::Rule;
use crate::diagnostic::{quoted, Diagnostic};

/// What a grammar rule means to a user, with an ordering key for the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Phrase {
    order: u8,
    text: &'static str,
}

const fn ph(order: u8, text: &'static str) -> Option<Phrase> {
    Some(Phrase { order, text })
}

const PREDICATE: &str = "a predicate such as \"equal to\" or \"is not null\"";
const MEMBER: &str = "a member name or \">\"";
const VALUE: &str = "a value (a string, a number, true, false, a list or a {...} container)";
const METADATA: &str = "a rule metadata line (\"Severity\", \"Remediation\" or \"Reference\")";
const END_OF_RULE: &str = "the end of the rule";
const COUNT: &str = "a count (a whole number such as 1)";

/// The phrase of one grammar rule (`None`: never worth mentioning).
fn phrase(r: Rule) -> Option<Phrase> {
    match r {
        Rule::WHITESPACE | Rule::COMMENT | Rule::ident_char | Rule::metadata | Rule::ref_part => {
            None
        }
        Rule::stmt_end | Rule::statements | Rule::predicate_body => None,
        Rule::str_escape | Rule::str_char => None,
        Rule::gt_words | Rule::gte_words | Rule::lt_words | Rule::lte_words | Rule::ip_words => {
            None
        }
        Rule::EOI => ph(90, "the end of the file"),
        Rule::file | Rule::file_head | Rule::spec_clause | Rule::kw_spec => {
            ph(1, "\"Spec\" at the start of the file")
        }
        Rule::group | Rule::group_head | Rule::kw_group => ph(2, "\"Group\""),
        Rule::rule | Rule::rule_item | Rule::kw_rule => ph(3, "\"Rule\""),
        Rule::severity | Rule::remediation | Rule::reference => ph(4, METADATA),
        Rule::kw_severity | Rule::kw_remediation | Rule::kw_reference => ph(4, METADATA),
        Rule::severity_level => ph(5, "a severity (low, medium, high or critical)"),
        Rule::on_clause | Rule::kw_on => ph(6, "\"On\""),
        Rule::resource_ref => ph(7, "a resource type such as aws:ec2:instance"),
        Rule::with_clause | Rule::kw_with => ph(8, "\"With\""),
        Rule::kw_and => ph(9, "\"And\""),
        // Never listed: where `or` may come, `and` may too, and the messages read as they
        // did before `or` existed ("expected \"And\" or the end of the rule").
        Rule::kw_or => None,
        Rule::assert_clause | Rule::kw_assert => ph(10, "\"Assert\""),
        Rule::statement | Rule::association | Rule::assoc_marker | Rule::quantifier => {
            ph(20, MEMBER)
        }
        Rule::property | Rule::member_name => ph(20, MEMBER),
        Rule::association_body => ph(21, "\"(\" after the association name"),
        Rule::key | Rule::bracket_open => ph(23, "\"[\""),
        Rule::nested | Rule::paren_open => ph(24, "\"(\""),
        Rule::predicate | Rule::kw_is => ph(22, PREDICATE),
        Rule::p_null | Rule::p_not_null | Rule::p_eq | Rule::p_ne | Rule::p_within => {
            ph(22, PREDICATE)
        }
        Rule::p_not_within | Rule::p_gt | Rule::p_gte | Rule::p_lt | Rule::p_lte => {
            ph(22, PREDICATE)
        }
        Rule::p_between | Rule::p_empty | Rule::p_not_empty | Rule::p_starts_with => {
            ph(22, PREDICATE)
        }
        Rule::p_not_starts_with | Rule::p_ends_with | Rule::p_not_ends_with => ph(22, PREDICATE),
        Rule::p_contains | Rule::p_not_contains | Rule::p_ip_gt | Rule::p_ip_gte => {
            ph(22, PREDICATE)
        }
        Rule::p_ip_lt | Rule::p_ip_lte | Rule::p_in_network | Rule::p_not_in_network => {
            ph(22, PREDICATE)
        }
        Rule::p_ipv4 | Rule::p_ipv6 | Rule::p_true | Rule::p_false => ph(22, PREDICATE),
        Rule::p_older_than | Rule::p_not_older_than | Rule::p_newer_than => ph(22, PREDICATE),
        Rule::p_not_newer_than | Rule::p_before | Rule::p_not_before => ph(22, PREDICATE),
        Rule::p_after | Rule::p_not_after | Rule::p_matching | Rule::p_not_matching => {
            ph(22, PREDICATE)
        }
        Rule::count_quantifier => ph(20, MEMBER),
        Rule::count => ph(42, COUNT),
        Rule::time_unit => ph(8, "a time unit (days, hours or minutes)"),
        Rule::w_older => ph(30, "\"older\""),
        Rule::w_newer => ph(30, "\"newer\""),
        Rule::w_before => ph(30, "\"before\""),
        Rule::w_after => ph(30, "\"after\""),
        Rule::w_matching => ph(30, "\"matching\""),
        Rule::w_at => ph(30, "\"at\""),
        Rule::w_least => ph(30, "\"least\""),
        Rule::w_most => ph(30, "\"most\""),
        Rule::w_exactly => ph(30, "\"exactly\""),
        Rule::w_not => ph(30, "\"not\""),
        Rule::w_null => ph(30, "\"null\""),
        Rule::w_equal => ph(30, "\"equal\""),
        Rule::w_to => ph(30, "\"to\""),
        Rule::w_within => ph(30, "\"within\""),
        Rule::w_greater => ph(30, "\"greater\""),
        Rule::w_less => ph(30, "\"less\""),
        Rule::w_than => ph(30, "\"than\""),
        Rule::w_or => ph(31, "\"or\""),
        Rule::w_gt | Rule::op_gt => ph(30, "\"gt\""),
        Rule::w_gte | Rule::op_gte => ph(30, "\"gte\""),
        Rule::w_lt | Rule::op_lt => ph(30, "\"lt\""),
        Rule::w_lte | Rule::op_lte => ph(30, "\"lte\""),
        Rule::op_eq => ph(30, "\"==\""),
        Rule::op_ne => ph(30, "\"!=\""),
        Rule::w_between => ph(30, "\"between\""),
        Rule::w_and => ph(32, "\"and\" between the two numbers"),
        Rule::w_empty => ph(30, "\"empty\""),
        Rule::w_starting => ph(30, "\"starting\""),
        Rule::w_ending => ph(30, "\"ending\""),
        Rule::w_with => ph(30, "\"with\""),
        Rule::w_containing => ph(30, "\"containing\""),
        Rule::w_ip => ph(31, "\"ip\""),
        Rule::w_address => ph(31, "\"address\""),
        Rule::w_network => ph(30, "\"network\""),
        Rule::w_cidr => ph(31, "\"cidr\""),
        Rule::w_ipv4 => ph(30, "\"ipv4\""),
        Rule::w_ipv6 => ph(30, "\"ipv6\""),
        Rule::w_true => ph(30, "\"true\""),
        Rule::w_false => ph(30, "\"false\""),
        Rule::boolean => ph(40, "true or false"),
        Rule::w_enabled => ph(30, "\"enabled\""),
        Rule::w_disabled => ph(30, "\"disabled\""),
        Rule::literal => ph(40, VALUE),
        Rule::string => ph(41, "a quoted string"),
        Rule::number => ph(42, "a number"),
        Rule::list => ph(43, "a list such as [\"a\", \"b\"]"),
        Rule::container | Rule::brace_open => ph(44, "a container such as {name = \"value\"}"),
        Rule::entry => ph(45, "a name = value entry"),
        Rule::equals => ph(46, "\"=\""),
        Rule::comma => ph(47, "\",\""),
        Rule::paren_close => ph(50, "\")\""),
        Rule::bracket_close => ph(51, "\"]\""),
        Rule::brace_close => ph(52, "\"}\""),
    }
}

/// Words that only refine a predicate; not worth listing when a value is also possible.
fn is_optional_word(r: Rule) -> bool {
    matches!(r, Rule::w_ip | Rule::w_address | Rule::w_cidr | Rule::w_or)
}

/// Whether `rule` marks the start of a predicate (as opposed to one word inside it).
fn is_predicate_start(r: Rule) -> bool {
    phrase(r).is_some_and(|p| p.text == PREDICATE)
}

/// The diagnostic for a pest failure on `source[offset..]` (the parser reads a file one
/// item at a time; `offset` is where the failed item starts).
pub(super) fn syntax_error(source: &str, error: &Error<Rule>, offset: usize) -> Diagnostic {
    let pos = offset
        + match error.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    // At the end of the file, point just after the last text rather than at a blank line.
    let pos = pos.min(source.trim_end().len());
    let token = token_at(source, pos);
    let found = describe_found(source, token);
    match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            // `or` is allowed wherever `and` is; it is left out of the expected lists (see
            // `phrase`) and of every test on them.
            let positives: Vec<Rule> = positives
                .iter()
                .copied()
                .filter(|r| *r != Rule::kw_or)
                .collect();
            let positives = positives.as_slice();
            // After `at least`, `at most` or `exactly`, a count is what is missing (`exactly`
            // read as a member name cannot be followed by a word either).
            let count_only = [Rule::count];
            let positives: &[Rule] = if positives.contains(&Rule::count) {
                &count_only
            } else {
                positives
            };
            let expected = expected_text(positives);
            let mut diag = Diagnostic::error("syntax", format!("expected {expected}"), token)
                .with_label(found.clone());
            let help = dangling_or(source, pos, positives)
                .or_else(|| keyword_read_as_member(source, pos, positives))
                .or_else(|| missing_count(source, pos, token, positives))
                .or_else(|| exactly_read_as_member(source, pos, token))
                .or_else(|| help_for(positives, &found));
            if let Some(help) = help {
                diag = diag.with_help(help);
            }
            diag
        }
        ErrorVariant::CustomError { message } => Diagnostic::error(
            "syntax",
            format!("the file cannot be parsed: {message}"),
            token,
        )
        .with_label(found),
    }
}

/// "X", "X or Y", "X, Y or Z" from the rules pest expected.
fn expected_text(positives: &[Rule]) -> String {
    let value_expected = positives.iter().any(|r| matches!(r, Rule::literal));
    let at_predicate = positives.iter().any(|r| is_predicate_start(*r));
    let mut phrases: Vec<Phrase> = positives
        .iter()
        .filter(|r| !(value_expected && is_optional_word(**r)))
        .filter(|r| !(at_predicate && phrase(**r).is_some_and(|p| (23..40).contains(&p.order))))
        .filter_map(|r| phrase(*r))
        .collect();
    let has_and = positives.contains(&Rule::kw_and);
    let in_parens = positives.contains(&Rule::paren_close);
    let rule_may_end = positives
        .iter()
        .any(|r| matches!(r, Rule::kw_rule | Rule::kw_group | Rule::EOI));
    if has_and && in_parens {
        phrases.retain(|p| p.order != 9);
        phrases.push(Phrase {
            order: 49,
            text: "\"and\"",
        });
    }
    if has_and && rule_may_end {
        phrases.retain(|p| p.order != 2 && p.order != 3 && p.order != 90);
        phrases.push(Phrase {
            order: 89,
            text: END_OF_RULE,
        });
    }
    phrases.sort_by_key(|p| p.order);
    phrases.dedup_by_key(|p| p.text);
    join_or(&phrases.iter().map(|p| p.text).collect::<Vec<_>>())
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A hint for the common mistakes.
fn help_for(positives: &[Rule], found: &str) -> Option<String> {
    if found == "found \"and\""
        && positives
            .iter()
            .any(|r| matches!(r, Rule::statement | Rule::member_name))
    {
        return Some("\"and\" joins two statements; it cannot be a member name".into());
    }
    let only = |wanted: Rule| positives.iter().all(|r| *r == wanted);
    if only(Rule::association_body) {
        return Some("an association is followed by the statements about the associated resource in parentheses: \"> subnet ( map_public_ip_on_launch is false )\"".into());
    }
    if only(Rule::resource_ref) {
        return Some(
            "a resource type has three or more parts separated by \":\", e.g. aws:ec2:instance"
                .into(),
        );
    }
    if only(Rule::severity_level) {
        return Some(
            "write one of: Severity low, Severity medium, Severity high, Severity critical".into(),
        );
    }
    if positives.contains(&Rule::kw_spec) {
        return Some("a spec file starts with Spec \"what the file is about\"".into());
    }
    if positives.iter().any(|r| is_predicate_start(*r)) {
        return Some("a member is followed by a predicate (\"size equal to 50\", \"is not null\"), or by \"( ... )\" to check the members inside it; docs/language.md lists every predicate".into());
    }
    if positives.contains(&Rule::kw_and) && positives.contains(&Rule::EOI) {
        return Some(
            "join statements with \"And\"; a rule ends where the next \"Rule\" or \"Group\" starts"
                .into(),
        );
    }
    None
}

/// When a statement was expected right after `or`: it joins two statements, and the second
/// is missing.
fn dangling_or(source: &str, pos: usize, positives: &[Rule]) -> Option<String> {
    let member_expected = positives
        .iter()
        .any(|r| phrase(*r).is_some_and(|p| p.text == MEMBER));
    if !member_expected || !word_before(source, pos)?.eq_ignore_ascii_case("or") {
        return None;
    }
    Some("\"or\" joins two statements and needs one after it: a == 1 or b == 2; remove it if no other alternative is meant".into())
}

/// The word that ends just before `pos` (after blanks), if any.
fn word_before(source: &str, pos: usize) -> Option<&str> {
    let before = source.get(..pos)?.trim_end();
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |i| i + 1);
    before.get(word_start..).filter(|w| !w.is_empty())
}

/// When a count was expected after `at least`, `at most` or `exactly`: the quantifier with a
/// count, before what was found (`at least 1 access_keys`).
fn missing_count(source: &str, pos: usize, token: Span, positives: &[Rule]) -> Option<String> {
    if positives != [Rule::count] {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let words: Vec<&str> = before.split_whitespace().rev().take(2).collect();
    let quantifier = match words.as_slice() {
        [last, ..] if last.eq_ignore_ascii_case("exactly") => "exactly".to_string(),
        [last, at] if at.eq_ignore_ascii_case("at") => format!("at {}", last.to_ascii_lowercase()),
        _ => "at least".to_string(),
    };
    let found = source.get(token.start..token.end).unwrap_or_default();
    let example = if found.is_empty() || found.starts_with('"') {
        format!("{quantifier} 1 > trails ( ... )")
    } else {
        format!("{quantifier} 1 {} ...", quoted(found))
    };
    Some(format!(
        "say how many elements must match with a whole number after \"{quantifier}\": {example}"
    ))
}

/// `exactly > trails ( ... )` without a count reads as the member `exactly` compared with
/// `>`, so the error comes at `trails`: say that the count is missing.
fn exactly_read_as_member(source: &str, pos: usize, token: Span) -> Option<String> {
    let before = source.get(..pos)?.trim_end().strip_suffix('>')?.trim_end();
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |i| i + 1);
    if !before.get(word_start..)?.eq_ignore_ascii_case("exactly") {
        return None;
    }
    let found = source.get(token.start..token.end).unwrap_or_default();
    Some(format!(
        "\"exactly\" counts with a whole number after it: exactly 1 > {} ( ... ); without one, \"exactly\" is read as a member name",
        quoted(found)
    ))
}

/// When a predicate was expected right after a clause keyword, that keyword was read as a
/// member name (keywords are valid member names): say so.
fn keyword_read_as_member(source: &str, pos: usize, positives: &[Rule]) -> Option<String> {
    if !positives.iter().any(|r| is_predicate_start(*r)) {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |i| i + 1);
    let word = before.get(word_start..)?;
    let keywords = [
        "Spec",
        "Group",
        "Rule",
        "On",
        "With",
        "Assert",
        "Severity",
        "Remediation",
        "Reference",
    ];
    let keyword = keywords.iter().find(|k| k.eq_ignore_ascii_case(word))?;
    Some(format!(
        "\"{word}\" was read as a member name here; is a statement missing before \"{keyword}\"?"
    ))
}

/// The span of the token starting at `pos` (zero-width at the end of the text).
pub(super) fn token_at(source: &str, pos: usize) -> Span {
    let pos = pos.min(source.len());
    let rest = source.get(pos..).unwrap_or_default();
    let Some(first) = rest.chars().next().filter(|_| !rest.trim().is_empty()) else {
        return Span::new(pos, pos);
    };
    let len = if first == '"' {
        rest.char_indices()
            .skip(1)
            .find(|&(_, c)| c == '"' || c == '\n' || c == '\r')
            .map_or(rest.len(), |(i, c)| if c == '"' { i + 1 } else { i })
    } else if first.is_ascii_alphanumeric() || first == '_' || first == '-' {
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(rest.len())
    } else if matches!(first, '=' | '!' | '<' | '>') {
        rest.find(|c: char| !matches!(c, '=' | '!' | '<' | '>'))
            .unwrap_or(rest.len())
    } else {
        first.len_utf8()
    };
    Span::new(pos, pos + len.max(1).min(rest.len()))
}

/// `found "bigger"`, `found a string`, `found the end of the file`.
fn describe_found(source: &str, token: Span) -> String {
    let text = source.get(token.start..token.end).unwrap_or_default();
    if text.is_empty() {
        "found the end of the file".to_string()
    } else if text.starts_with('"') {
        "found a string".to_string()
    } else {
        format!("found \"{}\"", quoted(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(token_at("ab cd", 0), Span::new(0, 2));
        assert_eq!(token_at("x \"a b\" y", 2), Span::new(2, 7));
        assert_eq!(token_at(">= 5", 0), Span::new(0, 2));
        assert_eq!(token_at("abc", 3), Span::new(3, 3));
        assert_eq!(token_at("é", 0), Span::new(0, 2));
    }

    #[test]
    fn joins() {
        assert_eq!(join_or(&["a", "b", "c"]), "a, b or c");
        assert_eq!(join_or(&["a"]), "a");
    }
}
