//! Unary and binary operators (hclsyntax's `UnaryOpExpr` and `BinaryOpExpr`, whose
//! implementations are cty's stdlib operator functions).

// Diagnostics are plain data returned by value, as everywhere in this crate.
#![allow(clippy::result_large_err)]

use hcl_edit::expr::{BinaryOp, BinaryOperator, UnaryOp, UnaryOperator};

use super::{EvalContext, Evaluated, Evaluator};
use crate::convert::convert;
use crate::diag::{has_errors, Diagnostic};
use crate::types::Type;
use crate::value::Value;

/// The parameter type of an operator's operands.
fn operand_type(op: BinaryOperator) -> Type {
    match op {
        BinaryOperator::And | BinaryOperator::Or => Type::Bool,
        BinaryOperator::Eq | BinaryOperator::NotEq => Type::Dynamic,
        _ => Type::Number,
    }
}

/// The result type of an operator.
fn result_type(op: BinaryOperator) -> Type {
    match op {
        BinaryOperator::Plus
        | BinaryOperator::Minus
        | BinaryOperator::Mul
        | BinaryOperator::Div
        | BinaryOperator::Mod => Type::Number,
        _ => Type::Bool,
    }
}

fn is_true(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

fn is_false(v: &Value) -> bool {
    matches!(v, Value::Bool(false))
}

fn op_failed(detail: &str, range: Option<crate::diag::Range>) -> Diagnostic {
    Diagnostic::error(
        "Operation failed",
        format!("Error during operation: {detail}."),
        range,
    )
}

impl Evaluator<'_> {
    pub(crate) fn unary(&mut self, u: &UnaryOp, ctx: &EvalContext) -> Evaluated {
        let op = *u.operator.value();
        let ty = match op {
            UnaryOperator::Neg => Type::Number,
            UnaryOperator::Not => Type::Bool,
        };
        let (given, mut diags) = self.eval(&u.expr, ctx);
        let val = match convert(&given, &ty) {
            Ok(v) => Some(v),
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for unary operand: {e}."),
                    self.range_of(&u.expr),
                ));
                None
            }
        };
        let Some(val) = val.filter(|_| !has_errors(&diags)) else {
            return (Value::Unknown(ty), diags);
        };
        if val.is_null() {
            diags.push(op_failed("argument must not be null", self.range_of(u)));
            return (Value::Unknown(ty), diags);
        }
        let out = match (op, val) {
            (UnaryOperator::Neg, Value::Number(n)) => Value::Number(n.neg()),
            (UnaryOperator::Not, Value::Bool(b)) => Value::Bool(!b),
            _ => Value::Unknown(ty),
        };
        (out, diags)
    }

    pub(crate) fn binary(&mut self, b: &BinaryOp, ctx: &EvalContext) -> Evaluated {
        let op = *b.operator.value();
        let param = operand_type(op);
        let rty = result_type(op);
        let mut diags = Vec::new();

        let (given_lhs, lhs_diags) = self.eval(&b.lhs_expr, ctx);
        let lhs = match convert(&given_lhs, &param) {
            Ok(v) => v,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for left operand: {e}."),
                    self.range_of(&b.lhs_expr),
                ));
                Value::Unknown(param.clone())
            }
        };
        let (given_rhs, rhs_diags) = self.eval(&b.rhs_expr, ctx);
        let rhs = match convert(&given_rhs, &param) {
            Ok(v) => v,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for right operand: {e}."),
                    self.range_of(&b.rhs_expr),
                ));
                Value::Unknown(param.clone())
            }
        };
        if has_errors(&diags) {
            diags.extend(lhs_diags);
            diags.extend(rhs_diags);
            return (Value::Unknown(rty), diags);
        }

        // Short-circuit handling of the logical operators.
        if matches!(op, BinaryOperator::And | BinaryOperator::Or) {
            let controlling = op == BinaryOperator::Or;
            let decides = |v: &Value| {
                if controlling {
                    is_true(v)
                } else {
                    is_false(v)
                }
            };
            let neutral = |v: &Value| {
                if controlling {
                    is_false(v)
                } else {
                    is_true(v)
                }
            };
            let (lu, ru) = (lhs.is_unknown(), rhs.is_unknown());
            if lu && ru {
                if !has_errors(&lhs_diags) {
                    return (Value::Unknown(Type::Bool), lhs_diags);
                }
            } else if decides(&lhs) {
                return (Value::Bool(controlling), lhs_diags);
            } else if decides(&rhs) {
                return (Value::Bool(controlling), rhs_diags);
            } else if lu && neutral(&rhs) {
                return (Value::Unknown(Type::Bool), lhs_diags);
            } else if ru && neutral(&lhs) {
                return (Value::Unknown(Type::Bool), rhs_diags);
            }
        }

        diags.extend(lhs_diags);
        diags.extend(rhs_diags);
        if has_errors(&diags) {
            return (Value::Unknown(rty), diags);
        }

        if matches!(op, BinaryOperator::Eq | BinaryOperator::NotEq) {
            let eq = lhs.equals(&rhs);
            let out = match (op, eq) {
                (BinaryOperator::NotEq, Value::Bool(x)) => Value::Bool(!x),
                (_, v) => v,
            };
            return (out, diags);
        }
        if lhs.is_null() || rhs.is_null() {
            diags.push(op_failed("argument must not be null", self.range_of(b)));
            return (Value::Unknown(rty), diags);
        }
        if lhs.is_unknown() || rhs.is_unknown() {
            return (Value::Unknown(rty), diags);
        }
        match self.apply(op, &lhs, &rhs, b) {
            Ok(v) => (v, diags),
            Err(d) => {
                diags.push(d);
                (Value::Unknown(rty), diags)
            }
        }
    }

    fn apply(
        &self,
        op: BinaryOperator,
        lhs: &Value,
        rhs: &Value,
        b: &BinaryOp,
    ) -> Result<Value, Diagnostic> {
        if let (Value::Bool(l), Value::Bool(r)) = (lhs, rhs) {
            return Ok(Value::Bool(match op {
                BinaryOperator::And => *l && *r,
                _ => *l || *r,
            }));
        }
        let (Value::Number(l), Value::Number(r)) = (lhs, rhs) else {
            return Ok(Value::Unknown(result_type(op)));
        };
        Ok(match op {
            BinaryOperator::Plus => Value::Number(l.add(r)),
            BinaryOperator::Minus => Value::Number(l.sub(r)),
            BinaryOperator::Mul => Value::Number(l.mul(r)),
            BinaryOperator::Div => match l.div(r) {
                Some(q) => Value::Number(q),
                None if l.is_zero() => {
                    return Err(op_failed(
                        "can't divide zero by zero or infinity by infinity",
                        self.range_of(b),
                    ))
                }
                None => {
                    return Err(Diagnostic::error(
                        "Division by zero",
                        "The divisor is zero. HCL would produce an infinite number here, which cannot be represented.",
                        self.range_of(&b.rhs_expr),
                    ))
                }
            },
            BinaryOperator::Mod => match l.rem(r) {
                Some(m) => Value::Number(m),
                None => {
                    return Err(Diagnostic::error(
                        "Division by zero",
                        "The divisor of the modulo operator is zero.",
                        self.range_of(&b.rhs_expr),
                    ))
                }
            },
            BinaryOperator::Less => Value::Bool(l < r),
            BinaryOperator::LessEq => Value::Bool(l <= r),
            BinaryOperator::Greater => Value::Bool(l > r),
            BinaryOperator::GreaterEq => Value::Bool(l >= r),
            _ => Value::Unknown(result_type(op)),
        })
    }
}
