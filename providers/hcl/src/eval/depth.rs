//! Guarding the evaluator's recursion: the nesting depth of a syntax tree is measured
//! without recursion, and deep trees are evaluated on a helper thread with a large stack,
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
/// template, block body and full splat counting one level).
pub(crate) fn exceeds(root: Node<'_>, limit: usize) -> bool {
    let mut stack = vec![(root, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        let next = depth + 1;
        match node {
            Node::Expr(e) => push_expr_children(e, next, &mut stack),
            Node::Template(t) => push_template_children(t, next, &mut stack),
            Node::Body(b) => {
                for s in b.iter() {
                    match s {
                        Structure::Attribute(a) => stack.push((Node::Expr(&a.value), next)),
                        Structure::Block(bl) => stack.push((Node::Body(&bl.body), next)),
                    }
                }
            }
        }
    }
    false
}

fn push_expr_children<'a>(e: &'a Expression, d: usize, stack: &mut Vec<(Node<'a>, usize)>) {
    let mut push = |x: &'a Expression, depth: usize| stack.push((Node::Expr(x), depth));
    match e {
        Expression::Null(_)
        | Expression::Bool(_)
        | Expression::Number(_)
        | Expression::String(_)
        | Expression::Variable(_) => {}
        Expression::Array(a) => a.iter().for_each(|x| push(x, d)),
        Expression::Object(o) => {
            for (k, v) in o.iter() {
                if let ObjectKey::Expression(k) = k {
                    push(k, d);
                }
                push(v.expr(), d);
            }
        }
        Expression::StringTemplate(t) => stack.push((Node::Template(t), d)),
        Expression::HeredocTemplate(h) => stack.push((Node::Template(&h.template), d)),
        Expression::Parenthesis(p) => push(p.inner(), d),
        Expression::Conditional(c) => {
            push(&c.cond_expr, d);
            push(&c.true_expr, d);
            push(&c.false_expr, d);
        }
        Expression::FuncCall(f) => f.args.iter().for_each(|x| push(x, d)),
        Expression::Traversal(t) => {
            let splats = t
                .operators
                .iter()
                .filter(|op| matches!(op.value(), TraversalOperator::FullSplat(_)))
                .count();
            let d = d + splats;
            push(&t.expr, d);
            for op in &t.operators {
                if let TraversalOperator::Index(x) = op.value() {
                    push(x, d);
                }
            }
        }
        Expression::UnaryOp(u) => push(&u.expr, d),
        Expression::BinaryOp(b) => {
            push(&b.lhs_expr, d);
            push(&b.rhs_expr, d);
        }
        Expression::ForExpr(f) => {
            push(&f.intro.collection_expr, d);
            if let Some(k) = &f.key_expr {
                push(k, d);
            }
            push(&f.value_expr, d);
            if let Some(c) = &f.cond {
                push(&c.expr, d);
            }
        }
    }
}

fn push_template_children<'a>(t: &'a Template, d: usize, stack: &mut Vec<(Node<'a>, usize)>) {
    for element in t.iter() {
        match element {
            Element::Literal(_) => {}
            Element::Interpolation(i) => stack.push((Node::Expr(&i.expr), d)),
            Element::Directive(dir) => match dir.as_ref() {
                Directive::If(i) => {
                    stack.push((Node::Expr(&i.if_expr.cond_expr), d));
                    stack.push((Node::Template(&i.if_expr.template), d));
                    if let Some(e) = &i.else_expr {
                        stack.push((Node::Template(&e.template), d));
                    }
                }
                Directive::For(f) => {
                    stack.push((Node::Expr(&f.for_expr.collection_expr), d));
                    stack.push((Node::Template(&f.for_expr.template), d));
                }
            },
        }
    }
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
