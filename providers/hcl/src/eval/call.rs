//! Function calls (hclsyntax's `FunctionCallExpr`) and the `try` and `can` special forms
//! (HCL's `ext/tryfunc`), which receive their arguments unevaluated.

use std::ops::Range as Span;

use hcl_edit::expr::{Expression, FuncCall};
use hcl_edit::Span as _;

use super::traverse::traverse_abs;
use super::vars::variables;
use super::{dynamic, go_quote, name_suggestion, EvalContext, Evaluated, Evaluator};
use crate::convert::convert;
use crate::diag::{has_errors, range_string, Diagnostic};
use crate::functions::{call_function, Function, Param};
use crate::types::Type;
use crate::value::Value;

/// One argument after `...` expansion: its value (or expression) and source span.
enum Arg<'a> {
    Expr(&'a Expression),
    Value(Value, Option<Span<usize>>),
}

impl Arg<'_> {
    fn span(&self) -> Option<Span<usize>> {
        match self {
            Arg::Expr(e) => e.span(),
            Arg::Value(_, s) => s.clone(),
        }
    }
}

impl Evaluator<'_> {
    pub(crate) fn call(&mut self, f: &FuncCall, ctx: &EvalContext) -> Evaluated {
        let mut name = String::new();
        for ns in &f.name.namespace {
            name.push_str(ns.value().as_str());
            name.push_str("::");
        }
        name.push_str(f.name.name.value().as_str());
        let call_span = f.span();
        let name_span = match (f.name.namespace.first(), f.name.name.span()) {
            (Some(first), Some(last)) => first.span().map(|s| s.start..last.end),
            (None, s) => s,
            _ => None,
        };

        if !ctx.functions_allowed() {
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Function calls not allowed",
                    "Functions may not be called here.",
                    self.range(call_span),
                )],
            );
        }
        let function = ctx.function(&name).cloned();
        let function = match function {
            Some(func) => func,
            None if name == "try" || name == "can" => return self.try_can(&name, f, ctx),
            None => {
                let suggestion = name_suggestion(&name, &ctx.function_names())
                    .map(|s| format!(" Did you mean {}?", go_quote(&s)))
                    .unwrap_or_default();
                return (
                    dynamic(),
                    vec![Diagnostic::error(
                        "Call to unknown function",
                        format!(
                            "There is no function named {}.{suggestion}",
                            go_quote(&name)
                        ),
                        self.range(name_span),
                    )],
                );
            }
        };

        let (args, mut diags) = match self.expand_args(f, ctx) {
            Ok(x) => x,
            Err(early) => return early,
        };
        let params = &function.params;
        if args.len() < params.len() {
            let missing = params.get(args.len()).map_or("", |p| p.name.as_str());
            let qual = if function.variadic.is_some() {
                " at least"
            } else {
                ""
            };
            let close = call_span.map(|s| s.end.saturating_sub(1)..s.end);
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Not enough function arguments",
                    format!(
                        "Function {} expects{qual} {} argument(s). Missing value for {}.",
                        go_quote(&name),
                        params.len(),
                        go_quote(missing)
                    ),
                    self.range(close),
                )],
            );
        }
        if function.variadic.is_none() && args.len() > params.len() {
            let extra = args.get(params.len()).and_then(Arg::span);
            return (
                dynamic(),
                vec![Diagnostic::error(
                    "Too many function arguments",
                    format!(
                        "Function {} expects only {} argument(s).",
                        go_quote(&name),
                        params.len()
                    ),
                    self.range(extra),
                )],
            );
        }

        let mut values = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            let Some(param) = param_at(&function, i) else {
                break;
            };
            let (val, arg_diags) = match arg {
                Arg::Expr(e) => self.eval(e, ctx),
                Arg::Value(v, _) => (v.clone(), Vec::new()),
            };
            diags.extend(arg_diags);
            let val = match convert(&val, &param.ty) {
                Ok(v) => v,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {}.",
                            go_quote(&param.name),
                            // cty's PathError prints only its message, not the path.
                            e.message
                        ),
                        self.range(arg.span()),
                    ));
                    val
                }
            };
            values.push(val);
        }
        if has_errors(&diags) {
            return (dynamic(), diags);
        }
        for (i, val) in values.iter().enumerate() {
            if let Some(param) = param_at(&function, i) {
                if val.is_null() && !param.allow_null {
                    diags.push(Diagnostic::error(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: argument must not be null.",
                            go_quote(&param.name)
                        ),
                        self.range(args.get(i).and_then(Arg::span)),
                    ));
                    return (dynamic(), diags);
                }
            }
        }
        match call_function(&function, &values) {
            Ok(v) => (v, diags),
            Err(_) if self.budget.exceeded().is_some() => {
                // The function stopped because the evaluation's budget is spent.
                if let Some(e) = self.budget.exceeded() {
                    diags.push(super::too_expensive(e, self.range(call_span)));
                }
                (dynamic(), diags)
            }
            Err(err) => {
                let param = err.arg.and_then(|i| param_at(&function, i).map(|p| (i, p)));
                let diag = match param {
                    Some((i, p)) if i < args.len() => Diagnostic::error(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {}.",
                            go_quote(&p.name),
                            err.message
                        ),
                        self.range(args.get(i).and_then(Arg::span)),
                    ),
                    Some((_, p)) => Diagnostic::error(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {}.",
                            go_quote(&p.name),
                            err.message
                        ),
                        self.range(call_span),
                    ),
                    None => Diagnostic::error(
                        "Error in function call",
                        format!(
                            "Call to function {} failed: {}.",
                            go_quote(&name),
                            err.message
                        ),
                        self.range(start_span(name_span.clone(), call_span.clone(), self)),
                    ),
                };
                diags.push(diag);
                (dynamic(), diags)
            }
        }
    }

    /// The arguments of a call with the final one expanded when it ends with `...`.
    /// `Err` is the early result of an invalid expansion.
    #[allow(clippy::type_complexity)]
    fn expand_args<'a>(
        &mut self,
        f: &'a FuncCall,
        ctx: &EvalContext,
    ) -> Result<(Vec<Arg<'a>>, Vec<Diagnostic>), Evaluated> {
        let exprs: Vec<&Expression> = f.args.iter().collect();
        let mut args: Vec<Arg<'a>> = exprs.iter().map(|e| Arg::Expr(e)).collect();
        let mut diags = Vec::new();
        if !f.args.expand_final() {
            return Ok((args, diags));
        }
        let Some(last) = exprs.last() else {
            return Ok((args, diags));
        };
        args.pop();
        let (val, d) = self.eval(last, ctx);
        let failed = has_errors(&d);
        diags.extend(d);
        if failed {
            return Err((dynamic(), diags));
        }
        let invalid = |ev: &Self, detail: &str, mut diags: Vec<Diagnostic>| {
            diags.push(Diagnostic::error(
                "Invalid expanding argument value",
                detail,
                ev.range_of(*last),
            ));
            (dynamic(), diags)
        };
        match val.ty() {
            Type::Dynamic => {
                if val.is_null() {
                    return Err(invalid(
                        self,
                        "The expanding argument (indicated by ...) must not be null.",
                        diags,
                    ));
                }
                Err((dynamic(), diags))
            }
            Type::Tuple(_) | Type::List(_) | Type::Set(_) => {
                if val.is_null() {
                    return Err(invalid(
                        self,
                        "The expanding argument (indicated by ...) must not be null.",
                        diags,
                    ));
                }
                match val {
                    Value::Tuple(vs) | Value::List(_, vs) | Value::Set(_, vs) => {
                        args.extend(vs.into_iter().map(|v| Arg::Value(v, last.span())));
                        Ok((args, diags))
                    }
                    _ => Err((dynamic(), diags)),
                }
            }
            _ => Err(invalid(
                self,
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                diags,
            )),
        }
    }

    /// `try(expr...)` and `can(expr)`.
    fn try_can(&mut self, name: &str, f: &FuncCall, ctx: &EvalContext) -> Evaluated {
        let call_span = f.span();
        let (args, mut diags) = match self.expand_args(f, ctx) {
            Ok(x) => x,
            Err(early) => return early,
        };
        if name == "can" {
            if args.is_empty() {
                let close = call_span.map(|s| s.end.saturating_sub(1)..s.end);
                return (
                    dynamic(),
                    vec![Diagnostic::error(
                        "Not enough function arguments",
                        "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
                        self.range(close),
                    )],
                );
            }
            if args.len() > 1 {
                return (
                    dynamic(),
                    vec![Diagnostic::error(
                        "Too many function arguments",
                        "Function \"can\" expects only 1 argument(s).",
                        self.range(args.get(1).and_then(Arg::span)),
                    )],
                );
            }
            let result = match args.first() {
                Some(Arg::Expr(e)) => {
                    if self.depends_on_unknowns(e, ctx) {
                        Value::Unknown(Type::Bool)
                    } else {
                        let (_, d) = self.eval(e, ctx);
                        Value::Bool(!has_errors(&d))
                    }
                }
                _ => Value::Bool(true),
            };
            return (result, diags);
        }

        if args.is_empty() {
            diags.push(Diagnostic::error(
                "Error in function call",
                "Call to function \"try\" failed: at least one argument is required.",
                self.range(call_span),
            ));
            return (dynamic(), diags);
        }
        let mut failures = Vec::new();
        for arg in &args {
            match arg {
                Arg::Value(v, _) => return (v.clone(), diags),
                Arg::Expr(e) => {
                    if self.depends_on_unknowns(e, ctx) {
                        return (dynamic(), diags);
                    }
                    let (v, d) = self.eval(e, ctx);
                    if has_errors(&d) {
                        failures.extend(d);
                        continue;
                    }
                    return (v, diags);
                }
            }
        }
        let mut msg = String::from("no expression succeeded:\n");
        for d in &failures {
            match &d.subject {
                Some(r) => msg.push_str(&format!(
                    "- {} (at {})\n  {}\n",
                    d.summary,
                    range_string(r),
                    d.detail
                )),
                None => msg.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
            }
        }
        msg.push_str("\nAt least one expression must produce a successful result");
        let name_span = f.name.name.span();
        diags.push(Diagnostic::error(
            "Error in function call",
            format!("Call to function \"try\" failed: {msg}."),
            self.range(start_span(name_span, call_span, self)),
        ));
        (dynamic(), diags)
    }

    /// HCL's `dependsOnUnknowns`: whether any variable `e` refers to is (or contains) an
    /// unknown value.
    fn depends_on_unknowns(&self, e: &Expression, ctx: &EvalContext) -> bool {
        variables(e, self.src).iter().any(|(steps, _)| {
            let (v, d) = traverse_abs(steps, ctx, None);
            !has_errors(&d) && !v.is_wholly_known()
        })
    }
}

fn param_at(f: &Function, i: usize) -> Option<&Param> {
    f.params.get(i).or(f.variadic.as_ref())
}

/// The range from the function name to the opening parenthesis (HCL's `StartRange`).
fn start_span(
    name_span: Option<Span<usize>>,
    call_span: Option<Span<usize>>,
    ev: &Evaluator<'_>,
) -> Option<Span<usize>> {
    let name = name_span.or(call_span)?;
    let text = ev.src.text.as_str();
    let open = text
        .get(name.end..)
        .and_then(|rest| rest.find('('))
        .map(|i| name.end + i + 1)
        .unwrap_or(name.end);
    Some(name.start..open)
}
