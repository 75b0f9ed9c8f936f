//! Guarding the evaluator's recursion: the nesting depth of a syntax tree is measured
//! (recursing at most to the limit it checks), and deep trees are evaluated on a helper thread with a large stack,
//! so that no input overflows the caller's stack (whatever its size).

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Body, Structure};
use hcl_edit::template::{Directive, Element, Template};

/// The stack size of the helper thread evaluating deep trees.
const EVAL_STACK_SIZE: usize = 64 << 20;

/// A node of a syntax tree.
#[derive(Clone, Copy)]
pub(crate) enum Node<'a> {
    Expr(&'a Expression),
    Template(&'a Template),
    Body(&'a Body),
}

/// Whether the tree below `root` is more than `limit` levels deep (each expression,
/// template, block body and full splat counting one level). It recurses, but never more
/// than `limit` levels (it stops there), so it is safe on any stack; and it allocates
/// nothing, as it runs before every evaluation.
pub(crate) fn exceeds(root: Node<'_>, limit: usize) -> bool {
    deeper(root, 1, limit)
}

fn deeper(node: Node<'_>, depth: usize, limit: usize) -> bool {
    if depth > limit {
        return true;
    }
    let next = depth + 1;
    let mut visit = |n: Node<'_>, d: usize| deeper(n, d, limit);
    match node {
        Node::Expr(e) => expr_children(e, next, &mut visit),
        Node::Template(t) => template_children(t, next, &mut visit),
        Node::Body(b) => b.iter().any(|s| match s {
            Structure::Attribute(a) => visit(Node::Expr(&a.value), next),
            Structure::Block(bl) => visit(Node::Body(&bl.body), next),
        }),
    }
}

/// Visits the children of `e` at depth `d` until `visit` says true.
fn expr_children<'a>(
    e: &'a Expression,
    d: usize,
    visit: &mut impl FnMut(Node<'a>, usize) -> bool,
) -> bool {
    let mut expr = |x: &'a Expression, depth: usize| visit(Node::Expr(x), depth);
    match e {
        Expression::Null(_)
        | Expression::Bool(_)
        | Expression::Number(_)
        | Expression::String(_)
        | Expression::Variable(_) => false,
        Expression::Array(a) => a.iter().any(|x| expr(x, d)),
        Expression::Object(o) => o
            .iter()
            .any(|(k, v)| matches!(k, ObjectKey::Expression(k) if expr(k, d)) || expr(v.expr(), d)),
        Expression::StringTemplate(t) => visit(Node::Template(t), d),
        Expression::HeredocTemplate(h) => visit(Node::Template(&h.template), d),
        Expression::Parenthesis(p) => expr(p.inner(), d),
        Expression::Conditional(c) => {
            expr(&c.cond_expr, d) || expr(&c.true_expr, d) || expr(&c.false_expr, d)
        }
        Expression::FuncCall(f) => f.args.iter().any(|x| expr(x, d)),
        Expression::Traversal(t) => {
            let splats = t
                .operators
                .iter()
                .filter(|op| matches!(op.value(), TraversalOperator::FullSplat(_)))
                .count();
            let d = d + splats;
            expr(&t.expr, d)
                || t.operators.iter().any(|op| match op.value() {
                    TraversalOperator::Index(x) => expr(x, d),
                    _ => false,
                })
        }
        Expression::UnaryOp(u) => expr(&u.expr, d),
        Expression::BinaryOp(b) => expr(&b.lhs_expr, d) || expr(&b.rhs_expr, d),
        Expression::ForExpr(f) => {
            expr(&f.intro.collection_expr, d)
                || f.key_expr.as_ref().is_some_and(|k| expr(k, d))
                || expr(&f.value_expr, d)
                || f.cond.as_ref().is_some_and(|c| expr(&c.expr, d))
        }
    }
}

/// Visits the children of `t` at depth `d` until `visit` says true.
fn template_children<'a>(
    t: &'a Template,
    d: usize,
    visit: &mut impl FnMut(Node<'a>, usize) -> bool,
) -> bool {
    t.iter().any(|element| match element {
        Element::Literal(_) => false,
        Element::Interpolation(i) => visit(Node::Expr(&i.expr), d),
        Element::Directive(dir) => match dir.as_ref() {
            Directive::If(i) => {
                visit(Node::Expr(&i.if_expr.cond_expr), d)
                    || visit(Node::Template(&i.if_expr.template), d)
                    || i.else_expr
                        .as_ref()
                        .is_some_and(|e| visit(Node::Template(&e.template), d))
            }
            Directive::For(f) => {
                visit(Node::Expr(&f.for_expr.collection_expr), d)
                    || visit(Node::Template(&f.for_expr.template), d)
            }
        },
    })
}

/// Runs `f` on a helper thread with a large stack when `deep`, else (or when no thread can
/// be started) on the caller's stack.
pub(crate) fn on_big_stack<T: Send>(deep: bool, f: impl FnOnce() -> T + Send) -> T {
    if !deep {
        return f();
    }
    let slot = std::sync::Mutex::new(Some(f));
    let result = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("hcl-eval".into())
            .stack_size(EVAL_STACK_SIZE)
            .spawn_scoped(scope, || {
                let f = slot.lock().ok().and_then(|mut g| g.take());
                f.map(|f| f())
            });
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(v) => v,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match result {
        Some(v) => v,
        None => {
            let f = slot.into_inner().ok().flatten();
            match f {
                Some(f) => f(),
                None => unreachable_state(),
            }
        }
    }
}

#[cold]
fn unreachable_state() -> ! {
    // The closure is taken exactly once: either by the helper thread (which then returns
    // its result) or here after the thread could not start.
    unreachable!("evaluation closure already consumed")
}
