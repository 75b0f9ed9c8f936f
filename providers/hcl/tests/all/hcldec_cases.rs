//! hcldec cases: every folder under `tests/hcldec/` is one run of the hcldec command.
//!
//! A case folder holds `spec.hcldec`, the input as `input.hcl` and/or `input.hcl.json`,
//! optionally `vars.json` (given as `--vars vars.json`), and the expected outcome of a run
//! with `--with-type --diags json`:
//! - `expected.json`: the result exactly as printed (`{"type":...,"value":...}` on one line,
//!   null properties removed); both inputs must print it.
//! - `expected-diags.json`: the diagnostics (`{"diagnostics": [...]}`, with ranges) of the
//!   native input (or of the JSON input when it is the only one). A JSON twin must give
//!   diagnostics with the same summaries, or exactly those of `expected-diags-json.json`
//!   when that file exists (the JSON syntax reports some problems in its own words).
//!
//! `HCLDEC_BLESS=1 cargo test -p cloudspec-hcl --test all hcldec_cases` writes the expected
//! files from the current outcomes (review them before committing).
//!
//! Also here: a property test that the hcldec command never panics, whatever the spec and
//! the input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudspec_hcl::hcldec::cmd::{run, Options, Outcome, Source};
use cloudspec_model::input::InputError;
use proptest::prelude::*;

/// Files served from memory, by name.
struct Mem(BTreeMap<String, Vec<u8>>);

impl Source for Mem {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError> {
        self.0.get(path).cloned().ok_or_else(|| InputError::Io {
            path: path.to_string(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
        })
    }
    fn read_stdin(&self) -> Result<Vec<u8>, InputError> {
        self.read_file("<stdin>")
    }
}

fn case_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hcldec");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn read(dir: &Path, name: &str) -> Option<Vec<u8>> {
    std::fs::read(dir.join(name)).ok()
}

fn run_case(dir: &Path, input: &str) -> Outcome {
    let mut files = BTreeMap::new();
    for name in ["spec.hcldec", "input.hcl", "input.hcl.json", "vars.json"] {
        if let Some(bytes) = read(dir, name) {
            files.insert(name.to_string(), bytes);
        }
    }
    let vars = if files.contains_key("vars.json") {
        vec!["vars.json".to_string()]
    } else {
        Vec::new()
    };
    let opts = Options {
        spec: "spec.hcldec".into(),
        vars,
        diags_json: true,
        with_type: true,
        inputs: vec![input.to_string()],
        ..Options::default()
    };
    run(&opts, &Mem(files))
}

fn parse_json(text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text).map_err(|e| format!("invalid JSON ({e}): {text}"))
}

fn summaries(diags: &serde_json::Value) -> Vec<String> {
    diags["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["summary"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Checks one case; the failures found.
fn check_case(dir: &Path, bless: bool) -> Vec<String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut failures = Vec::new();
    let inputs: Vec<&str> = ["input.hcl", "input.hcl.json"]
        .into_iter()
        .filter(|i| dir.join(i).exists())
        .collect();
    if inputs.is_empty() {
        return vec![format!("{name}: no input file")];
    }
    let expected = read(dir, "expected.json").map(|b| String::from_utf8_lossy(&b).into_owned());
    let expected_diags =
        read(dir, "expected-diags.json").map(|b| String::from_utf8_lossy(&b).into_owned());
    let expected_json_diags =
        read(dir, "expected-diags-json.json").map(|b| String::from_utf8_lossy(&b).into_owned());

    let outcomes: Vec<(&str, Outcome)> = inputs.iter().map(|i| (*i, run_case(dir, i))).collect();
    if bless {
        let (_, first) = &outcomes[0];
        for stale in [
            "expected.json",
            "expected-diags.json",
            "expected-diags-json.json",
        ] {
            let _ = std::fs::remove_file(dir.join(stale));
        }
        if first.status == 0 {
            let _ = std::fs::write(dir.join("expected.json"), &first.stdout);
        } else {
            let _ = std::fs::write(dir.join("expected-diags.json"), &first.stderr);
            if let Some((_, twin)) = outcomes.get(1) {
                let same = match (parse_json(&first.stderr), parse_json(&twin.stderr)) {
                    (Ok(a), Ok(b)) => summaries(&a) == summaries(&b),
                    _ => false,
                };
                if !same {
                    let _ = std::fs::write(dir.join("expected-diags-json.json"), &twin.stderr);
                }
            }
        }
        return Vec::new();
    }

    for (i, (input, outcome)) in outcomes.iter().enumerate() {
        let label = format!("{name}/{input}");
        match (&expected, &expected_diags) {
            (Some(want), _) => {
                if outcome.status != 0 {
                    failures.push(format!(
                        "{label}: exit status {} (want 0); stderr:\n{}",
                        outcome.status, outcome.stderr
                    ));
                    continue;
                }
                // Compared as text: numbers must be exact and the layout is hcldec's.
                if want.trim() != outcome.stdout.trim() {
                    failures.push(format!(
                        "{label}: result differs\n  want: {}\n  got:  {}",
                        want.trim(),
                        outcome.stdout.trim()
                    ));
                }
            }
            (None, Some(want)) => {
                if outcome.status != 2 {
                    failures.push(format!(
                        "{label}: exit status {} (want 2); stdout: {}",
                        outcome.status, outcome.stdout
                    ));
                    continue;
                }
                let got = match parse_json(&outcome.stderr) {
                    Ok(g) => g,
                    Err(e) => {
                        failures.push(format!("{label}: {e}"));
                        continue;
                    }
                };
                let want = match parse_json(want) {
                    Ok(w) => w,
                    Err(e) => {
                        failures.push(format!("{label}: expected-diags.json: {e}"));
                        continue;
                    }
                };
                if i == 0 {
                    if got != want {
                        failures.push(format!(
                            "{label}: diagnostics differ\n  want: {want}\n  got:  {got}"
                        ));
                    }
                } else if let Some(own) = &expected_json_diags {
                    match parse_json(own) {
                        Ok(w) if w == got => {}
                        Ok(w) => failures.push(format!(
                            "{label}: diagnostics differ from expected-diags-json.json\n  want: {w}\n  got:  {got}"
                        )),
                        Err(e) => failures.push(format!("{label}: {e}")),
                    }
                } else if summaries(&got) != summaries(&want) {
                    failures.push(format!(
                        "{label}: diagnostic summaries differ from the native input's\n  want: {:?}\n  got:  {:?}\n  all:  {got}",
                        summaries(&want),
                        summaries(&got)
                    ));
                }
            }
            (None, None) => failures.push(format!(
                "{label}: neither expected.json nor expected-diags.json; outcome: {outcome:?}"
            )),
        }
    }
    failures
}

#[test]
fn hcldec_cases() {
    let bless = std::env::var_os("HCLDEC_BLESS").is_some_and(|v| v == "1");
    let dirs = case_dirs();
    assert!(dirs.len() >= 50, "only {} case folders found", dirs.len());
    let failures: Vec<String> = dirs.iter().flat_map(|d| check_case(d, bless)).collect();
    assert!(
        failures.is_empty(),
        "{} failing hcldec case(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every case with both inputs is meant to decode the same (checked above); this makes
/// sure the folder keeps plenty of such twins.
#[test]
fn most_cases_have_a_json_twin() {
    let dirs = case_dirs();
    let twins = dirs
        .iter()
        .filter(|d| d.join("input.hcl").exists() && d.join("input.hcl.json").exists())
        .count();
    assert!(
        twins * 2 >= dirs.len(),
        "{twins} of {} cases have both inputs",
        dirs.len()
    );
}

// --- the decoder never panics -------------------------------------------------------------

const SPEC_WORDS: &[&str] = &[
    "object",
    "array",
    "attr",
    "block",
    "block_list",
    "block_set",
    "block_map",
    "block_attrs",
    "literal",
    "default",
    "transform",
    "variables",
    "function",
    "name",
    "type",
    "required",
    "block_type",
    "min_items",
    "max_items",
    "labels",
    "element_type",
    "value",
    "result",
    "nested",
    "params",
    "variadic_param",
    "string",
    "number",
    "bool",
    "any",
    "list(string)",
    "map(any)",
    "object({a=string})",
    "tuple([number])",
    "true",
    "false",
    "null",
    "1",
    "-1",
    "2.5",
    "\"a\"",
    "\"b\"",
    "[\"x\"]",
    "[a, b]",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "=",
    "\n",
    " ",
    ",",
    "...",
    "upper(nested)",
    "length(nested)",
    "jsondecode(\"[1]\")",
];

const INPUT_WORDS: &[&str] = &[
    "a",
    "b",
    "x",
    "rule",
    "dynamic",
    "content",
    "for_each",
    "=",
    "{",
    "}",
    "[",
    "]",
    "\n",
    " ",
    "\"a\"",
    "\"${x}\"",
    "1",
    "true",
    "null",
    "x.y",
    "[for v in [1] : v]",
    "upper(\"s\")",
    "f(1)",
    "rule.value",
    "\"l\"",
    ",",
    "<<EOT\nx\nEOT\n",
];

fn soup(words: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(words), 0..max).prop_map(|w| w.concat())
}

/// A syntactically plausible spec: nested spec blocks with arguments. Specs are generated
/// without labels; `object` gives each child its property-name label.
fn spec_tree() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-c]".prop_map(|n| format!("attr {{\n name = \"{n}\"\n type = any\n}}\n")),
        "[a-c]".prop_map(|n| format!("attr {{\n name = \"{n}\"\n required = true\n}}\n")),
        "[a-c]".prop_map(|n| format!("attr {{\n name = \"{n}\"\n type = list(string)\n}}\n")),
        Just("literal {\n value = 1\n}\n".to_string()),
        "[a-c]".prop_map(|n| {
            format!("block_attrs {{\n block_type = \"{n}\"\n element_type = string\n}}\n")
        }),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| {
                let body: String = v
                    .iter()
                    .enumerate()
                    .map(|(i, s)| s.replacen(' ', &format!(" \"k{i}\" "), 1))
                    .collect();
                format!("object {{\n{body}}}\n")
            }),
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|v| format!("array {{\n{}}}\n", v.concat())),
            ("[a-c]", inner.clone(), 0..3i32, 0..3i32).prop_map(|(n, s, lo, hi)| format!(
                "block_list {{\n block_type = \"{n}\"\n min_items = {lo}\n max_items = {hi}\n{s}}}\n"
            )),
            ("[a-c]", inner.clone())
                .prop_map(|(n, s)| format!("block_set {{\n block_type = \"{n}\"\n{s}}}\n")),
            ("[a-c]", inner.clone()).prop_map(|(n, s)| format!(
                "block_map {{\n block_type = \"{n}\"\n labels = [\"l\"]\n{s}}}\n"
            )),
            ("[a-c]", inner.clone(), any::<bool>()).prop_map(|(n, s, r)| format!(
                "block {{\n block_type = \"{n}\"\n required = {r}\n{s}}}\n"
            )),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("default {{\n{a}{b}}}\n")),
            inner.prop_map(|s| format!("transform {{\n result = nested\n{s}}}\n")),
        ]
    })
}

fn input_tree() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-c]".prop_map(|n| format!("{n} = 1\n")),
        "[a-c]".prop_map(|n| format!("{n} = \"s\"\n")),
        "[a-c]".prop_map(|n| format!("{n} = [1, \"x\", null]\n")),
        "[a-c]".prop_map(|n| format!("{n} = {{ k = true }}\n")),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            ("[a-c]", prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(n, v)| format!("{n} {{\n{}}}\n", v.concat())),
            ("[a-c]", prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(n, v)| format!("{n} \"l\" {{\n{}}}\n", v.concat())),
            ("[a-c]", inner).prop_map(|(n, s)| format!(
                "dynamic \"{n}\" {{\n for_each = [1, 2]\n content {{\n{s}}}\n}}\n"
            )),
        ]
    })
}

fn run_mem(spec: &str, input: &str, input_name: &str, with_type: bool, var_refs: bool) -> Outcome {
    let files = BTreeMap::from([
        ("spec.hcldec".to_string(), spec.as_bytes().to_vec()),
        (input_name.to_string(), input.as_bytes().to_vec()),
    ]);
    let opts = Options {
        spec: "spec.hcldec".into(),
        vars: vec![r#"{"x": {"y": [1, 2]}}"#.to_string()],
        with_type,
        var_refs,
        inputs: vec![input_name.to_string()],
        width: 80,
        ..Options::default()
    };
    run(&opts, &Mem(files))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn structured_specs_and_inputs_never_panic(
        spec in spec_tree(),
        input in input_tree(),
        with_type in any::<bool>(),
        var_refs in any::<bool>(),
    ) {
        let out = run_mem(&spec, &input, "input.hcl", with_type, var_refs);
        prop_assert!(out.status <= 2);
        prop_assert!(out.status != 0 || !out.stdout.is_empty());
    }

    #[test]
    fn token_soup_never_panics(
        spec in soup(SPEC_WORDS, 40),
        input in soup(INPUT_WORDS, 40),
        var_refs in any::<bool>(),
    ) {
        let out = run_mem(&spec, &input, "input.hcl", true, var_refs);
        prop_assert!(out.status <= 2);
    }

    #[test]
    fn json_inputs_never_panic(spec in spec_tree(), input in "[\\[\\]{}\":,a-c0-9 ]{0,60}") {
        let out = run_mem(&spec, &input, "input.hcl.json", false, false);
        prop_assert!(out.status <= 2);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// The recovering JSON pass (every diagnostic HCL reports) terminates, agrees with
    /// the strict parser on whether the text is valid, and starts with its error.
    #[test]
    fn json_error_recovery_agrees_with_the_parser(
        text in "[\\[\\]{}\":,=a-z0-9.\\\\ -]{0,80}",
        body_root in any::<bool>(),
    ) {
        let diags = cloudspec_hcl::json::parse_diagnostics(&text, body_root);
        match cloudspec_hcl::json::parse(&text) {
            Ok(_) => prop_assert!(diags.is_empty()),
            Err(e) => prop_assert_eq!(diags.first(), Some(&e)),
        }
    }
}
