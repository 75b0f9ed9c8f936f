//! Static analysis: every reference resolved to what it names, the graph of what depends
//! on what across modules, and the attribute names expressions read.

use std::collections::{BTreeMap, BTreeSet};

use cloudspec_hcl::body::{Attribute, Body, Expr};
use cloudspec_hcl::diag::has_errors;
use cloudspec_hcl::eval::TraverseStep;
use cloudspec_hcl::{name_suggestion, Diagnostic, Range, Type, Value};

use super::refs::{self, Found, Reference};
use super::tree::Tree;
use super::values;
use super::{error, failure};
use crate::module;
use crate::vars::{self, VarType};
use crate::Failure;

/// An object of a module: what the graph orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Item {
    Var(usize),
    Local(usize),
    Resource(usize),
    Call(usize),
    Provider(usize),
    Output(usize),
}

pub(super) type NodeId = (usize, Item);

/// What one node needs: its references (validated) and the nodes they name.
#[derive(Default)]
pub(super) struct NodeInfo {
    pub(super) refs: Vec<Reference>,
    pub(super) deps: Vec<(NodeId, Range)>,
}

/// A module call's static facts.
#[derive(Default, Clone)]
pub(super) struct CallInfo {
    /// `providers = { aws = aws.west }`: the child's key to the caller's.
    pub(super) providers: BTreeMap<String, String>,
}

pub(super) struct Graph {
    pub(super) nodes: BTreeMap<NodeId, NodeInfo>,
    pub(super) order: Vec<NodeId>,
    /// Every attribute name an expression reads from a value.
    pub(super) read: refs::ReadNames,
    /// Declared variable types, by configuration and variable index.
    pub(super) var_types: BTreeMap<(usize, usize), (VarType, Option<Value>)>,
    pub(super) calls: BTreeMap<(usize, usize), CallInfo>,
}

/// The arguments of a module block that are Terraform's, not inputs.
pub(super) const CALL_META: &[&str] = &[
    "source",
    "version",
    "providers",
    "count",
    "for_each",
    "depends_on",
];

impl Graph {
    pub(super) fn analyse(tree: &Tree) -> Result<Graph, Failure> {
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
    pub(super) fn topological(&self, tree: &Tree) -> Result<Vec<NodeId>, Diagnostic> {
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
    pub(super) fn cycle(&self, tree: &Tree, cycle: &[NodeId]) -> Diagnostic {
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
pub(super) fn add_node(
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

pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How an object is named in messages: `local.a`, `module.net.aws_subnet.a`,
/// `module.net.var.cidr`, `module.net` (a call).
pub(super) fn node_name(tree: &Tree, (c, item): NodeId) -> String {
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
pub(super) struct Scope {
    pub(super) count: bool,
    pub(super) each: bool,
    /// Resolving an input of this module call (in the caller): its outputs may feed its
    /// other inputs, as in Terraform, whose graph has one node per output and input.
    pub(super) input_of: Option<usize>,
}

impl Scope {
    const NONE: Scope = Scope {
        count: false,
        each: false,
        input_of: None,
    };
}

pub(super) fn did_you_mean(given: &str, candidates: &[&str]) -> String {
    name_suggestion(given, candidates)
        .map(|s| format!(" Did you mean \"{s}\"?"))
        .unwrap_or_default()
}

/// Checks reference `r` of object `item` of configuration `c` and records what it depends
/// on (errors in Terraform's words).
pub(super) fn resolve(
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
        // Ephemeral resources (Terraform 1.10) are not loaded: what they give is unknown.
        "ephemeral" => {}
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
pub(super) fn check_call_arguments(
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
pub(super) fn call_providers(
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
pub(super) fn provider_key(expr: &Expr) -> Option<String> {
    let (steps, _) = expr.as_traversal()?;
    match steps.as_slice() {
        [TraverseStep::Root(name)] => Some(name.clone()),
        [TraverseStep::Root(name), TraverseStep::Attr(alias)] => Some(format!("{name}.{alias}")),
        _ => None,
    }
}

pub(super) fn collect_type_names(t: &Type, out: &mut BTreeSet<String>, depth: usize) {
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
