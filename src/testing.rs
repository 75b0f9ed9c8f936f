//! Rule tests (`cloudspec test`): the test file format and the runner.
//!
//! A test file (`NAME.test.yaml`) sits next to the spec it tests (`NAME.cloudspec`, or the
//! file its `spec:` key names) and lists cases: an inventory, given inline or by a path
//! relative to the test file, and the verdicts the spec's rules must give on it
//! (`docs/testing.md`):
//!
//! ```yaml
//! cases:
//!   - name: SSH open to the world
//!     inventory: fixtures/open-ssh.json
//!     expect:
//!       "Security groups/No SSH from the internet": fail
//!       "Security groups/Default group is closed":
//!         status: pass
//!         resources: { sg-0default: pass, sg-0web: skip }
//! ```
//!
//! This module does no I/O: the CLI reads the files and hands their text and loaded
//! inventories in. [`parse_test_file`] reads the format, [`check_against_spec`] checks the
//! rule names against the spec, [`run_case`] evaluates one case, [`untested_rules`] finds the
//! rules no case expects to fail, and [`render_junit`] writes the results as JUnit XML.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde::Deserialize;

use crate::eval::SpecInput;
use crate::model::Inventory;
use crate::outcome::{RuleOutcome, Status};
use crate::syntax::ast::Spec;

/// The verdict a case expects of a rule, or of one resource (`skip` there means "not in
/// the rule's scope").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Expected {
    Pass,
    Fail,
    Skip,
    Unknown,
    Error,
}

impl Expected {
    /// Every verdict with its spelling in test files.
    pub const ALL: [(Expected, &'static str); 5] = [
        (Expected::Pass, "pass"),
        (Expected::Fail, "fail"),
        (Expected::Skip, "skip"),
        (Expected::Unknown, "unknown"),
        (Expected::Error, "error"),
    ];

    /// Parses `pass`, `fail`, `skip`, `unknown` or `error` (exact, lower case).
    pub fn parse(text: &str) -> Option<Expected> {
        Self::ALL.iter().find(|(_, s)| *s == text).map(|(e, _)| *e)
    }

    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, s)| s)
    }

    /// Whether an outcome status is this verdict.
    fn matches(self, status: Status) -> bool {
        matches!(
            (self, status),
            (Expected::Pass, Status::Pass)
                | (Expected::Fail, Status::Fail)
                | (Expected::Skip, Status::Skip)
                | (Expected::Unknown, Status::Unknown)
                | (Expected::Error, Status::Error)
        )
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed test file.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The spec under test, relative to the test file; `None`: the file's own stem.
    pub spec: Option<String>,
    /// Where the `spec:` value is written (1-based line and column), when it is.
    pub spec_position: Option<(usize, usize)>,
    /// The reference time of time predicates for every case that pins none (`now:`),
    /// nanoseconds since the Unix epoch.
    pub now: Option<i128>,
    pub cases: Vec<Case>,
}

/// One case: an inventory and the verdicts the spec must give on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    pub inventory: InventorySource,
    /// In the order of the rule names (`Group/Rule`), sorted.
    pub expect: Vec<RuleExpectation>,
    /// 1-based line of the case's name in the test file (0 when not found).
    pub line: usize,
    /// Where the inventory path is written (1-based line and column), for a path.
    pub inventory_position: Option<(usize, usize)>,
    /// The case's reference time of time predicates (`now:`), nanoseconds since the Unix
    /// epoch.
    pub now: Option<i128>,
}

/// Where a case's inventory comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum InventorySource {
    /// A path relative to the test file.
    Path(String),
    /// An inventory document written in the test file (`cloudspec_inventory` may be left
    /// out). See [`inline_inventory_json`].
    Inline(serde_json::Value),
    /// A Terraform root module (a directory relative to the test file), loaded as
    /// `cloudspec run --terraform` loads it (`terraform:` in the case).
    Terraform(String),
}

/// What a case expects of one rule.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleExpectation {
    /// `Group/Rule`.
    pub rule: String,
    /// The rule's verdict; `None` when only resources are checked.
    pub status: Option<Expected>,
    /// Resource id to verdict, sorted by id.
    pub resources: Vec<(String, Expected)>,
    /// Where the rule name is written (1-based; 0 when not found).
    pub line: usize,
    pub column: usize,
}

impl RuleExpectation {
    /// Whether this expectation makes the rule fail (directly or through a resource).
    pub fn expects_failure(&self) -> bool {
        self.status == Some(Expected::Fail)
            || self.resources.iter().any(|(_, e)| *e == Expected::Fail)
    }

    /// Whether this expectation makes the rule pass.
    pub fn expects_pass(&self) -> bool {
        self.status == Some(Expected::Pass)
    }
}

/// A problem in a test file, with its 1-based position when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFileError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl TestFileError {
    fn at(pos: Option<(usize, usize)>, message: impl Into<String>) -> Self {
        TestFileError {
            line: pos.map(|p| p.0),
            column: pos.map(|p| p.1),
            message: message.into(),
        }
    }
}

impl fmt::Display for TestFileError {
    /// `line:col: message`, or the message alone when the position is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}: {}", self.message),
            (Some(l), None) => write!(f, "{l}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

// -------------------------------------------------------------------------------------
// Parsing
// -------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    spec: Option<String>,
    #[serde(default)]
    now: Option<String>,
    cases: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    #[serde(default)]
    now: Option<String>,
    #[serde(default)]
    inventory: serde_json::Value,
    #[serde(default)]
    terraform: Option<String>,
    expect: BTreeMap<String, serde_json::Value>,
}

/// Parses a test file's text. Every problem found is returned, each with its position
/// where it can be found.
pub fn parse_test_file(source: &str) -> Result<TestFile, Vec<TestFileError>> {
    // serde_yaml_ng bounds alias repetition only loosely (a small file can still expand to
    // gigabytes): the same bounds as waiver files first.
    crate::waivers::marked::check_expansion(source).map_err(|e| {
        vec![TestFileError::at(
            Some((e.pos.line, e.pos.column)),
            e.message,
        )]
    })?;
    let raw: RawFile = serde_yaml_ng::from_str(source).map_err(|e| {
        let pos = e.location().map(|l| (l.line(), l.column()));
        vec![TestFileError::at(pos, yaml_message(&e))]
    })?;
    let mut errors = Vec::new();
    let now = match raw.now.as_deref() {
        Some(text) => match parse_now(text) {
            Ok(at) => Some(at),
            Err(message) => {
                errors.push(TestFileError::at(
                    locate(source, text, top_level_key(source, "now")),
                    message,
                ));
                None
            }
        },
        None => None,
    };
    if raw.cases.is_empty() {
        errors.push(TestFileError::at(
            locate(source, "cases", 0),
            "`cases` is empty: a test file needs at least one case",
        ));
    }
    let mut cursor = 0;
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for raw_case in raw.cases {
        let pos = locate(source, &raw_case.name, cursor);
        if let Some(p) = pos {
            cursor = offset_of(source, p);
        }
        if !names.insert(raw_case.name.clone()) {
            errors.push(TestFileError::at(
                pos,
                format!("duplicate case name \"{}\"", raw_case.name),
            ));
        }
        match parse_case(source, cursor, raw_case, pos) {
            Ok(case) => cases.push(case),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        let spec_position = raw
            .spec
            .as_deref()
            .and_then(|spec| locate(source, spec, source.find("spec:").unwrap_or(0)));
        Ok(TestFile {
            spec: raw.spec,
            spec_position,
            now,
            cases,
        })
    } else {
        Err(errors)
    }
}

/// The offset of a top-level `key:` (at the start of a line, not indented), or 0.
fn top_level_key(source: &str, key: &str) -> usize {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if line
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
        {
            return offset;
        }
        offset += line.len();
    }
    0
}

/// A test file's `now:`: an RFC 3339 timestamp with `Z` or an offset (or a date).
fn parse_now(text: &str) -> Result<i128, String> {
    crate::predicates::parse_instant(text).ok_or_else(|| {
        format!(
            "`now` is \"{}\", which is not an RFC 3339 timestamp such as \"2026-11-22T07:00:00Z\"",
            crate::text::escape_control(&cloudspec_model::input::truncate_chars(text, 60))
        )
    })
}

/// serde_yaml_ng's message without the position it appends (we print our own).
fn yaml_message(e: &serde_yaml_ng::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn parse_case(
    source: &str,
    cursor: usize,
    raw: RawCase,
    pos: Option<(usize, usize)>,
) -> Result<Case, Vec<TestFileError>> {
    let mut errors = Vec::new();
    let now = match raw.now.as_deref() {
        Some(text) => match parse_now(text) {
            Ok(at) => Some(at),
            Err(message) => {
                errors.push(TestFileError::at(
                    locate(source, text, cursor),
                    format!("case \"{}\": {message}", raw.name),
                ));
                None
            }
        },
        None => None,
    };
    let inventory = match (raw.inventory, raw.terraform) {
        (serde_json::Value::Null, Some(dir)) if !dir.is_empty() => InventorySource::Terraform(dir),
        (serde_json::Value::Null, Some(_)) => {
            errors.push(TestFileError::at(
                pos,
                format!(
                    "case \"{}\": `terraform` must name a root module's directory",
                    raw.name
                ),
            ));
            InventorySource::Inline(serde_json::Value::Null)
        }
        (_, Some(_)) => {
            errors.push(TestFileError::at(
                pos,
                format!(
                    "case \"{}\": give either `inventory` or `terraform`, not both",
                    raw.name
                ),
            ));
            InventorySource::Inline(serde_json::Value::Null)
        }
        (serde_json::Value::String(path), None) if !path.is_empty() => InventorySource::Path(path),
        (value @ serde_json::Value::Object(_), None) => InventorySource::Inline(value),
        (serde_json::Value::Null, None) => {
            errors.push(TestFileError::at(
                pos,
                format!(
                    "case \"{}\": an `inventory` (a file path or an inventory document) or a `terraform` directory is required",
                    raw.name
                ),
            ));
            InventorySource::Inline(serde_json::Value::Null)
        }
        _ => {
            errors.push(TestFileError::at(
                pos,
                format!(
                    "case \"{}\": `inventory` must be a file path or an inventory document (a mapping with `resources`)",
                    raw.name
                ),
            ));
            InventorySource::Inline(serde_json::Value::Null)
        }
    };
    if raw.expect.is_empty() {
        errors.push(TestFileError::at(
            pos,
            format!("case \"{}\": `expect` names no rule", raw.name),
        ));
    }
    let mut expect = Vec::new();
    for (rule, value) in raw.expect {
        let at = locate(source, &rule, cursor);
        match parse_expectation(&rule, &value) {
            Ok((status, resources)) => expect.push(RuleExpectation {
                line: at.map_or(0, |p| p.0),
                column: at.map_or(0, |p| p.1),
                rule,
                status,
                resources,
            }),
            Err(message) => errors.push(TestFileError::at(at, message)),
        }
    }
    if errors.is_empty() {
        let inventory_position = match &inventory {
            InventorySource::Path(path) | InventorySource::Terraform(path) => {
                locate(source, path, cursor)
            }
            InventorySource::Inline(_) => None,
        };
        Ok(Case {
            name: raw.name,
            inventory,
            inventory_position,
            expect,
            line: pos.map_or(0, |p| p.0),
            now,
        })
    } else {
        Err(errors)
    }
}

type ParsedExpectation = (Option<Expected>, Vec<(String, Expected)>);

/// `fail`, or `{status: fail, resources: {id: pass, ...}}`.
fn parse_expectation(rule: &str, value: &serde_json::Value) -> Result<ParsedExpectation, String> {
    match value {
        serde_json::Value::String(s) => Ok((Some(verdict(rule, s)?), Vec::new())),
        serde_json::Value::Object(map) => {
            if let Some(key) = map.keys().find(|k| *k != "status" && *k != "resources") {
                return Err(format!(
                    "\"{rule}\": unknown key `{key}` (expected `status` and/or `resources`)"
                ));
            }
            let status = match map.get("status") {
                None => None,
                Some(serde_json::Value::String(s)) => Some(verdict(rule, s)?),
                Some(_) => return Err(format!("\"{rule}\": `status` must be a verdict such as fail")),
            };
            let resources = match map.get("resources") {
                None => Vec::new(),
                Some(serde_json::Value::Object(res)) => res
                    .iter()
                    .map(|(id, v)| match v.as_str() {
                        Some(s) => verdict(rule, s).map(|e| (id.clone(), e)),
                        None => Err(format!("\"{rule}\": resource \"{id}\" needs a verdict such as fail")),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => {
                    return Err(format!(
                        "\"{rule}\": `resources` must map resource ids to verdicts"
                    ))
                }
            };
            if status.is_none() && resources.is_empty() {
                return Err(format!("\"{rule}\": expects nothing (give `status` or `resources`)"));
            }
            Ok((status, resources))
        }
        _ => Err(format!(
            "\"{rule}\": expected a verdict (pass, fail, skip, unknown, error) or a mapping with `status` and `resources`"
        )),
    }
}

fn verdict(rule: &str, text: &str) -> Result<Expected, String> {
    Expected::parse(text).ok_or_else(|| {
        format!(
            "\"{rule}\": unknown verdict \"{text}\" (expected pass, fail, skip, unknown or error)"
        )
    })
}

/// 1-based line and column of the first `needle` at or after byte `from`, preferring a
/// quoted occurrence (`"needle"`), which is how rule names are usually written.
fn locate(source: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    let rest = source.get(from..)?;
    let quoted = format!("\"{needle}\"");
    let found = rest
        .find(&quoted)
        .or_else(|| rest.find(needle))
        .map(|i| from + i)?;
    Some(crate::diagnostic::line_col(source, found))
}

/// Byte offset of a 1-based line and column (columns in characters).
fn offset_of(source: &str, (line, column): (usize, usize)) -> usize {
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let in_line: usize = source
        .get(line_start..)
        .unwrap_or_default()
        .chars()
        .take(column.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    line_start + in_line
}

/// The JSON text of an inline inventory: the document as written, with
/// `"cloudspec_inventory": 1` added when it is left out.
pub fn inline_inventory_json(value: &serde_json::Value) -> Vec<u8> {
    let mut doc = value.clone();
    if let serde_json::Value::Object(map) = &mut doc {
        map.entry("cloudspec_inventory")
            .or_insert(serde_json::Value::from(1));
    }
    serde_json::to_vec(&doc).unwrap_or_default()
}

// -------------------------------------------------------------------------------------
// Checking against the spec
// -------------------------------------------------------------------------------------

/// Every rule of `spec` as `Group/Rule`, in source order.
pub fn rule_keys(spec: &Spec) -> Vec<String> {
    spec.groups
        .iter()
        .flat_map(|g| {
            g.rules
                .iter()
                .map(move |r| format!("{}/{}", g.name.value, r.name.value))
        })
        .collect()
}

/// An error for every expectation naming a rule the spec does not have.
pub fn check_against_spec(file: &TestFile, spec: &Spec) -> Vec<TestFileError> {
    let keys = rule_keys(spec);
    let names: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut errors = Vec::new();
    for case in &file.cases {
        for exp in &case.expect {
            if names.contains(&exp.rule.as_str()) {
                continue;
            }
            let help = match crate::check::suggest(&exp.rule, &names) {
                Some(s) => format!("; did you mean \"{s}\"?"),
                None => format!(
                    " (rules are named \"Group/Rule\"; this spec has {})",
                    names.len()
                ),
            };
            errors.push(TestFileError {
                line: (exp.line > 0).then_some(exp.line),
                column: (exp.column > 0).then_some(exp.column),
                message: format!(
                    "case \"{}\": the spec has no rule \"{}\"{help}",
                    case.name, exp.rule
                ),
            });
        }
    }
    errors
}

// -------------------------------------------------------------------------------------
// Running
// -------------------------------------------------------------------------------------

/// The result of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    pub name: String,
    /// Empty when the case passed.
    pub mismatches: Vec<Mismatch>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// One verdict that differed from the expected one.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// `Group/Rule`.
    pub rule: String,
    /// The resource id, for a resource expectation.
    pub resource: Option<String>,
    pub expected: Expected,
    /// What came out: `pass`, `fail`, ..., or `not in scope` for a resource.
    pub actual: String,
    /// Why, when the evaluation says: failing paths, the rule's error.
    pub details: Vec<String>,
}

impl fmt::Display for Mismatch {
    /// `Group/Rule: expected fail, got pass` or
    /// `Group/Rule: resource sg-1: expected fail, got pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.rule)?;
        if let Some(id) = &self.resource {
            write!(f, "resource {id}: ")?;
        }
        if self.actual == NOT_IN_SCOPE {
            write!(f, "expected {}, but it is not in scope", self.expected)
        } else {
            write!(f, "expected {}, got {}", self.expected, self.actual)
        }
    }
}

const NOT_IN_SCOPE: &str = "not in scope";

/// How many failing resources a mismatch names at most.
const MAX_DETAILS: usize = 5;

/// Evaluates `spec` against `inventory` and compares the verdicts with `case`. Expectations
/// naming rules the spec lacks are reported as mismatches (`check_against_spec` catches
/// them earlier).
///
/// Time predicates are judged at `now` when given (the case's `now:`, else the file's, else
/// `cloudspec test --now`), else at the inventory's `collected_at`, else at the clock.
pub fn run_case(
    spec: SpecInput<'_>,
    inventory: &Inventory,
    case: &Case,
    now: Option<i128>,
) -> CaseResult {
    let now = case.now.or(now).unwrap_or_else(|| {
        let clock = crate::predicates::instant_of(&chrono::Utc::now());
        crate::eval::reference_time(inventory, clock)
    });
    let outcome = crate::eval::evaluate_at(
        &[spec],
        inventory,
        crate::eval::default_threads(),
        crate::eval::Limits::default(),
        now,
    );
    let rules: BTreeMap<String, &RuleOutcome> = outcome
        .rules()
        .map(|(_, g, r)| (format!("{}/{}", g.name, r.name), r))
        .collect();
    let mut mismatches = Vec::new();
    for exp in &case.expect {
        match rules.get(&exp.rule) {
            Some(rule) => compare_rule(exp, rule, &mut mismatches),
            None => mismatches.push(Mismatch {
                rule: exp.rule.clone(),
                resource: None,
                expected: exp.status.unwrap_or(Expected::Pass),
                actual: "no such rule".into(),
                details: Vec::new(),
            }),
        }
    }
    CaseResult {
        name: case.name.clone(),
        mismatches,
    }
}

fn compare_rule(exp: &RuleExpectation, rule: &RuleOutcome, out: &mut Vec<Mismatch>) {
    if let Some(expected) = exp.status {
        if !expected.matches(rule.status) {
            out.push(Mismatch {
                rule: exp.rule.clone(),
                resource: None,
                expected,
                actual: rule.status.to_string(),
                details: rule_details(rule),
            });
        }
    }
    for (id, expected) in &exp.resources {
        let found = rule.resources.iter().find(|r| r.id == id);
        let (ok, actual, details) = match found {
            None => (
                *expected == Expected::Skip,
                NOT_IN_SCOPE.to_string(),
                Vec::new(),
            ),
            Some(r) => (
                *expected != Expected::Skip && expected.matches(r.status),
                r.status.to_string(),
                resource_details(r),
            ),
        };
        if !ok {
            out.push(Mismatch {
                rule: exp.rule.clone(),
                resource: Some(id.clone()),
                expected: *expected,
                actual,
                details,
            });
        }
    }
}

/// The rule's error, or its failing resources with their first failure.
fn rule_details(rule: &RuleOutcome) -> Vec<String> {
    if let Some(error) = &rule.error {
        return vec![error.clone()];
    }
    let failing: Vec<String> = rule
        .resources
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error | Status::Unknown))
        .map(|r| {
            let why = resource_details(r).into_iter().next().unwrap_or_default();
            format!("{} {}: {why}", r.status, r.id)
        })
        .collect();
    let extra = failing.len().saturating_sub(MAX_DETAILS);
    let mut out: Vec<String> = failing.into_iter().take(MAX_DETAILS).collect();
    if extra > 0 {
        out.push(format!("... and {extra} more"));
    }
    out
}

fn resource_details(r: &crate::outcome::ResourceOutcome) -> Vec<String> {
    let mut out: Vec<String> = r.error().map(str::to_string).into_iter().collect();
    out.extend(
        r.failures()
            .iter()
            .map(|f| format!("{}: {}", f.path, f.message)),
    );
    out.extend(
        r.unknowns()
            .iter()
            .map(|u| format!("{}: unknown ({})", u.path, u.reason)),
    );
    out
}

// -------------------------------------------------------------------------------------
// Coverage
// -------------------------------------------------------------------------------------

/// The verdicts the cases of `files` expect of each rule of `spec` (every rule is listed,
/// with an empty set when no case names it).
pub fn expected_verdicts<'a>(
    spec: &Spec,
    files: impl IntoIterator<Item = &'a TestFile>,
) -> BTreeMap<String, BTreeSet<Expected>> {
    let mut out: BTreeMap<String, BTreeSet<Expected>> = rule_keys(spec)
        .into_iter()
        .map(|k| (k, BTreeSet::new()))
        .collect();
    for file in files {
        for exp in file.cases.iter().flat_map(|c| &c.expect) {
            let Some(set) = out.get_mut(&exp.rule) else {
                continue;
            };
            if exp.expects_failure() {
                set.insert(Expected::Fail);
            }
            if let Some(status) = exp.status {
                set.insert(status);
            }
        }
    }
    out
}

/// The rules of `spec` (`Group/Rule`, in source order) that no case expects to fail.
pub fn untested_rules<'a>(
    spec: &Spec,
    files: impl IntoIterator<Item = &'a TestFile>,
) -> Vec<String> {
    let verdicts = expected_verdicts(spec, files);
    rule_keys(spec)
        .into_iter()
        .filter(|k| verdicts.get(k).is_none_or(|v| !v.contains(&Expected::Fail)))
        .collect()
}

// -------------------------------------------------------------------------------------
// JUnit
// -------------------------------------------------------------------------------------

/// The results of one test file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileResults {
    /// The test file as given.
    pub file: String,
    /// The spec it tests.
    pub spec_file: String,
    pub cases: Vec<CaseResult>,
}

/// The results as JUnit XML: one `<testsuite>` per test file, one `<testcase>` per case
/// (`classname` = the spec file), a `<failure>` listing what differed.
pub fn render_junit(files: &[FileResults]) -> String {
    let mut report = Report::new("cloudspec test");
    for file in files {
        let mut suite = TestSuite::new(file.file.as_str());
        for case in &file.cases {
            let status = if case.passed() {
                TestCaseStatus::success()
            } else {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(format!(
                        "{} verdict(s) differ from the expected ones",
                        case.mismatches.len()
                    ))
                    .set_type("mismatch")
                    .set_description(describe_mismatches(&case.mismatches));
                status
            };
            let mut test_case = TestCase::new(case.name.as_str(), status);
            test_case.set_classname(file.spec_file.as_str());
            suite.add_test_case(test_case);
        }
        report.add_test_suite(suite);
    }
    match report.to_string() {
        Ok(xml) => crate::report::junit::finish(&xml),
        Err(_) => EMPTY_JUNIT.into(),
    }
}

/// What [`render_junit`] returns should serialising fail (it writes to memory, so it does
/// not): still a valid document for CI.
const EMPTY_JUNIT: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cloudspec test\" tests=\"0\" failures=\"0\" errors=\"0\"/>\n";

/// Every mismatch on its line, its details indented below it.
pub fn describe_mismatches(mismatches: &[Mismatch]) -> String {
    let mut out = String::new();
    for m in mismatches {
        out.push_str(&m.to_string());
        out.push('\n');
        for d in &m.details {
            out.push_str("  ");
            out.push_str(d);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_short_and_long_expectations() {
        let src = "cases:\n  - name: one\n    inventory: inv.json\n    expect:\n      \"G/R\": fail\n      \"G/S\":\n        status: pass\n        resources: {a: pass, b: skip}\n";
        let file = parse_test_file(src).expect("valid");
        let case = &file.cases[0];
        assert_eq!(case.inventory, InventorySource::Path("inv.json".into()));
        assert_eq!(case.line, 2);
        assert_eq!(case.expect[0].status, Some(Expected::Fail));
        assert_eq!((case.expect[0].line, case.expect[0].column), (5, 7));
        assert_eq!(
            case.expect[1].resources,
            vec![("a".into(), Expected::Pass), ("b".into(), Expected::Skip)]
        );
    }

    #[test]
    fn reports_bad_verdicts_with_position() {
        let src =
            "cases:\n  - name: one\n    inventory: inv.json\n    expect:\n      \"G/R\": fial\n";
        let errors = parse_test_file(src).expect_err("invalid");
        assert_eq!(
            errors[0].to_string(),
            "5:7: \"G/R\": unknown verdict \"fial\" (expected pass, fail, skip, unknown or error)"
        );
    }

    #[test]
    fn reports_yaml_errors_with_position() {
        let errors =
            parse_test_file("cases:\n  - name: one\n    inventry: x\n").expect_err("invalid");
        assert_eq!(errors[0].line, Some(3));
        assert!(
            errors[0].message.contains("unknown field `inventry`"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn inline_inventory_gets_a_version() {
        let value = serde_json::json!({"resources": []});
        let bytes = inline_inventory_json(&value);
        let doc: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        assert_eq!(doc["cloudspec_inventory"], 1);
    }
}
