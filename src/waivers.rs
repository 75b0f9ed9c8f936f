//! Waivers (`shared/design/waivers.md`): known failures accepted for a while, on the
//! record. This module parses a waiver file's text (with the line and column of every
//! mistake), checks its rules against the run, and applies it to a finished
//! [`RunOutcome`]. It does no I/O: the CLI reads the file and supplies the current time.
//!
//! ```yaml
//! waivers:
//!   - rule: "EC2 validations/Instances must use encrypted volumes"   # * and ? globs
//!     resource: "i-0abc*"            # id glob; optional if `tags` is given
//!     tags: { team: "data" }         # optional: all listed tags must match
//!     reason: "legacy AMI, replaced in Q1"
//!     owner: "platform@example.com"
//!     expires: 2027-03-31            # a date (UTC end of day) or an RFC 3339 time
//! ```

pub(crate) mod marked;

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};

use crate::outcome::{AppliedWaiver, ResourceOutcome, RuleOutcome, RunOutcome, Status};
use marked::{Node, Pos};

/// The fields of a waiver, in the order the contract lists them.
const FIELDS: [&str; 6] = ["rule", "resource", "tags", "reason", "owner", "expires"];

/// One waiver of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    /// The `rule` glob, matched against `"<group>/<rule>"`.
    pub rule: String,
    /// The resource id glob.
    pub resource: Option<String>,
    /// Tags the resource must carry (values may be globs).
    pub tags: BTreeMap<String, String>,
    pub reason: String,
    pub owner: String,
    /// The expiry as written.
    pub expires_text: String,
    /// The first instant at which the waiver no longer applies.
    pub expires_at: DateTime<Utc>,
    /// Where the waiver's entry starts (1-based).
    pub line: usize,
    pub column: usize,
    /// Where its `rule` value is, for "names no rule" errors.
    rule_pos: (usize, usize),
}

/// A mistake in a waiver file, at a line and column (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct WaiverError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl WaiverError {
    fn at(pos: Pos, message: impl Into<String>) -> Self {
        WaiverError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }
}

/// What applying waivers did, for the report and the warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Failing resources whose status became `waived`.
    pub applied: usize,
    /// Expired waivers, in file order, each with the failures it still matches.
    pub expired: Vec<(AppliedWaiver, usize)>,
    /// Waivers in force that matched no failing resource, in file order.
    pub unused: Vec<AppliedWaiver>,
}

/// Parses a waiver file. Every mistake is an error with its line and column: YAML syntax,
/// an unknown or repeated field, a missing required field, a bad date, a waiver with
/// neither `resource` nor `tags`.
pub fn parse(text: &str) -> Result<Vec<Waiver>, WaiverError> {
    let root = marked::parse(text)
        .map_err(|e| WaiverError::at(e.pos, format!("invalid YAML: {}", e.message)))?;
    let Some(root) = root else {
        return Err(WaiverError::at(
            Pos { line: 1, column: 1 },
            "the waiver file is empty; expected a `waivers:` list",
        ));
    };
    let list = waivers_list(&root)?;
    list.iter().map(waiver).collect()
}

/// The `waivers:` list of the top-level mapping.
fn waivers_list(root: &Node) -> Result<&[Node], WaiverError> {
    let fields = mapping(root, "the waiver file", &["waivers"])?;
    match fields.get("waivers") {
        None => Err(WaiverError::at(
            root.pos(),
            "the waiver file has no `waivers:` list",
        )),
        Some((_, Node::Seq { items, .. })) => Ok(items),
        Some((_, Node::Scalar { null: true, .. })) => Ok(&[]),
        Some((_, other)) => Err(WaiverError::at(
            other.pos(),
            format!(
                "`waivers` must be a list of waivers, found {}",
                other.kind()
            ),
        )),
    }
}

/// A mapping's entries by key ([`marked::mapping`]).
fn mapping<'a>(
    node: &'a Node,
    what: &str,
    known: &[&str],
) -> Result<marked::Fields<'a>, WaiverError> {
    marked::mapping(node, what, known).map_err(|(pos, message)| WaiverError::at(pos, message))
}

/// One entry of the `waivers:` list.
fn waiver(node: &Node) -> Result<Waiver, WaiverError> {
    let fields = mapping(node, "a waiver", &FIELDS)?;
    let required = |name: &str| -> Result<(Pos, String), WaiverError> {
        match fields.get(name) {
            Some((_, value)) => text(value, name).map(|t| (value.pos(), t)),
            None => Err(WaiverError::at(
                node.pos(),
                format!("the waiver is missing the required field `{name}`"),
            )),
        }
    };
    let optional = |name: &str| -> Result<Option<String>, WaiverError> {
        fields.get(name).map(|(_, v)| text(v, name)).transpose()
    };
    let (rule_pos, rule) = required("rule")?;
    let resource = optional("resource")?;
    let tags = match fields.get("tags") {
        Some((_, value)) => tags(value)?,
        None => BTreeMap::new(),
    };
    if resource.is_none() && tags.is_empty() {
        return Err(WaiverError::at(
            node.pos(),
            "the waiver names no resource: give `resource` (an id glob), `tags`, or both",
        ));
    }
    let (_, reason) = required("reason")?;
    let (_, owner) = required("owner")?;
    let (expires_pos, expires_text) = required("expires")?;
    let expires_at = parse_expiry(&expires_text).ok_or_else(|| {
        WaiverError::at(
            expires_pos,
            format!(
                "`expires` is \"{expires_text}\", which is neither a date (2027-03-31) nor an RFC 3339 time (2027-03-31T18:00:00Z)"
            ),
        )
    })?;
    let pos = node.pos();
    Ok(Waiver {
        rule,
        resource,
        tags,
        reason,
        owner,
        expires_text,
        expires_at,
        line: pos.line,
        column: pos.column,
        rule_pos: (rule_pos.line, rule_pos.column),
    })
}

/// A field's non-empty text value.
fn text(node: &Node, name: &str) -> Result<String, WaiverError> {
    match node {
        Node::Scalar { null: false, .. } if node.kind() != "a text value" => Err(WaiverError::at(
            node.pos(),
            format!(
                "`{name}` must be a text value, found {} (put it in quotes to mean the text)",
                node.kind()
            ),
        )),
        Node::Scalar {
            text, null: false, ..
        } if !text.trim().is_empty() => Ok(text.clone()),
        Node::Scalar { .. } => Err(WaiverError::at(node.pos(), format!("`{name}` is empty"))),
        other => Err(WaiverError::at(
            other.pos(),
            format!("`{name}` must be a text value, found {}", other.kind()),
        )),
    }
}

/// `tags: { key: value, ... }`: a mapping of text to text.
fn tags(node: &Node) -> Result<BTreeMap<String, String>, WaiverError> {
    let Node::Map { entries, .. } = node else {
        return Err(WaiverError::at(
            node.pos(),
            format!(
                "`tags` must be a mapping of tag names to values, found {}",
                node.kind()
            ),
        ));
    };
    let mut out = BTreeMap::new();
    for (key, value) in entries {
        let key = text(key, "a tag name")?;
        let value = text(value, &format!("tags.{key}"))?;
        if out.insert(key.clone(), value).is_some() {
            return Err(WaiverError::at(
                node.pos(),
                format!("the tag `{key}` is given twice"),
            ));
        }
    }
    Ok(out)
}

/// The first instant at which a waiver expiring at `text` no longer applies: for a date,
/// the start of the next day (UTC), so that the waiver holds through the whole day; for an
/// RFC 3339 time, that time.
pub fn parse_expiry(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Some(time.with_timezone(&Utc));
    }
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    Some(date.succ_opt()?.and_hms_opt(0, 0, 0)?.and_utc())
}

/// Checks that every waiver's `rule` glob names at least one rule of the run
/// (`"<group>/<rule>"`); the first that names none is an error at its `rule` value.
pub fn check_rules(waivers: &[Waiver], outcome: &RunOutcome) -> Result<(), WaiverError> {
    let names: Vec<String> = outcome
        .rules()
        .map(|(_, group, rule)| rule_key(&group.name, rule))
        .collect();
    for waiver in waivers {
        if names.iter().any(|name| glob_match(&waiver.rule, name)) {
            continue;
        }
        let (line, column) = waiver.rule_pos;
        let mut message = format!(
            "`rule` is \"{}\", which names no rule of the specs in this run (rules are named \"<group>/<rule>\")",
            waiver.rule
        );
        if let Some(near) = closest(&waiver.rule, &names) {
            message.push_str(&format!("; did you mean \"{near}\"?"));
        }
        return Err(WaiverError {
            line,
            column,
            message,
        });
    }
    Ok(())
}

/// The rule name closest to `pattern`, when it is close enough to be a likely typo.
fn closest<'a>(pattern: &str, names: &'a [String]) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (strsim::normalized_levenshtein(pattern, n), n))
        .filter(|(score, _)| *score >= 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n.as_str())
}

/// `"<group>/<rule>"`: what a waiver's `rule` glob is matched against.
fn rule_key(group: &str, rule: &RuleOutcome) -> String {
    format!("{group}/{}", rule.name)
}

/// Applies the waivers in force at `now` to the failing resources of `outcome`: each such
/// resource that a waiver matches becomes `waived`, carries the waiver and a note, and a
/// rule whose failures are all waived becomes `waived` (or `error`/`unknown` when another
/// resource is). The first matching waiver in file order applies. `tags_of` gives a
/// resource's tags; it is asked only for waivers that name tags.
pub fn apply(
    waivers: &[Waiver],
    outcome: &mut RunOutcome,
    now: DateTime<Utc>,
    tags_of: &dyn Fn(&ResourceOutcome) -> BTreeMap<String, String>,
) -> Applied {
    let mut matched = vec![0usize; waivers.len()];
    let mut applied = 0;
    for spec in &mut outcome.specs {
        for group in &mut spec.groups {
            for rule in &mut group.rules {
                let key = rule_key(&group.name, rule);
                let mut changed = false;
                for resource in rule
                    .resources
                    .iter_mut()
                    .filter(|r| r.status == Status::Fail)
                {
                    if let Some(waiver) =
                        choose(waivers, &key, resource, now, tags_of, &mut matched)
                    {
                        waive(resource, waiver);
                        applied += 1;
                        changed = true;
                    }
                }
                if changed {
                    settle_rule_status(rule);
                }
            }
        }
    }
    let mut result = Applied {
        applied,
        ..Applied::default()
    };
    for (waiver, count) in waivers.iter().zip(matched) {
        if now >= waiver.expires_at {
            result.expired.push((record(waiver), count));
        } else if count == 0 {
            result.unused.push(record(waiver));
        }
    }
    result
}

/// The first waiver in force at `now` that matches `resource` of the rule named `key`;
/// counts every match (expired or not, chosen or not) in `matched`.
fn choose<'w>(
    waivers: &'w [Waiver],
    key: &str,
    resource: &ResourceOutcome,
    now: DateTime<Utc>,
    tags_of: &dyn Fn(&ResourceOutcome) -> BTreeMap<String, String>,
    matched: &mut [usize],
) -> Option<&'w Waiver> {
    let mut tags = None;
    let mut chosen = None;
    for (waiver, count) in waivers.iter().zip(matched.iter_mut()) {
        let named = glob_match(&waiver.rule, key)
            && waiver
                .resource
                .as_deref()
                .is_none_or(|pattern| glob_match(pattern, &resource.id));
        if !named {
            continue;
        }
        if !waiver.tags.is_empty() {
            let tags = tags.get_or_insert_with(|| tags_of(resource));
            if !tags_match(&waiver.tags, tags) {
                continue;
            }
        }
        *count += 1;
        if chosen.is_none() && now < waiver.expires_at {
            chosen = Some(waiver);
        }
    }
    chosen
}

/// Whether every wanted tag is on the resource with a value its pattern matches.
fn tags_match(wanted: &BTreeMap<String, String>, tags: &BTreeMap<String, String>) -> bool {
    wanted.iter().all(|(name, pattern)| {
        tags.get(name)
            .is_some_and(|value| glob_match(pattern, value))
    })
}

/// Marks a failing resource as waived by `waiver`.
fn waive(resource: &mut ResourceOutcome, waiver: &Waiver) {
    resource.status = Status::Waived;
    let details = resource.details_mut();
    details.notes.push(format!(
        "accepted by a waiver until {} (owner {}): {}",
        waiver.expires_text, waiver.owner, waiver.reason
    ));
    details.waiver = Some(Box::new(record(waiver)));
}

/// The waiver as the outcome records it.
fn record(waiver: &Waiver) -> AppliedWaiver {
    AppliedWaiver {
        rule: waiver.rule.clone(),
        resource: waiver.resource.clone(),
        tags: waiver.tags.clone(),
        reason: waiver.reason.clone(),
        owner: waiver.owner.clone(),
        expires: waiver.expires_text.clone(),
        line: waiver.line,
    }
}

/// A failing rule's status once some of its failures are waived: `fail` while any failure
/// is left, else `error` if a resource errs, else `unknown` if one is unknown, else
/// `waived`. A rule already in `error` (its collection failed) stays so.
fn settle_rule_status(rule: &mut RuleOutcome) {
    if rule.status != Status::Fail {
        return;
    }
    let has = |s: Status| rule.resources.iter().any(|r| r.status == s);
    rule.status = if has(Status::Fail) {
        Status::Fail
    } else if has(Status::Error) {
        Status::Error
    } else if has(Status::Unknown) {
        Status::Unknown
    } else {
        Status::Waived
    };
    if rule.status == Status::Error && rule.error.is_none() {
        rule.error = Some(
            rule.resources
                .iter()
                .find_map(|r| r.error().map(str::to_string))
                .unwrap_or_else(|| "a resource could not be evaluated".into()),
        );
    }
}

/// Matches `text` against `pattern`, where `*` is any run of characters (`/` included)
/// and `?` any one character; everything else stands for itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and the text position it is currently matched up to.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("i-0abc*", "i-0abc123"));
        assert!(glob_match("i-0abc*", "i-0abc"));
        assert!(!glob_match("i-0abc*", "i-0ab"));
        assert!(glob_match("EC2 validations/*", "EC2 validations/Rule [x]"));
        assert!(glob_match("*/Rule ?", "G/Rule 1"));
        assert!(!glob_match("*/Rule ?", "G/Rule 10"));
        assert!(glob_match("*a*b*", "xxaxxbxx"));
        assert!(glob_match("[x]", "[x]"));
        assert!(!glob_match("[x]", "x"));
        assert!(glob_match("", ""));
        assert!(!glob_match("", "a"));
    }

    #[test]
    fn a_date_expires_at_the_end_of_its_day_utc() {
        let at = parse_expiry("2027-03-31").unwrap();
        assert_eq!(at.to_rfc3339(), "2027-04-01T00:00:00+00:00");
        let at = parse_expiry("2027-03-31T18:00:00+02:00").unwrap();
        assert_eq!(at.to_rfc3339(), "2027-03-31T16:00:00+00:00");
        assert_eq!(parse_expiry("2027-02-30"), None);
        assert_eq!(parse_expiry("next week"), None);
    }

    #[test]
    fn one_of_lists_names() {
        assert_eq!(marked::one_of(&["a"]), "`a`");
        assert_eq!(marked::one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
