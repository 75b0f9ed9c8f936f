//! Rule-driven collection: which resource types (and which of their members) a run needs,
//! computed from parsed specs and a provider's schemas. Types reached through associations
//! are included at any depth (`> volume ( > snapshot ( ... ) )`), so a live run collects
//! exactly what its rules can read and nothing else.

use crate::model::schema::{Member, MemberType, SchemaSet};
use crate::model::CollectionPlan;
use crate::syntax::ast::{Spec, Statement, Tail};

/// The plan for `specs` against `schemas`. Rules on types the schemas do not know, and
/// members they do not declare, add nothing beyond their `On` type (static checks report
/// them).
pub fn plan(specs: &[&Spec], schemas: &SchemaSet) -> CollectionPlan {
    let mut out = CollectionPlan::new();
    for spec in specs {
        for rule in spec.groups.iter().flat_map(|g| &g.rules) {
            let on = rule.on.value.as_str();
            out.add_type(on);
            let Some(schema) = schemas.get(on) else {
                continue;
            };
            let scope = Scope {
                type_name: Some(on),
                members: &schema.members,
            };
            for s in rule.statements() {
                statement(s, &scope, schemas, &mut out);
            }
        }
    }
    out
}

/// The members a statement can name, and the resource type when they are its top level.
struct Scope<'a> {
    type_name: Option<&'a str>,
    members: &'a [Member],
}

fn statement(s: &Statement, scope: &Scope<'_>, schemas: &SchemaSet, out: &mut CollectionPlan) {
    let name = s.path.name.value.as_str();
    let Some(member) = scope.members.iter().find(|m| m.name == name) else {
        return;
    };
    if let Some(type_name) = scope.type_name {
        out.add_member(type_name, name);
    }
    // Every alternative's statements: an `or` reads the members of each.
    let body: Vec<&Statement> = match &s.tail {
        Tail::Nested(body) => body.statements().collect(),
        Tail::Predicate(_) => Vec::new(),
    };
    match element(&member.ty) {
        MemberType::Association { target } => {
            out.add_type(target);
            let Some(schema) = schemas.get(target) else {
                return;
            };
            let inner = Scope {
                type_name: Some(target),
                members: &schema.members,
            };
            for b in body {
                statement(b, &inner, schemas, out);
            }
        }
        MemberType::Object(members) => {
            let inner = Scope {
                type_name: None,
                members,
            };
            for b in body {
                statement(b, &inner, schemas, out);
            }
        }
        _ => {}
    }
}

/// The element type of a (possibly nested) list.
fn element(ty: &MemberType) -> &MemberType {
    match ty {
        MemberType::List(inner) => element(inner),
        other => other,
    }
}
