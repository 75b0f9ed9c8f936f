//! The JUnit XML report (`--format junit`), for CI servers' test reporters.
//!
//! One `<testsuite>` per group, one `<testcase>` per rule x resource in scope
//! (`classname` = rule, `name` = resource id). A rule with no resource in scope is one
//! skipped testcase named after the rule; a rule in `error` adds one testcase named after
//! the rule whose `<error>` carries the rule's message. The output validates against the
//! Jenkins xunit plugin's `junit-10.xsd` (`tests/fixtures/report/junit.xsd`).

use std::io::{self, Write};
use std::sync::LazyLock;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite, XmlString};

use super::{group_label, sorted_resources};
use crate::outcome::{
    ControlStatus, ControlVerdict, ControlsView, ResourceOutcome, RuleOutcome, RunOutcome,
    SpecOutcome, Status,
};

/// The name of the `<testsuites>` element.
const REPORT_NAME: &str = "cloudspec";

/// The `type` of failures and errors, made once: quick-junit cleans every new string of
/// escapes, char by char, and a big account has a failure per resource.
static FAIL_TYPE: LazyLock<XmlString> = LazyLock::new(|| XmlString::new("fail"));
static ERROR_TYPE: LazyLock<XmlString> = LazyLock::new(|| XmlString::new("error"));

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

/// Writes `outcome` as JUnit XML to `out` as it is serialized (a big account's report is
/// never held whole as text).
pub fn write(outcome: &RunOutcome, out: &mut dyn Write) -> io::Result<()> {
    let report = build(outcome);
    let mut filtered = WithoutDisabled::new(out);
    if let Err(error) = report.serialize(&mut filtered) {
        // quick-junit wraps the writer's error in its own; hand back the writer's
        // ("No space left on device") when there is one.
        return Err(filtered
            .failed
            .take()
            .unwrap_or_else(|| io::Error::other(error)));
    }
    filtered.finish()
}

/// The quick-junit report of `outcome`.
fn build(outcome: &RunOutcome) -> Report {
    let mut report = Report::new(REPORT_NAME);
    let mut total = Duration::ZERO;
    for spec in &outcome.specs {
        for group in &spec.groups {
            let suite = group_suite(outcome, spec, &group.name, &group.rules);
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
        let case = named_case(&classname, &name, control_status(outcome, control));
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
fn control_status(outcome: &RunOutcome, control: &ControlVerdict) -> TestCaseStatus {
    let rules = control.rules.len();
    let with = |status: Status| control.rules.iter().filter(|r| r.status == status).count();
    let mut status = match control.status {
        ControlStatus::Pass => TestCaseStatus::success(),
        ControlStatus::Fail => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(how_many(with(Status::Fail), rules, "fails", "fail"))
                .set_type(FAIL_TYPE.clone());
            s
        }
        ControlStatus::Error => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message(how_many(
                with(Status::Error),
                rules,
                "could not be evaluated",
                "could not be evaluated",
            ))
            .set_type(ERROR_TYPE.clone());
            s
        }
        other => {
            let why = match other {
                ControlStatus::Unknown => "a rule could not be decided",
                ControlStatus::Waived => "every failure is waived",
                ControlStatus::Skip => "no resource in scope of its rules",
                ControlStatus::Manual => "assessed by hand; no rule of the run checks it",
                _ => "no rule of the run checks this automated control",
            };
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!("{}: {why}", other.label()));
            s
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
    if control.status == ControlStatus::Pass {
        // A passing testcase has no element to carry a body; its rules are in the JSON
        // and SARIF reports.
        return status;
    }
    status.set_description(lines.join("\n"));
    status
}

/// One group as a `<testsuite>`: its rules' testcases, its spec file, and a `skipped` count.
fn group_suite(
    outcome: &RunOutcome,
    spec: &SpecOutcome,
    group: &str,
    rules: &[RuleOutcome],
) -> TestSuite {
    let mut suite = TestSuite::new(group_label(outcome, &spec.name, group));
    let mut time = Duration::ZERO;
    for rule in rules {
        time += seconds(rule.elapsed_secs);
        suite.add_test_cases(rule_cases(rule));
    }
    suite.set_time(time);
    let skipped = suite.disabled.to_string();
    suite.extra.insert("skipped".into(), skipped.into());
    suite.extra.insert("file".into(), spec.file.as_str().into());
    suite
}

/// The testcases of one rule, sharing the rule's evaluation time equally.
fn rule_cases(rule: &RuleOutcome) -> Vec<TestCase> {
    // Made once and cloned: quick-junit cleans every new string of escapes, char by char.
    let classname = XmlString::new(&rule.name);
    let mut cases: Vec<TestCase> = sorted_resources(rule)
        .into_iter()
        .map(|resource| named_case(&classname, &resource.id, resource_status(rule, resource)))
        .collect();
    if rule.status == Status::Error {
        let message = rule
            .error
            .as_deref()
            .unwrap_or("the rule could not be evaluated");
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status.set_message(message).set_type(ERROR_TYPE.clone());
        cases.push(named_case(&classname, &rule.name, status));
    } else if cases.is_empty() {
        let mut status = TestCaseStatus::skipped();
        status.set_message(format!("skip: no {} in scope", rule.on));
        cases.push(named_case(&classname, &rule.name, status));
    }
    let count = u32::try_from(cases.len()).unwrap_or(u32::MAX).max(1);
    let share = seconds(rule.elapsed_secs) / count;
    for case in &mut cases {
        case.set_time(share);
    }
    cases
}

/// A testcase of the rule whose name is `classname`, named `name`.
fn named_case(classname: &XmlString, name: &str, status: TestCaseStatus) -> TestCase {
    let mut case = TestCase::new(name, status);
    case.set_classname(classname.clone());
    case
}

/// A resource's status in JUnit terms.
fn resource_status(rule: &RuleOutcome, resource: &ResourceOutcome) -> TestCaseStatus {
    match resource.status {
        Status::Pass => TestCaseStatus::success(),
        Status::Fail => failure_status(resource),
        Status::Error => error_status(rule, resource),
        Status::Unknown => skipped_status("unknown", &unknown_summary(resource), resource),
        Status::Waived => skipped_status("waived", &waived_summary(resource), resource),
        Status::Skip => skipped_status("skip", &notes_or(resource, "not evaluated"), resource),
    }
}

/// `<failure>`: the first failure's message; the body lists every failing path.
fn failure_status(resource: &ResourceOutcome) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    let message = resource
        .failures()
        .first()
        .map_or("the resource does not comply", |f| f.message.as_str());
    status.set_message(message).set_type(FAIL_TYPE.clone());
    status.set_description(details(resource));
    status
}

/// `<error>` for a resource whose data could not be loaded or evaluated: its own error,
/// else its notes, else the rule's error.
fn error_status(rule: &RuleOutcome, resource: &ResourceOutcome) -> TestCaseStatus {
    let fallback = rule
        .error
        .as_deref()
        .unwrap_or("the resource could not be evaluated");
    let message = match resource.error() {
        Some(error) => error.to_string(),
        None => notes_or(resource, fallback),
    };
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_message(message).set_type(ERROR_TYPE.clone());
    let body = details(resource);
    if !body.is_empty() {
        status.set_description(body);
    }
    status
}

/// `<skipped message="KIND: SUMMARY">`, with the details as body when there are any.
fn skipped_status(kind: &str, summary: &str, resource: &ResourceOutcome) -> TestCaseStatus {
    let mut status = TestCaseStatus::skipped();
    status.set_message(format!("{kind}: {summary}"));
    let body = details(resource);
    if !body.is_empty() {
        status.set_description(body);
    }
    status
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

    use super::{io, write, RunOutcome, WithoutDisabled};

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
}
