//! `hcl.Expression` for both syntaxes: evaluation, ranges, variables and the static
//! analyses (`hcl.ExprList`, `hcl.ExprMap`, `hcl.AbsTraversalForExpr`, `hcl.ExprCall`,
//! `hcl.ExprAsKeyword`).

use std::fmt;
use std::ops::Range as Span;
use std::sync::Arc;

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::Span as _;

use super::dynblock::Iteration;
use super::json::{self, JNode};
use super::{char_range, Traversal};
use crate::diag::{Diagnostic, Range};
use crate::eval::{self, EvalContext, TraverseStep};
use crate::number::Number;
use crate::syntax::{number_literal, SourceFile};
use crate::types::Type;
use crate::value::Value;

/// An expression (`hcl.Expression`). Cheap to clone.
#[derive(Clone)]
pub struct Expr(pub(crate) ExprKind);

#[derive(Clone)]
pub(crate) enum ExprKind {
    /// A native-syntax expression and the source it was parsed from.
    Native {
        expr: Arc<Expression>,
        src: Arc<SourceFile>,
    },
    /// A bare identifier used as an object key in the native syntax (`{ name = ... }`): it
    /// evaluates to its name, and is a one-step traversal for the static analyses.
    Keyword { name: String, range: Range },
    /// A bare traversal of several steps used as an object key in the native syntax
    /// (`{ a.b = ... }`): an error to evaluate ("Ambiguous attribute key"), a traversal
    /// for the static analyses.
    AmbiguousKey {
        expr: Arc<Expression>,
        src: Arc<SourceFile>,
    },
    /// A JSON value interpreted as an expression.
    Json(Arc<JNode>),
    /// An expression inside the content of an expanded dynamic block: evaluated with the
    /// iterator variables in scope (dynblock's `exprWrap`).
    Wrapped {
        inner: Arc<Expr>,
        iteration: Arc<Iteration>,
    },
    /// A constant (`hcl.StaticExpr`).
    Static { value: Value, range: Range },
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.0 {
            ExprKind::Native { .. } => "native",
            ExprKind::Keyword { .. } => "keyword",
            ExprKind::AmbiguousKey { .. } => "key",
            ExprKind::Json(_) => "json",
            ExprKind::Wrapped { .. } => "dynamic",
            ExprKind::Static { .. } => "static",
        };
        write!(f, "Expr({kind}, {})", self.range())
    }
}

/// Nested conditionals, operators and parentheses followed by [`Expr::start_range`] are
/// followed at most this deep.
const MAX_START_DEPTH: usize = 64;

impl Expr {
    pub(crate) fn native(expr: Arc<Expression>, src: Arc<SourceFile>) -> Expr {
        Expr(ExprKind::Native { expr, src })
    }

    pub(crate) fn json(node: Arc<JNode>) -> Expr {
        Expr(ExprKind::Json(node))
    }

    pub(crate) fn wrapped(inner: Expr, iteration: Arc<Iteration>) -> Expr {
        Expr(ExprKind::Wrapped {
            inner: Arc::new(inner),
            iteration,
        })
    }

    /// `hcl.StaticExpr`: an expression that always evaluates to `value`.
    pub fn static_value(value: Value, range: Range) -> Expr {
        Expr(ExprKind::Static { value, range })
    }

    /// Evaluates the expression. JSON strings are templates unless `ctx` is the nil context
    /// ([`EvalContext::empty`]), in which case they are literal strings.
    pub fn value(&self, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
        match &self.0 {
            ExprKind::Native { expr, src } => eval::expr(expr, ctx, src),
            ExprKind::Keyword { name, .. } => (Value::String(name.clone()), Vec::new()),
            ExprKind::AmbiguousKey { .. } => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Ambiguous attribute key",
                    "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                    Some(self.range()),
                )],
            ),
            ExprKind::Json(node) => json::value(node, ctx),
            ExprKind::Wrapped { inner, iteration } => inner.value(&iteration.eval_context(ctx)),
            ExprKind::Static { value, .. } => (value.clone(), Vec::new()),
        }
    }

    /// The source range of the whole expression.
    pub fn range(&self) -> Range {
        match &self.0 {
            ExprKind::Native { expr, src } | ExprKind::AmbiguousKey { expr, src } => {
                span_range(src, expr.span())
            }
            ExprKind::Keyword { range, .. } | ExprKind::Static { range, .. } => range.clone(),
            ExprKind::Json(node) => node.range.clone(),
            ExprKind::Wrapped { inner, .. } => inner.range(),
        }
    }

    /// The range of the expression's first token or so (`hcl.Expression.StartRange`):
    /// the opening bracket or brace of a collection, a call's name and parenthesis, ...
    pub fn start_range(&self) -> Range {
        match &self.0 {
            ExprKind::Native { expr, src } | ExprKind::AmbiguousKey { expr, src } => {
                native_start_range(expr, src)
            }
            ExprKind::Keyword { range, .. } | ExprKind::Static { range, .. } => range.clone(),
            ExprKind::Json(node) => node.start_range(),
            ExprKind::Wrapped { inner, .. } => inner.start_range(),
        }
    }

    /// `hcl.Expression.Variables`: the absolute traversals the expression refers to. Inside
    /// an expanded dynamic block, references to the iterators are left out.
    pub fn variables(&self) -> Vec<Traversal> {
        match &self.0 {
            ExprKind::Native { expr, src } | ExprKind::AmbiguousKey { expr, src } => {
                eval::variables(expr, src)
            }
            ExprKind::Keyword { .. } | ExprKind::Static { .. } => Vec::new(),
            ExprKind::Json(node) => json::variables(node),
            ExprKind::Wrapped { inner, iteration } => inner
                .variables()
                .into_iter()
                .filter(|(steps, _)| match steps.first() {
                    Some(TraverseStep::Root(name)) => !iteration.defines(name),
                    _ => true,
                })
                .collect(),
        }
    }

    /// Static list analysis (`hcl.ExprList`): the elements of a tuple constructor (native)
    /// or of an array (JSON).
    pub fn as_list(&self) -> Option<Vec<Expr>> {
        match &self.0 {
            ExprKind::Native { expr, src } => match expr.as_ref() {
                Expression::Array(items) => Some(
                    items
                        .iter()
                        .map(|e| Expr::native(Arc::new(e.clone()), src.clone()))
                        .collect(),
                ),
                _ => None,
            },
            ExprKind::Json(node) => json::as_list(node),
            ExprKind::Wrapped { inner, iteration } => {
                inner.as_list().map(|items| rewrap_all(items, iteration))
            }
            ExprKind::Keyword { .. } | ExprKind::AmbiguousKey { .. } | ExprKind::Static { .. } => {
                None
            }
        }
    }

    /// Static map analysis (`hcl.ExprMap`): the key and value expressions of an object
    /// constructor (native; a bare identifier key evaluates to its name) or of a JSON
    /// object (names are string expressions, templates in full-expression mode).
    pub fn as_map(&self) -> Option<Vec<(Expr, Expr)>> {
        match &self.0 {
            ExprKind::Native { expr, src } => match expr.as_ref() {
                Expression::Object(obj) => Some(
                    obj.iter()
                        .map(|(k, v)| {
                            let key = match k {
                                ObjectKey::Ident(id) => Expr(ExprKind::Keyword {
                                    name: id.as_str().to_string(),
                                    range: span_range(src, id.span()),
                                }),
                                ObjectKey::Expression(Expression::Variable(v)) => {
                                    Expr(ExprKind::Keyword {
                                        name: v.as_str().to_string(),
                                        range: span_range(src, v.span()),
                                    })
                                }
                                ObjectKey::Expression(e @ Expression::Traversal(_))
                                    if static_traversal(e, src).is_some() =>
                                {
                                    Expr(ExprKind::AmbiguousKey {
                                        expr: Arc::new(e.clone()),
                                        src: src.clone(),
                                    })
                                }
                                ObjectKey::Expression(e) => {
                                    Expr::native(Arc::new(e.clone()), src.clone())
                                }
                            };
                            (key, Expr::native(Arc::new(v.expr().clone()), src.clone()))
                        })
                        .collect(),
                ),
                _ => None,
            },
            ExprKind::Json(node) => json::as_map(node),
            ExprKind::Wrapped { inner, iteration } => inner.as_map().map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            Expr::wrapped(k, iteration.clone()),
                            Expr::wrapped(v, iteration.clone()),
                        )
                    })
                    .collect()
            }),
            ExprKind::Keyword { .. } | ExprKind::AmbiguousKey { .. } | ExprKind::Static { .. } => {
                None
            }
        }
    }

    /// Static traversal analysis (`hcl.AbsTraversalForExpr`): a variable followed only by
    /// attribute names and constant indexes. A JSON string is read as native traversal
    /// syntax.
    pub fn as_traversal(&self) -> Option<Traversal> {
        match &self.0 {
            ExprKind::Native { expr, src } | ExprKind::AmbiguousKey { expr, src } => {
                static_traversal(expr, src)
            }
            ExprKind::Keyword { name, range } => {
                Some((vec![TraverseStep::Root(name.clone())], range.clone()))
            }
            ExprKind::Json(node) => {
                let (expr, src) = json::native_expr(node)?;
                static_traversal(&expr, &src)
            }
            ExprKind::Wrapped { inner, .. } => inner.as_traversal(),
            ExprKind::Static { .. } => None,
        }
    }

    /// Static call analysis (`hcl.ExprCall`): a function call's name and argument
    /// expressions. A JSON string is read as a native expression.
    pub fn as_call(&self) -> Option<(String, Vec<Expr>)> {
        match &self.0 {
            ExprKind::Native { expr, src } => static_call(expr, src),
            ExprKind::Json(node) => {
                let (expr, src) = json::native_expr(node)?;
                static_call(&expr, &src)
            }
            ExprKind::Wrapped { inner, iteration } => inner
                .as_call()
                .map(|(name, args)| (name, rewrap_all(args, iteration))),
            ExprKind::Keyword { .. } | ExprKind::AmbiguousKey { .. } | ExprKind::Static { .. } => {
                None
            }
        }
    }

    /// `hcl.ExprAsKeyword`: the name of a traversal of a single step (`foo`), if that is
    /// what the expression is.
    pub fn as_keyword(&self) -> Option<String> {
        let (steps, _) = self.as_traversal()?;
        match steps.as_slice() {
            [TraverseStep::Root(name)] => Some(name.clone()),
            _ => None,
        }
    }

    /// The expression as native syntax: the native expression itself, or a JSON string's
    /// content parsed as a native expression (positioned at the string's opening quote,
    /// as HCL's JSON static analyses do). For analyses such as type expressions.
    pub fn as_native(&self) -> Option<(Expression, Arc<SourceFile>)> {
        match &self.0 {
            ExprKind::Native { expr, src } | ExprKind::AmbiguousKey { expr, src } => {
                Some(((**expr).clone(), src.clone()))
            }
            ExprKind::Json(node) => json::native_expr(node),
            ExprKind::Wrapped { inner, .. } => inner.as_native(),
            ExprKind::Keyword { name, range } => {
                let src = SourceFile::with_base(range.filename.clone(), name.as_str(), range.start);
                let expr = crate::syntax::parse_expr(&src).ok()?;
                Some((expr, Arc::new(src)))
            }
            ExprKind::Static { .. } => None,
        }
    }
}

fn rewrap_all(items: Vec<Expr>, iteration: &Arc<Iteration>) -> Vec<Expr> {
    items
        .into_iter()
        .map(|e| Expr::wrapped(e, iteration.clone()))
        .collect()
}

fn span_range(src: &SourceFile, span: Option<Span<usize>>) -> Range {
    src.range(span.unwrap_or(0..0))
}

/// hclsyntax's `StartRange` for the expression kinds where it differs from the range.
fn native_start_range(expr: &Expression, src: &SourceFile) -> Range {
    let mut e = expr;
    for _ in 0..MAX_START_DEPTH {
        match e {
            Expression::Array(_) | Expression::Object(_) | Expression::ForExpr(_) => {
                if let Some(span) = e.span() {
                    return char_range(&src.name, src.pos(span.start));
                }
                break;
            }
            Expression::FuncCall(f) => {
                if let (Some(span), Some(name_start)) = (f.span(), f.name.name.span()) {
                    let open = src.text.get(span.clone()).and_then(|t| t.find('('));
                    if let Some(open) = open {
                        return src.range(name_start.start..span.start + open + 1);
                    }
                }
                break;
            }
            Expression::Conditional(c) => e = &c.cond_expr,
            Expression::BinaryOp(b) => e = &b.lhs_expr,
            Expression::UnaryOp(u) => {
                if let Some(span) = u.span() {
                    return char_range(&src.name, src.pos(span.start));
                }
                break;
            }
            _ => break,
        }
    }
    span_range(src, e.span())
}

/// A literal index key's value.
fn literal_key(e: &Expression, src: &SourceFile) -> Option<Value> {
    match e {
        Expression::Number(n) => n
            .span()
            .and_then(|s| src.slice(s))
            .and_then(number_literal)
            .map(Value::Number),
        Expression::String(s) => Some(Value::String(s.value().clone())),
        Expression::Bool(b) => Some(Value::Bool(*b.value())),
        Expression::Null(_) => Some(Value::Null(Type::Dynamic)),
        _ => None,
    }
}

/// A variable followed by attribute names and literal indexes, as a traversal.
pub(crate) fn static_traversal(e: &Expression, src: &SourceFile) -> Option<Traversal> {
    match e {
        Expression::Variable(v) => Some((
            vec![TraverseStep::Root(v.as_str().to_string())],
            span_range(src, v.span()),
        )),
        Expression::Traversal(t) => {
            let Expression::Variable(root) = &t.expr else {
                return None;
            };
            let mut steps = vec![TraverseStep::Root(root.as_str().to_string())];
            for op in &t.operators {
                let step = match op.value() {
                    TraversalOperator::GetAttr(name) => {
                        TraverseStep::Attr(name.as_str().to_string())
                    }
                    TraversalOperator::LegacyIndex(i) => {
                        TraverseStep::Index(Value::Number(Number::from_u64(*i.value())))
                    }
                    TraversalOperator::Index(k) => TraverseStep::Index(literal_key(k, src)?),
                    _ => return None,
                };
                steps.push(step);
            }
            Some((steps, span_range(src, t.span())))
        }
        _ => None,
    }
}

fn static_call(e: &Expression, src: &Arc<SourceFile>) -> Option<(String, Vec<Expr>)> {
    let Expression::FuncCall(f) = e else {
        return None;
    };
    let mut name: Vec<&str> = f.name.namespace.iter().map(|n| n.as_str()).collect();
    name.push(f.name.name.as_str());
    let args = f
        .args
        .iter()
        .map(|a| Expr::native(Arc::new(a.clone()), src.clone()))
        .collect();
    Some((name.join("::"), args))
}

/// `hcl.ExprList` with its diagnostics (one error): "A static list expression is required."
pub fn expr_list(expr: &Expr) -> Result<Vec<Expr>, Vec<Diagnostic>> {
    expr.as_list().ok_or_else(|| {
        vec![Diagnostic::error(
            "Invalid expression",
            "A static list expression is required.",
            Some(expr.start_range()),
        )]
    })
}

/// `hcl.ExprMap` with its diagnostics (one error): "A static map expression is required."
pub fn expr_map(expr: &Expr) -> Result<Vec<(Expr, Expr)>, Vec<Diagnostic>> {
    expr.as_map().ok_or_else(|| {
        vec![Diagnostic::error(
            "Invalid expression",
            "A static map expression is required.",
            Some(expr.start_range()),
        )]
    })
}

/// `hcl.AbsTraversalForExpr` with its diagnostics (one error).
pub fn abs_traversal_for_expr(expr: &Expr) -> Result<Traversal, Vec<Diagnostic>> {
    expr.as_traversal().ok_or_else(|| {
        vec![Diagnostic::error(
            "Invalid expression",
            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
            Some(expr.range()),
        )]
    })
}

/// `hcl.ExprCall` with its diagnostics (one error): "A static function call is required."
pub fn expr_call(expr: &Expr) -> Result<(String, Vec<Expr>), Vec<Diagnostic>> {
    expr.as_call().ok_or_else(|| {
        vec![Diagnostic::error(
            "Invalid expression",
            "A static function call is required.",
            Some(expr.start_range()),
        )]
    })
}
