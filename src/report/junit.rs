//! The JUnit XML report (`--format junit`), for CI servers' test reporters.
//!
//! One `<testsuite>` per group, one `<testcase>` per rule x resource in scope
//! (`classname` = rule, `name` = resource id). A rule with no resource in scope is one
//! skipped testcase named after the rule; a rule in `error` adds one testcase named after
//! the rule whose `<error>` carries the rule's message. The output validates against the
//! Jenkins xunit plugin's `junit-10.xsd` (`tests/fixtures/report/junit.xsd`).

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::Range;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite, XmlString};

use super::{group_label, pieces, sorted_resources};
use crate::outcome::{
    ControlStatus, ControlVerdict, ControlsView, ResourceOutcome, RuleOutcome, RunOutcome,
    SpecOutcome, Status,
};

/// The name of the `<testsuites>` element.
const REPORT_NAME: &str = "cloudspec";

/// Renders `outcome` as JUnit XML.
pub fn render(outcome: &RunOutcome) -> String {
    let mut out = Vec::new();
    match write(outcome, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        // Writing to memory does not fail; should it, still hand CI a valid document.
        Err(_) => format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"{REPORT_NAME}\" tests=\"0\" failures=\"0\" errors=\"0\"/>\n"
        ),
    }
}

/// The name of the testcase that stands for rule `k`'s testcases in the skeleton.
fn placeholder(k: usize) -> String {
    format!("cloudspec-internal-slot-{k}")
}

/// Writes `outcome` as JUnit XML to `out` as it is serialized (a big account's report is
/// never held whole as text).
///
/// The document is written in two parts. quick-junit writes the skeleton: the report with
/// one placeholder testcase per rule and each suite's true counts. Each rule's testcases
/// are cut into pieces, written on every core (`pieces`) by [`write_case`] with quick-junit's
/// bytes. The skeleton's lines are copied out, each placeholder replaced by its rule's
/// pieces in order: the same bytes as quick-junit writing the whole report
/// (`tests/it/report.rs` and the tests below pin them).
pub fn write(outcome: &RunOutcome, out: &mut dyn Write) -> io::Result<()> {
    let rules: Vec<RuleCases<'_>> = outcome
        .rules()
        .map(|(_, _, rule)| RuleCases::new(rule))
        .collect();
    let mut skeleton = Vec::new();
    build(outcome, &rules)
        .serialize(&mut skeleton)
        .map_err(io::Error::other)?;
    let lens: Vec<usize> = rules.iter().map(RuleCases::len).collect();
    let piece = |k: usize, items: Range<usize>, buffer: &mut Vec<u8>| match rules.get(k) {
        Some(cases) => cases.render(items, buffer),
        None => Ok(()),
    };
    let mut filtered = WithoutDisabled::new(out);
    let written = pieces::in_order(&lens, crate::default_threads(), &piece, |stream| {
        let mut lines = skeleton.split_inclusive(|&b| b == b'\n');
        let mut next = 0;
        while let Some(line) = lines.next() {
            if next < rules.len() && is_placeholder(line, next) {
                // The placeholder's start tag, then its end tag on the next line. The
                // pieces are complete lines the filter would pass unchanged (`write_case`),
                // so they go past it, whose line is empty here.
                if lines.next().map(<[u8]>::trim_ascii) != Some(b"</testcase>") {
                    return Err(io::Error::other("internal error: a JUnit placeholder"));
                }
                stream.write_array(next, filtered.inner())?;
                next += 1;
            } else {
                filtered.write_all(line)?;
            }
        }
        if next != rules.len() {
            return Err(io::Error::other(
                "internal error: a JUnit placeholder is missing",
            ));
        }
        Ok::<(), io::Error>(())
    });
    if let Err(error) = written {
        // The writer's own error ("No space left on device") when it gave one.
        return Err(filtered.failed.take().unwrap_or(error));
    }
    filtered.finish()
}

/// Whether `line` is the start tag of rule `k`'s placeholder.
fn is_placeholder(line: &[u8], k: usize) -> bool {
    let tag = format!("<testcase name=\"{}\">", placeholder(k));
    line.trim_ascii() == tag.as_bytes()
}

/// The quick-junit skeleton of `outcome`: every suite with its true counts, and in place of
/// each rule's testcases one placeholder.
fn build(outcome: &RunOutcome, rules: &[RuleCases<'_>]) -> Report {
    let mut report = Report::new(REPORT_NAME);
    let mut total = Duration::ZERO;
    // The run's number of the group's first rule.
    let mut first = 0;
    for spec in &outcome.specs {
        for group in &spec.groups {
            let cases = rules
                .get(first..first + group.rules.len())
                .unwrap_or_default();
            let suite = group_suite(outcome, spec, &group.name, first, cases);
            first += group.rules.len();
            total += suite.time.unwrap_or_default();
            report.add_test_suite(suite);
        }
    }
    if let Some(view) = &outcome.audit.controls {
        report.add_test_suite(controls_suite(outcome, view));
    }
    report.set_time(total);
    report
}

/// The controls view as one more `<testsuite>`, named after the benchmark: its properties
/// name the benchmark, version, reference prefix and file; one testcase per control in
/// benchmark order (`classname` = the section, `name` = id and title), failing when the
/// control fails, an error when it is `error`, skipped with the reason otherwise unless
/// it passes. The body lists the control's reference and rules.
fn controls_suite(outcome: &RunOutcome, view: &ControlsView) -> TestSuite {
    let mut suite = TestSuite::new(format!("{} {}", view.benchmark, view.version));
    suite.add_properties([
        ("benchmark", view.benchmark.as_str()),
        ("version", view.version.as_str()),
        ("reference_prefix", view.reference_prefix.as_str()),
        ("controls_file", view.file.as_str()),
    ]);
    for (section, control) in view.controls() {
        let classname = XmlString::new(format!("{} {}", section.id, section.title));
        let name = format!("{} {}", control.id, control.title);
        let status = control_status(outcome, control).quick_junit();
        let case = named_case(&classname, &name, status);
        suite.add_test_case(case);
    }
    suite.set_time(Duration::ZERO);
    let skipped = suite.disabled.to_string();
    suite.extra.insert("skipped".into(), skipped.into());
    suite.extra.insert("file".into(), view.file.as_str().into());
    suite
}

/// `its rule fails` (of one rule), `2 of its 3 rules fail`.
fn how_many(n: usize, of: usize, one: &str, several: &str) -> String {
    if of == 1 {
        format!("its rule {one}")
    } else {
        format!("{n} of its {of} rules {several}")
    }
}

/// A control's verdict in JUnit terms.
fn control_status(outcome: &RunOutcome, control: &ControlVerdict) -> CaseStatus<'static> {
    let rules = control.rules.len();
    let with = |status: Status| control.rules.iter().filter(|r| r.status == status).count();
    let (kind, message) = match control.status {
        // A passing testcase has no element to carry a body; its rules are in the JSON
        // and SARIF reports.
        ControlStatus::Pass => return CaseStatus::success(),
        ControlStatus::Fail => (
            Kind::Failure,
            how_many(with(Status::Fail), rules, "fails", "fail"),
        ),
        ControlStatus::Error => (
            Kind::Error,
            how_many(
                with(Status::Error),
                rules,
                "could not be evaluated",
                "could not be evaluated",
            ),
        ),
        other => {
            let why = match other {
                ControlStatus::Unknown => "a rule could not be decided",
                ControlStatus::Waived => "every failure is waived",
                ControlStatus::Skip => "no resource in scope of its rules",
                ControlStatus::Manual => "assessed by hand; no rule of the run checks it",
                _ => "no rule of the run checks this automated control",
            };
            (Kind::Skipped, format!("{}: {why}", other.label()))
        }
    };
    let mut lines = vec![control.reference.clone()];
    for rule in &control.rules {
        let mut line = format!(
            "{}: {} / {}",
            rule.status,
            group_label(outcome, &rule.spec, &rule.group),
            rule.name
        );
        if rule.failing > 0 {
            line.push_str(&format!(
                " ({} of {} failing)",
                rule.failing, rule.resources
            ));
        }
        line.push_str(&format!(" [{}:{}]", rule.location.file, rule.location.line));
        lines.push(line);
    }
    CaseStatus::new(kind, message, Some(lines.join("\n")))
}

/// One group as a `<testsuite>` of the skeleton: a placeholder per rule (numbered from
/// `first` in the run), the counts of its rules' testcases, its spec file and a `skipped`
/// count.
fn group_suite(
    outcome: &RunOutcome,
    spec: &SpecOutcome,
    group: &str,
    first: usize,
    rules: &[RuleCases<'_>],
) -> TestSuite {
    let mut suite = TestSuite::new(group_label(outcome, &spec.name, group));
    let mut time = Duration::ZERO;
    let (mut tests, mut failures, mut errors, mut disabled) = (0, 0, 0, 0);
    for (k, cases) in rules.iter().enumerate() {
        time += seconds(cases.rule.elapsed_secs);
        suite.add_test_case(TestCase::new(
            placeholder(first + k),
            TestCaseStatus::success(),
        ));
        tests += cases.len();
        for kind in cases.kinds() {
            match kind {
                Kind::Success => {}
                Kind::Failure => failures += 1,
                Kind::Error => errors += 1,
                Kind::Skipped => disabled += 1,
            }
        }
    }
    (suite.tests, suite.failures, suite.errors, suite.disabled) =
        (tests, failures, errors, disabled);
    suite.set_time(time);
    let skipped = suite.disabled.to_string();
    suite.extra.insert("skipped".into(), skipped.into());
    suite.extra.insert("file".into(), spec.file.as_str().into());
    suite
}

/// What a testcase is, as the counts of its suite see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Success,
    Failure,
    Error,
    Skipped,
}

/// The kind of a resource's testcase ([`resource_status`] decides the rest).
fn kind_of(status: Status) -> Kind {
    match status {
        Status::Pass => Kind::Success,
        Status::Fail => Kind::Failure,
        Status::Error => Kind::Error,
        Status::Unknown | Status::Waived | Status::Skip => Kind::Skipped,
    }
}

/// A testcase's status: its kind and, unless it passes, its status element's message and
/// text. Decided once; [`write_case`] writes it for rules' testcases, quick-junit
/// ([`CaseStatus::quick_junit`]) for controls' and as the tests' reference.
struct CaseStatus<'a> {
    kind: Kind,
    /// The element's `message`; empty and unused for a success.
    message: Cow<'a, str>,
    /// The element's text, when it has one (a failure's always has, even empty).
    description: Option<String>,
}

impl<'a> CaseStatus<'a> {
    fn success() -> Self {
        CaseStatus {
            kind: Kind::Success,
            message: Cow::Borrowed(""),
            description: None,
        }
    }

    fn new(kind: Kind, message: impl Into<Cow<'a, str>>, description: Option<String>) -> Self {
        CaseStatus {
            kind,
            message: message.into(),
            description,
        }
    }

    /// The status element's tag and `type`; none for a success.
    fn element(&self) -> Option<(&'static str, Option<&'static str>)> {
        match self.kind {
            Kind::Success => None,
            Kind::Failure => Some(("failure", Some("fail"))),
            Kind::Error => Some(("error", Some("error"))),
            Kind::Skipped => Some(("skipped", None)),
        }
    }

    /// The same status as quick-junit's.
    fn quick_junit(&self) -> TestCaseStatus {
        let mut status = match self.kind {
            Kind::Success => return TestCaseStatus::success(),
            Kind::Failure => TestCaseStatus::non_success(NonSuccessKind::Failure),
            Kind::Error => TestCaseStatus::non_success(NonSuccessKind::Error),
            Kind::Skipped => TestCaseStatus::skipped(),
        };
        status.set_message(self.message.as_ref());
        if let Some((_, Some(ty))) = self.element() {
            status.set_type(ty);
        }
        if let Some(description) = &self.description {
            status.set_description(description.as_str());
        }
        status
    }
}

/// The testcases of one rule: one per resource in scope (sorted), then the rule's own: an
/// error when the rule is `error`, a skipped one when no resource is in scope. They share
/// the rule's evaluation time equally.
struct RuleCases<'a> {
    rule: &'a RuleOutcome,
    resources: Vec<&'a ResourceOutcome>,
    /// The `classname` of every testcase as written (the rule's name cleaned and escaped),
    /// made once.
    classname: Vec<u8>,
}

impl<'a> RuleCases<'a> {
    fn new(rule: &'a RuleOutcome) -> Self {
        let mut classname = Vec::new();
        push_string(&mut classname, &rule.name);
        RuleCases {
            rule,
            resources: sorted_resources(rule),
            classname,
        }
    }

    /// The rule's own testcase's kind, when it has one.
    fn own(&self) -> Option<Kind> {
        if self.rule.status == Status::Error {
            Some(Kind::Error)
        } else if self.resources.is_empty() {
            Some(Kind::Skipped)
        } else {
            None
        }
    }

    fn len(&self) -> usize {
        self.resources.len() + usize::from(self.own().is_some())
    }

    fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        self.resources
            .iter()
            .map(|r| kind_of(r.status))
            .chain(self.own())
    }

    /// The `name` and status of testcase `index`.
    fn parts(&self, index: usize) -> (&'a str, CaseStatus<'a>) {
        let rule = self.rule;
        match self.resources.get(index) {
            Some(resource) => (resource.id.as_str(), resource_status(rule, resource)),
            None if rule.status == Status::Error => {
                let message = rule
                    .error
                    .as_deref()
                    .unwrap_or("the rule could not be evaluated");
                (&rule.name, CaseStatus::new(Kind::Error, message, None))
            }
            None => {
                let message = format!("skip: no {} in scope", rule.on);
                (&rule.name, CaseStatus::new(Kind::Skipped, message, None))
            }
        }
    }

    /// The `time` of each testcase: the rule's, shared equally.
    fn time(&self) -> Duration {
        let count = u32::try_from(self.len()).unwrap_or(u32::MAX).max(1);
        seconds(self.rule.elapsed_secs) / count
    }

    /// Testcase `index` as quick-junit's: the reference of [`RuleCases::render`].
    #[cfg(test)]
    fn case(&self, index: usize) -> TestCase {
        let (name, status) = self.parts(index);
        let mut case = named_case(&XmlString::new(&self.rule.name), name, status.quick_junit());
        case.set_time(self.time());
        case
    }

    /// Testcases `items`, as quick-junit writes them inside a suite and the document's
    /// filter ([`WithoutDisabled`]) passes them on ([`write_case`]).
    fn render(&self, items: Range<usize>, buffer: &mut Vec<u8>) -> io::Result<()> {
        // quick-junit's `time`: seconds with three decimals.
        let time = format!("{:.3}", self.time().as_secs_f64());
        for index in items {
            let (name, status) = self.parts(index);
            write_case(buffer, name, &self.classname, &time, &status);
        }
        Ok(())
    }
}

/// Appends one testcase (`classname` written already), byte for byte as quick-junit 0.5
/// (quick-xml 0.38's writer, indented by 4) writes it in a suite of a report, the status
/// element on a line of its own, its text (if any) between the tags:
///
/// ```text
///         <testcase name="vol-1" classname="rule" time="0.001">
///             <failure message="M" type="fail">TEXT</failure>
///         </testcase>
/// ```
///
/// `<skipped message="M"/>` when there is no text, nothing between the two testcase lines
/// for a success. Every string goes through [`push_string`].
///
/// Hand-written, and byte-exact for compatibility with quick-junit (which still writes the
/// skeleton and controls): quick-junit's `XmlString::new` runs every string through an ANSI
/// escape parser char by char, and with quick-xml's writer that was most of a JUnit
/// report's time (at 100k instances the report step went from 1.0-1.2 s to 0.15-0.27 s).
/// The tests below compare the two on hostile strings and every status.
///
/// The document's filter, [`WithoutDisabled`], is the identity on these bytes, so they go
/// past it: it drops a `\r` that ends a line, and ` disabled="..."` on lines starting with
/// `<testsuite `. The only bytes not ours are cleaned strings, and a cleaned string has no
/// `\r` (vte's performer prints no C0 control and of those it executes keeps only `\n`; the
/// fast path of [`push_string`] lets no `\r` through); a line starts with our indentation
/// and tags, or, inside a string with a `\n`, with that string's bytes, whose `<` is `&lt;`.
fn write_case(
    buffer: &mut Vec<u8>,
    name: &str,
    classname: &[u8],
    time: &str,
    status: &CaseStatus<'_>,
) {
    buffer.extend_from_slice(b"        <testcase name=\"");
    push_string(buffer, name);
    buffer.extend_from_slice(b"\" classname=\"");
    buffer.extend_from_slice(classname);
    buffer.extend_from_slice(b"\" time=\"");
    buffer.extend_from_slice(time.as_bytes());
    buffer.extend_from_slice(b"\">\n");
    if let Some((tag, ty)) = status.element() {
        buffer.extend_from_slice(b"            <");
        buffer.extend_from_slice(tag.as_bytes());
        buffer.extend_from_slice(b" message=\"");
        push_string(buffer, &status.message);
        buffer.push(b'"');
        if let Some(ty) = ty {
            buffer.extend_from_slice(b" type=\"");
            buffer.extend_from_slice(ty.as_bytes());
            buffer.push(b'"');
        }
        match &status.description {
            Some(text) => {
                buffer.push(b'>');
                push_string(buffer, text);
                buffer.extend_from_slice(b"</");
                buffer.extend_from_slice(tag.as_bytes());
                buffer.extend_from_slice(b">\n");
            }
            None => buffer.extend_from_slice(b"/>\n"),
        }
    }
    buffer.extend_from_slice(b"        </testcase>\n");
}

/// Appends `text` as quick-junit writes a string: cleaned by `XmlString::new`, then
/// escaped by quick-xml's `escape`, which attribute values and text share.
///
/// `XmlString::new` is `strip_ansi_escapes::strip_str` (vte: printable chars are kept, of
/// the controls only `\n`, escape sequences go) and then drops `\x00..=\x08`, `\x0b`,
/// `\x0c` and `\x0e..=\x1f`. A string of printable ASCII (`' '..='~'`) and `\n` only comes
/// out unchanged, so it is escaped as it is; any other byte (a control, DEL, anything not
/// ASCII) leaves the string to `XmlString::new` itself. (vte 0.14 keeps DEL too, but a
/// rare byte is not worth depending on that.)
fn push_string(buffer: &mut Vec<u8>, text: &str) {
    let start = buffer.len();
    if !push_escaped(buffer, text, true) {
        buffer.truncate(start);
        push_escaped(buffer, XmlString::new(text).as_str(), false);
    }
}

/// Appends `text` escaped as quick-xml 0.38's `escape`: `<` `>` `&` `'` `"` as entities,
/// every other byte as it is. With `plain_only`, stops at the first byte that is neither
/// printable ASCII nor `\n` and says false (the caller drops what was appended).
fn push_escaped(buffer: &mut Vec<u8>, text: &str, plain_only: bool) -> bool {
    let bytes = text.as_bytes();
    let mut from = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let entity: &[u8] = match byte {
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'&' => b"&amp;",
            b'\'' => b"&apos;",
            b'"' => b"&quot;",
            b' '..=b'~' | b'\n' => continue,
            _ if plain_only => return false,
            _ => continue,
        };
        buffer.extend_from_slice(bytes.get(from..at).unwrap_or_default());
        buffer.extend_from_slice(entity);
        from = at + 1;
    }
    buffer.extend_from_slice(bytes.get(from..).unwrap_or_default());
    true
}

/// A testcase of the rule whose name is `classname`, named `name`.
fn named_case(classname: &XmlString, name: &str, status: TestCaseStatus) -> TestCase {
    let mut case = TestCase::new(name, status);
    case.set_classname(classname.clone());
    case
}

/// A resource's status in JUnit terms.
fn resource_status<'a>(rule: &'a RuleOutcome, resource: &'a ResourceOutcome) -> CaseStatus<'a> {
    match resource.status {
        Status::Pass => CaseStatus::success(),
        Status::Fail => failure_status(resource),
        Status::Error => error_status(rule, resource),
        Status::Unknown => skipped_status("unknown", &unknown_summary(resource), resource),
        Status::Waived => skipped_status("waived", &waived_summary(resource), resource),
        Status::Skip => skipped_status("skip", &notes_or(resource, "not evaluated"), resource),
    }
}

/// `<failure>`: the first failure's message; the text lists every failing path.
fn failure_status(resource: &ResourceOutcome) -> CaseStatus<'_> {
    let message = resource
        .failures()
        .first()
        .map_or("the resource does not comply", |f| f.message.as_str());
    CaseStatus::new(Kind::Failure, message, Some(details(resource)))
}

/// `<error>` for a resource whose data could not be loaded or evaluated: its own error,
/// else its notes, else the rule's error.
fn error_status(rule: &RuleOutcome, resource: &ResourceOutcome) -> CaseStatus<'static> {
    let fallback = rule
        .error
        .as_deref()
        .unwrap_or("the resource could not be evaluated");
    let message = match resource.error() {
        Some(error) => error.to_string(),
        None => notes_or(resource, fallback),
    };
    CaseStatus::new(Kind::Error, message, non_empty(details(resource)))
}

/// `<skipped message="KIND: SUMMARY">`, with the details as text when there are any.
fn skipped_status(kind: &str, summary: &str, resource: &ResourceOutcome) -> CaseStatus<'static> {
    let message = format!("{kind}: {summary}");
    CaseStatus::new(Kind::Skipped, message, non_empty(details(resource)))
}

/// `text`, unless it is empty.
fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

/// The unknown paths of a resource on one line: `path (reason); ...`.
fn unknown_summary(resource: &ResourceOutcome) -> String {
    if resource.unknowns().is_empty() {
        return notes_or(resource, "a value is not known");
    }
    resource
        .unknowns()
        .iter()
        .map(|u| format!("{} ({})", u.path, u.reason))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a resource is waived: its notes (the evaluator records the waiver there), else the
/// waived failures' messages.
fn waived_summary(resource: &ResourceOutcome) -> String {
    if !resource.notes().is_empty() {
        return resource.notes().join("; ");
    }
    let messages: Vec<&str> = resource
        .failures()
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    if messages.is_empty() {
        "a waiver applies".to_string()
    } else {
        messages.join("; ")
    }
}

/// The resource's notes joined, or `fallback` when it has none.
fn notes_or(resource: &ResourceOutcome, fallback: &str) -> String {
    if resource.notes().is_empty() {
        fallback.to_string()
    } else {
        resource.notes().join("; ")
    }
}

/// The body of a status element: type, id and source, then one line per failing path
/// (expected and actual value), unknown path and note.
fn details(resource: &ResourceOutcome) -> String {
    let mut lines = Vec::new();
    for failure in resource.failures() {
        lines.push(format!(
            "{}: {} (predicate: {}; expected: {}; actual: {})",
            failure.path, failure.message, failure.predicate, failure.expected, failure.actual
        ));
    }
    for unknown in resource.unknowns() {
        lines.push(format!("{}: unknown ({})", unknown.path, unknown.reason));
    }
    for note in resource.notes() {
        lines.push(format!("note: {note}"));
    }
    if lines.is_empty() {
        return String::new();
    }
    let mut header = format!("{} {}", resource.type_name, resource.id);
    if let Some(source) = resource.source() {
        header.push_str(&format!(" ({}", source.located()));
        if let Some(line) = source.line {
            header.push_str(&format!(":{line}"));
        }
        header.push(')');
    }
    lines.insert(0, header);
    lines.join("\n")
}

/// Seconds as a [`Duration`]; negative, NaN or huge values count as zero.
fn seconds(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs).unwrap_or_default()
}

/// [`WithoutDisabled`] over a whole document in memory. `cloudspec test` uses it too.
pub(crate) fn finish(xml: &str) -> String {
    let mut out = Vec::with_capacity(xml.len() + 1);
    let mut filtered = WithoutDisabled::new(&mut out);
    // Writing to memory does not fail.
    let _ = filtered.write_all(xml.as_bytes());
    let _ = filtered.finish();
    String::from_utf8_lossy(&out).into_owned()
}

/// A writer that drops the `disabled` attribute quick-junit writes on every
/// `<testsuite>`: the junit-10 schema does not know it, and the same count is in
/// `skipped`. Element text escapes `<` and attribute values escape `"`, so a line starting
/// with `<testsuite ` is a start tag and ` disabled="` in it is the attribute. Every line,
/// the last one included, ends with `\n`.
pub(crate) struct WithoutDisabled<W: Write> {
    out: W,
    /// The current line, up to its `\n`.
    line: Vec<u8>,
    /// The first error `out` gave, kept for the caller: quick-junit's own error type
    /// hides it.
    failed: Option<io::Error>,
}

impl<W: Write> WithoutDisabled<W> {
    /// The writer underneath, for bytes filtered already; only between whole lines.
    fn inner(&mut self) -> &mut W {
        &mut self.out
    }

    pub(crate) fn new(out: W) -> Self {
        WithoutDisabled {
            out,
            line: Vec::new(),
            failed: None,
        }
    }

    /// Writes the last line, if it has no `\n` of its own, and flushes.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.end_line(false)?;
        }
        self.out.flush()
    }

    /// Writes the current line and a `\n`; a `\r` before a `\n` that ended the line
    /// (`by_newline`) is dropped.
    fn end_line(&mut self, by_newline: bool) -> io::Result<()> {
        if by_newline && self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        let text = String::from_utf8_lossy(&self.line);
        if text.trim_start().starts_with("<testsuite ") {
            self.out.write_all(without_disabled(&text).as_bytes())?;
        } else {
            self.out.write_all(&self.line)?;
        }
        self.out.write_all(b"\n")?;
        self.line.clear();
        Ok(())
    }
}

impl<W: Write> Write for WithoutDisabled<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.line
                .extend_from_slice(rest.get(..at).unwrap_or_default());
            let ended = self.end_line(true);
            self.keep(ended)?;
            rest = rest.get(at + 1..).unwrap_or_default();
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.out.flush();
        self.keep(flushed)
    }
}

impl<W: Write> WithoutDisabled<W> {
    /// Keeps the first error of `result` for [`write`], and passes on a copy of it.
    fn keep(&mut self, result: io::Result<()>) -> io::Result<()> {
        result.map_err(|error| {
            let copy = io::Error::new(error.kind(), error.to_string());
            self.failed.get_or_insert(error);
            copy
        })
    }
}

/// `line` without its ` disabled="N"` attribute.
fn without_disabled(line: &str) -> String {
    const ATTR: &str = " disabled=\"";
    let Some(start) = line.find(ATTR) else {
        return line.to_string();
    };
    let value_start = start + ATTR.len();
    match line[value_start..].find('"') {
        Some(len) => format!("{}{}", &line[..start], &line[value_start + len + 1..]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const XML: &str = "<testsuites>\n  <testsuite name=\"g\" tests=\"1\" disabled=\"2\" skipped=\"2\">\r\n    <testcase name=\"disabled=\\\"x\\\"\"/>\n  </testsuite>\n</testsuites>";
    const EXPECTED: &str = "<testsuites>\n  <testsuite name=\"g\" tests=\"1\" skipped=\"2\">\n    <testcase name=\"disabled=\\\"x\\\"\"/>\n  </testsuite>\n</testsuites>\n";

    /// The attribute goes from `<testsuite>` lines only, however the bytes are cut.
    #[test]
    fn drops_disabled_wherever_the_writes_are_cut() {
        for cut in 0..=XML.len() {
            let mut out = Vec::new();
            let mut filtered = WithoutDisabled::new(&mut out);
            let (a, b) = XML.as_bytes().split_at(cut);
            filtered.write_all(a).expect("write");
            filtered.write_all(b).expect("write");
            filtered.finish().expect("finish");
            assert_eq!(String::from_utf8_lossy(&out), EXPECTED, "cut at {cut}");
        }
    }

    /// A file system that is full.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "No space left on device",
            ))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_writer_s_error_is_the_error_written() {
        let outcome = RunOutcome {
            specs: Vec::new(),
            collected_at: None,
            now: None,
            warnings: Vec::new(),
            audit: crate::outcome::Audit::default(),
        };
        let error = write(&outcome, &mut Full).expect_err("the disk is full");
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(error.to_string(), "No space left on device");
    }

    #[test]
    fn a_lone_carriage_return_at_the_end_is_kept() {
        let mut out = Vec::new();
        let mut filtered = WithoutDisabled::new(&mut out);
        filtered.write_all(b"a\r\nb\r").expect("write");
        filtered.finish().expect("finish");
        assert_eq!(out, b"a\nb\r\n");
    }

    /// The report quick-junit writes with every testcase in it: the reference of the
    /// skeleton-and-pieces output.
    fn whole(outcome: &RunOutcome) -> String {
        let mut report = Report::new(REPORT_NAME);
        let mut total = Duration::ZERO;
        for spec in &outcome.specs {
            for group in &spec.groups {
                let mut suite = TestSuite::new(group_label(outcome, &spec.name, &group.name));
                let mut time = Duration::ZERO;
                for rule in &group.rules {
                    time += seconds(rule.elapsed_secs);
                    let cases = RuleCases::new(rule);
                    suite.add_test_cases((0..cases.len()).map(|i| cases.case(i)));
                }
                suite.set_time(time);
                let skipped = suite.disabled.to_string();
                suite.extra.insert("skipped".into(), skipped.into());
                suite.extra.insert("file".into(), spec.file.as_str().into());
                total += time;
                report.add_test_suite(suite);
            }
        }
        report.set_time(total);
        finish(&report.to_string().unwrap_or_default())
    }

    fn rule(name: &str, status: Status, resources: Vec<ResourceOutcome>) -> RuleOutcome {
        RuleOutcome::for_test(name, "aws:ec2:volume", status, resources)
    }

    fn resource(i: usize) -> ResourceOutcome {
        let status = [Status::Pass, Status::Fail, Status::Unknown, Status::Error][i % 4];
        let mut r = ResourceOutcome::new("aws:ec2:volume", format!("vol-{i:06}"), status, None);
        if status != Status::Pass {
            r.details_mut().failures.push(crate::outcome::Failure {
                path: "encrypted".into(),
                predicate: std::sync::Arc::from("is true"),
                expected: std::sync::Arc::from("true"),
                actual: serde_json::Value::Bool(false),
                message: "encrypted is false,\r\r\nexpected <true>".into(),
            });
            r.details_mut().notes.push("a note\r\n".into());
        }
        r
    }

    /// Several groups, empty and `error` rules, and rules of many pieces on several
    /// threads: the bytes quick-junit writes for the whole report.
    #[test]
    fn the_pieces_make_the_whole_report() {
        let big = |n: usize| (0..n).map(resource).collect::<Vec<_>>();
        let outcome = RunOutcome {
            specs: vec![crate::outcome::SpecOutcome {
                name: "s".into(),
                file: "s.cloudspec".into(),
                groups: vec![
                    crate::outcome::GroupOutcome {
                        name: "empty".into(),
                        rules: Vec::new(),
                    },
                    crate::outcome::GroupOutcome {
                        name: "g1".into(),
                        rules: vec![
                            rule("big", Status::Fail, big(3 * pieces::PIECE + 5)),
                            rule("none in scope", Status::Skip, Vec::new()),
                            rule("errors", Status::Error, big(3)),
                        ],
                    },
                    crate::outcome::GroupOutcome {
                        name: "g2".into(),
                        rules: vec![rule("bigger", Status::Fail, big(5 * pieces::PIECE))],
                    },
                ],
            }],
            collected_at: None,
            now: None,
            warnings: Vec::new(),
            audit: crate::outcome::Audit::default(),
        };
        let mut out = Vec::new();
        assert!(write(&outcome, &mut out).is_ok());
        assert_eq!(String::from_utf8_lossy(&out), whole(&outcome));
    }

    /// Testcases `items` as quick-junit writes them in a report of one suite, cut out and
    /// filtered as the document is: the reference of the hand-written testcases.
    fn quick_junit_cases(cases: &RuleCases<'_>, items: Range<usize>) -> String {
        let mut suite = TestSuite::new("piece");
        suite.add_test_cases(items.map(|i| cases.case(i)));
        let mut report = Report::new("piece");
        report.add_test_suite(suite);
        let xml = report.to_string().expect("quick-junit writes to memory");
        // The declaration, `<testsuites>` and `<testsuite>` lines, then the testcases up to
        // the suite's end tag (text and attributes escape `<`).
        let start = xml.match_indices('\n').nth(2).expect("three lines").0 + 1;
        let end = xml.rfind("\n    </testsuite>\n").expect("the suite's end") + 1;
        finish(&xml[start..end])
    }

    /// Pieces of strings that quick-junit cleans (ANSI escapes, C0 and C1 controls, DEL,
    /// invalid sequences) or quick-xml escapes, and strings that look like the document's
    /// own lines.
    const NASTY: &[&str] = &[
        "",
        "a",
        "vol-0a1",
        " ",
        "\n",
        "\r",
        "\r\n",
        "\t",
        "\x1b[31m",
        "\x1b[0m",
        "\x1b",
        "[",
        "m",
        "\x1b]0;title\x07",
        "\x1bP1;2|x\x1b\\",
        "\x1b[é",
        "\x7f",
        "\x00",
        "\x08",
        "\x0b",
        "\x0c",
        "\x1f",
        "\u{85}",
        "\u{9b}",
        "\u{9b}31m",
        "\u{a0}",
        "é",
        "😀",
        "\u{feff}",
        "\u{2028}",
        "<",
        ">",
        "&",
        "'",
        "\"",
        "&amp;",
        "]]>",
        " disabled=\"2\"",
        "<testsuite ",
        "\n    </testsuite>\n",
        "\n        </testcase>\n",
    ];

    /// A rule whose every string is taken in turn from `strings`, with a resource of every
    /// status, with and without each kind of detail.
    fn nasty_rule(strings: &[String], status: Status, in_scope: bool, elapsed: f64) -> RuleOutcome {
        let mut next = strings.iter().cycle();
        let mut string = || next.next().cloned().unwrap_or_default();
        let failure = |string: &mut dyn FnMut() -> String| crate::outcome::Failure {
            path: string(),
            predicate: std::sync::Arc::from(string()),
            expected: std::sync::Arc::from(string()),
            actual: serde_json::Value::String(string()),
            message: string(),
        };
        let mut resources = Vec::new();
        let statuses = [
            Status::Pass,
            Status::Fail,
            Status::Error,
            Status::Unknown,
            Status::Waived,
            Status::Skip,
        ];
        for (i, status) in statuses.into_iter().enumerate() {
            // 0: nothing but an id; 1: every detail; 2: some details.
            for variant in 0..3 {
                let id = format!("{}{i}{variant}", string());
                let mut r = ResourceOutcome::new(string(), id, status, None);
                if variant >= 1 {
                    r.details_mut().notes.push(string());
                    r.details_mut().failures.push(failure(&mut string));
                }
                if variant == 1 {
                    r.details_mut().error = Some(string());
                    r.details_mut().failures.push(failure(&mut string));
                    r.details_mut().unknowns.push(crate::outcome::UnknownPath {
                        path: string(),
                        reason: string(),
                    });
                    r.details_mut().notes.push(string());
                    r.details_mut().source = Some(crate::outcome::ResourceSource {
                        file: string(),
                        line: Some(7),
                        root: None,
                    });
                }
                resources.push(r);
            }
        }
        if !in_scope {
            resources.clear();
        }
        let mut rule = RuleOutcome::for_test(&string(), &string(), status, resources);
        rule.error = (status == Status::Error && elapsed >= 0.5).then(&mut string);
        rule.elapsed_secs = elapsed;
        rule
    }

    /// The hand-written testcases of the rules `nasty_rule` makes from `strings`, every
    /// testcase and every piece of two, are quick-junit's.
    fn check_nasty(strings: &[String]) {
        for (status, in_scope) in [
            (Status::Fail, true),
            (Status::Error, true),
            (Status::Error, false),
            (Status::Skip, false),
        ] {
            for elapsed in [0.75, 0.25, 1e-7, 1.0 / 3.0, -1.0, f64::NAN, 1e30] {
                let rule = nasty_rule(strings, status, in_scope, elapsed);
                let cases = RuleCases::new(&rule);
                // All the testcases, then pieces of two.
                let pairs = (0..cases.len())
                    .step_by(2)
                    .map(|i| i..(i + 2).min(cases.len()));
                for items in std::iter::once(0..cases.len()).chain(pairs) {
                    let mut hand = Vec::new();
                    cases.render(items.clone(), &mut hand).expect("render");
                    let reference = quick_junit_cases(&cases, items.clone());
                    assert_eq!(
                        String::from_utf8_lossy(&hand),
                        reference,
                        "testcases {items:?} of {strings:?} ({status:?}, {elapsed})"
                    );
                }
            }
        }
    }

    /// Each nasty piece as every string, and all of them at once.
    #[test]
    fn hand_written_testcases_are_quick_junit_s() {
        for piece in NASTY {
            check_nasty(&[piece.to_string()]);
        }
        check_nasty(&[NASTY.concat()]);
        let every: Vec<String> = NASTY.iter().map(|s| s.to_string()).collect();
        check_nasty(&every);
    }

    /// A string of `1..=3` nasty pieces, sometimes with an arbitrary char between them.
    fn nasty_string() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => proptest::sample::select(NASTY).prop_map(str::to_string),
            1 => any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 1..=3).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn hand_written_testcases_are_quick_junit_s_for_any_strings(
            strings in proptest::collection::vec(nasty_string(), 1..=12)
        ) {
            check_nasty(&strings);
        }
    }
}
