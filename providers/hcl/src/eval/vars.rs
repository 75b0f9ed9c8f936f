//! The variables an expression refers to (hclsyntax's `Expression.Variables()`).

use std::ops::Range as Span;

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::template::{Directive, Element, Template};
use hcl_edit::Span as _;

use super::traverse::is_literal_key;
use crate::diag::Range;
use crate::number::Number;
use crate::syntax::{number_literal, SourceFile};
use crate::types::Type;
use crate::value::Value;

/// One step of an absolute traversal: the root variable name, then attribute names and
/// index keys (`var.list[0]` is `[Root("var"), Attr("list"), Index(0)]`).
#[derive(Clone, Debug, PartialEq)]
pub enum TraverseStep {
    Root(String),
    Attr(String),
    Index(Value),
}

/// The absolute traversals `e` refers to, in source order, each with its source range:
/// a root variable and the attribute and literal index steps directly after it (as far as
/// they are static). Names bound by `for` expressions and template `for` directives are
/// excluded inside their scope.
pub fn variables(e: &Expression, src: &SourceFile) -> Vec<(Vec<TraverseStep>, Range)> {
    let mut walker = Walker {
        src,
        bound: Vec::new(),
        out: Vec::new(),
    };
    walker.expr(e);
    walker.out
}

struct Walker<'s> {
    src: &'s SourceFile,
    bound: Vec<String>,
    out: Vec<(Vec<TraverseStep>, Range)>,
}

impl Walker<'_> {
    fn push(&mut self, steps: Vec<TraverseStep>, span: Option<Span<usize>>) {
        if let Some(TraverseStep::Root(name)) = steps.first() {
            if self.bound.iter().any(|b| b == name) {
                return;
            }
        }
        let range = match span {
            Some(s) => self.src.range(s),
            None => Range {
                filename: self.src.name.clone(),
                ..Range::default()
            },
        };
        self.out.push((steps, range));
    }

    fn expr(&mut self, e: &Expression) {
        match e {
            Expression::Null(_)
            | Expression::Bool(_)
            | Expression::Number(_)
            | Expression::String(_) => {}
            Expression::Array(a) => a.iter().for_each(|item| self.expr(item)),
            Expression::Object(o) => {
                for (k, v) in o.iter() {
                    if let ObjectKey::Expression(ke) = k {
                        if !matches!(
                            ke,
                            Expression::Null(_) | Expression::Bool(_) | Expression::Variable(_)
                        ) {
                            self.expr(ke);
                        }
                    }
                    self.expr(v.expr());
                }
            }
            Expression::StringTemplate(t) => self.template(t),
            Expression::HeredocTemplate(h) => self.template(&h.template),
            Expression::Parenthesis(p) => self.expr(p.inner()),
            Expression::Variable(v) => self.push(
                vec![TraverseStep::Root(v.value().as_str().to_string())],
                v.span(),
            ),
            Expression::Conditional(c) => {
                self.expr(&c.cond_expr);
                self.expr(&c.true_expr);
                self.expr(&c.false_expr);
            }
            Expression::FuncCall(f) => f.args.iter().for_each(|a| self.expr(a)),
            Expression::Traversal(t) => {
                let mut rest: &[_] = &t.operators;
                if let Expression::Variable(v) = &t.expr {
                    let mut steps = vec![TraverseStep::Root(v.value().as_str().to_string())];
                    let mut end = v.span().map(|s| s.end);
                    let mut n = 0;
                    for op in &t.operators {
                        let step = match op.value() {
                            TraversalOperator::GetAttr(name) => {
                                TraverseStep::Attr(name.value().as_str().to_string())
                            }
                            TraversalOperator::LegacyIndex(i) => {
                                TraverseStep::Index(Value::Number(Number::from_u64(*i.value())))
                            }
                            TraversalOperator::Index(k) if is_literal_key(k) => {
                                TraverseStep::Index(self.literal(k))
                            }
                            _ => break,
                        };
                        steps.push(step);
                        end = op.span().map(|s| s.end).or(end);
                        n += 1;
                    }
                    let span = match (v.span(), end) {
                        (Some(s), Some(e)) => Some(s.start..e),
                        _ => None,
                    };
                    self.push(steps, span);
                    rest = t.operators.get(n..).unwrap_or_default();
                } else {
                    self.expr(&t.expr);
                }
                for op in rest {
                    if let TraversalOperator::Index(k) = op.value() {
                        self.expr(k);
                    }
                }
            }
            Expression::UnaryOp(u) => self.expr(&u.expr),
            Expression::BinaryOp(b) => {
                self.expr(&b.lhs_expr);
                self.expr(&b.rhs_expr);
            }
            Expression::ForExpr(f) => {
                self.expr(&f.intro.collection_expr);
                let names = self.bind(
                    f.intro.key_var.as_ref().map(|k| k.value().as_str()),
                    f.intro.value_var.value().as_str(),
                );
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(&c.expr);
                }
                self.unbind(names);
            }
        }
    }

    fn bind(&mut self, key: Option<&str>, value: &str) -> usize {
        let mut n = 1;
        if let Some(k) = key {
            self.bound.push(k.to_string());
            n += 1;
        }
        self.bound.push(value.to_string());
        n
    }

    fn unbind(&mut self, n: usize) {
        let keep = self.bound.len().saturating_sub(n);
        self.bound.truncate(keep);
    }

    fn template(&mut self, t: &Template) {
        for element in t.iter() {
            match element {
                Element::Literal(_) => {}
                Element::Interpolation(i) => self.expr(&i.expr),
                Element::Directive(d) => match d.as_ref() {
                    Directive::If(d) => {
                        self.expr(&d.if_expr.cond_expr);
                        self.template(&d.if_expr.template);
                        if let Some(e) = &d.else_expr {
                            self.template(&e.template);
                        }
                    }
                    Directive::For(d) => {
                        self.expr(&d.for_expr.collection_expr);
                        let names = self.bind(
                            d.for_expr.key_var.as_ref().map(|k| k.value().as_str()),
                            d.for_expr.value_var.value().as_str(),
                        );
                        self.template(&d.for_expr.template);
                        self.unbind(names);
                    }
                },
            }
        }
    }

    fn literal(&self, e: &Expression) -> Value {
        match e {
            Expression::Number(n) => n
                .span()
                .and_then(|s| self.src.slice(s))
                .and_then(number_literal)
                .map_or(Value::Unknown(Type::Number), Value::Number),
            Expression::String(s) => Value::String(s.value().clone()),
            Expression::Bool(b) => Value::Bool(*b.value()),
            _ => Value::Null(Type::Dynamic),
        }
    }
}
