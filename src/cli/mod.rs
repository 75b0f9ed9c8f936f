//! The command line: clap definitions and the wiring of the stages. `main` returns the
//! exit status; nothing below it exits the process.

mod audit;
mod diff;
mod docs;
mod files;
mod fmt;
mod hcl;
mod hcldec;
mod logging;
mod output_dir;
mod permissions;
mod render;
mod run;
mod schema;
pub mod sources;
mod specs;
pub mod terraform;
mod test;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Exit statuses (language.md): every rule pass, skip or unknown.
pub const EXIT_OK: u8 = 0;
/// At least one rule fails (or is unknown, with `--fail-on-unknown`).
pub const EXIT_FAIL: u8 = 1;
/// The command could not run: bad arguments, invalid spec, unreadable file.
pub const EXIT_USAGE: u8 = 2;
/// The evaluation is incomplete: at least one `error` outcome. Outranks 1.
pub const EXIT_INCOMPLETE: u8 = 3;

const ABOUT: &str = "Cloud compliance rules in plain English, checked against a saved inventory, \
a live account or infrastructure code (Terraform, crossplane compositions).";

const AFTER_HELP: &str = "\
Examples:
  cloudspec run examples/prod.cloudspec --inventory examples/inventory.json
  cloudspec run rules/ --inventory inv.json --format junit=report.xml --format console
  cloudspec run examples/prod.cloudspec --terraform examples/terraform
  cloudspec validate specs/*.cloudspec
  cloudspec fmt --check specs/

Exit status: 0 all rules pass, skip or are unknown; 1 a rule fails; 2 the command could \
not run (bad arguments, invalid spec, unreadable file); 3 the evaluation is incomplete (a \
rule is `error`).";

#[derive(Debug, Parser)]
#[command(name = "cloudspec", version, about = ABOUT, after_help = AFTER_HELP)]
pub struct Cli {
    /// Log format on stderr: text for people, json (one object per line) for log collectors.
    #[arg(long, global = true, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Evaluate specs against an inventory and report the verdicts.
    #[command(after_help = run::AFTER_HELP)]
    Run(Box<RunArgs>),
    /// Check spec files for errors without evaluating them.
    #[command(after_help = validate::AFTER_HELP)]
    Validate(ValidateArgs),
    /// Rewrite spec files in canonical layout (or check that they are).
    #[command(after_help = fmt::AFTER_HELP)]
    Fmt(FmtArgs),
    /// Run rule tests: fixtures next to specs with the verdicts they must give.
    #[command(after_help = test::AFTER_HELP)]
    Test(TestArgs),
    /// Generate Markdown documentation pages for rule packs.
    #[command(after_help = docs::AFTER_HELP)]
    Docs(DocsArgs),
    /// Compare two JSON reports: new, fixed and persisting failures per rule.
    #[command(after_help = diff::AFTER_HELP)]
    Diff(DiffArgs),
    /// List resource types with their members, member types and associations.
    #[command(after_help = schema::AFTER_HELP)]
    Schema(SchemaArgs),
    /// Print the least-privilege read-only IAM policy that running specs needs.
    #[command(after_help = permissions::AFTER_HELP)]
    Permissions(PermissionsArgs),
    /// Evaluate HCL configurations (Terraform, Nomad) as HashiCorp's implementation does.
    #[command(subcommand)]
    Hcl(hcl::HclCommand),
    /// Decode HCL configuration files to JSON with a spec, as HashiCorp's hcldec does.
    #[command(after_help = hcldec::AFTER_HELP)]
    Hcldec(hcldec::HcldecArgs),
    /// Render a crossplane function-hcl composition offline and print the function's response.
    #[command(after_help = render::AFTER_HELP)]
    Render(render::RenderArgs),
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Spec files, or directories searched for `*.cloudspec` files.
    #[arg(required = true, value_name = "SPEC")]
    pub specs: Vec<PathBuf>,

    /// Evaluate against this saved inventory (JSON, see docs/inventory.md) instead of a live
    /// account. Only the properties the specs read are kept in memory (all of the file is
    /// still checked); --save-inventory and --output-dir keep everything.
    #[arg(long, value_name = "FILE")]
    pub inventory: Option<PathBuf>,

    /// Report format: console, json, junit or sarif; `FORMAT=FILE` writes it to FILE.
    /// Repeat for several reports from one run. Default: console on stdout.
    #[arg(long = "format", short = 'f', value_name = "FORMAT[=FILE]")]
    pub formats: Vec<String>,

    /// Write the (single) report without `=FILE` to this file instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Passing resources in the JSON report (also --output-dir's): all, or none for a
    /// report of what did not pass; each rule then counts what it left out in
    /// "passing_omitted", and the summary still counts every resource. The other formats
    /// do not change.
    #[arg(long, value_name = "WHICH", default_value = "all", value_parser = ["all", "none"])]
    pub report_passing: String,

    /// Exit with status 1 when a rule is unknown, as when one fails.
    #[arg(long)]
    pub fail_on_unknown: bool,

    /// Colour the console report: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,

    /// Print no warnings or progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Exit with status 1 only for failures of rules at or above this severity
    /// (low, medium, high, critical); a rule without a Severity counts as medium.
    #[arg(long, value_name = "SEVERITY", value_parser = ["low", "medium", "high", "critical"])]
    pub fail_on: Option<String>,

    // --- live collection (AWS) ---
    /// AWS region to collect from; repeat for several. Default: AWS_REGION or the profile's.
    #[arg(long = "region", value_name = "REGION", conflicts_with = "inventory")]
    pub regions: Vec<String>,

    /// Collect from every region enabled in the account (DescribeRegions).
    #[arg(long, conflicts_with_all = ["inventory", "regions"])]
    pub all_regions: bool,

    /// AWS profile from the shared config and credentials files.
    #[arg(long, value_name = "NAME", conflicts_with = "inventory")]
    pub profile: Option<String>,

    /// At most this many AWS requests in flight at once.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,

    /// Also write the inventory the run used to FILE (JSON, reusable with --inventory).
    #[arg(long, value_name = "FILE")]
    pub save_inventory: Option<PathBuf>,

    // --- scheduled audits ---
    /// Waiver file (YAML): accepted failures with a reason, an owner and an expiry date.
    #[arg(long, value_name = "FILE")]
    pub waivers: Option<PathBuf>,

    /// A previous JSON report: mark each failure new or persisting and list what was fixed.
    #[arg(long, value_name = "REPORT.json")]
    pub baseline: Option<PathBuf>,

    /// The run's time (RFC 3339, e.g. 2026-11-23T07:15:00Z, or a date): the reference time of time
    /// predicates (`older than 90 days`; default: the inventory's collected_at, else the
    /// clock), waiver expiry and output file names (default: the clock).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,

    /// With --baseline: only new failures set exit status 1.
    #[arg(long, requires = "baseline")]
    pub fail_on_new: bool,

    // --- benchmark controls (docs/reports.md, "Controls") ---
    /// A benchmark's controls file (YAML, e.g. rules/aws-cis/controls/cis-7.0.yaml): every
    /// report adds each control, by section, with the verdict of the rules that reference
    /// it. Default: the file named by controls/default in a SPEC directory (rules/aws-cis).
    #[arg(long, value_name = "FILE")]
    pub controls: Option<PathBuf>,

    /// No controls view, even when a SPEC directory names default controls.
    #[arg(long, conflicts_with = "controls")]
    pub no_controls: bool,

    /// Write the JSON report, JUnit, SARIF and the inventory into DIR, named with the run's
    /// UTC time, plus latest.* copies (atomically, under a lock).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    // --- crossplane compositions (docs/compositions.md) ---
    /// Render this crossplane function-hcl composition (a directory of *.hcl files, a
    /// .txtar archive, a Composition YAML or one HCL file) and judge its desired resources,
    /// typed k8s:<group>:<Kind>, and the XR. Needs --xr.
    #[arg(long, value_name = "PATH", requires = "xr")]
    pub composition: Option<PathBuf>,

    /// With --composition: the composite resource (XR) to render it for, one YAML document.
    #[arg(long, value_name = "XR.yaml", requires = "composition")]
    pub xr: Option<PathBuf>,

    /// With --composition: observed composed resources (YAML documents, each named by its
    /// crossplane.io/composition-resource-name annotation).
    #[arg(long, value_name = "OBS.yaml", requires = "composition")]
    pub observed: Option<PathBuf>,

    /// With --composition: objects the composition's requirements may select (YAML documents).
    #[arg(long, value_name = "EXTRA.yaml", requires = "composition")]
    pub extra_resources: Option<PathBuf>,

    /// With --composition: the incoming pipeline context, a JSON object.
    #[arg(long, value_name = "CTX.json", requires = "composition")]
    pub context: Option<PathBuf>,

    // --- Terraform code (docs/terraform.md) ---
    #[command(flatten)]
    pub terraform: terraform::TerraformArgs,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Test files (`*.test.yaml`) or directories searched for them.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Also write the results as JUnit XML: `junit` (stdout) or `junit=FILE`.
    #[arg(long = "format", value_name = "junit[=FILE]")]
    pub formats: Vec<String>,

    /// Colour the output: auto, always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,

    /// The reference time of time predicates (RFC 3339, e.g. 2026-11-23T07:15:00Z, or a date) for cases
    /// that pin none with `now:` (default: each inventory's collected_at, else the clock).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Debug, Args)]
pub struct DocsArgs {
    /// Rule pack directories (or spec files) to document.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Directory to write the Markdown pages into (created if missing).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older JSON report.
    #[arg(value_name = "OLD.json")]
    pub old: PathBuf,

    /// The newer JSON report.
    #[arg(value_name = "NEW.json")]
    pub new: PathBuf,

    /// Output: a table for people, or JSON.
    #[arg(long, value_name = "FORMAT", default_value = "table", value_parser = ["table", "json"])]
    pub format: String,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Show only this resource type (e.g. aws:ec2:instance).
    #[arg(value_name = "TYPE")]
    pub type_name: Option<String>,

    /// Output: text for people, or JSON.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

#[derive(Debug, Args)]
pub struct PermissionsArgs {
    /// Spec files, or directories searched for `*.cloudspec` files.
    #[arg(required = true, value_name = "SPEC")]
    pub specs: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Spec files, or directories searched for `*.cloudspec` files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Also check member names and types against this provider's resource schemas (`aws`;
    /// `cloudspec schema` lists them).
    #[arg(long, value_name = "PROVIDER")]
    pub provider: Option<String>,

    /// Colour diagnostics: auto, always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Spec files or directories; `-` reads standard input and writes standard output.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Change nothing; exit 1 when a file is not in canonical layout.
    #[arg(long)]
    pub check: bool,
}

/// Parses the command line and runs it; returns the exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_OK
            });
        }
    };
    ExitCode::from(dispatch(cli))
}

/// Runs a parsed command line with the sources of this build; returns the exit status.
pub fn dispatch(cli: Cli) -> u8 {
    dispatch_with(cli, &sources::Registry::builtin())
}

/// Runs a parsed command line with the sources of `registry` (tests and embedding programs
/// add their own); returns the exit status.
pub fn dispatch_with(cli: Cli, registry: &sources::Registry) -> u8 {
    logging::init(&cli.log_format);
    match cli.command {
        Command::Run(args) => run::run(*args, registry),
        Command::Validate(args) => validate::validate(args, registry),
        Command::Fmt(args) => fmt::fmt(args),
        Command::Test(args) => test::test(args, registry),
        Command::Docs(args) => docs::docs(args, registry),
        Command::Diff(args) => diff::diff(args),
        Command::Schema(args) => schema::schema(args, registry),
        Command::Permissions(args) => permissions::permissions(args, registry),
        Command::Hcl(cmd) => hcl::hcl(cmd),
        Command::Hcldec(args) => hcldec::hcldec(args),
        Command::Render(args) => render::render(args),
    }
}

/// Logs an error (through `tracing`, so `--log-format json` carries it); returns exit
/// status 2.
pub(crate) fn fail(message: &str) -> u8 {
    // A message of several lines (the diagnostics of a failed render) is logged line by
    // line, each with its level, rather than as one line with escaped line breaks.
    for line in message.lines() {
        tracing::error!("{line}");
    }
    EXIT_USAGE
}

/// Whether to colour output for `when` (`auto`, `always`, `never`) on stream `is_terminal`.
pub(crate) fn use_color(when: &str, is_terminal: bool) -> bool {
    match when {
        "always" => true,
        "never" => false,
        _ => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Expands directories into the `*.cloudspec` files below them (sorted; links followed
/// only inside the tree, [`files::walk`]); files stay as given.
pub(crate) fn expand_spec_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = files::walk(path, |p| p.extension().is_some_and(|e| e == "cloudspec"))?;
            if found.is_empty() {
                return Err(format!(
                    "{}: no .cloudspec files in this directory",
                    cloudspec_model::input::display_path(path)
                ));
            }
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}
