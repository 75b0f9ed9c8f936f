//! `cloudspec schema [TYPE] [--format json]`: the resource types the providers declare,
//! with every member, its type and associations, generated from the schemas in code.
use serde_json::{json, Value};

use super::sources::Registry;
use super::{SchemaArgs, EXIT_OK};
use crate::model::schema::{Member, MemberType, ResourceSchema, SchemaSet};

pub(super) const AFTER_HELP: &str = "\
Examples:
  cloudspec schema                      every AWS resource type with its members
  cloudspec schema aws:ec2:instance     one type
  cloudspec schema --format json        the same as JSON (stable shape, for tools)

Associations (followed with `>` in rules) show as `> TYPE`.";

pub(super) fn schema(args: SchemaArgs, registry: &Registry) -> u8 {
    // Every provider's types in one set (their names carry the provider: `aws:...`).
    let sets = registry.schemas();
    let mut set = SchemaSet::new(
        sets.iter()
            .map(|s| s.provider.as_str())
            .collect::<Vec<_>>()
            .join(","),
    );
    for s in sets {
        for schema in s.types.into_values() {
            set.add(schema);
        }
    }
    let chosen: Vec<&ResourceSchema> = match &args.type_name {
        None => set.types.values().collect(),
        Some(name) => match set.get(name) {
            Some(s) => vec![s],
            None => return unknown_type(name, &set),
        },
    };
    if args.format == "json" {
        let doc = json!({
            "provider": set.provider,
            "types": chosen.iter().map(|s| type_json(s)).collect::<Vec<_>>(),
        });
        match serde_json::to_string_pretty(&doc) {
            Ok(text) => {
                if let Err(status) = super::files::print_stdout(&format!("{text}\n")) {
                    return status;
                }
            }
            Err(e) => return super::fail(&e.to_string()),
        }
    } else {
        let mut out = String::new();
        for s in chosen {
            type_text(s, &mut out);
        }
        if let Err(status) = super::files::print_stdout(&out) {
            return status;
        }
    }
    EXIT_OK
}

fn unknown_type(name: &str, set: &SchemaSet) -> u8 {
    let names: Vec<&str> = set.types.keys().map(String::as_str).collect();
    let status = super::fail(&format!(
        "unknown resource type \"{}\"",
        cloudspec_model::input::escape_control(name)
    ));
    super::logging::say(&match crate::check::suggest(name, &names) {
        Some(s) => format!("help: did you mean \"{s}\"?"),
        None => "help: `cloudspec schema` lists the resource types".to_string(),
    });
    status
}

/// `{"type", "doc", "members": [...]}`.
fn type_json(s: &ResourceSchema) -> Value {
    json!({
        "type": s.type_name,
        "doc": s.doc,
        "members": s.members.iter().map(member_json).collect::<Vec<_>>(),
    })
}

/// `{"name", "doc", "type": <type>}`.
fn member_json(m: &Member) -> Value {
    json!({"name": m.name, "doc": m.doc, "type": ty_json(&m.ty)})
}

/// `{"kind": ...}` plus `element` (list), `values` (map), `members` (object) or `target`
/// (association).
fn ty_json(ty: &MemberType) -> Value {
    match ty {
        MemberType::String => json!({"kind": "string"}),
        MemberType::Integer => json!({"kind": "integer"}),
        MemberType::Number => json!({"kind": "number"}),
        MemberType::Bool => json!({"kind": "boolean"}),
        MemberType::Any => json!({"kind": "any"}),
        MemberType::List(inner) => json!({"kind": "list", "element": ty_json(inner)}),
        MemberType::Map(inner) => json!({"kind": "map", "values": ty_json(inner)}),
        MemberType::Object(members) => json!({
            "kind": "object",
            "members": members.iter().map(member_json).collect::<Vec<_>>(),
        }),
        MemberType::Association { target } => json!({"kind": "association", "target": target}),
    }
}

fn type_text(s: &ResourceSchema, out: &mut String) {
    out.push_str(&format!("{}\n  {}\n", s.type_name, s.doc));
    members_text(&s.members, 1, out);
    out.push('\n');
}

fn members_text(members: &[Member], depth: usize, out: &mut String) {
    for m in members {
        let indent = "  ".repeat(depth);
        let doc = if m.doc.is_empty() {
            String::new()
        } else {
            format!("  # {}", m.doc)
        };
        out.push_str(&format!("{indent}{}: {}{doc}\n", m.name, ty_text(&m.ty)));
        if let Some(inner) = object_members(&m.ty) {
            members_text(inner, depth + 1, out);
        }
    }
}

/// The members to list below a member: those of an object or of a list's objects.
fn object_members(ty: &MemberType) -> Option<&[Member]> {
    match ty {
        MemberType::Object(members) => Some(members),
        MemberType::List(inner) => object_members(inner),
        _ => None,
    }
}

fn ty_text(ty: &MemberType) -> String {
    match ty {
        MemberType::String => "string".into(),
        MemberType::Integer => "integer".into(),
        MemberType::Number => "number".into(),
        MemberType::Bool => "boolean".into(),
        MemberType::Any => "any".into(),
        MemberType::List(inner) => format!("list of {}", ty_text(inner)),
        MemberType::Map(inner) => format!("map of {}", ty_text(inner)),
        MemberType::Object(_) => "object".into(),
        MemberType::Association { target } => format!("> {target}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn association_lists_render_with_their_target() {
        let ty = MemberType::List(Box::new(MemberType::Association {
            target: "aws:ec2:subnet".into(),
        }));
        assert_eq!(ty_text(&ty), "list of > aws:ec2:subnet");
        assert_eq!(
            ty_json(&ty),
            json!({"kind": "list", "element": {"kind": "association", "target": "aws:ec2:subnet"}})
        );
    }
}
