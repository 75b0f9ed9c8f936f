//! Evaluating the graph in dependency order, each object for every instance of its
//! module.

use std::cell::RefCell;
use std::collections::BTreeMap;

use cloudspec_hcl::body::Body;
use cloudspec_hcl::budget::Budget;
use cloudspec_hcl::diag::{has_errors, Severity};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Range, Type, Value};

use super::expand::{self, Expansion, Key};
use super::graph::{provider_key, Graph, Item, NodeId};
use super::refs::{self, Reference};
use super::tree::Tree;
use super::{error, MAX_INSTANCES, MAX_INSTANCES_PER_BLOCK};
use super::{policy, values};
use crate::module::{self, Module};
use crate::vars;
use crate::{identity, Instance};

/// An evaluated provider configuration.
#[derive(Clone, Debug)]
pub(super) struct ProviderConfig {
    pub(super) region: Value,
    pub(super) default_tags: Value,
}

/// The instances of one module call in one module instance.
pub(super) enum CallInstances {
    Expanded(Expansion, Vec<usize>),
    Absent,
}

/// A resource instance made, with what completes it at the end.
pub(super) struct Made {
    pub(super) resource: usize,
    pub(super) instance: Instance,
    pub(super) iteration: BTreeMap<String, Value>,
    pub(super) provider_key: String,
    /// Where the `provider` argument is (else the block's header).
    pub(super) provider_range: Option<Range>,
    pub(super) instance_range: Range,
    /// The resource's own `region` argument, when a known string.
    pub(super) region: Option<String>,
}

/// A module instance.
pub(super) struct Inst {
    pub(super) config: usize,
    /// `""`, `module.a[0]`, `module.a[0].module.b`.
    pub(super) addr: String,
    pub(super) parent: Option<usize>,
    /// The `count`/`each` of the call that made it.
    pub(super) iteration: BTreeMap<String, Value>,
    /// Part of an unknown expansion.
    pub(super) unknown: bool,
    pub(super) vars: BTreeMap<String, Value>,
    pub(super) locals: BTreeMap<String, Value>,
    pub(super) resources: BTreeMap<usize, Value>,
    pub(super) outputs: BTreeMap<String, Value>,
    pub(super) calls: BTreeMap<usize, CallInstances>,
    pub(super) providers: BTreeMap<String, ProviderConfig>,
    pub(super) made: Vec<Made>,
    /// Changes whenever `vars` does.
    vars_version: usize,
    /// The scopes its expressions share ([`Run::shared_scope`]): with `var` (and the
    /// `vars_version` it was made at), and without.
    shared: RefCell<[Option<(usize, EvalContext)>; 2]>,
}

impl Inst {
    pub(super) fn new(
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
            vars_version: 0,
            shared: RefCell::new([None, None]),
        }
    }

    /// `ADDR.` for objects of this instance (empty for the root).
    pub(super) fn prefix(&self) -> String {
        if self.addr.is_empty() {
            String::new()
        } else {
            format!("{}.", self.addr)
        }
    }
}

pub(super) struct Run<'t> {
    pub(super) tree: &'t Tree,
    pub(super) graph: &'t Graph,
    pub(super) base: EvalContext,
    pub(super) cwd: String,
    pub(super) insts: Vec<Inst>,
    pub(super) by_config: Vec<Vec<usize>>,
    pub(super) errors: Vec<Diagnostic>,
    pub(super) warnings: Vec<Diagnostic>,
    pub(super) total: usize,
    pub(super) over_total: bool,
}

impl Run<'_> {
    pub(super) fn node(&mut self, (c, item): NodeId) {
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

    pub(super) fn module(&self, i: usize) -> &Module {
        &self.tree.configs[self.insts[i].config].module
    }

    pub(super) fn refs(&self, i: usize, item: Item) -> &[Reference] {
        self.graph
            .nodes
            .get(&(self.insts[i].config, item))
            .map(|n| &n.refs[..])
            .unwrap_or(&[])
    }

    /// The scope of an expression of instance `i` reading `refs`, with `iteration`
    /// (`count`/`each`).
    pub(super) fn ctx(
        &self,
        i: usize,
        refs: &[Reference],
        iteration: &BTreeMap<String, Value>,
    ) -> EvalContext {
        let inst = &self.insts[i];
        let m = self.module(i);
        let mut with_vars = false;
        let mut locals = BTreeMap::new();
        let mut modules = BTreeMap::new();
        let mut resources: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        let mut data: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for r in refs {
            match r.root() {
                "var" => with_vars = true,
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
                "path" | "terraform" | "count" | "each" | "self" | "ephemeral" => {}
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
        // As `scope` writes them, but `var`, `ephemeral`, `path` and `terraform` (which no
        // other name here replaces) in a parent scope shared by the instance's expressions.
        let mut vars: BTreeMap<String, Value> = BTreeMap::new();
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
        for (k, v) in iteration {
            vars.insert(k.clone(), v.clone());
        }
        self.shared_scope(i, with_vars).child(vars)
    }

    /// The scope of instance `i` that does not depend on what an expression reads: `var`
    /// (when `with_vars`: its variables so far), `ephemeral`, `path` and `terraform`; made
    /// once (again when the variables change) and shared.
    fn shared_scope(&self, i: usize, with_vars: bool) -> EvalContext {
        let inst = &self.insts[i];
        let slot = usize::from(with_vars);
        if let Some((version, ctx)) = &inst.shared.borrow()[slot] {
            if !with_vars || *version == inst.vars_version {
                return ctx.clone();
            }
        }
        let config = &self.tree.configs[inst.config];
        let mut vars: BTreeMap<String, Value> = BTreeMap::new();
        if with_vars {
            vars.insert("var".into(), Value::Object(inst.vars.clone()));
        }
        self.module_globals(&config.path_module, &mut vars);
        let ctx = self.base.child(vars);
        inst.shared.borrow_mut()[slot] = Some((inst.vars_version, ctx.clone()));
        ctx
    }

    /// `ephemeral` (unknown), `path` and `terraform` of a module instance whose
    /// `path.module` is `path_module`.
    fn module_globals(&self, path_module: &str, vars: &mut BTreeMap<String, Value>) {
        vars.insert("ephemeral".into(), Value::dynamic());
        vars.insert(
            "path".into(),
            Value::object_from([
                ("module", Value::string(path_module.to_string())),
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
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn scope(
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
        self.module_globals(&config.path_module, &mut vars);
        for (k, v) in iteration {
            vars.insert(k.clone(), v.clone());
        }
        self.base.child(vars)
    }

    /// The whole scope of instance `i` (every object of its module).
    pub(super) fn full_ctx(&self, i: usize) -> EvalContext {
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
    pub(super) fn call_value(&self, i: usize, ci: usize) -> Value {
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

    pub(super) fn push_diags(&mut self, diags: Vec<Diagnostic>) {
        for d in diags {
            match d.severity {
                Severity::Error => self.errors.push(d),
                Severity::Warning => self.warnings.push(d),
            }
        }
    }

    pub(super) fn var(&mut self, i: usize, vi: usize, callers: &mut BTreeMap<usize, EvalContext>) {
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
        self.insts[i].vars_version += 1;
    }

    pub(super) fn local(&mut self, i: usize, li: usize) {
        let Some(attr) = self.module(i).locals.get(li).cloned() else {
            return;
        };
        let ctx = self.ctx(i, self.refs(i, Item::Local(li)), &BTreeMap::new());
        let (value, d) = attr.expr.value(&ctx);
        self.push_diags(d);
        self.insts[i].locals.insert(attr.name, value);
    }

    pub(super) fn output(&mut self, i: usize, oi: usize) {
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

    pub(super) fn provider(&mut self, i: usize, pi: usize) {
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
    pub(super) fn expansion(
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

    pub(super) fn call(&mut self, i: usize, ci: usize) {
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

    pub(super) fn resource(&mut self, i: usize, ri: usize) {
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
                // Both made again by `finish`, in the module's whole scope.
                body: Body::empty(),
                ctx: EvalContext::empty(),
                file: file.clone(),
                line,
                region: None,
                default_tags: Value::empty_object(),
                unknown_expansion: unknown,
                args: Some(args),
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
    /// identities (of a managed resource also every `*_id` and `*_arn` attribute read
    /// anywhere), every other attribute read anywhere unknown;
    /// `aws_iam_policy_document` computed.
    pub(super) fn resource_value(
        &mut self,
        r: &module::ResourceBlock,
        address: &str,
        args: Value,
    ) -> Value {
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
                // A computed id or ARN of a managed resource (`default_network_acl_id`)
                // names whose it is, as `id` does: mappings find its owner.
                let v = if r.managed && (name.ends_with("_id") || name.ends_with("_arn")) {
                    Value::string(identity::identity(address, name))
                } else {
                    Value::dynamic()
                };
                attrs.insert(name.clone(), v);
            }
        }
        for v in attrs.values_mut() {
            add_nested(v, read, 0);
        }
        Value::Object(attrs)
    }

    /// The provider configuration `key` means in instance `i` (its own, or passed down).
    pub(super) fn provider_config(&self, mut i: usize, mut key: String) -> Option<ProviderConfig> {
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
    pub(super) fn resolve_providers(&mut self) {
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
    pub(super) fn finish(mut self) -> Vec<Instance> {
        let tree = self.tree;
        for i in 0..self.insts.len() {
            let full = self.full_ctx(i);
            let module = &tree.configs[self.insts[i].config].module;
            for m in &mut self.insts[i].made {
                m.instance.ctx = if m.iteration.is_empty() {
                    full.clone()
                } else {
                    full.child(m.iteration.clone())
                };
                // Its dynamic blocks expand in that scope too (the one of the evaluation,
                // with copies of what the block reads, is not kept).
                if let Some(r) = module.resources.get(m.resource) {
                    m.instance.body = values::instance_body(&r.bodies(), &m.instance.ctx);
                }
            }
        }
        let mut out = Vec::new();
        self.collect(0, &mut out);
        out
    }

    pub(super) fn collect(&mut self, i: usize, out: &mut Vec<Instance>) {
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
pub(super) fn add_nested(v: &mut Value, read: &refs::ReadNames, depth: usize) {
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
pub(super) fn default_provider(tf_type: &str) -> String {
    tf_type.split('_').next().unwrap_or(tf_type).to_string()
}
