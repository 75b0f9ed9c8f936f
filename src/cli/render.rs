//! `cloudspec render`: a crossplane function-hcl composition rendered offline, as
//! `crossplane render` would run the function (docs/compositions.md).

use std::path::PathBuf;

use clap::Args;
use cloudspec_composition::input::{self, InputError};
use cloudspec_composition::Failure;
use cloudspec_model::input::{display_path, escape_control, truncate_chars};

use super::{EXIT_OK, EXIT_USAGE};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec render examples/composition/composition --xr examples/composition/xr.yaml
  cloudspec render composition.yaml --xr xr.yaml --observed observed.yaml --format json
  cloudspec render main.hcl --xr xr.yaml --extra-resources extra.yaml --context ctx.json
  cloudspec render --check examples/composition/composition

COMPOSITION is a directory of *.hcl files (not recursive, sorted by name), a .txtar
archive (`-- main.hcl --` before each file), a Crossplane Composition YAML (the txtar of
its pipeline step whose input is kind HclInput), or one HCL file. The files are one unit;
messages name them as the directory or the archive does.

Prints the function's response (the RunFunctionResponse of the last call, without meta)
on stdout, keys sorted:
  desired.composite      the XR's status and connection details the composition sets
  desired.resources      every composed resource by its crossplane name, with `ready`
  context, requirements  the pipeline context and the extra resources asked for
  conditions, results    FullyResolved / HclDiagnostics, and a warning per dropped item
A requirement is answered from --extra-resources and the function is called again, as
crossplane does, until the requirements stop changing. Nothing is written to files.

`cloudspec run SPEC --composition COMPOSITION --xr XR.yaml` renders the same way and
judges each desired resource (type k8s:<group>:<Kind>) and the XR with the spec.

Errors are printed on stderr, one per line, as `FILE:LINE:COL: error: SUMMARY; DETAIL`
(or `error: MESSAGE` without a position); stdout is then empty.

Exit status: 0 rendered (even with incomplete items, FullyResolved False, unless
--fail-on-incomplete, which makes that 3); 2 bad
arguments, an unreadable or invalid input, a static or evaluation error, or requirements
that never stabilize. With --check: 0 the composition passes the static checks, 2 it does
not.";

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The composition: a directory of *.hcl files, a .txtar archive, a Crossplane
    /// Composition YAML, or one HCL file.
    #[arg(value_name = "COMPOSITION")]
    pub composition: PathBuf,

    /// The composite resource (XR): one YAML document.
    #[arg(long, value_name = "XR.yaml", required_unless_present = "check")]
    pub xr: Option<PathBuf>,

    /// Observed composed resources (YAML documents), each named by its
    /// `crossplane.io/composition-resource-name` annotation.
    #[arg(long, value_name = "OBS.yaml", conflicts_with = "check")]
    pub observed: Option<PathBuf>,

    /// Objects the composition's requirements may select (YAML documents). Without it,
    /// every requirement is answered with nothing.
    #[arg(long, value_name = "EXTRA.yaml", conflicts_with = "check")]
    pub extra_resources: Option<PathBuf>,

    /// The incoming pipeline context: a JSON object.
    #[arg(long, value_name = "CTX.json", conflicts_with = "check")]
    pub context: Option<PathBuf>,

    /// Output: yaml or json (pretty, 2-space indent); the same document either way.
    #[arg(long, value_name = "FORMAT", default_value = "yaml", value_parser = ["yaml", "json"])]
    pub format: String,

    /// Only run the static checks (parsing, block schemas, undefined variables, functions,
    /// invoke calls, requirement selectors); no XR is needed.
    #[arg(long, conflicts_with = "xr")]
    pub check: bool,

    /// Exit 3 (after printing the document) when an item was dropped as incomplete
    /// (FullyResolved is False): for a pipeline that must not ship a partial render.
    #[arg(long, conflicts_with = "check")]
    pub fail_on_incomplete: bool,
}

pub(super) fn render(args: RenderArgs) -> u8 {
    match render_steps(&args) {
        Ok(status) | Err(status) => status,
    }
}

fn render_steps(args: &RenderArgs) -> Result<u8, u8> {
    let shown = display_path(&args.composition);
    let loaded = input::load(&args.composition).map_err(|e| input_failed(&e))?;
    if args.check {
        let diagnostics = cloudspec_composition::check(&loaded.composition);
        let errors = cloudspec_hcl::diag::has_errors(&diagnostics);
        if !diagnostics.is_empty() {
            print_failure(
                &shown,
                &Failure {
                    diagnostics: diagnostics.clone(),
                },
            );
        }
        if errors {
            return Err(EXIT_USAGE);
        }
        let n = loaded.composition.files.len();
        super::logging::say(&format!(
            "ok: {shown} passes the static checks ({n} {})",
            if n == 1 { "file" } else { "files" }
        ));
        return Ok(EXIT_OK);
    }
    let Some(xr) = &args.xr else {
        return Err(super::fail("render needs --xr XR.yaml (or --check)"));
    };
    let inputs = input::load_inputs(
        xr,
        args.observed.as_deref(),
        args.extra_resources.as_deref(),
        args.context.as_deref(),
    )
    .map_err(|e| input_failed(&e))?;
    let rendered = cloudspec_composition::render(&loaded.composition, &inputs).map_err(|f| {
        print_failure(&shown, &f);
        EXIT_USAGE
    })?;
    let text = match args.format.as_str() {
        "json" => serde_json::to_string_pretty(&rendered.document)
            .map(|mut t| {
                t.push('\n');
                t
            })
            .map_err(|e| e.to_string()),
        _ => Ok(yaml(&rendered.document)),
    }
    .map_err(|e| super::fail(&format!("cannot print the rendered document: {e}")))?;
    super::files::print_stdout(&text)?;
    let incomplete = rendered.document["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == "FullyResolved"))
        .is_some_and(|c| c["status"] == "STATUS_CONDITION_FALSE");
    if args.fail_on_incomplete && incomplete {
        return Ok(super::EXIT_INCOMPLETE);
    }
    Ok(EXIT_OK)
}

/// An input that cannot be read: `FILE:LINE:COL: error: MESSAGE` when the parser gave a
/// position (as the render's own errors), else `error: FILE: MESSAGE`.
fn input_failed(e: &InputError) -> u8 {
    if e.at.is_some() {
        super::logging::diagnostics(&e.file, &format!("{}\n", one_line(&e.line())));
        EXIT_USAGE
    } else {
        super::fail(&e.to_string())
    }
}

/// A failed render's diagnostics, one line each (contract section 5).
fn print_failure(file: &str, failure: &Failure) {
    let text = failure.to_string();
    let lines: String = text.lines().map(|l| format!("{}\n", one_line(l))).collect();
    if !lines.is_empty() {
        super::logging::diagnostics(file, &lines);
    }
}

/// One line of stderr: control characters escaped, at most [`MAX_LINE_CHARS`] characters
/// (a detail may quote a value of any length).
fn one_line(line: &str) -> String {
    truncate_chars(&escape_control(line), MAX_LINE_CHARS).into_owned()
}

const MAX_LINE_CHARS: usize = 1000;

// -------------------------------------------------------------------------------------
// YAML output
// -------------------------------------------------------------------------------------

/// Written here rather than with serde_yaml_ng, whose emitter leaves `yes`, `on`, `y` and
/// `010` unquoted: a YAML 1.1 reader (PyYAML, older Kubernetes tooling) takes them for
/// booleans and octal numbers, so the printed document would not read back as rendered.
///
/// `value` as a YAML document, block style as kubectl writes it (a list under a key is not
/// indented), keys in the order of the map (sorted). A string is written plain only when
/// no YAML reader, 1.1 or 1.2, can take it for anything else (`yes`, `on`, `010`,
/// `2024-01-01`, `1_000` are quoted); a multi-line string is a literal block (`|`, `|-`,
/// `|+`) when it can be one, otherwise a double-quoted string with escapes.
fn yaml(value: &serde_json::Value) -> String {
    let mut out = String::new();
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => yaml_map(map, 0, &mut out),
        serde_json::Value::Array(items) if !items.is_empty() => yaml_list(items, 0, &mut out),
        other => {
            // A literal block at the document's root is indented too: lines at column 0
            // could read as directives (`%`) or document markers (`---`, `...`).
            out.push_str(&yaml_inline(other, 2));
            out.push('\n');
        }
    }
    out
}

fn yaml_map(map: &serde_json::Map<String, serde_json::Value>, indent: usize, out: &mut String) {
    for (key, value) in map {
        out.push_str(&" ".repeat(indent));
        out.push_str(&yaml_string(key, None));
        out.push(':');
        match value {
            serde_json::Value::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                yaml_map(inner, indent + 2, out);
            }
            serde_json::Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                yaml_list(items, indent, out);
            }
            other => {
                out.push(' ');
                out.push_str(&yaml_inline(other, indent + 2));
                out.push('\n');
            }
        }
    }
}

fn yaml_list(items: &[serde_json::Value], indent: usize, out: &mut String) {
    for item in items {
        out.push_str(&" ".repeat(indent));
        out.push_str("- ");
        match item {
            serde_json::Value::Object(inner) if !inner.is_empty() => {
                // The first key on the dash's line, the others under it.
                let mut nested = String::new();
                yaml_map(inner, indent + 2, &mut nested);
                out.push_str(nested.get(indent + 2..).unwrap_or_default());
            }
            serde_json::Value::Array(inner) if !inner.is_empty() => {
                let mut nested = String::new();
                yaml_list(inner, indent + 2, &mut nested);
                out.push_str(nested.get(indent + 2..).unwrap_or_default());
            }
            other => {
                out.push_str(&yaml_inline(other, indent + 2));
                out.push('\n');
            }
        }
    }
}

/// A scalar or an empty collection, on the current line (a literal block continues on
/// the lines after it, indented by `indent`).
fn yaml_inline(value: &serde_json::Value, indent: usize) -> String {
    match value {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => yaml_string(s, Some(indent)),
        serde_json::Value::Array(_) => "[]".into(),
        serde_json::Value::Object(_) => "{}".into(),
    }
}

/// A string as a YAML scalar: plain when unambiguous, a literal block when `block` gives
/// its indentation and it has several lines, else double-quoted.
fn yaml_string(s: &str, block: Option<usize>) -> String {
    if plain_is_safe(s) {
        return s.to_string();
    }
    if let Some(indent) = block {
        if let Some(text) = literal_block(s, indent) {
            return text;
        }
    }
    double_quoted(s)
}

/// Whether `s` reads back as the same string, plain, under YAML 1.1 and 1.2 alike: it
/// starts with a letter, `_` or `/`, holds only letters, digits and `_./-` and inner
/// spaces, and is none of the words either version takes for a boolean or null.
fn plain_is_safe(s: &str) -> bool {
    const WORDS: [&str; 10] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
    ];
    let Some(first) = s.chars().next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_' || first == '/')
        && !s.ends_with(' ')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-' | ' '))
        && !WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
}

/// `|`, `|-` or `|+` and the lines of `s` indented by `indent`, when `s` has a line break
/// before its end and can be written so: no character that needs an escape, and a first
/// line that does not start with a space (which would set the indentation).
fn literal_block(s: &str, indent: usize) -> Option<String> {
    let body = s.trim_end_matches('\n');
    if !body.contains('\n')
        || body.starts_with([' ', '\t'])
        || s.chars().any(|c| c != '\n' && c != '\t' && needs_escape(c))
        || s.contains('\r')
    {
        return None;
    }
    let trailing = s.len() - body.len();
    let chomp = match trailing {
        0 => "-",
        1 => "",
        _ => "+",
    };
    let mut out = format!("|{chomp}");
    let pad = " ".repeat(indent);
    for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
    }
    Some(out)
}

/// A double-quoted YAML string: `"` and `\\` escaped, and every character YAML does not
/// allow raw (controls, DEL, C1, the byte-order mark) written as an escape.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters YAML's printable set leaves out (and line separators, which some readers
/// take for line breaks).
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: &serde_json::Value) -> String {
        let text = yaml(value);
        let back: serde_json::Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, value, "{text}");
        text
    }

    #[test]
    fn documents_are_block_style_with_lists_under_their_key() {
        let doc = json!({
            "desired": {"resources": {"b-0": {"ready": "READY_UNSPECIFIED", "resource": {
                "apiVersion": "s3.aws.upbound.io/v1beta1",
                "spec": {"forProvider": {"region": "eu-west-1", "tags": {}}}}}}},
            "results": [{"message": "no warnings", "severity": "SEVERITY_NORMAL"}, [1, [2]], []],
            "context": {}
        });
        assert_eq!(
            round_trip(&doc),
            "context: {}\ndesired:\n  resources:\n    b-0:\n      ready: READY_UNSPECIFIED\n      \
             resource:\n        apiVersion: s3.aws.upbound.io/v1beta1\n        spec:\n          \
             forProvider:\n            region: eu-west-1\n            tags: {}\nresults:\n- \
             message: no warnings\n  severity: SEVERITY_NORMAL\n- - 1\n  - - 2\n- []\n"
        );
    }

    #[test]
    fn strings_another_reader_could_take_for_something_else_are_quoted() {
        let doc = json!({
            "yes": "yes", "on": "On", "n": "n", "null": "null", "tilde": "~", "octal": "010",
            "number": "1.5", "under": "1_000", "date": "2024-01-01", "empty": "",
            "colon": "a: b", "hash": "a #b", "dash": "- a", "space": " a", "trail": "a ",
            "arn": "arn:aws:s3:::b", "star": "*x", "ctl": "a\u{7f}b\u{85}c", "quote": "say \"hi\"",
            "plain": "my bucket/v1.2_x-y", "int": 7, "float": 1.5, "t": true, "nothing": null
        });
        let text = round_trip(&doc);
        assert!(text.contains("\"yes\": \"yes\"\n"), "{text}");
        assert!(text.contains("octal: \"010\"\n"), "{text}");
        assert!(text.contains("date: \"2024-01-01\"\n"), "{text}");
        assert!(text.contains("ctl: \"a\\u007Fb\\u0085c\"\n"), "{text}");
        assert!(text.contains("plain: my bucket/v1.2_x-y\n"), "{text}");
        assert!(text.contains("\"null\": \"null\"\n"), "{text}");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks_when_they_can_be() {
        let doc = json!({"a": {"clip": "x = 1\ny = 2\n", "strip": "x\ny", "keep": "x\n\ny\n\n\n",
            "blank": "x\n\n  y\n", "lead": "  x\ny\n", "tab": "x\n\ty\n", "cr": "x\r\ny\n"},
            "l": ["p\nq\n"]});
        let text = round_trip(&doc);
        assert!(text.contains("  clip: |\n    x = 1\n    y = 2\n"), "{text}");
        assert!(text.contains("  strip: |-\n    x\n    y\n"), "{text}");
        assert!(text.contains("  keep: |+\n    x\n\n    y\n\n\n"), "{text}");
        assert!(text.contains("  lead: \"  x\\ny\\n\"\n"), "{text}");
        assert!(text.contains("- |\n  p\n  q\n"), "{text}");
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let text = || {
            proptest::string::string_regex(
            "[a-zA-Z0-9 _./:#'\"\\\\-]{0,6}|[\\n\\t\\r\\u{0}-\\u{ff}\\u{2028}\\u{feff}x ]{0,8}|(yes|No|ON|~|null|010|1_0|0x1f|.inf|-|- x|2024-01-01)",
        )
        .expect("a regex")
        };
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            (-1e6f64..1e6).prop_map(serde_json::Value::from),
            text().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 32, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map(text(), inner, 0..4)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn every_document_reads_back_as_itself(value in json_value()) {
            round_trip(&value);
        }
    }

    /// Found by the property test: a multi-line string as the whole document.
    #[test]
    fn a_multi_line_string_document_reads_back() {
        for s in ["\n\u{a1}", "$\nK<**s\u{b5}", "a\n---\nb", "a\n...\n%x"] {
            round_trip(&json!(s));
        }
    }

    #[test]
    fn scalars_and_empty_documents() {
        assert_eq!(yaml(&json!({})), "{}\n");
        assert_eq!(yaml(&json!(null)), "null\n");
        assert_eq!(round_trip(&json!(["a"])), "- a\n");
    }
}
