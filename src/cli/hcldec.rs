//! `cloudspec hcldec`: HCL configuration to JSON through a decoding spec, with the
//! interface of HashiCorp's `hcldec` command (docs/hcldec.md). The command itself is
//! `cloudspec_hcl::hcldec::cmd`; this file maps the flags and writes the outcome.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use cloudspec_hcl::hcldec::cmd::{self, FileSystem, Options, EXIT_ERROR};

use super::use_color;

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec hcldec --spec app.hcldec app.hcl
  cloudspec hcldec --spec app.hcldec --vars '{\"env\": \"prod\"}' app.hcl overrides.hcl.json
  cloudspec hcldec --spec app.hcldec --with-type --diags json < app.hcl

The spec file's root block (object, array, attr, block, block_list, block_set, block_map,
block_attrs, literal, default or transform) says how the input maps to JSON and what input
is valid; `variables` and `function` blocks give the input variables and functions
(docs/hcldec.md). Inputs ending in .json are read in HCL's JSON syntax; several inputs are
decoded as one body; `dynamic` blocks are expanded.

The result is printed as one line of JSON; object properties that are null are left out
unless --keep-nulls. --with-type prints {\"type\": ..., \"value\": ...} with the type in
cty's JSON notation (\"string\", [\"list\",\"number\"], [\"object\",{...}]).

Exit status: 0 the input is valid and was decoded; 2 the spec or an input is invalid
(diagnostics on stderr, as text or with --diags json as {\"diagnostics\": [...]}), an
input cannot be read, or the result cannot be written (`Error: cannot write ...`).";

#[derive(Debug, Args)]
pub struct HcldecArgs {
    /// The spec file describing how to decode the input.
    #[arg(long, short = 's', value_name = "FILE", required = true)]
    pub spec: PathBuf,

    /// Variables for the input: a JSON object, or a file (JSON syntax when its name ends in
    /// .json, native syntax otherwise). Repeatable; later ones override earlier ones and
    /// the spec's `variables`.
    #[arg(
        long = "vars",
        short = 'V',
        value_name = "JSON|FILE",
        allow_hyphen_values = true
    )]
    pub vars: Vec<String>,

    /// Diagnostics format on stderr: text, or json (`{"diagnostics": [...]}`).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub diags: String,

    /// Print `{"type": ..., "value": ...}`: the result with its type in cty's JSON notation.
    #[arg(long)]
    pub with_type: bool,

    /// Keep object properties whose value is null (they are removed by default).
    #[arg(long)]
    pub keep_nulls: bool,

    /// Instead of decoding, print the variables the input refers to (JSON).
    #[arg(long)]
    pub var_refs: bool,

    /// Write the result to FILE instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Input files; none reads standard input (native syntax).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

pub(super) fn hcldec(args: HcldecArgs) -> u8 {
    let opts = Options {
        spec: args.spec.display().to_string(),
        vars: args.vars,
        diags_json: args.diags == "json",
        with_type: args.with_type,
        keep_nulls: args.keep_nulls,
        var_refs: args.var_refs,
        inputs: args
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        color: use_color("auto", std::io::stderr().is_terminal()),
        width: 80,
    };
    let outcome = cmd::run(&opts, &FileSystem);
    // hcldec's diagnostics are HashiCorp's tool's own output, byte for byte (text, or the
    // `--diags json` document): written as they are, like a report, not as log events.
    if !outcome.stderr.is_empty() {
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(outcome.stderr.as_bytes());
        let _ = stderr.flush();
    }
    if outcome.stdout.is_empty() {
        return outcome.status;
    }
    let written = match &args.out {
        Some(path) => super::files::write_bytes(path, outcome.stdout.as_bytes()),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(outcome.stdout.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("cannot write the result to standard output: {e}"))
        }
    };
    match written {
        Ok(()) => outcome.status,
        Err(message) => {
            // hcldec's own layout, as HashiCorp's tool prints it.
            super::logging::diagnostics("hcldec", &format!("Error: {message}\n\n"));
            EXIT_ERROR
        }
    }
}
