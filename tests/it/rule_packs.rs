//! The shipped rule packs (`rules/`): every spec parses and passes the static checks
//! against the AWS schemas, every rule carries Severity, Reference and Remediation, every
//! rule has a case expecting it to pass and one expecting it to fail, and `cloudspec test
//! rules/` passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use cloudspec::testing::{expected_verdicts, parse_test_file, Expected, TestFile};

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// Every file below `dir` whose name ends with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn parse_spec(path: &Path) -> (String, cloudspec::syntax::ast::Spec) {
    let source = std::fs::read_to_string(path).expect("read spec");
    let parsed = cloudspec::syntax::parse(&source);
    assert!(
        !parsed.has_errors(),
        "{}: {:?}",
        path.display(),
        parsed.diagnostics
    );
    let spec = parsed.spec.expect("parsed spec");
    (source, spec)
}

#[test]
fn there_are_two_packs_of_specs() {
    for pack in ["aws-cis", "aws-foundational"] {
        assert!(
            !files(&rules_dir().join(pack), ".cloudspec").is_empty(),
            "rules/{pack} has no spec"
        );
    }
}

#[test]
fn every_spec_passes_the_aws_schema_checks() {
    let schemas = cloudspec::cli::sources::Registry::builtin()
        .schemas_of("aws")
        .expect("aws schemas");
    for path in files(&rules_dir(), ".cloudspec") {
        let (_, spec) = parse_spec(&path);
        let diagnostics = cloudspec::check::check(&spec, &schemas);
        assert!(
            diagnostics.is_empty(),
            "{}: {diagnostics:?}",
            path.display()
        );
        for rule in spec.groups.iter().flat_map(|g| &g.rules) {
            assert!(
                rule.on.value.starts_with("aws:") && schemas.get(&rule.on.value).is_some(),
                "{}: rule \"{}\" is on {}, not an AWS type",
                path.display(),
                rule.name.value,
                rule.on.value
            );
        }
    }
}

#[test]
fn every_rule_has_severity_references_and_remediation() {
    for path in files(&rules_dir(), ".cloudspec") {
        let (_, spec) = parse_spec(&path);
        for rule in spec.groups.iter().flat_map(|g| &g.rules) {
            let name = format!("{}: \"{}\"", path.display(), rule.name.value);
            assert!(rule.severity.is_some(), "{name} has no Severity");
            assert!(!rule.references.is_empty(), "{name} has no Reference");
            assert!(
                rule.remediation
                    .as_ref()
                    .is_some_and(|r| !r.value.trim().is_empty()),
                "{name} has no Remediation"
            );
        }
    }
}

#[test]
fn cis_rules_reference_cis_ids() {
    for path in files(&rules_dir().join("aws-cis"), ".cloudspec") {
        let (_, spec) = parse_spec(&path);
        for rule in spec.groups.iter().flat_map(|g| &g.rules) {
            assert!(
                rule.references
                    .iter()
                    .any(|r| r.value.starts_with("CIS-AWS-6.0.0-")),
                "{}: \"{}\" has no CIS-AWS-6.0.0 reference",
                path.display(),
                rule.name.value
            );
        }
    }
}

#[test]
fn every_rule_has_a_passing_and_a_failing_fixture() {
    for path in files(&rules_dir(), ".cloudspec") {
        let (_, spec) = parse_spec(&path);
        let test_path = path.with_extension("test.yaml");
        let source = std::fs::read_to_string(&test_path).unwrap_or_else(|e| {
            panic!("{}: {e} (every spec has a test file)", test_path.display())
        });
        let test: TestFile =
            parse_test_file(&source).unwrap_or_else(|e| panic!("{}: {e:?}", test_path.display()));
        for (rule, verdicts) in expected_verdicts(&spec, [&test]) {
            for wanted in [Expected::Pass, Expected::Fail] {
                assert!(
                    verdicts.contains(&wanted),
                    "{}: no case expects \"{rule}\" to {wanted}",
                    test_path.display()
                );
            }
        }
    }
}

#[test]
fn the_rule_tests_pass() {
    let out = Command::new(env!("CARGO_BIN_EXE_cloudspec"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["test", "rules/"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run cloudspec");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stdout.contains("untested"), "{stdout}");
    assert_eq!(stderr, "", "no warnings expected");
    assert!(stdout.ends_with(" passed, 0 failed\n"), "{stdout}");
}
