//! Expression evaluation with HCL's semantics (hclsyntax's `Expression.Value`).
//!
//! Every public entry point returns a value and the diagnostics found on the way. An
//! expression that fails evaluates to an unknown value of type `any` (cty's `DynamicVal`)
//! together with an error diagnostic, so that evaluation continues and one file reports
//! all of its errors. Unknown values propagate through every operation as in cty.
//!
//! Where HCL's parser and hcl-edit's differ, the evaluator follows HCL: quoted strings and
//! template literals are decoded again from the source text (HCL accepts only the escapes
//! `\n \r \t \" \\ \uNNNN \UNNNNNNNN`), heredoc indentation is removed with HCL's rule,
//! number literals are read exactly from their source text, and the `~` strip markers trim
//! per source line in heredocs as HCL's scanner does.

mod body;
mod call;
mod depth;
mod ops;
mod strings;
mod template;
mod traverse;
mod vars;

use std::collections::BTreeMap;
use std::ops::Range as Span;
use std::sync::{Arc, OnceLock};

use hcl_edit::expr::{Expression, ForExpr, Object, ObjectKey};
use hcl_edit::Span as _;

use crate::budget::{Budget, Exceeded};
use crate::convert::{convert, unify};
use crate::diag::{has_errors, Diagnostic, Range};
use crate::functions::{stdlib, Function, FunctionTable};
use crate::syntax::{number_literal, SourceFile};
use crate::types::Type;
use crate::value::Value;

pub use body::body_to_value;
pub use traverse::{get_attr, index, traverse_abs};
pub use vars::{variables, TraverseStep};

/// Expressions nested deeper than this are not evaluated (a diagnostic instead).
pub const MAX_DEPTH: usize = 256;

/// The scope an expression is evaluated in: variables, functions and a parent scope.
///
/// Like `hcl.EvalContext`, a scope without a variable map (as opposed to an empty one)
/// makes any variable reference an error ("Variables not allowed"), and a scope chain
/// without a function table makes any call an error ("Function calls not allowed").
/// Child scopes (for `for` expressions, dynamic-block iterators) see their parents'
/// variables and functions; names in the child shadow the parent's.
#[derive(Clone, Debug, Default)]
pub struct EvalContext {
    variables: Option<Arc<BTreeMap<String, Value>>>,
    functions: Option<Arc<FunctionTable>>,
    parent: Option<Arc<EvalContext>>,
}

fn stdlib_arc() -> Arc<FunctionTable> {
    static TABLE: OnceLock<Arc<FunctionTable>> = OnceLock::new();
    TABLE.get_or_init(|| Arc::new(stdlib().clone())).clone()
}

impl EvalContext {
    /// An empty variable map and the standard function library.
    pub fn new() -> EvalContext {
        EvalContext {
            variables: Some(Arc::default()),
            functions: Some(stdlib_arc()),
            parent: None,
        }
    }

    /// Neither variables nor functions: HCL's nil evaluation context.
    pub fn empty() -> EvalContext {
        EvalContext::default()
    }

    /// This scope with `vars` as its variables.
    pub fn with_variables(mut self, vars: BTreeMap<String, Value>) -> EvalContext {
        self.variables = Some(Arc::new(vars));
        self
    }

    /// This scope with `functions` as its function table.
    pub fn with_functions(mut self, functions: Arc<FunctionTable>) -> EvalContext {
        self.functions = Some(functions);
        self
    }

    /// This scope without a function table of its own.
    pub fn without_functions(mut self) -> EvalContext {
        self.functions = None;
        self
    }

    /// Sets one variable of this scope (creating the variable map if there is none).
    pub fn set_variable(&mut self, name: impl Into<String>, value: Value) {
        let vars = self.variables.get_or_insert_with(Arc::default);
        Arc::make_mut(vars).insert(name.into(), value);
    }

    /// A child scope with `vars` as its own variables and this scope as its parent.
    pub fn child(&self, vars: BTreeMap<String, Value>) -> EvalContext {
        EvalContext {
            variables: Some(Arc::new(vars)),
            functions: None,
            parent: Some(Arc::new(self.clone())),
        }
    }

    fn child_of(parent: &Arc<EvalContext>, vars: BTreeMap<String, Value>) -> EvalContext {
        EvalContext {
            variables: Some(Arc::new(vars)),
            functions: None,
            parent: Some(parent.clone()),
        }
    }

    fn scopes(&self) -> impl Iterator<Item = &EvalContext> {
        std::iter::successors(Some(self), |c| c.parent.as_deref())
    }

    /// This scope's own variables (`None` when variables are not allowed here).
    pub fn own_variables(&self) -> Option<&BTreeMap<String, Value>> {
        self.variables.as_deref()
    }

    /// The value of variable `name`, looked up from this scope outwards.
    pub fn variable(&self, name: &str) -> Option<&Value> {
        self.scopes()
            .filter_map(|c| c.variables.as_deref())
            .find_map(|vars| vars.get(name))
    }

    /// Whether any scope in the chain has a variable map.
    pub fn variables_allowed(&self) -> bool {
        self.scopes().any(|c| c.variables.is_some())
    }

    /// The function `name`, looked up from this scope outwards.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.scopes()
            .filter_map(|c| c.functions.as_deref())
            .find_map(|f| f.get(name))
    }

    /// Whether any scope in the chain has a function table.
    pub fn functions_allowed(&self) -> bool {
        self.scopes().any(|c| c.functions.is_some())
    }

    fn variable_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .scopes()
            .filter_map(|c| c.variables.as_deref())
            .flat_map(|vars| vars.keys().cloned())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn function_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .scopes()
            .filter_map(|c| c.functions.as_deref())
            .flat_map(|f| f.names().map(str::to_string).collect::<Vec<_>>())
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// A value and the diagnostics produced while computing it.
pub type Evaluated = (Value, Vec<Diagnostic>);

/// The (key, value) pairs a `for` iterates over.
type Elements = Vec<(Value, Value)>;

/// Evaluates an expression parsed from `src`.
pub fn expr(e: &Expression, ctx: &EvalContext, src: &SourceFile) -> Evaluated {
    let deep = depth::exceeds(depth::Node::Expr(e), INLINE_DEPTH);
    let budget = Budget::current_or_new();
    depth::on_big_stack(deep, || {
        budget.enter(|| {
            let mut ev = Evaluator::new(src, budget.clone());
            let out = ev.eval(e, ctx);
            ev.finish(out)
        })
    })
}

/// Evaluates a standalone template parsed from `src` with `syntax::parse_template`. A
/// template that is a single interpolation (`${x}`) evaluates to the interpolated value
/// itself, unconverted ("interpolation unwrapping").
pub fn template(
    t: &hcl_edit::template::Template,
    ctx: &EvalContext,
    src: &SourceFile,
) -> Evaluated {
    let deep = depth::exceeds(depth::Node::Template(t), INLINE_DEPTH);
    let budget = Budget::current_or_new();
    depth::on_big_stack(deep, || {
        budget.enter(|| {
            let mut ev = Evaluator::new(src, budget.clone());
            let out = ev.template(t, template::Mode::Bare, ctx);
            ev.finish(out)
        })
    })
}

/// Expressions nested deeper than this are evaluated on a helper thread with a large stack
/// (the evaluator recurses once per nesting level).
const INLINE_DEPTH: usize = 32;

/// The unknown value of type `any` (cty's `DynamicVal`), the result of a failed expression.
pub fn dynamic() -> Value {
    Value::Unknown(Type::Dynamic)
}

const TOO_EXPENSIVE: &str = "Evaluation too expensive";

pub(crate) struct Evaluator<'s> {
    src: &'s SourceFile,
    depth: usize,
    budget: Arc<Budget>,
}

impl<'s> Evaluator<'s> {
    /// An evaluator of `src` counting its work against `budget` (see [`crate::budget`]).
    pub(crate) fn new(src: &'s SourceFile, budget: Arc<Budget>) -> Evaluator<'s> {
        Evaluator {
            src,
            depth: 0,
            budget,
        }
    }

    /// Once the budget is spent every evaluation fails: keeps the first such diagnostic
    /// of the whole run only, and reports the budget even when `try`/`can` swallowed it.
    pub(crate) fn finish(&self, (value, mut diags): Evaluated) -> Evaluated {
        let Some(exceeded) = self.budget.exceeded() else {
            return (value, diags);
        };
        let report = self.budget.first_report();
        let mut seen = false;
        diags.retain(|d| {
            if d.summary != TOO_EXPENSIVE {
                return true;
            }
            let keep = report && !seen;
            seen = true;
            keep
        });
        if report && !seen {
            diags.push(too_expensive(exceeded, None));
        }
        (dynamic(), diags)
    }

    /// Counts `n` steps; spent, the diagnostic to give at `range` (computed only then:
    /// a position costs a scan of its line). Diagnostics are plain data returned by value,
    /// as everywhere in this crate.
    #[allow(clippy::result_large_err)]
    pub(crate) fn step(
        &self,
        n: u64,
        range: impl FnOnce() -> Option<Range>,
    ) -> Result<(), Diagnostic> {
        self.budget.step(n).map_err(|e| too_expensive(e, range()))
    }

    fn range(&self, span: Option<Span<usize>>) -> Option<Range> {
        span.map(|s| self.src.range(s))
    }

    fn range_of(&self, e: &impl hcl_edit::Span) -> Option<Range> {
        self.range(e.span())
    }

    fn raw(&self, span: Option<Span<usize>>) -> Option<&'s str> {
        span.and_then(|s| self.src.slice(s))
    }

    pub(crate) fn eval(&mut self, e: &Expression, ctx: &EvalContext) -> Evaluated {
        if self.depth >= MAX_DEPTH {
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Nesting too deep",
                    format!("Expressions may be nested at most {MAX_DEPTH} levels deep."),
                    self.range_of(e),
                )],
            );
        }
        if let Err(d) = self.step(1, || self.range_of(e)) {
            return (dynamic(), vec![d]);
        }
        self.depth += 1;
        let mut out = self.eval_inner(e, ctx);
        self.depth -= 1;
        // HCL's `setDiagEvalContext`: the innermost expression that raised a diagnostic.
        if out.1.iter().any(|d| d.expression.is_none()) {
            let range = self.range_of(e);
            for d in out.1.iter_mut().filter(|d| d.expression.is_none()) {
                d.expression = range.clone();
            }
        }
        // Values are copied when referred to: what an expression gives is what it built.
        if let Err(exceeded) = self.budget.charge_value(&out.0) {
            let mut diags = out.1;
            diags.push(too_expensive(exceeded, self.range_of(e)));
            return (dynamic(), diags);
        }
        out
    }

    fn eval_inner(&mut self, e: &Expression, ctx: &EvalContext) -> Evaluated {
        match e {
            Expression::Null(_) => (Value::Null(Type::Dynamic), Vec::new()),
            Expression::Bool(b) => (Value::Bool(*b.value()), Vec::new()),
            Expression::Number(n) => self.number(n),
            Expression::String(s) => self.quoted_string(s),
            Expression::Array(a) => {
                let mut diags = Vec::new();
                let vals = a
                    .iter()
                    .map(|item| {
                        let (v, d) = self.eval(item, ctx);
                        diags.extend(d);
                        v
                    })
                    .collect();
                (Value::Tuple(vals), diags)
            }
            Expression::Object(o) => self.object(o, ctx),
            Expression::StringTemplate(t) => self.template(t, template::Mode::Quoted, ctx),
            Expression::HeredocTemplate(h) => {
                let flush = match self.raw(h.span()) {
                    Some(raw) => raw.starts_with("<<-"),
                    None => h.indent().is_some(),
                };
                let mode = if flush {
                    template::Mode::FlushHeredoc
                } else {
                    template::Mode::Heredoc
                };
                self.template(&h.template, mode, ctx)
            }
            Expression::Parenthesis(p) => self.eval(p.inner(), ctx),
            Expression::Variable(v) => self.root_variable(v.value().as_str(), v.span(), ctx),
            Expression::Conditional(c) => {
                let t = self.eval(&c.true_expr, ctx);
                let f = self.eval(&c.false_expr, ctx);
                let cond = self.eval(&c.cond_expr, ctx);
                self.conditional(
                    cond,
                    t,
                    f,
                    CondRanges {
                        cond: self.range_of(&c.cond_expr),
                        true_result: c.true_expr.span(),
                        false_result: c.false_expr.span(),
                    },
                )
            }
            Expression::FuncCall(f) => self.call(f, ctx),
            Expression::Traversal(t) => self.traversal(t, ctx),
            Expression::UnaryOp(u) => self.unary(u, ctx),
            Expression::BinaryOp(b) => self.binary(b, ctx),
            Expression::ForExpr(f) => self.for_expr(f, ctx),
        }
    }

    fn number(&self, n: &hcl_edit::Formatted<hcl_edit::Number>) -> Evaluated {
        let raw = self.raw(n.span());
        let exact = match raw {
            // The literal's own text: never hcl-edit's value, which is a stand-in (zeros)
            // for literals beyond 64-bit range.
            Some(raw) => number_literal(raw),
            None => {
                let v = n.value();
                v.as_i64()
                    .map(crate::number::Number::from_i64)
                    .or_else(|| v.as_u64().map(crate::number::Number::from_u64))
                    .or_else(|| v.as_f64().and_then(crate::number::Number::from_f64))
            }
        };
        match exact {
            Some(num) => (Value::Number(num), Vec::new()),
            None if raw.is_some_and(crate::syntax::exponent_out_of_range) => (
                dynamic(),
                vec![Diagnostic::error(
                    "Invalid number literal",
                    format!(
                        "This number's exponent is beyond the range cloudspec supports: \
                         decimal exponents may be at most {} in magnitude.",
                        crate::number::MAX_EXPONENT
                    ),
                    self.range_of(n),
                )],
            ),
            None => (
                dynamic(),
                vec![Diagnostic::error(
                    "Invalid number literal",
                    "Failed to recognize the value of this number literal.",
                    self.range_of(n),
                )],
            ),
        }
    }

    fn quoted_string(&self, s: &hcl_edit::Decorated<String>) -> Evaluated {
        match s.span() {
            Some(span) if self.src.slice(span.clone()).is_some() => {
                let inner = (span.start + 1)..span.end.saturating_sub(1).max(span.start + 1);
                let mut diags = Vec::new();
                let text = strings::decode_quoted(self.src, inner, &mut diags);
                // `cty.StringVal` NFC-normalizes: `"e\u0301"` is `"é"`.
                (Value::string(text), diags)
            }
            _ => (Value::string(s.value().clone()), Vec::new()),
        }
    }

    fn root_variable(&self, name: &str, span: Option<Span<usize>>, ctx: &EvalContext) -> Evaluated {
        if let Some(v) = ctx.variable(name) {
            return (v.clone(), Vec::new());
        }
        let subject = self.range(span);
        if !ctx.variables_allowed() {
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Variables not allowed",
                    "Variables may not be used here.",
                    subject,
                )],
            );
        }
        let suggestion = name_suggestion(name, &ctx.variable_names())
            .map(|s| format!(" Did you mean {}?", go_quote(&s)))
            .unwrap_or_default();
        (
            dynamic(),
            vec![Diagnostic::error(
                "Unknown variable",
                format!("There is no variable named {}.{suggestion}", go_quote(name)),
                subject,
            )],
        )
    }

    fn object(&mut self, o: &Object, ctx: &EvalContext) -> Evaluated {
        let mut diags = Vec::new();
        let mut vals = BTreeMap::new();
        let mut known = true;
        for (key, value) in o.iter() {
            let (k, key_diags) = self.object_key(key, ctx);
            diags.extend(key_diags.iter().cloned());
            let (v, value_diags) = self.eval(value.expr(), ctx);
            diags.extend(value_diags);
            if has_errors(&key_diags) {
                known = false;
                continue;
            }
            if k.is_null() {
                diags.push(Diagnostic::error(
                    "Null value as key",
                    "Can't use a null value as a key.",
                    self.range_of(value.expr()),
                ));
                known = false;
                continue;
            }
            let k = match convert(&k, &Type::String) {
                Ok(k) => k,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "Incorrect key type",
                        format!("Can't use this value as a key: {e}."),
                        self.object_key_range(key),
                    ));
                    known = false;
                    continue;
                }
            };
            match k {
                Value::String(s) => {
                    vals.insert(s, v);
                }
                _ => known = false,
            }
        }
        if !known {
            return (dynamic(), diags);
        }
        (Value::Object(vals), diags)
    }

    fn object_key_range(&self, key: &ObjectKey) -> Option<Range> {
        match key {
            ObjectKey::Ident(id) => self.range_of(id),
            ObjectKey::Expression(e) => self.range_of(e),
        }
    }

    /// An object constructor key: a bare identifier or keyword is a literal name; a bare
    /// multi-step traversal is ambiguous; anything else is evaluated.
    fn object_key(&mut self, key: &ObjectKey, ctx: &EvalContext) -> Evaluated {
        match key {
            ObjectKey::Ident(id) => (Value::String(id.value().as_str().to_string()), Vec::new()),
            ObjectKey::Expression(e) => match e {
                Expression::Null(_) => (Value::String("null".into()), Vec::new()),
                Expression::Bool(b) => (Value::String(b.value().to_string()), Vec::new()),
                Expression::Variable(v) => {
                    (Value::String(v.value().as_str().to_string()), Vec::new())
                }
                Expression::Traversal(t) if traverse::is_static_traversal(t) => (
                    dynamic(),
                    vec![Diagnostic::error(
                        "Ambiguous attribute key",
                        "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                        self.range_of(e),
                    )],
                ),
                _ => self.eval(e, ctx),
            },
        }
    }

    /// HCL's `ConditionalExpr.Value`, given the evaluated parts.
    fn conditional(
        &mut self,
        (cond, cond_diags): Evaluated,
        (true_val, true_diags): Evaluated,
        (false_val, false_diags): Evaluated,
        ranges: CondRanges,
    ) -> Evaluated {
        let dyn_null = |v: &Value| matches!(v, Value::Null(Type::Dynamic));
        let (tt, ft) = (true_val.ty(), false_val.ty());
        let result_type = if dyn_null(&true_val) {
            Some(ft.clone())
        } else if dyn_null(&false_val) {
            Some(tt.clone())
        } else if tt == Type::Dynamic || ft == Type::Dynamic {
            Some(Type::Dynamic)
        } else {
            unify(&[tt.clone(), ft.clone()])
        };
        let Some(result_type) = result_type else {
            let subject = match (ranges.true_result.clone(), ranges.false_result.clone()) {
                (Some(a), Some(b)) => Some(self.src.range(a.start..b.end)),
                _ => None,
            };
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Inconsistent conditional result types",
                    format!(
                        "The true and false result expressions must have consistent types. {}.",
                        describe_type_mismatch(&tt, &ft)
                    ),
                    subject,
                )],
            );
        };
        let mut diags = cond_diags;
        if cond.is_null() {
            diags.push(Diagnostic::error(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                ranges.cond,
            ));
            return (Value::Unknown(result_type), diags);
        }
        if cond.is_unknown() {
            return (Value::Unknown(result_type), diags);
        }
        let cond = match convert(&cond, &Type::Bool) {
            Ok(Value::Bool(b)) => b,
            Ok(_) => return (Value::Unknown(result_type), diags),
            Err(_) => {
                diags.push(Diagnostic::error(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    ranges.cond,
                ));
                return (Value::Unknown(result_type), diags);
            }
        };
        let (val, val_diags, which, span) = if cond {
            (true_val, true_diags, "true", ranges.true_result)
        } else {
            (false_val, false_diags, "false", ranges.false_result)
        };
        diags.extend(val_diags);
        if result_type == Type::Dynamic || val.ty() == result_type {
            return (val, diags);
        }
        match convert(&val, &result_type) {
            Ok(v) => (v, diags),
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Inconsistent conditional result types",
                    format!(
                        "The {which} result value has the wrong type: {}.",
                        e.message
                    ),
                    self.range(span),
                ));
                (Value::Unknown(result_type), diags)
            }
        }
    }

    fn for_expr(&mut self, f: &ForExpr, ctx: &EvalContext) -> Evaluated {
        let key_var = f.intro.key_var.as_ref().map(|k| k.value().as_str());
        let value_var = f.intro.value_var.value().as_str();
        let loop_spec = ForLoop {
            key_var,
            value_var,
            coll: &f.intro.collection_expr,
            cond: f.cond.as_ref().map(|c| &c.expr),
            span: f.span(),
        };
        match &f.key_expr {
            None => self.for_tuple(&loop_spec, ctx, |ev, child| ev.eval(&f.value_expr, child)),
            Some(key_expr) => self.for_object(&loop_spec, key_expr, &f.value_expr, f.grouping, ctx),
        }
    }

    /// Evaluates the collection of a `for` and checks it; `Err` is the early result.
    fn for_collection(
        &mut self,
        spec: &ForLoop<'_>,
        ctx: &EvalContext,
    ) -> Result<(Elements, Vec<Diagnostic>), Evaluated> {
        let (coll, mut diags) = self.eval(spec.coll, ctx);
        if coll.is_null() {
            diags.push(Diagnostic::error(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                self.range_of(spec.coll),
            ));
            return Err((dynamic(), diags));
        }
        let ty = coll.ty();
        if ty == Type::Dynamic {
            return Err((dynamic(), diags));
        }
        let iterable = matches!(
            ty,
            Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)
        );
        if !iterable {
            diags.push(Diagnostic::error(
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    ty.friendly_name()
                ),
                self.range_of(spec.coll),
            ));
            return Err((dynamic(), diags));
        }
        if coll.is_unknown() {
            return Err((dynamic(), diags));
        }
        let elements = coll.elements().unwrap_or_default();
        if let Some(cond) = spec.cond {
            let mut vars = BTreeMap::new();
            if let Some(k) = spec.key_var {
                vars.insert(k.to_string(), dynamic());
            }
            vars.insert(spec.value_var.to_string(), dynamic());
            let child = ctx.child(vars);
            let (result, cond_diags) = self.eval(cond, &child);
            let cond_failed = has_errors(&cond_diags);
            diags.extend(cond_diags);
            if result.is_null() {
                diags.push(Diagnostic::error(
                    "Condition is null",
                    "The value of the 'if' clause must not be null.",
                    self.range_of(cond),
                ));
                return Err((dynamic(), diags));
            }
            if let Err(e) = convert(&result, &Type::Bool) {
                diags.push(Diagnostic::error(
                    "Invalid 'for' condition",
                    format!("The 'if' clause value is invalid: {e}."),
                    self.range_of(cond),
                ));
                return Err((dynamic(), diags));
            }
            if cond_failed {
                return Err((dynamic(), diags));
            }
        }
        Ok((elements, diags))
    }

    /// Evaluates the `if` clause for one element: `Ok(include)`, or `Err(())` when the
    /// element makes the result unknown (diagnostics added as HCL does).
    fn for_condition(
        &mut self,
        spec: &ForLoop<'_>,
        child: &EvalContext,
        known: bool,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<bool, ()> {
        let Some(cond) = spec.cond else {
            return Ok(true);
        };
        let (raw, cond_diags) = self.eval(cond, child);
        diags.extend(cond_diags);
        if raw.is_null() {
            if known {
                diags.push(Diagnostic::error(
                    "Invalid 'for' condition",
                    "The value of the 'if' clause must not be null.",
                    self.range_of(cond),
                ));
            }
            return Err(());
        }
        if raw.is_unknown() {
            return Err(());
        }
        match convert(&raw, &Type::Bool) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(_) => Err(()),
            Err(e) => {
                if known {
                    diags.push(Diagnostic::error(
                        "Invalid 'for' condition",
                        format!("The 'if' clause value is invalid: {e}."),
                        self.range_of(cond),
                    ));
                }
                Err(())
            }
        }
    }

    fn loop_scope(
        spec: &ForLoop<'_>,
        parent: &Arc<EvalContext>,
        k: Value,
        v: Value,
    ) -> EvalContext {
        let mut vars = BTreeMap::new();
        if let Some(name) = spec.key_var {
            vars.insert(name.to_string(), k);
        }
        vars.insert(spec.value_var.to_string(), v);
        EvalContext::child_of(parent, vars)
    }

    /// A `for` producing a tuple; `value` evaluates the value expression in an element scope.
    fn for_tuple(
        &mut self,
        spec: &ForLoop<'_>,
        ctx: &EvalContext,
        mut value: impl FnMut(&mut Self, &EvalContext) -> Evaluated,
    ) -> Evaluated {
        let (elements, mut diags) = match self.for_collection(spec, ctx) {
            Ok(x) => x,
            Err(early) => return early,
        };
        let parent = Arc::new(ctx.clone());
        let mut vals = Vec::with_capacity(elements.len());
        let mut known = true;
        for (k, v) in elements {
            // Every iteration is a step, whether or not its body evaluates anything (a
            // template `%{for}` of literal text).
            if let Err(d) = self.step(1, || self.range(spec.span.clone())) {
                diags.push(d);
                return (dynamic(), diags);
            }
            let child = Self::loop_scope(spec, &parent, k, v);
            match self.for_condition(spec, &child, known, &mut diags) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(()) => {
                    known = false;
                    continue;
                }
            }
            let (val, val_diags) = value(self, &child);
            diags.extend(val_diags);
            vals.push(val);
        }
        if !known {
            return (dynamic(), diags);
        }
        (Value::Tuple(vals), diags)
    }

    fn for_object(
        &mut self,
        spec: &ForLoop<'_>,
        key_expr: &Expression,
        value_expr: &Expression,
        group: bool,
        ctx: &EvalContext,
    ) -> Evaluated {
        let (elements, mut diags) = match self.for_collection(spec, ctx) {
            Ok(x) => x,
            Err(early) => return early,
        };
        let parent = Arc::new(ctx.clone());
        let mut vals: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut known = true;
        for (k, v) in elements {
            // Every iteration is a step, whether or not its body evaluates anything (a
            // template `%{for}` of literal text).
            if let Err(d) = self.step(1, || self.range(spec.span.clone())) {
                diags.push(d);
                return (dynamic(), diags);
            }
            let child = Self::loop_scope(spec, &parent, k, v);
            match self.for_condition(spec, &child, known, &mut diags) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(()) => {
                    known = false;
                    continue;
                }
            }
            let (key_raw, key_diags) = self.eval(key_expr, &child);
            diags.extend(key_diags);
            if key_raw.is_null() {
                if known {
                    diags.push(Diagnostic::error(
                        "Invalid object key",
                        "Key expression in 'for' expression must not produce a null value.",
                        self.range_of(key_expr),
                    ));
                }
                known = false;
                continue;
            }
            if key_raw.is_unknown() {
                known = false;
                continue;
            }
            let key = match convert(&key_raw, &Type::String) {
                Ok(Value::String(s)) => s,
                Ok(_) => {
                    known = false;
                    continue;
                }
                Err(e) => {
                    if known {
                        diags.push(Diagnostic::error(
                            "Invalid object key",
                            format!("The key expression produced an invalid result: {e}."),
                            self.range_of(key_expr),
                        ));
                    }
                    known = false;
                    continue;
                }
            };
            let (val, val_diags) = self.eval(value_expr, &child);
            diags.extend(val_diags);
            if group {
                groups.entry(key).or_default().push(val);
                continue;
            }
            match vals.entry(key) {
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(val);
                }
                std::collections::btree_map::Entry::Occupied(slot) => {
                    diags.push(Diagnostic::error(
                        "Duplicate object key",
                        format!(
                            "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                            go_quote(slot.key())
                        ),
                        self.range_of(key_expr),
                    ));
                }
            }
        }
        if !known {
            return (dynamic(), diags);
        }
        if group {
            vals = groups
                .into_iter()
                .map(|(k, vs)| (k, Value::Tuple(vs)))
                .collect();
        }
        (Value::Object(vals), diags)
    }
}

/// What a `for` iterates: names, collection, `if` clause.
pub(crate) struct ForLoop<'a> {
    key_var: Option<&'a str>,
    value_var: &'a str,
    coll: &'a Expression,
    cond: Option<&'a Expression>,
    span: Option<Span<usize>>,
}

pub(crate) struct CondRanges {
    cond: Option<Range>,
    true_result: Option<Span<usize>>,
    false_result: Option<Span<usize>>,
}

/// HCL's `describeConditionalTypeMismatch`.
fn describe_type_mismatch(t: &Type, f: &Type) -> String {
    match (t, f) {
        (Type::Object(ta), Type::Object(fa)) => {
            for (name, aty) in ta {
                match fa.get(name) {
                    None => {
                        return format!(
                            "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                            go_quote(name)
                        )
                    }
                    Some(fty) if fty != aty => {
                        return format!(
                            "Type mismatch for object attribute {}: {}",
                            go_quote(name),
                            describe_type_mismatch(aty, fty)
                        )
                    }
                    Some(_) => {}
                }
            }
            if let Some(name) = fa.keys().find(|n| !ta.contains_key(*n)) {
                return format!(
                    "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                    go_quote(name)
                );
            }
        }
        (Type::Tuple(te), Type::Tuple(fe)) => {
            if te.len() != fe.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    te.len(),
                    fe.len()
                );
            }
            for (i, (a, b)) in te.iter().zip(fe).enumerate() {
                if a != b {
                    return format!(
                        "Type mismatch for tuple element {i}: {}",
                        describe_type_mismatch(a, b)
                    );
                }
            }
        }
        (Type::List(a), Type::List(b))
        | (Type::Set(a), Type::Set(b))
        | (Type::Map(a), Type::Map(b))
            if (a.is_object() && b.is_object()) || (a.is_tuple() && b.is_tuple()) =>
        {
            let noun = match t {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            return format!(
                "Mismatched {noun} element types: {}",
                describe_type_mismatch(a, b)
            );
        }
        _ => {}
    }
    let (tn, fnn) = (t.friendly_name(), f.friendly_name());
    if tn == fnn {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".to_string();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fnn}")
}

/// A string quoted as Go's `%q` does (for names in messages).
pub(crate) use crate::types::go_quote;

pub(crate) use crate::suggest::name_suggestion;

fn too_expensive(exceeded: Exceeded, range: Option<Range>) -> Diagnostic {
    Diagnostic::error(TOO_EXPENSIVE, exceeded.detail(), range)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_with_budget(text: &str, max_steps: u64) -> Evaluated {
        let src = SourceFile::new("t.hcl", text);
        let e = crate::syntax::parse_expr(&src).expect("parses");
        let budget = Budget::with_limits(crate::budget::Limits {
            steps: max_steps,
            ..Default::default()
        });
        let ev = Evaluator::new(&src, budget.clone());
        budget.enter(|| {
            let mut ev = ev;
            let out = ev.eval(&e, &EvalContext::new());
            ev.finish(out)
        })
    }

    #[test]
    fn step_budget_stops_exponential_work() {
        let text = r#"[for a in range(100) : [for b in range(100) : [for c in range(100) : c]]]"#;
        let (v, diags) = eval_with_budget(text, 10_000);
        assert_eq!(v, dynamic());
        let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(
            summaries,
            vec![TOO_EXPENSIVE],
            "one diagnostic, not one per step"
        );
        // `try` and `can` cannot hide a spent budget.
        let (v, diags) = eval_with_budget(&format!("can({text})"), 10_000);
        assert_eq!(v, dynamic());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, TOO_EXPENSIVE);
        // Within budget: evaluated normally.
        let (v, diags) = eval_with_budget("[for a in range(10) : a * 2][9]", 10_000);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v, Value::number(18));
    }
}
