//! The `hcldec` command (HashiCorp's `cmd/hcldec`) as a function of its options and its
//! input files, so that the command line and the tests run the same code.
//!
//! What it does, in hcldec's order:
//! 1. Loads the spec file (always native syntax). Errors: exit status 2.
//! 2. Builds the input files' evaluation context: the spec's `variables`, overridden by
//!    each `-V/--vars` in turn (an argument starting with `{` is a JSON object, named
//!    `<vars argument N>` in diagnostics; anything else is a file, JSON syntax when its
//!    name ends in `.json`, native syntax otherwise; its attributes are evaluated without
//!    variables or functions), and the spec's `function`s. With no variables (or no
//!    functions) at all, references to them are errors ("Variables not allowed",
//!    "Function calls not allowed") rather than unknown names, as in hcldec.
//! 3. Parses the inputs (standard input, named `<stdin>`, in native syntax when there are
//!    none; a name ending in `.json` in the JSON syntax), merges them into one body and —
//!    unlike hcldec — expands `dynamic` blocks in it (HCL's `ext/dynblock`, evaluated in the
//!    same context).
//! 4. With `var_refs`, prints the variables the spec would evaluate instead of decoding.
//! 5. Decodes and prints the result as compact JSON; with `with_type` as
//!    `{"value":...,"type":...}`. Without `keep_nulls`, object properties whose value is
//!    null are removed at any depth, and object properties come out sorted by name (so
//!    `{"type":...,"value":...}`), exactly as hcldec's re-encoding does.
//!
//! Diagnostics go to standard error as text, or with `diags_json` as one JSON document,
//! and set exit status 2; only when there are errors (warnings alone are not printed, as
//! in hcldec). Exit status 1 with `Error: ...` is for failures that are not diagnostics
//! (an unreadable standard input, a result that cannot be written as JSON).

use std::collections::BTreeMap;
use std::sync::Arc;

use cloudspec_model::input::{self, InputError, MAX_HCL_BYTES};

use crate::body::{self, Body};
use crate::budget::Budget;
use crate::diag::{has_errors, Diagnostic, Range};
use crate::eval::{traverse_abs, EvalContext, TraverseStep};
use crate::types::go_quote;
use crate::value::Value;

use super::gojson::{marshal, Json};
use super::load::load_spec;
use super::spec::{decode, variables, VarRef};
use super::text::write_diagnostics;

/// Exit status of a run without errors.
pub const EXIT_OK: u8 = 0;
/// Exit status of a failure that is not a diagnostic (`Error: ...`: standard input or the
/// output cannot be read or written). HashiCorp's hcldec exits 1 here; cloudspec keeps 1
/// for findings and exits 2 for every failure.
pub const EXIT_ERROR: u8 = 2;
/// Exit status when there are error diagnostics.
pub const EXIT_DIAGNOSTICS: u8 = 2;

/// The command's options (its flags and arguments).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The spec file (`--spec`).
    pub spec: String,
    /// `-V/--vars`, in order.
    pub vars: Vec<String>,
    /// `--diags json`.
    pub diags_json: bool,
    /// `--with-type`.
    pub with_type: bool,
    /// `--keep-nulls`.
    pub keep_nulls: bool,
    /// `--var-refs`.
    pub var_refs: bool,
    /// Input files; none means standard input.
    pub inputs: Vec<String>,
    /// Colour in text diagnostics.
    pub color: bool,
    /// Width text diagnostics' details are wrapped at (0: no wrapping).
    pub width: usize,
}

/// Where the command reads its files and standard input.
pub trait Source {
    /// The bytes of file `path`.
    fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError>;
    /// All of standard input.
    fn read_stdin(&self) -> Result<Vec<u8>, InputError>;
}

/// The real file system and standard input, each read within [`MAX_HCL_BYTES`] (a pipe
/// or a device too: `/dev/zero` stops at the limit).
pub struct FileSystem;

/// What the inputs are, as read errors name them.
const WHAT: &str = "an hcldec input";

impl Source for FileSystem {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError> {
        input::read_bytes(std::path::Path::new(path), MAX_HCL_BYTES, WHAT)
    }
    fn read_stdin(&self) -> Result<Vec<u8>, InputError> {
        input::read_limited(std::io::stdin().lock(), "stdin", MAX_HCL_BYTES, WHAT)
    }
}

/// What a run printed and its exit status. `stdout` is the result (with its final newline)
/// and is empty unless `status` is 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
}

/// The state of one run: the source texts read so far (for text diagnostics).
struct Run<'a> {
    opts: &'a Options,
    source: &'a dyn Source,
    files: BTreeMap<String, String>,
    budget: Arc<Budget>,
}

/// Runs the command.
pub fn run(opts: &Options, source: &dyn Source) -> Outcome {
    run_with_budget(opts, source, Budget::new())
}

/// Runs the command with everything it evaluates (variables files, `dynamic` blocks, the
/// inputs) counted against `budget` (see [`crate::budget`]).
pub fn run_with_budget(opts: &Options, source: &dyn Source, budget: Arc<Budget>) -> Outcome {
    let mut r = Run {
        opts,
        source,
        files: BTreeMap::new(),
        budget: budget.clone(),
    };
    budget.enter(|| r.run())
}

impl Run<'_> {
    /// A spent budget whose diagnostic was lost on the way (in a `try`, say) is still an
    /// error of the run.
    fn budget_check(&self, diags: &mut Vec<Diagnostic>) {
        if let Some(e) = self.budget.exceeded() {
            if !has_errors(diags) {
                diags.push(Diagnostic::error(
                    "Evaluation too expensive",
                    e.detail(),
                    None,
                ));
            }
        }
    }

    fn fail_diags(&self, diags: &[Diagnostic]) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: self.render(diags),
            status: EXIT_DIAGNOSTICS,
        }
    }

    fn render(&self, diags: &[Diagnostic]) -> String {
        if self.opts.diags_json {
            diagnostics_json(diags)
        } else {
            write_diagnostics(diags, &self.files, self.opts.width, self.opts.color)
        }
    }

    /// Reads a file as text; a read failure, a file beyond the size limit, a NUL byte or
    /// invalid UTF-8 is a diagnostic.
    fn read(&mut self, path: &str, json: bool) -> Result<String, Box<Diagnostic>> {
        let bytes = self
            .source
            .read_file(path)
            .map_err(|e| Box::new(read_failure(path, json, &e)))?;
        self.text(path, bytes, json)
    }

    /// The text of `bytes` read from `name`. As in HCL, a UTF-8 byte-order mark starting a
    /// native-syntax file is skipped (in the JSON syntax it is an error, as in HCL) and
    /// invalid UTF-8 is "Invalid character encoding" at the first invalid byte. A NUL byte
    /// means the file is not text at all (`/proc/self/environ`, say): "Not a text file" at
    /// that byte. The source of a file that is not valid text is never shown.
    fn text(
        &mut self,
        name: &str,
        mut bytes: Vec<u8>,
        json: bool,
    ) -> Result<String, Box<Diagnostic>> {
        if !json && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
        }
        let bad_byte = |bytes: &[u8], at: usize| {
            // The position of byte `at`, counted over the (lossy) text before it.
            let prefix = String::from_utf8_lossy(bytes.get(..at).unwrap_or_default());
            let src = crate::syntax::SourceFile::new(name, prefix.into_owned());
            let mut range = src.range(at..at);
            range.start.byte = at;
            range.end.byte = at + 1;
            range.end.column = range.start.column + 1;
            range
        };
        if let Some(at) = bytes.iter().position(|&b| b == 0) {
            return Err(Box::new(Diagnostic::error(
                "Not a text file",
                format!(
                    "The file {} contains a NUL byte: input files must be UTF-8 text.",
                    go_quote(name)
                ),
                Some(bad_byte(&bytes, at)),
            )));
        }
        match String::from_utf8(bytes) {
            Ok(text) => {
                self.files.insert(name.to_string(), text.clone());
                Ok(text)
            }
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                Err(Box::new(Diagnostic::error(
                    "Invalid character encoding",
                    "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
                    Some(bad_byte(e.as_bytes(), at)),
                )))
            }
        }
    }

    fn run(&mut self) -> Outcome {
        let opts = self.opts;
        // 1. The spec.
        let spec_text = match self.read(&opts.spec, false) {
            Ok(t) => t,
            Err(d) => return self.fail_diags(&[*d]),
        };
        let (spec, mut diags) = load_spec(&opts.spec, &spec_text);
        if has_errors(&diags) {
            return self.fail_diags(&diags);
        }

        // 2. Variables and functions.
        let mut vars = spec.variables.clone();
        for (i, arg) in opts.vars.iter().enumerate() {
            let (vals, more) = if arg.trim_start().starts_with('{') {
                let name = format!("<vars argument {i}>");
                self.files.insert(name.clone(), arg.clone());
                let (b, d) = body::parse_json(&name, arg);
                vars_from_body(b, d)
            } else {
                let json = arg.ends_with(".json");
                match self.read(arg, json) {
                    Ok(text) => {
                        let (b, d) = body::parse_file(arg, &text);
                        vars_from_body(b, d)
                    }
                    Err(d) => (BTreeMap::new(), vec![*d]),
                }
            };
            diags.extend(more);
            vars.extend(vals);
        }
        let mut ctx = EvalContext::empty();
        if !vars.is_empty() {
            ctx = ctx.with_variables(vars);
        }
        if spec.functions.names().next().is_some() {
            ctx = ctx.with_functions(Arc::new(spec.functions.clone()));
        }

        // 3. The inputs.
        let mut bodies = Vec::new();
        if opts.inputs.is_empty() {
            let bytes = match self.source.read_stdin() {
                Ok(b) => b,
                Err(InputError::Io { source, .. }) => {
                    return error_outcome(&format!("failed to read stdin: {source}"))
                }
                Err(e) => return self.fail_diags(&[read_failure("<stdin>", false, &e)]),
            };
            match self.text("<stdin>", bytes, false) {
                Ok(text) => {
                    let (b, d) = body::parse_native("<stdin>", &text);
                    let ok = !has_errors(&d);
                    diags.extend(d);
                    if let (true, Some(b)) = (ok, b) {
                        bodies.push(b);
                    }
                }
                Err(d) => diags.push(*d),
            }
        } else {
            for name in &opts.inputs {
                let json = name.ends_with(".json");
                match self.read(name, json) {
                    Ok(text) => {
                        let (b, d) = body::parse_file(name, &text);
                        let ok = !has_errors(&d);
                        diags.extend(d);
                        if let (true, Some(b)) = (ok, b) {
                            bodies.push(b);
                        }
                    }
                    Err(d) => diags.push(*d),
                }
            }
        }
        self.budget_check(&mut diags);
        if has_errors(&diags) {
            return self.fail_diags(&diags);
        }
        let merged = if bodies.len() == 1 {
            bodies.remove(0)
        } else {
            Body::merge(bodies)
        };
        let input = body::expand_dynamic(merged, &ctx);

        // 4. Variable references.
        if opts.var_refs {
            let refs = variables(&input, &spec.root);
            return Outcome {
                stdout: format!("{}\n", var_refs_json(&refs, &ctx, &self.files).indented()),
                stderr: String::new(),
                status: EXIT_OK,
            };
        }

        // 5. Decoding.
        let (val, more) = decode(&input, &spec.root, &ctx);
        diags.extend(more);
        self.budget_check(&mut diags);
        if has_errors(&diags) {
            return self.fail_diags(&diags);
        }
        match result_json(&val, opts.with_type, opts.keep_nulls) {
            Ok(text) => Outcome {
                stdout: format!("{text}\n"),
                stderr: String::new(),
                status: EXIT_OK,
            },
            Err(e) => error_outcome(&e),
        }
    }
}

/// The diagnostic for a file that could not be read: HCL's texts when the system refused,
/// "File too large" beyond [`MAX_HCL_BYTES`].
fn read_failure(path: &str, json: bool, e: &InputError) -> Diagnostic {
    match e {
        InputError::TooLarge { limit_text, .. } => Diagnostic::error(
            "File too large",
            format!(
                "The file {} is larger than the {limit_text} limit for an input file.",
                go_quote(path)
            ),
            None,
        ),
        _ if json => Diagnostic::error(
            "Failed to open file",
            format!("The file {} could not be opened.", go_quote(path)),
            None,
        ),
        _ => Diagnostic::error(
            "Failed to read file",
            format!(
                "The configuration file {} could not be read.",
                go_quote(path)
            ),
            None,
        ),
    }
}

fn error_outcome(message: &str) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: format!("Error: {message}\n\n"),
        status: EXIT_ERROR,
    }
}

/// Variables from a vars file or argument: its attributes, evaluated without variables
/// or functions.
fn vars_from_body(
    body: Option<Body>,
    mut diags: Vec<Diagnostic>,
) -> (BTreeMap<String, Value>, Vec<Diagnostic>) {
    let Some(body) = body else {
        return (BTreeMap::new(), diags);
    };
    let (attrs, more) = body.just_attributes();
    diags.extend(more);
    let ctx = EvalContext::empty();
    let mut vals = BTreeMap::new();
    for (name, attr) in attrs {
        let (v, more) = attr.expr.value(&ctx);
        diags.extend(more);
        vals.insert(name, v);
    }
    (vals, diags)
}

/// The decoded value as hcldec prints it (without the final newline).
pub fn result_json(val: &Value, with_type: bool, keep_nulls: bool) -> Result<String, String> {
    let ty = if with_type {
        crate::types::Type::Dynamic
    } else {
        val.ty()
    };
    let mut json = marshal(val, &ty)?;
    if !keep_nulls {
        json = json.strip_null_properties();
    }
    Ok(json.compact())
}

fn pos_json(p: &crate::diag::Pos) -> Json {
    Json::Object(vec![
        ("line".into(), Json::Number(p.line.to_string())),
        ("column".into(), Json::Number(p.column.to_string())),
        ("byte".into(), Json::Number(p.byte.to_string())),
    ])
}

fn range_json(r: &Range) -> Json {
    Json::Object(vec![
        ("filename".into(), Json::String(r.filename.clone())),
        ("start".into(), pos_json(&r.start)),
        ("end".into(), pos_json(&r.end)),
    ])
}

/// `{"diagnostics":[...]}` as hcldec's `--diags=json` writes it (indented, with a final
/// newline; `detail` and `subject` left out when empty).
pub fn diagnostics_json(diags: &[Diagnostic]) -> String {
    if diags.is_empty() {
        return String::new();
    }
    let list = diags
        .iter()
        .map(|d| {
            let mut members = vec![
                ("severity".into(), Json::String(d.severity.as_str().into())),
                ("summary".into(), Json::String(d.summary.clone())),
            ];
            if !d.detail.is_empty() {
                let detail = super::text::bounded_detail(&d.detail).into_owned();
                members.push(("detail".into(), Json::String(detail)));
            }
            if let Some(s) = &d.subject {
                members.push(("subject".into(), range_json(s)));
            }
            Json::Object(members)
        })
        .collect();
    let doc = Json::Object(vec![("diagnostics".into(), Json::Array(list))]);
    format!("{}\n", doc.indented())
}

/// The source ranges of a traversal's steps: the root name, then each `.name`, `.0` or
/// `[key]`, found by scanning the traversal's source text from its start.
fn step_ranges(steps: &[TraverseStep], range: &Range, text: Option<&str>) -> Vec<Range> {
    let whole = || vec![range.clone(); steps.len()];
    let Some(text) = text else {
        return whole();
    };
    let Some(src) = text.get(range.start.byte..range.end.byte.max(range.start.byte)) else {
        return whole();
    };
    let mut out = Vec::with_capacity(steps.len());
    let bytes = src.as_bytes();
    let mut i = 0usize;
    let pos_at = |offset: usize| -> crate::diag::Pos {
        // Columns count characters on the traversal's first line (traversals rarely span
        // lines; a newline restarts the count).
        let before = src.get(..offset).unwrap_or("");
        match before.rfind('\n') {
            None => crate::diag::Pos {
                line: range.start.line,
                column: range.start.column + before.chars().count(),
                byte: range.start.byte + offset,
            },
            Some(nl) => crate::diag::Pos {
                line: range.start.line + before.matches('\n').count(),
                column: 1 + before.get(nl + 1..).unwrap_or("").chars().count(),
                byte: range.start.byte + offset,
            },
        }
    };
    let skip_blank = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    for (n, step) in steps.iter().enumerate() {
        i = skip_blank(i);
        let start = i;
        match step {
            TraverseStep::Root(_) | TraverseStep::Attr(_) => {
                if n > 0 && bytes.get(i) == Some(&b'.') {
                    i = skip_blank(i + 1);
                }
                while bytes.get(i).is_some_and(|b| {
                    b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b >= 0x80
                }) {
                    i += 1;
                }
            }
            TraverseStep::Index(_) => {
                if bytes.get(i) == Some(&b'.') {
                    // Legacy `.0` index.
                    i += 1;
                    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                } else if bytes.get(i) == Some(&b'[') {
                    let mut depth = 0usize;
                    let mut in_str = false;
                    while let Some(&b) = bytes.get(i) {
                        i += 1;
                        match b {
                            b'"' if !in_str => in_str = true,
                            b'"' if in_str => in_str = false,
                            b'\\' if in_str => i += 1,
                            b'[' if !in_str => depth += 1,
                            b']' if !in_str => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        let end = i.min(src.len());
        out.push(Range {
            filename: range.filename.clone(),
            start: pos_at(start.min(end)),
            end: pos_at(end),
        });
    }
    out
}

/// hcldec's `--var-refs` document: each traversal with its root name, current value (when
/// it can be evaluated in `ctx`), steps and ranges.
pub fn var_refs_json(refs: &[VarRef], ctx: &EvalContext, files: &BTreeMap<String, String>) -> Json {
    let mut out = Vec::with_capacity(refs.len());
    for (steps, range) in refs {
        let ranges = step_ranges(steps, range, files.get(&range.filename).map(String::as_str));
        let mut root_name = String::new();
        let mut steps_json = Vec::with_capacity(steps.len());
        for (step, r) in steps.iter().zip(ranges) {
            let mut members = Vec::new();
            match step {
                TraverseStep::Root(name) => {
                    root_name = name.clone();
                    members.push(("kind".into(), Json::String("root".into())));
                    members.push(("name".into(), Json::String(name.clone())));
                }
                TraverseStep::Attr(name) => {
                    members.push(("kind".into(), Json::String("attr".into())));
                    if !name.is_empty() {
                        members.push(("name".into(), Json::String(name.clone())));
                    }
                }
                TraverseStep::Index(key) => {
                    members.push(("kind".into(), Json::String("index".into())));
                    if let Ok(k) = marshal(key, &key.ty()) {
                        members.push(("key".into(), k));
                    }
                }
            }
            members.push(("range".into(), range_json(&r)));
            steps_json.push(Json::Object(members));
        }
        let mut members = vec![("root_name".into(), Json::String(root_name))];
        let (val, diags) = traverse_abs(steps, ctx, Some(range.clone()));
        if !has_errors(&diags) {
            if let Ok(v) = marshal(&val, &val.ty()) {
                members.push(("value".into(), v));
            }
        }
        members.push(("steps".into(), Json::Array(steps_json)));
        members.push(("range".into(), range_json(range)));
        out.push(Json::Object(members));
    }
    Json::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Mem(BTreeMap<String, Vec<u8>>, Option<Vec<u8>>);

    impl Source for Mem {
        fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError> {
            self.0.get(path).cloned().ok_or_else(|| InputError::Io {
                path: path.into(),
                source: std::io::Error::other("no such file"),
            })
        }
        fn read_stdin(&self) -> Result<Vec<u8>, InputError> {
            self.1.clone().ok_or_else(|| InputError::Io {
                path: "stdin".into(),
                source: std::io::Error::other("closed"),
            })
        }
    }

    fn files(pairs: &[(&str, &[u8])]) -> BTreeMap<String, Vec<u8>> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_vec()))
            .collect()
    }

    fn opts(inputs: &[&str]) -> Options {
        Options {
            spec: "s.hcldec".into(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            ..Options::default()
        }
    }

    const SPEC: &[u8] = b"attr {\n  name = \"a\"\n}\n";

    #[test]
    fn invalid_utf8_is_a_diagnostic() {
        let src = Mem(
            files(&[("s.hcldec", SPEC), ("in.hcl", b"a = \"\xff\"\n")]),
            None,
        );
        let out = run(&opts(&["in.hcl"]), &src);
        assert_eq!(out.status, EXIT_DIAGNOSTICS);
        // The subject is the first invalid byte; the file's text is not shown.
        assert_eq!(
            out.stderr,
            "Error: Invalid character encoding\n\n  on in.hcl line 1:\n  (source code not available)\n\nAll input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.\n\n"
        );
    }

    #[test]
    fn unreadable_stdin_is_an_error() {
        let src = Mem(files(&[("s.hcldec", SPEC)]), None);
        let out = run(&opts(&[]), &src);
        assert_eq!(
            out,
            Outcome {
                stdout: String::new(),
                stderr: "Error: failed to read stdin: closed\n\n".into(),
                status: EXIT_ERROR,
            }
        );
    }

    #[test]
    fn warnings_alone_are_not_printed() {
        let spec: &[u8] = b"default {\n  attr {\n    name = \"a\"\n  }\n}\n";
        let src = Mem(files(&[("s.hcldec", spec)]), Some(b"a = 1\n".to_vec()));
        let out = run(&opts(&[]), &src);
        assert_eq!(
            out,
            Outcome {
                stdout: "1\n".into(),
                stderr: String::new(),
                status: EXIT_OK,
            }
        );
    }

    #[test]
    fn warnings_are_printed_with_errors() {
        let spec: &[u8] = b"default {\n  attr {\n    name = \"a\"\n  }\n}\n";
        let src = Mem(files(&[("s.hcldec", spec)]), Some(b"b = 1\n".to_vec()));
        let mut o = opts(&[]);
        o.diags_json = true;
        let out = run(&o, &src);
        assert_eq!(out.status, EXIT_DIAGNOSTICS);
        let doc: serde_json::Value = serde_json::from_str(&out.stderr).unwrap_or_default();
        let severities: Vec<&str> = doc["diagnostics"]
            .as_array()
            .map(|a| a.iter().filter_map(|d| d["severity"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(severities, ["warning", "error"]);
    }

    #[test]
    fn unknown_results_cannot_be_printed() {
        assert_eq!(
            result_json(&Value::Unknown(crate::types::Type::String), false, false),
            Err("value is not known".to_string())
        );
        assert_eq!(
            result_json(&Value::Null(crate::types::Type::String), true, false),
            Ok("{\"type\":\"string\"}".to_string())
        );
        assert_eq!(
            result_json(&Value::Null(crate::types::Type::String), true, true),
            Ok("{\"value\":null,\"type\":\"string\"}".to_string())
        );
    }

    #[test]
    fn vars_arguments_are_json_named_by_position() {
        let src = Mem(files(&[("s.hcldec", SPEC)]), Some(b"a = x\n".to_vec()));
        let mut o = opts(&[]);
        o.vars = vec!["{\"x\": 1}".into(), " {\"x\": ".into()];
        o.diags_json = true;
        let out = run(&o, &src);
        assert_eq!(out.status, EXIT_DIAGNOSTICS);
        assert!(
            out.stderr
                .contains("\"filename\": \"\\u003cvars argument 1\\u003e\""),
            "{}",
            out.stderr
        );
    }

    #[test]
    fn step_ranges_follow_the_source() {
        let range = Range {
            filename: "f".into(),
            start: crate::diag::Pos {
                line: 1,
                column: 5,
                byte: 4,
            },
            end: crate::diag::Pos {
                line: 1,
                column: 20,
                byte: 19,
            },
        };
        let steps = vec![
            TraverseStep::Root("a".into()),
            TraverseStep::Index(Value::from(0)),
            TraverseStep::Attr("b".into()),
            TraverseStep::Index(Value::from("]")),
        ];
        let got: Vec<(usize, usize)> = step_ranges(&steps, &range, Some("x = a.0 . b[\"]\"] + 1"))
            .iter()
            .map(|r| (r.start.column, r.end.column))
            .collect();
        assert_eq!(got, [(5, 6), (6, 8), (9, 12), (12, 17)]);
        // Without the source text every step gets the whole range.
        assert!(step_ranges(&steps, &range, None)
            .iter()
            .all(|r| *r == range));
    }
}
