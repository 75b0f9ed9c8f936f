//! User functions (`function` blocks, top level only) and `invoke` (contract section 3,
//! "User functions"): definitions are checked statically; `invoke(NAME, ARGS)` evaluates a
//! function's locals and body in a scope holding only its arguments, 99 nested calls deep
//! at most.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use cloudspec_hcl::body::{Attribute, AttributeSchema, Block, BlockHeaderSchema, BodySchema, Expr};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::functions::{stdlib, FuncError, Function, FunctionTable, Param};
use cloudspec_hcl::{Diagnostic, Type, Value};
use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::visit::{visit_func_call, Visit};
use hcl_edit::Span;

use crate::locals::{self, error};

/// Nested `invoke` calls beyond this fail.
pub(crate) const MAX_DEPTH: usize = 100;

pub(crate) struct Arg {
    pub default: Option<Value>,
}

pub(crate) struct UserFunction {
    pub name: String,
    pub args: BTreeMap<String, Arg>,
    pub locals: Vec<Attribute>,
    pub body: Expr,
}

/// The user functions of a composition and the function table expressions see (the
/// standard library and `invoke`).
pub(crate) struct Functions {
    pub user: Arc<BTreeMap<String, UserFunction>>,
    pub table: Arc<FunctionTable>,
}

pub(crate) fn function_schema() -> BodySchema {
    BodySchema {
        attributes: vec![
            AttributeSchema::new("description", false),
            AttributeSchema::new("body", true),
        ],
        blocks: vec![
            BlockHeaderSchema::new("arg", ["name"]),
            BlockHeaderSchema::new("locals", Vec::<String>::new()),
        ],
    }
}

pub(crate) fn arg_schema() -> BodySchema {
    BodySchema {
        attributes: vec![
            AttributeSchema::new("description", false),
            AttributeSchema::new("default", false),
        ],
        blocks: Vec::new(),
    }
}

/// `^[A-Za-z_][A-Za-z0-9_-]*$`.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn constant(expr: &Expr) -> Option<Value> {
    let (v, diags) = expr.value(&EvalContext::empty());
    (diags.is_empty() && v.is_wholly_known()).then_some(v)
}

/// Reads and checks the `function` blocks among the top-level `blocks`.
pub(crate) fn define(blocks: &[Block]) -> Result<Functions, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut user: BTreeMap<String, UserFunction> = BTreeMap::new();
    for block in blocks.iter().filter(|b| b.type_name == "function") {
        let name = block.labels[0].clone();
        let (content, ds) = block.body.content(&function_schema());
        if cloudspec_hcl::diag::has_errors(&ds) {
            diags.extend(ds);
            continue;
        }
        if !is_identifier(&name) {
            diags.push(error(
                format!("function {name:?} : name must be an identifier"),
                "",
                &block.label_ranges[0],
            ));
            continue;
        }
        if let Some(d) = content.attributes.get("description") {
            if !matches!(constant(&d.expr), Some(Value::String(_))) {
                diags.push(error(
                    format!("function {name} : description is not a constant string"),
                    "",
                    &d.range,
                ));
            }
        }
        let mut args = BTreeMap::new();
        for b in content.blocks.iter().filter(|b| b.type_name == "arg") {
            let arg = b.labels[0].clone();
            let (a, ds) = b.body.content(&arg_schema());
            if cloudspec_hcl::diag::has_errors(&ds) {
                diags.extend(ds);
                continue;
            }
            if !is_identifier(&arg) {
                diags.push(error(
                    format!("function {name:?}, arg {arg:?} : name must be an identifier"),
                    "",
                    &b.label_ranges[0],
                ));
                continue;
            }
            if let Some(d) = a.attributes.get("description") {
                if !matches!(constant(&d.expr), Some(Value::String(_))) {
                    diags.push(error(
                        format!(
                            "function {name:?}, arg {arg:?} : description is not a constant string"
                        ),
                        "",
                        &d.range,
                    ));
                }
            }
            let default = match a.attributes.get("default") {
                Some(d) => match constant(&d.expr) {
                    Some(v) => Some(v),
                    None => {
                        diags.push(error(
                            format!("function {name:?}, args {arg:?}: default is not a constant"),
                            "",
                            &d.range,
                        ));
                        None
                    }
                },
                None => None,
            };
            if args.contains_key(&arg) {
                diags.push(error(
                    format!("function {name}: duplicate definition of argument"),
                    &arg,
                    &b.def_range,
                ));
                continue;
            }
            args.insert(arg, Arg { default });
        }
        let fn_locals = match locals::declared(&content.blocks) {
            Ok(l) => l,
            Err(ds) => {
                diags.extend(ds);
                continue;
            }
        };
        let Some(body) = content.attributes.get("body") else {
            continue;
        };
        if user.contains_key(&name) {
            diags.push(error(
                "duplicate function declaration",
                &name,
                &block.def_range,
            ));
            continue;
        }
        user.insert(
            name.clone(),
            UserFunction {
                name,
                args,
                locals: fn_locals,
                body: body.expr.clone(),
            },
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let functions = table(user);
    // What function bodies may refer to: their arguments and locals, nothing else.
    for f in functions.user.values() {
        let visible: BTreeSet<String> = f.args.keys().cloned().collect();
        let ds = locals::check(&visible, &f.locals);
        if !ds.is_empty() {
            diags.extend(ds);
            continue;
        }
        let mut names = visible.clone();
        names.extend(f.locals.iter().map(|l| l.name.clone()));
        for (steps, range) in f.body.variables() {
            if let Some(cloudspec_hcl::eval::TraverseStep::Root(root)) = steps.first() {
                if !names.contains(root) {
                    diags.push(error(
                        format!("function {}: reference to non-existent variable", f.name),
                        root,
                        &locals::root_range(root, &range),
                    ));
                }
            }
        }
        for l in &f.locals {
            diags.extend(check_invokes(&l.expr, &functions.user));
        }
        diags.extend(check_invokes(&f.body, &functions.user));
    }
    if diags.is_empty() {
        Ok(functions)
    } else {
        Err(diags)
    }
}

/// The function table with `invoke` over `user`.
fn table(user: BTreeMap<String, UserFunction>) -> Functions {
    let user = Arc::new(user);
    let cell: Arc<OnceLock<Arc<FunctionTable>>> = Arc::new(OnceLock::new());
    let depth = Arc::new(AtomicUsize::new(0));
    let mut t = stdlib().clone();
    let (fns, tbl) = (user.clone(), cell.clone());
    t.add(Function::with_closure(
        "invoke",
        vec![
            Param::new("name", Type::String),
            Param::new("args", Type::Dynamic),
        ],
        Type::Dynamic,
        Arc::new(move |args: &[Value]| {
            let table = tbl
                .get()
                .cloned()
                .unwrap_or_else(|| Arc::new(stdlib().clone()));
            invoke(&fns, &table, &depth, args)
        }),
    ));
    let t = Arc::new(t);
    let _ = cell.set(t.clone());
    Functions { user, table: t }
}

/// Decrements the depth counter however a call ends.
struct DepthGuard<'a>(&'a AtomicUsize);

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn invoke(
    user: &BTreeMap<String, UserFunction>,
    table: &Arc<FunctionTable>,
    depth: &AtomicUsize,
    args: &[Value],
) -> Result<Value, FuncError> {
    let now = depth.fetch_add(1, Ordering::SeqCst) + 1;
    let _guard = DepthGuard(depth);
    if now >= MAX_DEPTH {
        return Err(FuncError::new(format!(
            "user function calls: max depth {MAX_DEPTH} exceeded"
        )));
    }
    let name = args[0].as_str().unwrap_or_default();
    let Some(f) = user.get(name) else {
        return Err(FuncError::new(format!("user function '{name}' not found")));
    };
    let params = match &args[1] {
        Value::Object(m) => m,
        other => {
            return Err(FuncError::new(format!(
                "arguments to user function '{name}' is not an object, found {}",
                other.ty().friendly_name()
            )))
        }
    };
    for k in params.keys() {
        if !f.args.contains_key(k) {
            return Err(FuncError::new(format!(
                "function: {name}, invalid argument {k:?}"
            )));
        }
    }
    let mut values = BTreeMap::new();
    for (arg, def) in &f.args {
        let v = match (params.get(arg), &def.default) {
            (Some(v), _) => v.clone(),
            (None, Some(d)) => d.clone(),
            (None, None) => {
                return Err(FuncError::new(format!(
                    "function: {name}, argument {arg:?} expected but not supplied"
                )))
            }
        };
        values.insert(arg.clone(), v);
    }
    let ctx = EvalContext::empty()
        .with_variables(values)
        .with_functions(table.clone());
    let (ctx, diags) = locals::evaluate(&ctx, &f.locals);
    let _ = diags;
    let (value, diags) = f.body.value(&ctx);
    if let Some(d) = diags
        .iter()
        .find(|d| d.severity == cloudspec_hcl::Severity::Error)
    {
        // A failure further down a chain of `invoke`s is passed up as it is, not wrapped
        // once per call (99 nested "Call to function" sentences say nothing more).
        let nested = (d.summary == "Error in function call")
            .then(|| {
                d.detail
                    .strip_prefix("Call to function \"invoke\" failed: ")
            })
            .flatten();
        return Err(FuncError::new(match nested {
            Some(inner) => inner.strip_suffix('.').unwrap_or(inner).to_string(),
            None => diagnostics_error(d, diags.len()),
        }));
    }
    Ok(value)
}

/// hcl's `Diagnostics.Error()`: the first error, and how many others there were.
fn diagnostics_error(d: &Diagnostic, count: usize) -> String {
    let first = crate::eval::go_error(d);
    match count {
        0 | 1 => first,
        n => format!("{first}, and {} other diagnostic(s)", n - 1),
    }
}

/// The static checks of every `invoke` call in `expr`: two arguments, a static string
/// naming a defined function, and (for an object constructor with literal keys) known and
/// complete arguments.
pub(crate) fn check_invokes(expr: &Expr, user: &BTreeMap<String, UserFunction>) -> Vec<Diagnostic> {
    let Some((native, src)) = expr.as_native() else {
        return Vec::new();
    };
    struct Calls<'a> {
        src: &'a cloudspec_hcl::syntax::SourceFile,
        user: &'a BTreeMap<String, UserFunction>,
        diags: Vec<Diagnostic>,
    }
    impl Visit for Calls<'_> {
        fn visit_func_call(&mut self, call: &hcl_edit::expr::FuncCall) {
            visit_func_call(self, call);
            if call.name.namespace.is_empty() && call.name.name.as_str() == "invoke" {
                self.check(call);
            }
        }
    }
    impl Calls<'_> {
        fn range(&self, e: &impl Span) -> cloudspec_hcl::Range {
            e.span().map(|s| self.src.range(s)).unwrap_or_default()
        }
        fn check(&mut self, call: &hcl_edit::expr::FuncCall) {
            let args: Vec<&Expression> = call.args.iter().collect();
            if args.len() != 2 {
                let r = self.range(call);
                self.diags.push(error(
                    "user function invocation has incorrect number of arguments",
                    &format!("want 2, got {}", args.len()),
                    &r,
                ));
                return;
            }
            let (v, _) = cloudspec_hcl::eval::expr(args[0], &EvalContext::empty(), self.src);
            let name = match v {
                Value::String(s) => s,
                _ => {
                    let r = self.range(args[0]);
                    self.diags.push(error(
                        "user function invocation is not via a static string",
                        "",
                        &r,
                    ));
                    return;
                }
            };
            let Some(f) = self.user.get(&name) else {
                let r = self.range(args[0]);
                self.diags.push(error(
                    format!("invoke called on unknown function: {name:?}"),
                    "",
                    &r,
                ));
                return;
            };
            let Expression::Object(obj) = args[1] else {
                return;
            };
            let mut keys = Vec::new();
            for (key, _) in obj.iter() {
                match key {
                    ObjectKey::Ident(id) => keys.push(id.as_str().to_string()),
                    ObjectKey::Expression(Expression::String(s)) => {
                        keys.push(s.value().to_string())
                    }
                    // A computed key: the arguments are known only when evaluated.
                    _ => return,
                }
            }
            let r = self.range(args[1]);
            for k in &keys {
                if !f.args.contains_key(k) {
                    self.diags.push(error(
                        format!("function: {name}, invalid argument {k:?}"),
                        "",
                        &r,
                    ));
                }
            }
            for (arg, def) in &f.args {
                if def.default.is_none() && !keys.contains(arg) {
                    self.diags.push(error(
                        format!("function: {name}, argument {arg:?} expected but not supplied"),
                        "",
                        &r,
                    ));
                }
            }
        }
    }
    let mut calls = Calls {
        src: &src,
        user,
        diags: Vec::new(),
    };
    calls.visit_expr(&native);
    calls.diags
}
