//! `cloudspec hcl ...`: HCL configurations (Terraform, Nomad...) evaluated as HashiCorp's
//! implementation evaluates them (docs/hcl.md).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use cloudspec_hcl::budget::Budget;
use cloudspec_hcl::eval::{body_to_value, EvalContext};
use cloudspec_hcl::syntax::{parse_body, SourceFile};
use cloudspec_hcl::{Diagnostic, Value};
use cloudspec_model::input::{self, MAX_HCL_BYTES};

use super::{EXIT_OK, EXIT_USAGE};

const EVAL_AFTER_HELP: &str = "\
Examples:
  cloudspec hcl eval main.tf
  cloudspec hcl eval --vars '{\"env\": \"prod\", \"count\": 3}' job.nomad.hcl
  cloudspec hcl eval --vars vars.json config.hcl
  echo 'x = upper(\"abc\")' | cloudspec hcl eval -

Prints one JSON object: each attribute of the file with its evaluated value, and each block
type as nested objects (one level per block label) ending in a list of the blocks' bodies:
  name = \"x\"                  ->  \"name\": \"x\"
  locals { a = 1 }             ->  \"locals\": [{\"a\": 1}]
  resource \"t\" \"n\" { b = 2 }   ->  \"resource\": {\"t\": {\"n\": [{\"b\": 2}]}}
Expressions may use the variables given with --vars and Terraform's built-in functions
(minus those reading files or the clock). Numbers are printed exactly. `dynamic \"T\"`
blocks are expanded into the T blocks they generate. Attributes are not variables: this
is HCL, not Terraform, so `local.x` or `var.x` must come from --vars.

Diagnostics are printed on stderr, one per line, as `file:line:col: error: summary: detail`;
when there is any error nothing is printed on stdout.

Exit status: 0 the file evaluated without errors; 2 the file cannot be read, does not parse,
an expression fails, a limit is reached, --vars is invalid, or the result cannot be
written (`error: cannot write ...`).";

#[derive(Debug, Subcommand)]
pub enum HclCommand {
    /// Evaluate an HCL file and print its attributes as JSON.
    #[command(after_help = EVAL_AFTER_HELP)]
    Eval(HclEvalArgs),
}

#[derive(Debug, Args)]
pub struct HclEvalArgs {
    /// The HCL file to evaluate; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Variables: a JSON object (`{"name": value, ...}`), or the path of a file holding one.
    /// Each property becomes a variable; JSON objects become HCL objects, arrays tuples.
    #[arg(long, value_name = "JSON|FILE")]
    pub vars: Option<String>,
}

pub(super) fn hcl(cmd: HclCommand) -> u8 {
    match cmd {
        HclCommand::Eval(args) => eval(args),
    }
}

fn eval(args: HclEvalArgs) -> u8 {
    let vars = match args.vars.as_deref().map(load_vars).transpose() {
        Ok(vars) => vars.unwrap_or_default(),
        Err(message) => {
            super::fail(&format!("--vars: {message}"));
            return EXIT_USAGE;
        }
    };
    let (name, text) = match read_input(&args.file) {
        Ok(x) => x,
        Err(message) => {
            super::fail(&message);
            return EXIT_USAGE;
        }
    };
    let src = SourceFile::new(name, text);
    let body = match parse_body(&src) {
        Ok(body) => body,
        Err(diag) => {
            // hcl-edit stops at an attribute set twice; the body parser goes on as HCL does
            // and reports "Attribute redefined" plus whatever else is wrong.
            let (_, diags) = cloudspec_hcl::body::parse_native(&src.name, &src.text);
            let diags = if cloudspec_hcl::diag::has_errors(&diags) {
                diags
            } else {
                vec![diag]
            };
            print_diagnostics(&src, &diags);
            return EXIT_USAGE;
        }
    };
    let ctx = EvalContext::new().with_variables(vars);
    // One budget for the whole file (docs/hcl.md, "Limits").
    let budget = Budget::new();
    let (value, mut diags) = budget.enter(|| body_to_value(&body, &ctx, &src));
    if let Some(e) = budget.exceeded() {
        if !cloudspec_hcl::diag::has_errors(&diags) {
            diags.push(Diagnostic::error(
                "Evaluation too expensive",
                e.detail(),
                None,
            ));
        }
    }
    print_diagnostics(&src, &diags);
    if cloudspec_hcl::diag::has_errors(&diags) {
        return EXIT_USAGE;
    }
    match cloudspec_hcl::json::encode(&unknowns_to_null(value)) {
        Ok(json) => {
            let mut stdout = std::io::stdout().lock();
            let written = writeln!(stdout, "{json}").and_then(|()| stdout.flush());
            match written {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    // A full disk, a closed pipe: said, never a panic.
                    super::fail(&format!("cannot write the result to standard output: {e}"));
                    EXIT_USAGE
                }
            }
        }
        Err(message) => {
            super::fail(&format!("cannot print the result as JSON: {message}"));
            EXIT_USAGE
        }
    }
}

/// The file's name for diagnostics and its text, read within [`input::MAX_HCL_BYTES`]: a
/// NUL byte (not a text file) or invalid UTF-8 is an error with its line and column and no
/// excerpt; a leading byte-order mark is dropped, as HCL drops it.
fn read_input(path: &Path) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let name = "<stdin>";
        let bytes = input::read_limited(std::io::stdin().lock(), name, MAX_HCL_BYTES, WHAT)
            .map_err(|e| e.to_string())?;
        let text = input::into_text(bytes, name, WHAT).map_err(|e| e.to_string())?;
        return Ok((name.to_string(), text));
    }
    let text = input::read_text(path, MAX_HCL_BYTES, WHAT).map_err(|e| e.to_string())?;
    Ok((input::display_path(path), text))
}

/// What `hcl eval` reads, as its read errors name it.
const WHAT: &str = "an HCL file";

/// The variables of `--vars`: inline JSON (starting with `{` or `[`) or a file holding it
/// (read as [`read_input`] reads).
fn load_vars(arg: &str) -> Result<BTreeMap<String, Value>, String> {
    let text = if arg.trim_start().starts_with(['{', '[']) {
        arg.to_string()
    } else {
        input::read_text(Path::new(arg), MAX_HCL_BYTES, "a variables file")
            .map_err(|e| e.to_string())?
    };
    match cloudspec_hcl::json::decode(&text) {
        Ok(Value::Object(vars)) => Ok(vars),
        Ok(other) => Err(format!(
            "expected a JSON object of variables, found {}",
            other.ty().friendly_name()
        )),
        Err(e) => Err(format!(
            "invalid JSON: {}",
            input::escape_control(&e.to_string())
        )),
    }
}

/// Unknown values (only produced by failed expressions, which are reported) print as null.
fn unknowns_to_null(v: Value) -> Value {
    match v {
        Value::Unknown(t) => Value::Null(t),
        Value::List(t, vs) => Value::List(t, vs.into_iter().map(unknowns_to_null).collect()),
        Value::Set(t, vs) => Value::Set(t, vs.into_iter().map(unknowns_to_null).collect()),
        Value::Tuple(vs) => Value::Tuple(vs.into_iter().map(unknowns_to_null).collect()),
        Value::Map(t, m) => Value::Map(
            t,
            m.into_iter()
                .map(|(k, v)| (k, unknowns_to_null(v)))
                .collect(),
        ),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, unknowns_to_null(v)))
                .collect(),
        ),
        other => other,
    }
}

/// One line per diagnostic: `file:line:col: error: summary: detail`.
fn print_diagnostics(src: &SourceFile, diags: &[Diagnostic]) {
    let lines: String = diags
        .iter()
        .map(|d| format!("{}\n", diagnostic_line(src, d)))
        .collect();
    if !lines.is_empty() {
        super::logging::diagnostics(&src.name, &lines);
    }
}

fn diagnostic_line(src: &SourceFile, d: &Diagnostic) -> String {
    let place = match &d.subject {
        Some(r) => format!("{}:{}:{}", r.filename, r.start.line, r.start.column),
        None => src.name.clone(),
    };
    let mut line = format!("{place}: {}: {}", d.severity.as_str(), d.summary);
    if !d.detail.is_empty() {
        line.push_str(": ");
        let detail: Vec<&str> = d
            .detail
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        line.push_str(&detail.join(" "));
    }
    // One line, whatever the input put in a name or a quoted value.
    input::truncate_chars(&input::escape_control(&line), MAX_DIAGNOSTIC_CHARS).into_owned()
}

/// A diagnostic line is cut after this many characters (details may quote values of any
/// size).
const MAX_DIAGNOSTIC_CHARS: usize = 1000;
