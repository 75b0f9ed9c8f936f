//! Evaluating a root module and the modules it calls, with Terraform's semantics.
//!
//! Three steps, as Terraform's own:
//!
//! 1. **Load** the configuration tree: the root module, then every module it calls (local
//!    sources relative to the caller, confined to the `--terraform` tree; remote sources
//!    from `.terraform/modules/modules.json` when installed), at most
//!    [`MAX_MODULE_DEPTH`] deep; a module that includes itself is an error naming the
//!    calls. Every syntax error of every file is reported together.
//! 2. **Analyse** it statically: every reference resolved to what it names (an undeclared
//!    variable, local, resource, data source or module is an error at the reference, in
//!    Terraform's words), the graph of what depends on what across modules (a module's
//!    input depends on what its expression reads in the caller, a reference to
//!    `module.NAME.OUTPUT` on that output), cycles reported with the objects in them; and
//!    every attribute name any expression reads from a value, so that a resource's value
//!    holds every attribute anything reads from it.
//! 3. **Evaluate** the graph in dependency order, each object for every instance of its
//!    module: `count`/`for_each` expanded ([`expand`]), a managed resource instance's
//!    value its configured arguments with `id`/`arn` identities ([`crate::identity`]) and
//!    every other attribute read from it unknown, data sources likewise
//!    (`aws_iam_policy_document` computed: [`policy`]), module outputs, provider
//!    configurations (region, `default_tags`) inherited by modules as Terraform passes
//!    them.
//!
//! One HCL budget counts the work of the whole evaluation; instances are bounded per block
//! ([`MAX_INSTANCES_PER_BLOCK`]) and in all ([`MAX_INSTANCES`]).

pub mod expand;
mod funcs;
pub mod policy;
pub(crate) mod refs;
pub mod values;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use cloudspec_hcl::body::{Attribute, Body, Expr};
use cloudspec_hcl::budget::Budget;
use cloudspec_hcl::diag::{has_errors, Severity};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::{name_suggestion, Diagnostic, Range, Type, Value};
use cloudspec_model::input;

use self::expand::{Expansion, Key};
use self::refs::{Found, Reference};
use crate::module::{self, Module};
use crate::vars::{self, VarArg, VarType};
use crate::{identity, Evaluated, Failure, Instance};

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
    /// The root module's directory.
    pub root: PathBuf,
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
    let mut tree = Tree::load(&root)?;
    let values = vars::root_values(&tree.configs[0].module, &root, &options.vars, &options.env)?;
    tree.warnings.extend(values.warnings);
    let graph = Graph::analyse(&tree)?;
    let files = funcs::Files {
        root: root.clone(),
        warnings: Arc::new(Mutex::new(Vec::new())),
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

// -------------------------------------------------------------------------------------
// 1. Loading the configuration tree
// -------------------------------------------------------------------------------------

/// A module of the configuration tree, once per call path.
struct Config {
    module: Arc<Module>,
    /// Call names from the root.
    path: Vec<String>,
    /// The calling configuration and the index of the call in its module.
    parent: Option<(usize, usize)>,
    /// `path.module`.
    path_module: String,
    /// The configurations the module's calls load, by call index (`None`: not installed).
    children: BTreeMap<usize, Option<usize>>,
}

impl Config {
    /// `the root module`, `module.a.module.b`, as Terraform's messages name it.
    fn display(&self) -> String {
        if self.path.is_empty() {
            "the root module".to_string()
        } else {
            self.prefix().trim_end_matches('.').to_string()
        }
    }

    /// `module.a.module.b.` (empty for the root): how objects of this module are named.
    fn prefix(&self) -> String {
        self.path.iter().map(|p| format!("module.{p}.")).collect()
    }
}

struct Tree {
    root: PathBuf,
    configs: Vec<Config>,
    warnings: Vec<Diagnostic>,
}

/// An installed remote module: `.terraform/modules/modules.json`'s `Key` and `Dir`.
type Installed = BTreeMap<String, String>;

impl Tree {
    fn load(root: &Path) -> Result<Tree, Failure> {
        let module = module::load_in(root, root, "")?;
        let mut tree = Tree {
            root: root.to_path_buf(),
            configs: vec![Config {
                module: Arc::new(module),
                path: Vec::new(),
                parent: None,
                path_module: ".".into(),
                children: BTreeMap::new(),
            }],
            warnings: Vec::new(),
        };
        let mut cache: BTreeMap<PathBuf, Arc<Module>> = BTreeMap::new();
        cache.insert(root.to_path_buf(), tree.configs[0].module.clone());
        let mut installed: Option<Installed> = None;
        let mut errors: Vec<Diagnostic> = Vec::new();
        // Directories of each configuration, for cycles.
        let mut dirs: Vec<PathBuf> = vec![root.to_path_buf()];
        let mut next = 0;
        while next < tree.configs.len() {
            let c = next;
            next += 1;
            let module = tree.configs[c].module.clone();
            for (ci, call) in module.modules.iter().enumerate() {
                let child =
                    tree.load_call(c, ci, call, &dirs, &mut cache, &mut installed, &mut errors);
                if let Some((dir, config)) = child {
                    tree.configs.push(config);
                    dirs.push(dir);
                    let idx = tree.configs.len() - 1;
                    tree.configs[c].children.insert(ci, Some(idx));
                    if tree.configs.len() > MAX_MODULE_CALLS {
                        return Err(Failure::message(format!(
                            "the configuration calls more than {MAX_MODULE_CALLS} modules (counting each module once per path of calls to it)"
                        )));
                    }
                } else {
                    tree.configs[c].children.insert(ci, None);
                }
            }
        }
        if has_errors(&errors) {
            return Err(failure(errors));
        }
        Ok(tree)
    }

    /// Loads the module of call `ci` of configuration `c`: `(its directory, config)`, or
    /// `None` when it is not loaded (an error or a warning says why).
    #[allow(clippy::too_many_arguments)]
    fn load_call(
        &mut self,
        c: usize,
        ci: usize,
        call: &module::ModuleCall,
        dirs: &[PathBuf],
        cache: &mut BTreeMap<PathBuf, Arc<Module>>,
        installed: &mut Option<Installed>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<(PathBuf, Config)> {
        let parent = &self.configs[c];
        let mut path = parent.path.clone();
        path.push(call.name.clone());
        let call_addr: String = path
            .iter()
            .map(|p| format!("module.{p}"))
            .collect::<Vec<_>>()
            .join(".");
        let (attrs, _) = module::merged_items(&call.bodies());
        let Some(source_attr) = attrs.get("source") else {
            errors.push(error(
                "Missing required argument",
                "The argument \"source\" is required, but no definition was found.",
                &call.block.body.missing_item_range(),
            ));
            return None;
        };
        let (source, d) = source_attr.expr.value(&EvalContext::empty());
        if has_errors(&d) {
            errors.extend(d);
            return None;
        }
        let Value::String(source) = source else {
            errors.push(error(
                "Invalid module source",
                "The module source must be a literal string.",
                &source_attr.expr.range(),
            ));
            return None;
        };
        if path.len() > MAX_MODULE_DEPTH {
            errors.push(error(
                "Modules nested too deeply",
                format!(
                    "{call_addr} is nested {} modules deep; cloudspec loads modules at most \
                     {MAX_MODULE_DEPTH} deep.",
                    path.len()
                ),
                &call.block.def_range,
            ));
            return None;
        }
        let local = ["./", "../", ".\\", "..\\"]
            .iter()
            .any(|p| source.starts_with(p))
            || source == "."
            || source == "..";
        let parent_dir = dirs.get(c).cloned().unwrap_or_else(|| self.root.clone());
        let dir = if local {
            let joined = parent_dir.join(&source);
            match std::fs::canonicalize(&joined) {
                Ok(d) if d.is_dir() => d,
                _ => {
                    errors.push(error(
                        "Unreadable module directory",
                        format!(
                            "The directory {} of module \"{}\" (source {}) does not exist or \
                             cannot be read.",
                            shown_dir(&self.root, &clean(&joined)),
                            call.name,
                            cloudspec_hcl::types::go_quote(&source)
                        ),
                        &source_attr.expr.range(),
                    ));
                    return None;
                }
            }
        } else {
            let key = path.join(".");
            let table = installed.get_or_insert_with(|| read_installed(&self.root));
            let found = table.get(&key).and_then(|dir| {
                std::fs::canonicalize(self.root.join(dir))
                    .ok()
                    .filter(|d| d.is_dir())
            });
            match found {
                Some(d) => d,
                None => {
                    self.warnings.push(vars::warning(
                        "Module not installed",
                        format!(
                            "{call_addr} has the remote source {}, which is not installed in \
                             .terraform/modules (terraform init downloads it): its outputs are \
                             unknown and its resources are not evaluated.",
                            cloudspec_hcl::types::go_quote(&source)
                        ),
                        Some(call.block.def_range.clone()),
                    ));
                    return None;
                }
            }
        };
        if !dir.starts_with(&self.root) {
            errors.push(error(
                "Module outside the Terraform directory",
                format!(
                    "The source {} of module \"{}\" is outside the Terraform directory: \
                     cloudspec reads no file outside the directory it was given.",
                    cloudspec_hcl::types::go_quote(&source),
                    call.name
                ),
                &source_attr.expr.range(),
            ));
            return None;
        }
        // A module that includes itself: its directory is one of its callers'.
        let mut chain = Vec::new();
        let mut at = Some(c);
        while let Some(i) = at {
            chain.push(i);
            at = self.configs[i].parent.map(|(p, _)| p);
        }
        if let Some(&again) = chain.iter().find(|&&i| dirs.get(i) == Some(&dir)) {
            let again_name = if self.configs[again].path.is_empty() {
                "the root module".to_string()
            } else {
                self.configs[again].display()
            };
            errors.push(error(
                "Module cycle",
                format!(
                    "{call_addr} (source {}) loads the module of {again_name} again: a module \
                     cannot include itself.",
                    cloudspec_hcl::types::go_quote(&source)
                ),
                &source_attr.expr.range(),
            ));
            return None;
        }
        let prefix = shown_dir(&self.root, &dir);
        let module = match cache.get(&dir) {
            Some(m) => m.clone(),
            None => {
                let prefix_files = if prefix == "." { "" } else { prefix.as_str() };
                match module::load_in(&self.root, &dir, prefix_files) {
                    Ok(m) => {
                        let m = Arc::new(m);
                        cache.insert(dir.clone(), m.clone());
                        m
                    }
                    Err(f) => {
                        errors.extend(f.diagnostics);
                        return None;
                    }
                }
            }
        };
        Some((
            dir,
            Config {
                module,
                path,
                parent: Some((c, ci)),
                path_module: prefix,
                children: BTreeMap::new(),
            },
        ))
    }
}

/// Lexically cleaned path.
fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A directory relative to the root, `/`-separated (`.` for the root itself).
fn shown_dir(root: &Path, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => input::escape_control(&dir.to_string_lossy()).into_owned(),
    }
}

/// `.terraform/modules/modules.json`: installed modules by key (`vpc`, `vpc.subnets`).
fn read_installed(root: &Path) -> Installed {
    let path = root.join(".terraform").join("modules").join("modules.json");
    let Ok(text) = module::read_text(
        &path,
        ".terraform/modules/modules.json",
        "Terraform's module manifest",
    ) else {
        return Installed::new();
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Installed::new();
    };
    let mut out = Installed::new();
    for m in doc
        .get("Modules")
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
    {
        if let (Some(key), Some(dir)) = (
            m.get("Key").and_then(|k| k.as_str()),
            m.get("Dir").and_then(|d| d.as_str()),
        ) {
            out.insert(key.to_string(), dir.to_string());
        }
    }
    out
}

// -------------------------------------------------------------------------------------
// 2. Static analysis: references, the dependency graph, attribute names
// -------------------------------------------------------------------------------------

/// An object of a module: what the graph orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Item {
    Var(usize),
    Local(usize),
    Resource(usize),
    Call(usize),
    Provider(usize),
    Output(usize),
}

type NodeId = (usize, Item);

/// What one node needs: its references (validated) and the nodes they name.
#[derive(Default)]
struct NodeInfo {
    refs: Vec<Reference>,
    deps: Vec<(NodeId, Range)>,
}

/// A module call's static facts.
#[derive(Default, Clone)]
struct CallInfo {
    /// `providers = { aws = aws.west }`: the child's key to the caller's.
    providers: BTreeMap<String, String>,
}

struct Graph {
    nodes: BTreeMap<NodeId, NodeInfo>,
    order: Vec<NodeId>,
    /// Every attribute name an expression reads from a value.
    read: refs::ReadNames,
    /// Declared variable types, by configuration and variable index.
    var_types: BTreeMap<(usize, usize), (VarType, Option<Value>)>,
    calls: BTreeMap<(usize, usize), CallInfo>,
}

/// The arguments of a module block that are Terraform's, not inputs.
const CALL_META: &[&str] = &[
    "source",
    "version",
    "providers",
    "count",
    "for_each",
    "depends_on",
];

impl Graph {
    fn analyse(tree: &Tree) -> Result<Graph, Failure> {
        let mut errors = Vec::new();
        let mut graph = Graph {
            nodes: BTreeMap::new(),
            order: Vec::new(),
            read: refs::ReadNames::default(),
            var_types: BTreeMap::new(),
            calls: BTreeMap::new(),
        };
        let resource_types: BTreeSet<String> = tree
            .configs
            .iter()
            .flat_map(|c| c.module.resources.iter())
            .filter(|r| r.managed)
            .map(|r| r.tf_type.clone())
            .collect();
        for (c, config) in tree.configs.iter().enumerate() {
            let m = &config.module;
            for (i, v) in m.variables.iter().enumerate() {
                let (vt, d) = vars::var_type(v);
                errors.extend(d);
                let (default, d) = vars::default_value(v, &vt);
                if c != 0 {
                    errors.extend(d);
                }
                collect_type_names(&vt.ty, &mut graph.read.indirect, 0);
                graph.var_types.insert((c, i), (vt, default));
            }
            let mut found_all: Vec<Found> = Vec::new();
            for (i, _) in m.variables.iter().enumerate() {
                // A called module's inputs are resolved in its caller (below, with the call).
                graph.nodes.entry((c, Item::Var(i))).or_default();
            }
            for (i, l) in m.locals.iter().enumerate() {
                let found = vec![Found {
                    expr: l.expr.clone(),
                    bound: Vec::new(),
                }];
                add_node(
                    tree,
                    &mut graph,
                    &mut errors,
                    (c, Item::Local(i)),
                    &found,
                    Scope::NONE,
                );
                found_all.extend(found);
            }
            for (i, r) in m.resources.iter().enumerate() {
                let bodies = r.bodies();
                let scope = Scope {
                    count: values::meta_attr(&bodies, "count").is_some(),
                    each: values::meta_attr(&bodies, "for_each").is_some(),
                    input_of: None,
                };
                let mut found = Vec::new();
                for b in &bodies {
                    found.extend(refs::expressions(
                        b,
                        &["provider"],
                        &["lifecycle", "provisioner", "connection"],
                    ));
                }
                add_node(
                    tree,
                    &mut graph,
                    &mut errors,
                    (c, Item::Resource(i)),
                    &found,
                    scope,
                );
                found_all.extend(found);
            }
            for (i, call) in m.modules.iter().enumerate() {
                let bodies = call.bodies();
                let (attrs, _) = module::merged_items(&bodies);
                let scope = Scope {
                    count: attrs.contains_key("count"),
                    each: attrs.contains_key("for_each"),
                    input_of: None,
                };
                let child = config.children.get(&i).copied().flatten();
                let mut found = Vec::new();
                for (name, attr) in &attrs {
                    let expansion = name == "count" || name == "for_each";
                    let input = !CALL_META.contains(&name.as_str());
                    if expansion || name == "depends_on" || (input && child.is_none()) {
                        found.push(Found {
                            expr: attr.expr.clone(),
                            bound: Vec::new(),
                        });
                    }
                }
                // The inputs: nodes of the child, resolved here.
                if let Some(child) = child {
                    check_call_arguments(tree, child, call, &attrs, &mut errors);
                    for (vi, v) in tree.configs[child].module.variables.iter().enumerate() {
                        let mut info = NodeInfo::default();
                        if let Some(attr) = attrs.get(&v.name) {
                            let f = vec![Found {
                                expr: attr.expr.clone(),
                                bound: Vec::new(),
                            }];
                            for r in refs::references(&f) {
                                let input = Scope {
                                    input_of: Some(i),
                                    ..scope
                                };
                                resolve(tree, c, Item::Call(i), &r, input, &mut info, &mut errors);
                            }
                            found_all.extend(f);
                        }
                        info.deps
                            .push(((c, Item::Call(i)), call.block.def_range.clone()));
                        graph.nodes.insert((child, Item::Var(vi)), info);
                    }
                }
                let providers = call_providers(&attrs, &mut errors);
                graph.calls.insert((c, i), CallInfo { providers });
                add_node(
                    tree,
                    &mut graph,
                    &mut errors,
                    (c, Item::Call(i)),
                    &found,
                    scope,
                );
                found_all.extend(found);
            }
            for (i, p) in m.providers.iter().enumerate() {
                let mut found = Vec::new();
                for b in p.bodies() {
                    found.extend(refs::expressions(b, &["alias"], &[]));
                }
                add_node(
                    tree,
                    &mut graph,
                    &mut errors,
                    (c, Item::Provider(i)),
                    &found,
                    Scope::NONE,
                );
                found_all.extend(found);
            }
            for (i, o) in m.outputs.iter().enumerate() {
                let mut found = Vec::new();
                if let Some(v) = &o.value {
                    found.push(Found {
                        expr: v.clone(),
                        bound: Vec::new(),
                    });
                }
                let bodies: Vec<&Body> = std::iter::once(&o.block.body)
                    .chain(o.overrides.iter().map(|b| &b.body))
                    .collect();
                if let Some(d) = values::meta_attr(&bodies, "depends_on") {
                    found.push(Found {
                        expr: d.expr,
                        bound: Vec::new(),
                    });
                }
                add_node(
                    tree,
                    &mut graph,
                    &mut errors,
                    (c, Item::Output(i)),
                    &found,
                    Scope::NONE,
                );
                found_all.extend(found);
            }
            for f in &found_all {
                refs::read_attributes(&f.expr, &resource_types, &mut graph.read);
            }
        }
        // Every object of a called module needs the call's instances.
        for (c, config) in tree.configs.iter().enumerate() {
            if let Some((p, ci)) = config.parent {
                let call_range = tree.configs[p].module.modules[ci].block.def_range.clone();
                for ((nc, _), info) in graph.nodes.range_mut((c, Item::Var(0))..) {
                    if *nc != c {
                        break;
                    }
                    if !info.deps.iter().any(|(d, _)| *d == (p, Item::Call(ci))) {
                        info.deps.push(((p, Item::Call(ci)), call_range.clone()));
                    }
                }
            }
        }
        if has_errors(&errors) {
            return Err(failure(errors));
        }
        graph.order = match graph.topological(tree) {
            Ok(order) => order,
            Err(d) => return Err(failure(vec![d])),
        };
        Ok(graph)
    }

    /// The nodes in dependency order (iterative depth-first search); a cycle is an error
    /// naming its objects.
    // Diagnostics are plain data returned by value, as in cloudspec-hcl.
    #[allow(clippy::result_large_err)]
    fn topological(&self, tree: &Tree) -> Result<Vec<NodeId>, Diagnostic> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Active,
            Done,
        }
        let mut marks: BTreeMap<NodeId, Mark> =
            self.nodes.keys().map(|k| (*k, Mark::New)).collect();
        let mut order = Vec::with_capacity(self.nodes.len());
        for start in self.nodes.keys() {
            if marks.get(start) != Some(&Mark::New) {
                continue;
            }
            // (node, next dependency to visit)
            let mut stack: Vec<(NodeId, usize)> = vec![(*start, 0)];
            marks.insert(*start, Mark::Active);
            while let Some((node, i)) = stack.last().copied() {
                let deps = self.nodes.get(&node).map(|n| &n.deps[..]).unwrap_or(&[]);
                match deps.get(i) {
                    None => {
                        stack.pop();
                        marks.insert(node, Mark::Done);
                        order.push(node);
                    }
                    Some((dep, _)) => {
                        if let Some(top) = stack.last_mut() {
                            top.1 += 1;
                        }
                        match marks.get(dep).copied() {
                            Some(Mark::New) => {
                                marks.insert(*dep, Mark::Active);
                                stack.push((*dep, 0));
                            }
                            Some(Mark::Active) => {
                                let at = stack.iter().position(|(n, _)| n == dep).unwrap_or(0);
                                let cycle: Vec<NodeId> =
                                    stack[at..].iter().map(|(n, _)| *n).collect();
                                return Err(self.cycle(tree, &cycle));
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        Ok(order)
    }

    /// The diagnostic of a cycle `a -> b -> ... -> a` (each depends on the next).
    fn cycle(&self, tree: &Tree, cycle: &[NodeId]) -> Diagnostic {
        let names: Vec<String> = cycle.iter().map(|n| node_name(tree, *n)).collect();
        let first = cycle.first().copied();
        let second = cycle.get(1).copied().or(first);
        let at = first
            .and_then(|f| self.nodes.get(&f))
            .and_then(|info| info.deps.iter().find(|(d, _)| Some(*d) == second))
            .map(|(_, r)| r.clone());
        let mut steps: Vec<String> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let next = &names[(i + 1) % names.len()];
            steps.push(format!("{name} refers to {next}"));
        }
        Diagnostic::error(
            format!("Cycle: {}", names.join(", ")),
            format!("{}: none of them can be evaluated.", join_and(&steps)),
            at,
        )
    }
}

/// Records node `id`, whose expressions are `found`: its references checked and resolved.
fn add_node(
    tree: &Tree,
    graph: &mut Graph,
    errors: &mut Vec<Diagnostic>,
    id: NodeId,
    found: &[Found],
    scope: Scope,
) {
    let mut info = NodeInfo::default();
    for r in refs::references(found) {
        resolve(tree, id.0, id.1, &r, scope, &mut info, errors);
    }
    graph.nodes.insert(id, info);
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How an object is named in messages: `local.a`, `module.net.aws_subnet.a`,
/// `module.net.var.cidr`, `module.net` (a call).
fn node_name(tree: &Tree, (c, item): NodeId) -> String {
    let config = &tree.configs[c];
    let m = &config.module;
    let prefix = config.prefix();
    let own = match item {
        Item::Var(i) => format!("var.{}", m.variables.get(i).map_or("", |v| &v.name)),
        Item::Local(i) => format!("local.{}", m.locals.get(i).map_or("", |l| &l.name)),
        Item::Resource(i) => m.resources.get(i).map(|r| r.address()).unwrap_or_default(),
        Item::Call(i) => format!("module.{}", m.modules.get(i).map_or("", |x| &x.name)),
        Item::Provider(i) => format!(
            "provider.{}",
            m.providers.get(i).map(|p| p.key()).unwrap_or_default()
        ),
        Item::Output(i) => format!("output.{}", m.outputs.get(i).map_or("", |o| &o.name)),
    };
    format!("{prefix}{own}")
}

/// Where `count` and `each` may be used.
#[derive(Clone, Copy)]
struct Scope {
    count: bool,
    each: bool,
    /// Resolving an input of this module call (in the caller): its outputs may feed its
    /// other inputs, as in Terraform, whose graph has one node per output and input.
    input_of: Option<usize>,
}

impl Scope {
    const NONE: Scope = Scope {
        count: false,
        each: false,
        input_of: None,
    };
}

fn did_you_mean(given: &str, candidates: &[&str]) -> String {
    name_suggestion(given, candidates)
        .map(|s| format!(" Did you mean \"{s}\"?"))
        .unwrap_or_default()
}

/// Checks reference `r` of object `item` of configuration `c` and records what it depends
/// on (errors in Terraform's words).
fn resolve(
    tree: &Tree,
    c: usize,
    item: Item,
    r: &Reference,
    scope: Scope,
    info: &mut NodeInfo,
    errors: &mut Vec<Diagnostic>,
) {
    let config = &tree.configs[c];
    let m = &config.module;
    let at = &r.range;
    let root = r.root().to_string();
    let cannot_access = |what: &str| {
        error(
            "Invalid reference",
            format!(
                "The \"{what}\" object cannot be accessed directly. Instead, access one of its \
                 attributes."
            ),
            at,
        )
    };
    let dep = |node: NodeId, info: &mut NodeInfo, errors: &mut Vec<Diagnostic>| {
        if node == (c, item) {
            let (summary, detail) = match item {
                Item::Local(_) => (
                    "Self-referencing local value",
                    format!(
                        "Local value {} cannot use its own result as part of its expression.",
                        node_name(tree, node)
                    ),
                ),
                _ => (
                    "Self-referential block",
                    format!(
                        "Configuration for {} may not refer to itself.",
                        node_name(tree, node)
                    ),
                ),
            };
            errors.push(error(summary, detail, at));
            return;
        }
        info.deps.push((node, at.clone()));
    };
    match root.as_str() {
        "var" => {
            let Some(name) = r.attr(1) else {
                errors.push(cannot_access("var"));
                return;
            };
            match m.variables.iter().position(|v| v.name == name) {
                Some(i) => dep((c, Item::Var(i)), info, errors),
                None => {
                    let names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
                    let suggestion = match name_suggestion(name, &names) {
                        Some(s) => format!(" Did you mean \"{s}\"?"),
                        None => format!(
                            " This variable can be declared with a variable \"{name}\" {{}} block."
                        ),
                    };
                    errors.push(error(
                        "Reference to undeclared input variable",
                        format!(
                            "An input variable with the name \"{name}\" has not been \
                             declared.{suggestion}"
                        ),
                        at,
                    ));
                    return;
                }
            }
        }
        "local" => {
            let Some(name) = r.attr(1) else {
                errors.push(cannot_access("local"));
                return;
            };
            match m.locals.iter().position(|l| l.name == name) {
                Some(i) => dep((c, Item::Local(i)), info, errors),
                None => {
                    let names: Vec<&str> = m.locals.iter().map(|l| l.name.as_str()).collect();
                    errors.push(error(
                        "Reference to undeclared local value",
                        format!(
                            "A local value with the name \"{name}\" has not been declared.{}",
                            did_you_mean(name, &names)
                        ),
                        at,
                    ));
                    return;
                }
            }
        }
        "module" => {
            let Some(name) = r.attr(1) else {
                errors.push(cannot_access("module"));
                return;
            };
            let Some(ci) = m.modules.iter().position(|x| x.name == name) else {
                let names: Vec<&str> = m.modules.iter().map(|x| x.name.as_str()).collect();
                errors.push(error(
                    "Reference to undeclared module",
                    format!(
                        "No module call named \"{name}\" is declared in {}.{}",
                        config.display(),
                        did_you_mean(name, &names)
                    ),
                    at,
                ));
                return;
            };
            if scope.input_of != Some(ci) {
                dep((c, Item::Call(ci)), info, errors);
            }
            if let Some(Some(child)) = config.children.get(&ci) {
                let outputs = &tree.configs[*child].module.outputs;
                let named = r.steps.iter().skip(2).find_map(|s| match s {
                    TraverseStep::Attr(a) => Some(a.clone()),
                    _ => None,
                });
                match named {
                    Some(out) => {
                        if let Some(oi) = outputs.iter().position(|o| o.name == out) {
                            info.deps.push(((*child, Item::Output(oi)), at.clone()));
                        }
                    }
                    None => {
                        for oi in 0..outputs.len() {
                            info.deps.push(((*child, Item::Output(oi)), at.clone()));
                        }
                    }
                }
            }
        }
        "data" => {
            let (Some(t), Some(n)) = (r.attr(1), r.attr(2)) else {
                errors.push(error(
                    "Invalid reference",
                    "The \"data\" object must be followed by two attribute names: the data \
                     source type and the resource name.",
                    at,
                ));
                return;
            };
            match m
                .resources
                .iter()
                .position(|x| !x.managed && x.tf_type == t && x.name == n)
            {
                Some(i) => dep((c, Item::Resource(i)), info, errors),
                None => errors.push(error(
                    "Reference to undeclared resource",
                    format!(
                        "A data resource \"{t}\" \"{n}\" has not been declared in {}.",
                        config.display()
                    ),
                    at,
                )),
            }
        }
        "path" => match r.attr(1) {
            Some("module" | "root" | "cwd") => {}
            Some(other) => errors.push(error(
                "Invalid \"path\" attribute",
                format!("The \"path\" object does not have an attribute named \"{other}\"."),
                at,
            )),
            None => errors.push(cannot_access("path")),
        },
        "terraform" => match r.attr(1) {
            Some("workspace" | "applying") => {}
            Some(other) => errors.push(error(
                "Invalid \"terraform\" attribute",
                format!(
                    "The \"terraform\" object does not have an attribute named \"{other}\". The \
                     only supported attributes are terraform.workspace, the name of the \
                     currently-selected workspace, and terraform.applying, a boolean which is \
                     true only during apply."
                ),
                at,
            )),
            None => errors.push(cannot_access("terraform")),
        },
        "count" => match r.attr(1) {
            Some("index") if scope.count => {}
            Some("index") => errors.push(error(
                "Reference to \"count\" in non-counted context",
                "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" \
                 blocks, and only when the \"count\" argument is set.",
                at,
            )),
            Some(other) => errors.push(error(
                "Invalid \"count\" attribute",
                format!(
                    "The \"count\" object does not have an attribute named \"{other}\". The only \
                     supported attribute is count.index, which is the index of each instance of \
                     a resource block that has the \"count\" argument set."
                ),
                at,
            )),
            None => errors.push(cannot_access("count")),
        },
        "each" => match r.attr(1) {
            Some("key" | "value") if scope.each => {}
            Some("key" | "value") => errors.push(error(
                "Reference to \"each\" in context without for_each",
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and \
                 only when the \"for_each\" argument is set.",
                at,
            )),
            Some(other) => errors.push(error(
                "Invalid \"each\" attribute",
                format!(
                    "The \"each\" object does not have an attribute named \"{other}\". The \
                     supported attributes are each.key and each.value, the current key and value \
                     pair of the \"for_each\" attribute set."
                ),
                at,
            )),
            None => errors.push(cannot_access("each")),
        },
        "self" => errors.push(error(
            "Invalid \"self\" reference",
            "The \"self\" object is not available in this context. This object can be used only \
             in resource provisioner, connection, and postcondition blocks.",
            at,
        )),
        t => {
            let Some(n) = r.attr(1) else {
                errors.push(error(
                    "Invalid reference",
                    "A reference to a resource type must be followed by at least one attribute \
                     access, specifying the resource name.",
                    at,
                ));
                return;
            };
            match m
                .resources
                .iter()
                .position(|x| x.managed && x.tf_type == t && x.name == n)
            {
                Some(i) => dep((c, Item::Resource(i)), info, errors),
                None => {
                    let data = m
                        .resources
                        .iter()
                        .any(|x| !x.managed && x.tf_type == t && x.name == n);
                    let suggestion = if data {
                        format!(" Did you mean the data resource data.{t}.{n}?")
                    } else {
                        String::new()
                    };
                    errors.push(error(
                        "Reference to undeclared resource",
                        format!(
                            "A managed resource \"{t}\" \"{n}\" has not been declared in {}.{suggestion}",
                            config.display()
                        ),
                        at,
                    ));
                }
            }
        }
    }
    info.refs.push(r.clone());
}

/// The inputs of a module call against the child's variables: unexpected arguments and
/// missing required ones are errors (as `terraform validate` reports them).
fn check_call_arguments(
    tree: &Tree,
    child: usize,
    call: &module::ModuleCall,
    attrs: &BTreeMap<String, Attribute>,
    errors: &mut Vec<Diagnostic>,
) {
    let vars = &tree.configs[child].module.variables;
    let mut given: Vec<&Attribute> = attrs
        .values()
        .filter(|a| !CALL_META.contains(&a.name.as_str()))
        .collect();
    given.sort_by_key(|a| a.range.start.byte);
    for attr in given {
        if !vars.iter().any(|v| v.name == attr.name) {
            let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
            errors.push(error(
                "Unsupported argument",
                format!(
                    "An argument named \"{}\" is not expected here.{}",
                    attr.name,
                    did_you_mean(&attr.name, &names)
                ),
                &attr.name_range,
            ));
        }
    }
    for v in vars {
        if v.default.is_none() && !attrs.contains_key(&v.name) {
            errors.push(error(
                "Missing required argument",
                format!(
                    "The argument \"{}\" is required, but no definition was found.",
                    v.name
                ),
                &call.block.body.missing_item_range(),
            ));
        }
    }
}

/// `providers = { aws = aws.west, aws.x = aws }`: the child's provider key to the
/// caller's.
fn call_providers(
    attrs: &BTreeMap<String, Attribute>,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(attr) = attrs.get("providers") else {
        return out;
    };
    let Some(pairs) = attr.expr.as_map() else {
        errors.push(error(
            "Invalid expression",
            "A static map expression is required.",
            &attr.expr.range(),
        ));
        return out;
    };
    for (k, v) in pairs {
        match (provider_key(&k), provider_key(&v)) {
            (Some(k), Some(v)) => {
                out.insert(k, v);
            }
            _ => errors.push(error(
                "Invalid provider configuration reference",
                "A provider configuration reference must not be given in quotes, and must be \
                 a provider name optionally followed by a dot and an alias (aws, aws.west).",
                &v.range(),
            )),
        }
    }
    out
}

/// A static provider reference (`aws`, `aws.west`) as a key.
fn provider_key(expr: &Expr) -> Option<String> {
    let (steps, _) = expr.as_traversal()?;
    match steps.as_slice() {
        [TraverseStep::Root(name)] => Some(name.clone()),
        [TraverseStep::Root(name), TraverseStep::Attr(alias)] => Some(format!("{name}.{alias}")),
        _ => None,
    }
}

fn collect_type_names(t: &Type, out: &mut BTreeSet<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match t {
        Type::Object(attrs) => {
            for (k, v) in attrs {
                out.insert(k.clone());
                collect_type_names(v, out, depth + 1);
            }
        }
        Type::List(e) | Type::Set(e) | Type::Map(e) => collect_type_names(e, out, depth + 1),
        Type::Tuple(es) => es
            .iter()
            .for_each(|e| collect_type_names(e, out, depth + 1)),
        _ => {}
    }
}

// -------------------------------------------------------------------------------------
// 3. Evaluation
// -------------------------------------------------------------------------------------

/// An evaluated provider configuration.
#[derive(Clone, Debug)]
struct ProviderConfig {
    region: Value,
    default_tags: Value,
}

/// The instances of one module call in one module instance.
enum CallInstances {
    Expanded(Expansion, Vec<usize>),
    Absent,
}

/// A resource instance made, with what completes it at the end.
struct Made {
    resource: usize,
    instance: Instance,
    iteration: BTreeMap<String, Value>,
    provider_key: String,
    /// Where the `provider` argument is (else the block's header).
    provider_range: Option<Range>,
    instance_range: Range,
    /// The resource's own `region` argument, when a known string.
    region: Option<String>,
}

/// A module instance.
struct Inst {
    config: usize,
    /// `""`, `module.a[0]`, `module.a[0].module.b`.
    addr: String,
    parent: Option<usize>,
    /// The `count`/`each` of the call that made it.
    iteration: BTreeMap<String, Value>,
    /// Part of an unknown expansion.
    unknown: bool,
    vars: BTreeMap<String, Value>,
    locals: BTreeMap<String, Value>,
    resources: BTreeMap<usize, Value>,
    outputs: BTreeMap<String, Value>,
    calls: BTreeMap<usize, CallInstances>,
    providers: BTreeMap<String, ProviderConfig>,
    made: Vec<Made>,
}

impl Inst {
    fn new(
        config: usize,
        addr: String,
        parent: Option<usize>,
        iteration: BTreeMap<String, Value>,
        unknown: bool,
    ) -> Inst {
        Inst {
            config,
            addr,
            parent,
            iteration,
            unknown,
            vars: BTreeMap::new(),
            locals: BTreeMap::new(),
            resources: BTreeMap::new(),
            outputs: BTreeMap::new(),
            calls: BTreeMap::new(),
            providers: BTreeMap::new(),
            made: Vec::new(),
        }
    }

    /// `ADDR.` for objects of this instance (empty for the root).
    fn prefix(&self) -> String {
        if self.addr.is_empty() {
            String::new()
        } else {
            format!("{}.", self.addr)
        }
    }
}

struct Run<'t> {
    tree: &'t Tree,
    graph: &'t Graph,
    base: EvalContext,
    cwd: String,
    insts: Vec<Inst>,
    by_config: Vec<Vec<usize>>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    total: usize,
    over_total: bool,
}

impl Run<'_> {
    fn node(&mut self, (c, item): NodeId) {
        let insts = self.by_config.get(c).cloned().unwrap_or_default();
        // The caller's scope of a module's inputs, once per calling instance.
        let mut callers: BTreeMap<usize, EvalContext> = BTreeMap::new();
        for i in insts {
            match item {
                Item::Var(v) => self.var(i, v, &mut callers),
                Item::Local(l) => self.local(i, l),
                Item::Resource(r) => self.resource(i, r),
                Item::Call(ci) => self.call(i, ci),
                Item::Provider(p) => self.provider(i, p),
                Item::Output(o) => self.output(i, o),
            }
        }
    }

    fn module(&self, i: usize) -> &Module {
        &self.tree.configs[self.insts[i].config].module
    }

    fn refs(&self, i: usize, item: Item) -> &[Reference] {
        self.graph
            .nodes
            .get(&(self.insts[i].config, item))
            .map(|n| &n.refs[..])
            .unwrap_or(&[])
    }

    /// The scope of an expression of instance `i` reading `refs`, with `iteration`
    /// (`count`/`each`).
    fn ctx(
        &self,
        i: usize,
        refs: &[Reference],
        iteration: &BTreeMap<String, Value>,
    ) -> EvalContext {
        let inst = &self.insts[i];
        let m = self.module(i);
        let mut vars: BTreeMap<String, Value> = BTreeMap::new();
        let mut locals = BTreeMap::new();
        let mut modules = BTreeMap::new();
        let mut resources: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        let mut data: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for r in refs {
            match r.root() {
                "var" => {
                    vars.entry("var".into())
                        .or_insert_with(|| Value::Object(inst.vars.clone()));
                }
                "local" => {
                    if let Some(name) = r.attr(1) {
                        if let Some(v) = inst.locals.get(name) {
                            locals.insert(name.to_string(), v.clone());
                        }
                    }
                }
                "module" => {
                    if let Some(name) = r.attr(1) {
                        if let Some(ci) = m.modules.iter().position(|x| x.name == name) {
                            modules.insert(name.to_string(), self.call_value(i, ci));
                        }
                    }
                }
                "data" => {
                    if let (Some(t), Some(n)) = (r.attr(1), r.attr(2)) {
                        if let Some(ri) = m
                            .resources
                            .iter()
                            .position(|x| !x.managed && x.tf_type == t && x.name == n)
                        {
                            if let Some(v) = inst.resources.get(&ri) {
                                data.entry(t.to_string())
                                    .or_default()
                                    .insert(n.to_string(), v.clone());
                            }
                        }
                    }
                }
                "path" | "terraform" | "count" | "each" | "self" => {}
                t => {
                    if let Some(n) = r.attr(1) {
                        if let Some(ri) = m
                            .resources
                            .iter()
                            .position(|x| x.managed && x.tf_type == t && x.name == n)
                        {
                            if let Some(v) = inst.resources.get(&ri) {
                                resources
                                    .entry(t.to_string())
                                    .or_default()
                                    .insert(n.to_string(), v.clone());
                            }
                        }
                    }
                }
            }
        }
        self.scope(i, vars, locals, modules, resources, data, iteration)
    }

    #[allow(clippy::too_many_arguments)]
    fn scope(
        &self,
        i: usize,
        mut vars: BTreeMap<String, Value>,
        locals: BTreeMap<String, Value>,
        modules: BTreeMap<String, Value>,
        resources: BTreeMap<String, BTreeMap<String, Value>>,
        data: BTreeMap<String, BTreeMap<String, Value>>,
        iteration: &BTreeMap<String, Value>,
    ) -> EvalContext {
        let config = &self.tree.configs[self.insts[i].config];
        vars.insert("local".into(), Value::Object(locals));
        vars.insert("module".into(), Value::Object(modules));
        vars.insert(
            "data".into(),
            Value::Object(
                data.into_iter()
                    .map(|(t, m)| (t, Value::Object(m)))
                    .collect(),
            ),
        );
        for (t, m) in resources {
            vars.insert(t, Value::Object(m));
        }
        vars.insert(
            "path".into(),
            Value::object_from([
                ("module", Value::string(config.path_module.clone())),
                ("root", Value::string(".")),
                ("cwd", Value::string(self.cwd.clone())),
            ]),
        );
        vars.insert(
            "terraform".into(),
            Value::object_from([
                ("workspace", Value::string("default")),
                ("applying", Value::Bool(false)),
            ]),
        );
        for (k, v) in iteration {
            vars.insert(k.clone(), v.clone());
        }
        self.base.child(vars)
    }

    /// The whole scope of instance `i` (every object of its module).
    fn full_ctx(&self, i: usize) -> EvalContext {
        let inst = &self.insts[i];
        let m = self.module(i);
        let mut resources: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        let mut data: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for (ri, r) in m.resources.iter().enumerate() {
            let Some(v) = inst.resources.get(&ri) else {
                continue;
            };
            let slot = if r.managed {
                resources.entry(r.tf_type.clone()).or_default()
            } else {
                data.entry(r.tf_type.clone()).or_default()
            };
            slot.insert(r.name.clone(), v.clone());
        }
        let modules = m
            .modules
            .iter()
            .enumerate()
            .map(|(ci, call)| (call.name.clone(), self.call_value(i, ci)))
            .collect();
        let vars = BTreeMap::from([("var".to_string(), Value::Object(inst.vars.clone()))]);
        self.scope(
            i,
            vars,
            inst.locals.clone(),
            modules,
            resources,
            data,
            &BTreeMap::new(),
        )
    }

    /// `module.NAME` in instance `i`: the object of its outputs (a tuple or an object of
    /// them with `count`/`for_each`), unknown when not installed.
    fn call_value(&self, i: usize, ci: usize) -> Value {
        match self.insts[i].calls.get(&ci) {
            Some(CallInstances::Expanded(exp, children)) => exp.collect(
                children
                    .iter()
                    .map(|c| Value::Object(self.insts[*c].outputs.clone()))
                    .collect(),
            ),
            Some(CallInstances::Absent) | None => Value::dynamic(),
        }
    }

    fn push_diags(&mut self, diags: Vec<Diagnostic>) {
        for d in diags {
            match d.severity {
                Severity::Error => self.errors.push(d),
                Severity::Warning => self.warnings.push(d),
            }
        }
    }

    fn var(&mut self, i: usize, vi: usize, callers: &mut BTreeMap<usize, EvalContext>) {
        let config = self.insts[i].config;
        let Some(parent) = self.insts[i].parent else {
            return; // the root's values are given
        };
        let Some((_, ci)) = self.tree.configs[config].parent else {
            return;
        };
        let m = &self.tree.configs[config].module;
        let Some(v) = m.variables.get(vi) else { return };
        let Some((vt, default)) = self.graph.var_types.get(&(config, vi)) else {
            return;
        };
        let call = &self.module(parent).modules[ci];
        let (attrs, _) = module::merged_items(&call.bodies());
        let value = match attrs.get(&v.name) {
            Some(attr) => {
                let refs = self
                    .graph
                    .nodes
                    .get(&(config, Item::Var(vi)))
                    .map(|n| n.refs.clone())
                    .unwrap_or_default();
                let caller = match callers.get(&parent) {
                    Some(c) => c.clone(),
                    None => {
                        let c = self.ctx(parent, &refs, &BTreeMap::new());
                        callers.insert(parent, c.clone());
                        c
                    }
                };
                let iteration = &self.insts[i].iteration;
                let ctx = if iteration.is_empty() {
                    caller
                } else {
                    caller.child(iteration.clone())
                };
                let (value, d) = attr.expr.value(&ctx);
                let failed = has_errors(&d);
                self.push_diags(d);
                if failed {
                    Value::Unknown(vt.ty.clone())
                } else {
                    let given = vars::Given {
                        value,
                        source: vars::Source::File(attr.expr.range()),
                    };
                    let addr = format!("{}.var.{}", self.insts[i].addr, v.name);
                    match vars::finalize(&addr, v, vt, &given, default.as_ref()) {
                        Ok(v) => v,
                        Err(d) => {
                            self.errors.push(d);
                            Value::Unknown(vt.ty.clone())
                        }
                    }
                }
            }
            None => default.clone().unwrap_or(Value::Unknown(vt.ty.clone())),
        };
        let name = v.name.clone();
        self.insts[i].vars.insert(name, value);
    }

    fn local(&mut self, i: usize, li: usize) {
        let Some(attr) = self.module(i).locals.get(li).cloned() else {
            return;
        };
        let ctx = self.ctx(i, self.refs(i, Item::Local(li)), &BTreeMap::new());
        let (value, d) = attr.expr.value(&ctx);
        self.push_diags(d);
        self.insts[i].locals.insert(attr.name, value);
    }

    fn output(&mut self, i: usize, oi: usize) {
        let Some(o) = self.module(i).outputs.get(oi).cloned() else {
            return;
        };
        let value = match &o.value {
            Some(expr) => {
                let ctx = self.ctx(i, self.refs(i, Item::Output(oi)), &BTreeMap::new());
                let (value, d) = expr.value(&ctx);
                self.push_diags(d);
                value
            }
            None => {
                self.errors.push(error(
                    "Missing required argument",
                    "The argument \"value\" is required, but no definition was found.",
                    &o.block.body.missing_item_range(),
                ));
                Value::dynamic()
            }
        };
        self.insts[i].outputs.insert(o.name, value);
    }

    fn provider(&mut self, i: usize, pi: usize) {
        let Some(p) = self.module(i).providers.get(pi).cloned() else {
            return;
        };
        let ctx = self.ctx(i, self.refs(i, Item::Provider(pi)), &BTreeMap::new());
        let (attrs, blocks) = module::merged_items(&p.bodies());
        let region = match attrs.get("region") {
            Some(a) => {
                let (v, d) = a.expr.value(&ctx);
                self.push_diags(d);
                v
            }
            None => Value::Null(Type::String),
        };
        // `default_tags { tags = ... }` (in the JSON syntax an argument: an object, or a
        // list of one).
        let block_value = match blocks.iter().find(|b| b.type_name == "default_tags") {
            Some(block) => {
                let (v, d) = values::body_value(&block.body, &ctx, false);
                self.push_diags(d);
                Some(v)
            }
            None => attrs.get("default_tags").map(|a| {
                let (v, d) = a.expr.value(&ctx);
                self.push_diags(d);
                match v {
                    Value::Tuple(mut items) | Value::List(_, mut items) if items.len() == 1 => {
                        items.remove(0)
                    }
                    other => other,
                }
            }),
        };
        let default_tags = match block_value {
            Some(Value::Object(m)) | Some(Value::Map(_, m)) => match m.get("tags") {
                None | Some(Value::Null(_)) => Value::empty_object(),
                Some(tags) => tags.clone(),
            },
            Some(Value::Unknown(_)) => Value::dynamic(),
            _ => Value::empty_object(),
        };
        self.insts[i].providers.insert(
            p.key(),
            ProviderConfig {
                region,
                default_tags,
            },
        );
    }

    /// Evaluates `count`/`for_each` of a block in `ctx`; errors recorded, unknown warned.
    fn expansion(
        &mut self,
        bodies: &[&Body],
        ctx: &EvalContext,
        what: &str,
        addr: &str,
        at: &Range,
    ) -> Expansion {
        let count = values::meta_attr(bodies, "count");
        let for_each = values::meta_attr(bodies, "for_each");
        let (exp, expr) = match (count, for_each) {
            (Some(c), Some(f)) => {
                self.errors.push(error(
                    "Invalid combination of \"count\" and \"for_each\"",
                    format!(
                        "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, \
                         only one should be used to be explicit about the number of {what} \
                         instances to be created."
                    ),
                    &f.name_range,
                ));
                let _ = c;
                return Expansion::Unknown;
            }
            (Some(c), None) => match expand::count(&c.expr, ctx) {
                Ok(Some(n)) => (Expansion::Count(n), c),
                Ok(None) => {
                    self.warnings.push(vars::warning(
                        "Unknown count",
                        format!(
                            "The count of {addr} is not known before apply: one instance \
                             {addr}[*] stands for all of them, and what depends on count.index \
                             is unknown."
                        ),
                        Some(c.expr.range()),
                    ));
                    return Expansion::Unknown;
                }
                Err(d) => {
                    self.push_diags(d);
                    return Expansion::Unknown;
                }
            },
            (None, Some(f)) => match expand::for_each(&f.expr, ctx) {
                Ok(Some(items)) => (Expansion::ForEach(items), f),
                Ok(None) => {
                    self.warnings.push(vars::warning(
                        "Unknown for_each",
                        format!(
                            "The keys of the for_each of {addr} are not known before apply: one \
                             instance {addr}[*] stands for all of them, and what depends on \
                             each.key and each.value is unknown."
                        ),
                        Some(f.expr.range()),
                    ));
                    return Expansion::Unknown;
                }
                Err(d) => {
                    self.push_diags(d);
                    return Expansion::Unknown;
                }
            },
            (None, None) => return Expansion::Single,
        };
        let n = exp.len();
        let range = expr.expr.range();
        if n > MAX_INSTANCES_PER_BLOCK {
            self.errors.push(error(
                "Too many instances",
                format!(
                    "{} {addr} would have {n} instances; cloudspec evaluates at most \
                     {MAX_INSTANCES_PER_BLOCK} instances of one {what}.",
                    expr.name
                ),
                &range,
            ));
            return Expansion::Unknown;
        }
        self.total += n;
        if self.total > MAX_INSTANCES {
            if !self.over_total {
                self.over_total = true;
                self.errors.push(error(
                    "Too many instances",
                    format!(
                        "With {addr}, the configuration has more than {MAX_INSTANCES} resource, \
                         data source and module instances; cloudspec evaluates at most \
                         {MAX_INSTANCES}."
                    ),
                    &range,
                ));
            }
            return Expansion::Unknown;
        }
        if let Some(budget) = Budget::current() {
            if let Err(e) = budget.step(n as u64) {
                if budget.first_report() {
                    self.errors
                        .push(error("Evaluation too expensive", e.detail(), at));
                }
                return Expansion::Unknown;
            }
        }
        exp
    }

    fn call(&mut self, i: usize, ci: usize) {
        let config = self.insts[i].config;
        let child = self.tree.configs[config]
            .children
            .get(&ci)
            .copied()
            .flatten();
        let Some(child) = child else {
            self.insts[i].calls.insert(ci, CallInstances::Absent);
            return;
        };
        let call = self.module(i).modules[ci].clone();
        let addr = format!("{}module.{}", self.insts[i].prefix(), call.name);
        let ctx = self.ctx(i, self.refs(i, Item::Call(ci)), &BTreeMap::new());
        let exp = self.expansion(&call.bodies(), &ctx, "module", &addr, &call.block.def_range);
        let mut children = Vec::new();
        for (key, iteration) in exp.instances() {
            let unknown = self.insts[i].unknown || key == Key::Unknown;
            let child_addr = format!("{addr}{}", key.suffix());
            self.insts
                .push(Inst::new(child, child_addr, Some(i), iteration, unknown));
            let idx = self.insts.len() - 1;
            self.by_config[child].push(idx);
            children.push(idx);
        }
        self.insts[i]
            .calls
            .insert(ci, CallInstances::Expanded(exp, children));
    }

    fn resource(&mut self, i: usize, ri: usize) {
        let r = self.module(i).resources[ri].clone();
        let bodies = r.bodies();
        let addr = format!("{}{}", self.insts[i].prefix(), r.address());
        let refs = self.refs(i, Item::Resource(ri)).to_vec();
        let ctx = self.ctx(i, &refs, &BTreeMap::new());
        let what = if r.managed { "resource" } else { "data source" };
        let exp = self.expansion(&bodies, &ctx, what, &addr, &r.block.def_range);
        let provider_attr = values::meta_attr(&bodies, "provider");
        let provider_range = provider_attr.as_ref().map(|a| a.expr.range());
        let provider_key = match provider_attr {
            Some(attr) => match provider_key(&attr.expr) {
                Some(k) => k,
                None => {
                    self.errors.push(error(
                        "Invalid provider reference",
                        "The provider argument requires a provider type name, optionally \
                         followed by a period and then a configuration alias.",
                        &attr.expr.range(),
                    ));
                    default_provider(&r.tf_type)
                }
            },
            None => default_provider(&r.tf_type),
        };
        let file = r.block.def_range.filename.clone();
        let line = if file.ends_with(".json") {
            r.block
                .label_ranges
                .last()
                .map_or(r.block.def_range.start.line, |l| l.start.line)
        } else {
            r.block.def_range.start.line
        };
        let mut instance_values = Vec::new();
        for (key, iteration) in exp.instances() {
            let inst_ctx = if iteration.is_empty() {
                ctx.clone()
            } else {
                ctx.child(iteration.clone())
            };
            let body = values::instance_body(&bodies, &inst_ctx);
            let (args, d) = values::body_value(&body, &inst_ctx, true);
            self.push_diags(d);
            let address = format!("{addr}{}", key.suffix());
            let value = self.resource_value(&r, &address, args.clone());
            instance_values.push(value);
            if !r.managed {
                continue;
            }
            let region = match &args {
                Value::Object(m) => match m.get("region") {
                    Some(Value::String(s)) if !identity::contains_identity(s) => Some(s.clone()),
                    _ => None,
                },
                _ => None,
            };
            let unknown = self.insts[i].unknown || key == Key::Unknown;
            let instance = Instance {
                address,
                tf_type: r.tf_type.clone(),
                provider: provider_key
                    .split('.')
                    .next()
                    .unwrap_or(&provider_key)
                    .to_string(),
                body,
                ctx: inst_ctx,
                file: file.clone(),
                line,
                region: None,
                default_tags: Value::empty_object(),
                unknown_expansion: unknown,
            };
            self.insts[i].made.push(Made {
                resource: ri,
                instance,
                iteration,
                provider_key: provider_key.clone(),
                provider_range: provider_range.clone(),
                instance_range: r.block.def_range.clone(),
                region,
            });
        }
        let value = exp.collect(instance_values);
        self.insts[i].resources.insert(ri, value);
    }

    /// The value others read of one resource instance: its arguments, `id` and `arn`
    /// identities, every other attribute read anywhere unknown;
    /// `aws_iam_policy_document` computed.
    fn resource_value(&mut self, r: &module::ResourceBlock, address: &str, args: Value) -> Value {
        let Value::Object(mut attrs) = args else {
            return Value::dynamic();
        };
        if !r.managed && r.tf_type == "aws_iam_policy_document" {
            let args = Value::Object(attrs.clone());
            if args.is_wholly_known() {
                match policy::evaluate(&args) {
                    Ok(computed) => attrs.extend(computed),
                    Err(message) => self.errors.push(error(message, "", &r.block.def_range)),
                }
            }
        }
        for name in ["id", "arn"] {
            if attrs.get(name).is_none_or(Value::is_null) {
                attrs.insert(
                    name.to_string(),
                    Value::string(identity::identity(address, name)),
                );
            }
        }
        let key = if r.managed {
            r.tf_type.clone()
        } else {
            format!("data.{}", r.tf_type)
        };
        let read = &self.graph.read;
        let direct = read.by_type.get(&key).into_iter().flatten();
        for name in direct.chain(&read.indirect) {
            if attrs.get(name).is_none_or(Value::is_null) {
                attrs.insert(name.clone(), Value::dynamic());
            }
        }
        for v in attrs.values_mut() {
            add_nested(v, read, 0);
        }
        Value::Object(attrs)
    }

    /// The provider configuration `key` means in instance `i` (its own, or passed down).
    fn provider_config(&self, mut i: usize, mut key: String) -> Option<ProviderConfig> {
        loop {
            let inst = &self.insts[i];
            if let Some(p) = inst.providers.get(&key) {
                return Some(p.clone());
            }
            let parent = inst.parent?;
            let (_, ci) = self.tree.configs[inst.config].parent?;
            let passed = self
                .graph
                .calls
                .get(&(self.insts[parent].config, ci))
                .and_then(|c| c.providers.get(&key));
            match passed {
                Some(parent_key) => key = parent_key.clone(),
                None if !key.contains('.') => {}
                None => return None,
            }
            i = parent;
        }
    }

    /// The instances, complete (scope, region, default tags), root module first, then
    /// each call's instances in order.
    /// Each instance's region and default tags from its provider configuration; an
    /// aliased configuration nobody declares is an error, as in Terraform.
    fn resolve_providers(&mut self) {
        for i in 0..self.insts.len() {
            let made = std::mem::take(&mut self.insts[i].made);
            let mut done = Vec::with_capacity(made.len());
            for mut m in made {
                let config = self.provider_config(i, m.provider_key.clone());
                if config.is_none() && m.provider_key.contains('.') {
                    let at = m
                        .provider_range
                        .clone()
                        .unwrap_or_else(|| m.instance_range.clone());
                    self.errors.push(error(
                        "Provider configuration not present",
                        format!(
                            "{} uses the provider configuration {}, which is not declared: no \
                             provider block with that alias, nor a module call passing one \
                             under that name.",
                            m.instance.address, m.provider_key
                        ),
                        &at,
                    ));
                }
                let provider_region = config.as_ref().and_then(|c| match &c.region {
                    Value::String(s) if !identity::contains_identity(s) => Some(s.clone()),
                    _ => None,
                });
                m.instance.region = m.region.clone().or(provider_region);
                m.instance.default_tags = config
                    .map(|c| c.default_tags)
                    .unwrap_or_else(Value::empty_object);
                done.push(m);
            }
            self.insts[i].made = done;
        }
    }

    /// The instances, complete with their scope, root module first, then each call's
    /// instances in order.
    fn finish(mut self) -> Vec<Instance> {
        for i in 0..self.insts.len() {
            let full = self.full_ctx(i);
            for m in &mut self.insts[i].made {
                m.instance.ctx = if m.iteration.is_empty() {
                    full.clone()
                } else {
                    full.child(m.iteration.clone())
                };
            }
        }
        let mut out = Vec::new();
        self.collect(0, &mut out);
        out
    }

    fn collect(&mut self, i: usize, out: &mut Vec<Instance>) {
        let mut made = std::mem::take(&mut self.insts[i].made);
        made.sort_by_key(|m| m.resource);
        out.extend(made.into_iter().map(|m| m.instance));
        let calls: Vec<usize> = self.insts[i]
            .calls
            .values()
            .flat_map(|c| match c {
                CallInstances::Expanded(_, children) => children.clone(),
                CallInstances::Absent => Vec::new(),
            })
            .collect();
        for c in calls {
            self.collect(c, out);
        }
    }
}

/// Inside a resource's nested blocks (lists of objects), every attribute read from one
/// that the configuration does not set is unknown.
fn add_nested(v: &mut Value, read: &refs::ReadNames, depth: usize) {
    if depth > 32 {
        return;
    }
    let Value::Tuple(items) = v else { return };
    for item in items {
        if let Value::Object(m) = item {
            for name in read.nested.iter().chain(&read.indirect) {
                if m.get(name).is_none_or(Value::is_null) {
                    m.insert(name.clone(), Value::dynamic());
                }
            }
            for inner in m.values_mut() {
                add_nested(inner, read, depth + 1);
            }
        }
    }
}

/// The provider of a resource type: its prefix (`aws_instance` -> `aws`).
fn default_provider(tf_type: &str) -> String {
    tf_type.split('_').next().unwrap_or(tf_type).to_string()
}
