//! The properties an evaluation reads, as a [`Projection`] for loading the inventory:
//! a member with a predicate is read whole (the predicate sees its value, and a failure
//! reports it), a member with nested statements only through the members they name, and
//! a member indexed with `["key"]` whole. Associations (`> name`) name a property of the
//! resource the statement is on; the statements under them name properties of the
//! target, which the projection keeps on every resource alike.

use crate::model::Projection;
use crate::syntax::ast::{Spec, Statement, Tail};

/// The projection that keeps what evaluating `specs` reads, and nothing else.
pub fn projection<'a>(specs: impl IntoIterator<Item = &'a Spec>) -> Projection {
    let mut keep = Projection::new();
    for spec in specs {
        for rule in spec.groups.iter().flat_map(|g| &g.rules) {
            for statement in rule.statements() {
                add(statement, &mut keep);
            }
        }
    }
    keep
}

fn add(statement: &Statement, keep: &mut Projection) {
    let name = &statement.path.name.value;
    match &statement.tail {
        Tail::Nested(body) if statement.path.keys.is_empty() => {
            keep.keep_through(name);
            for inner in body.statements() {
                add(inner, keep);
            }
        }
        Tail::Nested(body) => {
            keep.keep_whole(name);
            for inner in body.statements() {
                add(inner, keep);
            }
        }
        Tail::Predicate(_) => {
            keep.keep_whole(name);
        }
    }
}
