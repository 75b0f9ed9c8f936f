//! `cloudspec test`: find test files, read them with their specs and inventories, run every
//! case (`crate::testing`), print one line per case and a summary, optionally JUnit XML.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::sources::Registry;
use super::{specs, use_color, TestArgs, EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use crate::eval::SpecInput;
use crate::model::schema::SchemaSet;
use crate::model::Inventory;
use crate::syntax::ast::Spec;
use crate::testing::{
    self, check_against_spec, parse_test_file, run_case, untested_rules, CaseResult, FileResults,
    InventorySource, TestFile,
};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec test rules/                              # every *.test.yaml below rules/
  cloudspec test rules/aws-cis/networking.test.yaml
  cloudspec test specs/ --format junit=test-results.xml

A test file NAME.test.yaml tests the spec NAME.cloudspec beside it (or the one its `spec:`
key names); each case names an inventory (inline or a path relative to the test file) and
the verdict each rule must give, as \"Group/Rule\": fail. docs/testing.md has the format.

Prints one PASS/FAIL line per case (with what differed), then `N passed, M failed`. A rule
that no case expects to fail is reported as untested (a warning). With --format junit the
XML goes to stdout and the lines to stderr; junit=FILE writes it to FILE.

Exit status: 0 every case passes; 1 a case fails; 2 a test file, spec or inventory is
invalid or cannot be read (nothing is run).";

/// Test file names end with one of these.
const TEST_SUFFIXES: [&str; 2] = [".test.yaml", ".test.yml"];

/// A spec read, parsed and checked.
struct LoadedSpec {
    file: String,
    source: String,
    spec: Spec,
}

/// A test file ready to run: its cases' inventories loaded.
struct LoadedTest {
    file: String,
    spec_key: PathBuf,
    test: TestFile,
    inventories: Vec<Inventory>,
}

/// Where the human-readable lines go.
struct Out {
    to_stderr: bool,
    color: bool,
    /// Standard output, which remembers a failed write (a closed pipe, a full disk): the
    /// results were not delivered, so the run exits with status 2.
    stdout: std::cell::RefCell<super::files::Stdout>,
}

impl Out {
    /// Prints one line.
    fn line(&self, text: &str) {
        if self.to_stderr {
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        } else {
            self.stdout.borrow_mut().line(text);
        }
    }

    fn paint(&self, text: &str, ansi: &str) -> String {
        if self.color {
            format!("\x1b[{ansi}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

pub(super) fn test(args: TestArgs, registry: &Registry) -> u8 {
    let schemas = registry.schemas();
    let now = match &args.now {
        Some(text) => match super::audit::now(Some(text)) {
            Ok(t) => Some(crate::predicates::instant_of(&t)),
            Err(status) => return status,
        },
        None => None,
    };
    let junit = match junit_target(&args.formats) {
        Ok(j) => j,
        Err(message) => return usage(&message),
    };
    let found = match discover(&args.paths) {
        Ok(f) => f,
        Err(message) => return usage(&message),
    };
    let color_err = use_color(&args.color, std::io::stderr().is_terminal());
    let Some((specs, tests)) = load_all(&found.tests, &schemas, color_err) else {
        return EXIT_USAGE;
    };
    let out = Out {
        stdout: Default::default(),
        to_stderr: matches!(junit, Some(None)),
        color: use_color(
            &args.color,
            if matches!(junit, Some(None)) {
                std::io::stderr().is_terminal()
            } else {
                std::io::stdout().is_terminal()
            },
        ),
    };
    let results = run_all(&specs, &tests, &out, now);
    let untested = report_untested(&specs, &tests, &found.specs_without_tests);
    let failed: usize = results
        .iter()
        .map(|f| f.cases.iter().filter(|c| !c.passed()).count())
        .sum();
    let total: usize = results.iter().map(|f| f.cases.len()).sum();
    if untested > 0 {
        let noun = if untested == 1 { "rule" } else { "rules" };
        out.line(&format!(
            "{untested} {noun} untested (no case expects a failure)"
        ));
    }
    out.line(&format!("{} passed, {failed} failed", total - failed));
    if let Err(status) = out.stdout.into_inner().finish() {
        return status;
    }
    if let Some(target) = junit {
        if let Err(message) = write_junit(target.as_deref(), &testing::render_junit(&results)) {
            return usage(&message);
        }
    }
    if failed > 0 {
        EXIT_FAIL
    } else {
        EXIT_OK
    }
}

fn usage(message: &str) -> u8 {
    super::fail(message)
}

/// `None`: no JUnit; `Some(None)`: JUnit on stdout; `Some(Some(file))`: to a file.
fn junit_target(formats: &[String]) -> Result<Option<Option<PathBuf>>, String> {
    let mut target = None;
    for spec in formats {
        let parsed = match spec.split_once('=') {
            None if spec == "junit" => None,
            Some(("junit", file)) if !file.is_empty() => Some(PathBuf::from(file)),
            Some(("junit", _)) => {
                return Err(format!(
                    "--format {spec}: the file name after \"junit=\" is empty"
                ))
            }
            _ => {
                return Err(format!(
                    "--format {spec}: `cloudspec test` writes only junit (junit or junit=FILE)"
                ))
            }
        };
        if target.replace(parsed).is_some() {
            return Err("--format junit is given more than once".into());
        }
    }
    Ok(target)
}

fn write_junit(file: Option<&Path>, xml: &str) -> Result<(), String> {
    match file {
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(xml.as_bytes())
                .and_then(|_| stdout.flush())
                .map_err(|e| format!("cannot write the JUnit report to stdout: {e}"))
        }
        Some(path) => super::files::write_bytes(path, xml.as_bytes())
            .map_err(|e| format!("cannot write the JUnit report: {e}")),
    }
}

// -------------------------------------------------------------------------------------
// Finding files
// -------------------------------------------------------------------------------------

/// What the command line names.
struct Found {
    /// Test files, sorted within each directory argument, each with the tree the paths
    /// inside it must stay in (the directory argument, or the test file's directory).
    tests: Vec<(PathBuf, PathBuf)>,
    /// Specs found in directory arguments that no test file tests.
    specs_without_tests: Vec<PathBuf>,
}

fn is_test_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    TEST_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// Expands the arguments: a directory gives every test file and spec below it; a test
/// file stands for itself; a spec file stands for the test file beside it.
fn discover(paths: &[PathBuf]) -> Result<Found, String> {
    let mut tests = Vec::new();
    let mut specs = Vec::new();
    for path in paths {
        if path.is_dir() {
            let files = super::files::walk(path, |p| {
                is_test_file(p) || p.extension().is_some_and(|e| e == "cloudspec")
            })?;
            let before = tests.len();
            for file in files {
                if is_test_file(&file) {
                    tests.push((file, path.clone()));
                } else if file.extension().is_some_and(|e| e == "cloudspec") {
                    specs.push(file);
                }
            }
            if tests.len() == before {
                return Err(format!(
                    "{}: no *.test.yaml files in this directory",
                    path.display()
                ));
            }
        } else if path.extension().is_some_and(|e| e == "cloudspec") {
            let sibling = TEST_SUFFIXES
                .iter()
                .map(|s| path.with_extension("").with_extension(&s[1..]))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    format!(
                        "{}: no test file beside this spec (expected {})",
                        path.display(),
                        path.with_extension("test.yaml").display()
                    )
                })?;
            tests.push((sibling, super::files::parent_dir(path).to_path_buf()));
        } else {
            tests.push((path.clone(), super::files::parent_dir(path).to_path_buf()));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    tests.retain(|(t, _)| seen.insert(t.clone()));
    Ok(Found {
        tests,
        specs_without_tests: specs,
    })
}

/// The spec a test file tests: its `spec:` key (inside `root`), or its own name with
/// `.cloudspec`.
fn spec_path(test_path: &Path, root: &Path, test: &TestFile) -> Result<PathBuf, String> {
    let dir = test_path.parent().unwrap_or(Path::new(""));
    Ok(match &test.spec {
        Some(spec) => super::files::resolve_inside(root, test_path, spec)?,
        None => {
            let name = test_path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let stem = TEST_SUFFIXES
                .iter()
                .find_map(|s| name.strip_suffix(s))
                .unwrap_or(&name);
            dir.join(format!("{stem}.cloudspec"))
        }
    })
}

/// A path as a map key: canonical when it exists, so `a/../a/x` and `a/x` are one spec.
fn key_of(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

// -------------------------------------------------------------------------------------
// Loading
// -------------------------------------------------------------------------------------

/// Reads every test file, its spec and its inventories; prints every problem. `None` when
/// anything is invalid.
fn load_all(
    paths: &[(PathBuf, PathBuf)],
    schemas: &[SchemaSet],
    color: bool,
) -> Option<(BTreeMap<PathBuf, LoadedSpec>, Vec<LoadedTest>)> {
    let mut specs: BTreeMap<PathBuf, Option<LoadedSpec>> = BTreeMap::new();
    let mut tests = Vec::new();
    let mut invalid = 0usize;
    for (path, root) in paths {
        match load_test(path, root, &mut specs, schemas, color) {
            Some(t) => tests.push(t),
            None => invalid += 1,
        }
    }
    if invalid > 0 {
        let noun = if invalid == 1 {
            "test file is"
        } else {
            "test files are"
        };
        usage(&format!("{invalid} {noun} invalid; no case was run"));
        return None;
    }
    let specs = specs
        .into_iter()
        .filter_map(|(k, v)| v.map(|s| (k, s)))
        .collect();
    Some((specs, tests))
}

fn load_test(
    path: &Path,
    root: &Path,
    specs: &mut BTreeMap<PathBuf, Option<LoadedSpec>>,
    schemas: &[SchemaSet],
    color: bool,
) -> Option<LoadedTest> {
    let file = cloudspec_model::input::display_path(path);
    let source = match super::files::read_yaml(path, "a test file") {
        Ok(s) => s,
        Err(message) => {
            super::fail(&message);
            return None;
        }
    };
    let test = match parse_test_file(&source) {
        Ok(t) => t,
        Err(errors) => {
            print_errors(&file, &errors);
            return None;
        }
    };
    let spec_file = match spec_path(path, root, &test) {
        Ok(p) => p,
        Err(message) => {
            let at = test
                .spec_position
                .map_or(String::new(), |(l, c)| format!(":{l}:{c}"));
            usage(&format!("{file}{at}: spec: {message}"));
            return None;
        }
    };
    let spec_key = key_of(&spec_file);
    let spec = specs
        .entry(spec_key.clone())
        .or_insert_with(|| load_spec(&spec_file, schemas, color))
        .as_ref();
    let Some(spec) = spec else {
        usage(&format!(
            "{file}: its spec {} is invalid",
            cloudspec_model::input::display_path(&spec_file)
        ));
        return None;
    };
    let errors = check_against_spec(&test, &spec.spec);
    if !errors.is_empty() {
        print_errors(&file, &errors);
        return None;
    }
    let inventories = load_inventories(path, root, &file, &test)?;
    Some(LoadedTest {
        file,
        spec_key,
        test,
        inventories,
    })
}

fn print_errors(file: &str, errors: &[testing::TestFileError]) {
    for e in errors {
        usage(&format!("{file}:{e}"));
    }
}

/// Reads, parses and statically checks a spec ([`specs::load_one`]: each rule against the
/// schemas of the provider its type names); prints every problem.
fn load_spec(path: &Path, schemas: &[SchemaSet], color: bool) -> Option<LoadedSpec> {
    let loaded = match specs::load_one(path, schemas, color) {
        Ok(loaded) => loaded,
        Err(message) => {
            usage(&format!("cannot read the spec under test: {message}"));
            return None;
        }
    };
    if loaded.errors > 0 {
        return None;
    }
    Some(LoadedSpec {
        file: loaded.file,
        source: loaded.source,
        spec: loaded.spec?,
    })
}

/// Loads every case's inventory: a path relative to the test file, or the inline document.
fn load_inventories(
    path: &Path,
    root: &Path,
    file: &str,
    test: &TestFile,
) -> Option<Vec<Inventory>> {
    let mut out = Vec::new();
    let mut ok = true;
    for case in &test.cases {
        let loaded = match &case.inventory {
            InventorySource::Path(p) => match super::files::resolve_inside(root, path, p) {
                Ok(resolved) => Inventory::load(&resolved).map_err(|e| e.to_string()),
                Err(message) => {
                    let at = case
                        .inventory_position
                        .map_or(format!(":{}", case.line), |(l, c)| format!(":{l}:{c}"));
                    usage(&format!(
                        "{file}{at}: case \"{}\": inventory: {message}",
                        cloudspec_model::input::escape_control(&case.name)
                    ));
                    ok = false;
                    continue;
                }
            },
            InventorySource::Terraform(p) => match super::files::resolve_inside(root, path, p) {
                Ok(dir) => super::sources::load_terraform(&dir).map_err(|e| e.to_string()),
                Err(message) => {
                    let at = case
                        .inventory_position
                        .map_or(format!(":{}", case.line), |(l, c)| format!(":{l}:{c}"));
                    usage(&format!(
                        "{file}{at}: case \"{}\": terraform: {message}",
                        cloudspec_model::input::escape_control(&case.name)
                    ));
                    ok = false;
                    continue;
                }
            },
            InventorySource::Inline(value) => Inventory::from_slice(
                &testing::inline_inventory_json(value),
                &format!(
                    "{file}:{} (inline inventory of case \"{}\")",
                    case.line, case.name
                ),
            )
            .map_err(|e| e.to_string()),
        };
        match loaded {
            Ok(inv) => out.push(inv),
            Err(e) => {
                super::fail(&e);
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

// -------------------------------------------------------------------------------------
// Running and reporting
// -------------------------------------------------------------------------------------

fn run_all(
    specs: &BTreeMap<PathBuf, LoadedSpec>,
    tests: &[LoadedTest],
    out: &Out,
    now: Option<i128>,
) -> Vec<FileResults> {
    let mut results = Vec::new();
    for t in tests {
        let Some(spec) = specs.get(&t.spec_key) else {
            continue;
        };
        let input = SpecInput {
            file: &spec.file,
            source: &spec.source,
            spec: &spec.spec,
        };
        let cases: Vec<CaseResult> = t
            .test
            .cases
            .iter()
            .zip(&t.inventories)
            .map(|(case, inv)| {
                let result = run_case(input, inv, case, t.test.now.or(now));
                print_case(out, &t.file, &result);
                result
            })
            .collect();
        results.push(FileResults {
            file: t.file.clone(),
            spec_file: spec.file.clone(),
            cases,
        });
    }
    results
}

/// `PASS file: case`, or `FAIL file: case` with what differed indented below.
fn print_case(out: &Out, file: &str, result: &CaseResult) {
    if result.passed() {
        out.line(&format!(
            "{} {file}: {}",
            out.paint("PASS", "32"),
            result.name
        ));
        return;
    }
    out.line(&format!(
        "{} {file}: {}",
        out.paint("FAIL", "31"),
        result.name
    ));
    for line in testing::describe_mismatches(&result.mismatches).lines() {
        out.line(&format!("    {line}"));
    }
}

/// Warns about every rule no case expects to fail (specs without any test file included);
/// returns how many there are.
fn report_untested(
    specs: &BTreeMap<PathBuf, LoadedSpec>,
    tests: &[LoadedTest],
    without_tests: &[PathBuf],
) -> usize {
    let mut count = 0;
    for (key, spec) in specs {
        let files = tests.iter().filter(|t| &t.spec_key == key).map(|t| &t.test);
        for rule in untested_rules(&spec.spec, files) {
            tracing::warn!(
                "{}: rule \"{rule}\" is untested: no case expects it to fail",
                spec.file
            );
            count += 1;
        }
    }
    for path in without_tests {
        if specs.contains_key(&key_of(path)) {
            continue;
        }
        let Ok(source) = super::files::read_spec(path) else {
            continue;
        };
        let Some(spec) = crate::syntax::parse(&source).spec else {
            continue;
        };
        let rules = testing::rule_keys(&spec).len();
        if rules > 0 {
            tracing::warn!(
                "{}: no test file tests this spec ({rules} rules untested)",
                cloudspec_model::input::display_path(path)
            );
            count += rules;
        }
    }
    count
}
