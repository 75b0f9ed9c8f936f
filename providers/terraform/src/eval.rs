//! Evaluating a root module and the modules it calls, with Terraform's semantics.
//!
//! Three steps, as Terraform's own:
//!
//! 1. **Load** the configuration tree (`tree.rs`): the root module, then every module it calls (local
//!    sources relative to the caller, confined to the `--terraform` tree; remote sources
//!    from `.terraform/modules/modules.json` when installed), at most
//!    [`MAX_MODULE_DEPTH`] deep; a module that includes itself is an error naming the
//!    calls. Every syntax error of every file is reported together.
//! 2. **Analyse** it statically (`graph.rs`, with `refs.rs`): every reference resolved to what it names (an undeclared
//!    variable, local, resource, data source or module is an error at the reference, in
//!    Terraform's words), the graph of what depends on what across modules (a module's
//!    input depends on what its expression reads in the caller, a reference to
//!    `module.NAME.OUTPUT` on that output), cycles reported with the objects in them; and
//!    every attribute name any expression reads from a value, so that a resource's value
//!    holds every attribute anything reads from it.
//! 3. **Evaluate** the graph in dependency order (`run.rs`), each object for every instance of its
//!    module: `count`/`for_each` expanded ([`expand`]), a managed resource instance's
//!    value its configured arguments with `id`/`arn` identities ([`crate::identity`]) and
//!    every other attribute read from it unknown, data sources likewise
//!    (`aws_iam_policy_document` computed: [`policy`]), module outputs, provider
//!    configurations (region, `default_tags`) inherited by modules as Terraform passes
//!    them.
//!
//! Values of blocks are built without a schema ([`values`]); Terraform's own functions
//! (files confined to the tree, impure ones unknown) are in `funcs.rs`.
//!
//! Where cloudspec departs from Terraform, on purpose:
//!
//! - an unknown `count`/`for_each` (or keys made from computed ids) is one instance
//!   `ADDR[*]` and a warning, where `terraform plan` stops (design decision 7);
//! - without provider schemas, a resource's value holds every attribute any expression
//!   reads from a resource (unknown when not configured), so a misspelled attribute is
//!   unknown rather than "Unsupported attribute";
//! - a module call's `providers` map is consulted first, and default (unaliased)
//!   configurations are still inherited through it;
//! - a module that includes itself is an error naming the calls (`terraform init` recurses
//!   until the file system refuses);
//! - an installed remote module is found by its key in `modules.json` alone (its recorded
//!   `Source` is not compared with the configuration's).
//!
//! One HCL budget counts the work of the whole evaluation; instances are bounded per block
//! ([`MAX_INSTANCES_PER_BLOCK`]) and in all ([`MAX_INSTANCES`]).

pub mod expand;
mod funcs;
mod graph;
pub mod policy;
pub(crate) mod refs;
mod run;
mod tree;
pub mod values;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use cloudspec_hcl::budget::Budget;
use cloudspec_hcl::diag::{has_errors, Severity};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Range};
use cloudspec_model::input;

use self::graph::Graph;
use self::run::{Inst, Run};
use self::tree::Tree;
use crate::vars::{self, VarArg};
use crate::{Evaluated, Failure};

/// Modules nest at most this deep.
pub const MAX_MODULE_DEPTH: usize = 32;
/// At most this many module calls in the configuration tree (each module called once per
/// call path).
pub const MAX_MODULE_CALLS: usize = 10_000;
/// At most this many instances of one resource, data source or module call.
pub const MAX_INSTANCES_PER_BLOCK: usize = 10_000;
/// At most this many resource, data source and module instances in all.
pub const MAX_INSTANCES: usize = 100_000;

/// What to evaluate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The root module's directory: `.terraform/modules`, `terraform.tfvars` and
    /// `*.auto.tfvars` are read there, relative paths of file functions start there, and it
    /// is `path.root`.
    pub root: PathBuf,
    /// The tree module sources and file functions are confined to (`--terraform-root`); it
    /// must contain `root`. `None`: `root` itself.
    pub tree: Option<PathBuf>,
    /// `--var` and `--var-file`, in command order.
    pub vars: Vec<VarArg>,
    /// The environment's `TF_VAR_*` variables, by name without the prefix.
    pub env: BTreeMap<String, String>,
}

/// The stack evaluation runs on (reserved, not committed): modules nest, and the HCL
/// evaluator recurses per nesting level of an expression.
const STACK: usize = 256 << 20;

/// Evaluates the root module at `options.root`.
pub fn evaluate(options: &Options) -> Result<Evaluated, Failure> {
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("terraform-eval".into())
            .stack_size(STACK)
            .spawn_scoped(s, || {
                let budget = Budget::new();
                budget.enter(|| evaluate_here(options))
            });
        match worker {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(e) => Err(Failure::message(format!(
                "cannot start the evaluation thread: {e}"
            ))),
        }
    })
}

fn evaluate_here(options: &Options) -> Result<Evaluated, Failure> {
    let root = std::fs::canonicalize(&options.root).map_err(|e| {
        Failure::message(format!(
            "{}: cannot read the Terraform directory: {e}",
            input::display_path(&options.root)
        ))
    })?;
    let bound = match &options.tree {
        None => root.clone(),
        Some(tree) => {
            let bound = std::fs::canonicalize(tree).map_err(|e| {
                Failure::message(format!(
                    "--terraform-root {}: cannot read: {e}",
                    input::display_path(tree)
                ))
            })?;
            if !root.starts_with(&bound) {
                return Err(Failure::message(format!(
                    "--terraform-root {} does not contain the Terraform directory {}: the \
                     tree bounds the modules and files the configuration may read, so it must \
                     be that directory or one above it",
                    input::display_path(tree),
                    input::display_path(&options.root)
                )));
            }
            bound
        }
    };
    let mut tree = Tree::load(&root, &bound)?;
    let values = vars::root_values(&tree.configs[0].module, &root, &options.vars, &options.env)?;
    tree.warnings.extend(values.warnings);
    let graph = Graph::analyse(&tree)?;
    let files = funcs::Files {
        root: root.clone(),
        tree: bound,
        warnings: Arc::new(Mutex::new(Vec::new())),
        entries_seen: Arc::default(),
    };
    let base = EvalContext::new().with_functions(Arc::new(funcs::table(&files)));
    let mut run = Run {
        tree: &tree,
        graph: &graph,
        base,
        cwd: root.to_string_lossy().replace('\\', "/"),
        insts: Vec::new(),
        by_config: vec![Vec::new(); tree.configs.len()],
        errors: Vec::new(),
        warnings: Vec::new(),
        total: 0,
        over_total: false,
    };
    run.insts
        .push(Inst::new(0, String::new(), None, BTreeMap::new(), false));
    run.insts[0].vars = values.values;
    run.by_config[0].push(0);
    for node in &graph.order {
        run.node(*node);
    }
    run.resolve_providers();
    let mut errors = std::mem::take(&mut run.errors);
    if has_errors(&errors) {
        errors.retain(|d| d.severity == Severity::Error);
        return Err(failure(errors));
    }
    let run_warnings = std::mem::take(&mut run.warnings);
    let instances = run.finish();
    let mut warnings: Vec<String> = Vec::new();
    let file_warnings = files.warnings.lock().map(|w| w.clone()).unwrap_or_default();
    for w in tree
        .warnings
        .iter()
        .chain(&run_warnings)
        .chain(&file_warnings)
    {
        let text = w.to_string();
        if !warnings.contains(&text) {
            warnings.push(text);
        }
    }
    Ok(Evaluated {
        instances,
        warnings,
    })
}

/// A failure from diagnostics: duplicates removed, in the order of their files and
/// positions.
fn failure(mut diags: Vec<Diagnostic>) -> Failure {
    let mut seen = BTreeSet::new();
    diags.retain(|d| seen.insert(d.to_string()));
    diags.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            d.subject
                .as_ref()
                .map(|r| (r.filename.clone(), r.start.byte))
        };
        key(a).cmp(&key(b))
    });
    Failure { diagnostics: diags }
}

fn error(summary: impl Into<String>, detail: impl Into<String>, at: &Range) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(at.clone()))
}
