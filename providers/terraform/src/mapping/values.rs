//! Values while mapping: HCL (cty) values in which three kinds of string stand for what an
//! inventory writes as an object. [`crate::identity`]'s identities (a computed attribute of
//! a managed resource instance), and two markers of this module: an association
//! (`ref(...)`) and an unknown with its reason (`unknown(...)`, `computed = true`). Like
//! identities they start with a control character, so no configuration can write one.
//!
//! Why strings: a mapping builds values with HCL's own operations (`for` expressions,
//! `merge`, conditionals), and a string is a value every one of them carries through.
//! The markers become `{"$ref": ...}` and `{"$unknown": ..., "not_null": ...}` only when a
//! resource is written out ([`to_json`]). Inside an expression a mapping's unknown is HCL's
//! unknown value ([`for_expression`]), so `length`, `==` and conditionals treat it as
//! unknown; its reason is then lost (an unknown that comes out of an expression says "not
//! known before apply").

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use cloudspec_hcl::functions::{stdlib, FuncError, Function, FunctionTable, Param};
use cloudspec_hcl::{Type, Value};
use serde_json::Value as Json;

use crate::identity;

/// The first character of every marker (as of identities).
const MARK: char = '\u{1}';
const REF: &str = "\u{1}ref:";
const UNKNOWN: &str = "\u{1}unknown:";

/// The reason of an unknown that came out of the configuration or an expression.
pub(crate) const NOT_KNOWN: &str = "not known before apply";

/// What a marker string stands for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Marker<'a> {
    /// An association: `type/id`.
    Ref(&'a str),
    Unknown {
        reason: &'a str,
        not_null: bool,
    },
    /// A computed attribute of a managed resource instance.
    Identity {
        address: &'a str,
        attr: &'a str,
    },
}

/// The marker `s` is, if it is exactly one.
pub(crate) fn marker(s: &str) -> Option<Marker<'_>> {
    if let Some(target) = s.strip_prefix(REF) {
        return Some(Marker::Ref(target));
    }
    if let Some(rest) = s.strip_prefix(UNKNOWN) {
        let (flag, reason) = rest.split_once(':').unwrap_or(("0", rest));
        return Some(Marker::Unknown {
            reason,
            not_null: flag == "1",
        });
    }
    identity::parse(s)
        .filter(|(address, _)| is_address(address))
        .map(|(address, attr)| Marker::Identity { address, attr })
}

/// True when `s` is a whole resource instance address (`aws_subnet.a["x"]`,
/// `module.net[0].aws_vpc.this`). An identity has no end marker, so an interpolation that
/// starts with one (`"${aws_s3_bucket.b.arn}/*"`) is told apart from it by what follows.
fn is_address(s: &str) -> bool {
    let mut chars = s.chars().peekable();
    loop {
        // A name.
        match chars.next() {
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
            _ => return false,
        }
        while chars
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        {
            chars.next();
        }
        // An optional key: a number, `*`, or a quoted string.
        if chars.peek() == Some(&'[') {
            chars.next();
            match chars.next() {
                Some('"') => loop {
                    match chars.next() {
                        Some('\\') => {
                            chars.next();
                        }
                        Some('"') => break,
                        Some(_) => {}
                        None => return false,
                    }
                },
                Some('*') => {}
                Some(c) if c.is_ascii_digit() => {
                    while chars.peek().is_some_and(char::is_ascii_digit) {
                        chars.next();
                    }
                }
                _ => return false,
            }
            if chars.next() != Some(']') {
                return false;
            }
        }
        match chars.next() {
            None => return true,
            Some('.') => {}
            Some(_) => return false,
        }
    }
}

/// True when `s` holds a marker or an identity anywhere (an interpolation of one).
fn contains_marker(s: &str) -> bool {
    s.contains(MARK)
}

/// An association to `type_name/id`.
pub(crate) fn ref_value(type_name: &str, id: &str) -> Value {
    Value::String(format!("{REF}{type_name}/{id}"))
}

/// An unknown with its reason.
pub(crate) fn unknown(reason: &str, not_null: bool) -> Value {
    Value::String(format!("{UNKNOWN}{}:{reason}", u8::from(not_null)))
}

/// Why an identity is unknown.
fn identity_reason(address: &str, attr: &str) -> String {
    format!("the {attr} of {address}, known after apply")
}

/// The association of `v` to a resource of `type_name`: an identity names its instance,
/// another string is a literal id (dangling when no resource has it). Null stays null (as
/// an empty id), unknowns and markers stay as they are, a string that interpolates a
/// computed value is unknown (not null), lists give a list of associations.
pub(crate) fn associate(type_name: &str, v: &Value) -> Result<Value, String> {
    Ok(match v {
        Value::Null(_) | Value::Unknown(_) => v.clone(),
        Value::String(s) => match marker(s) {
            Some(Marker::Identity { address, .. }) => ref_value(type_name, address),
            Some(_) => v.clone(),
            None if contains_marker(s) => unknown(NOT_KNOWN_INTERPOLATION, true),
            None if s.is_empty() => Value::Null(Type::String),
            None => ref_value(type_name, s),
        },
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(|i| associate(type_name, i))
                .collect::<Result<_, _>>()?,
        ),
        other => {
            return Err(format!(
                "an id (a string) or a list of ids is required, got {}",
                other.ty().friendly_name()
            ))
        }
    })
}

const NOT_KNOWN_INTERPOLATION: &str = "interpolates values known after apply";

/// True when `address` is a data source's (`data.aws_ami.x`, `module.m[0].data.aws_vpc.v`).
fn is_data_address(address: &str) -> bool {
    let mut rest = address;
    while let Some(after) = rest.strip_prefix("module.") {
        // The module's name, an optional key (quoted keys may hold dots), then a dot.
        let name_end = after.find(['.', '[']).unwrap_or(after.len());
        let mut tail = &after[name_end..];
        if tail.starts_with('[') {
            let mut quoted = false;
            let mut escaped = false;
            let close = tail.char_indices().skip(1).find(|&(_, c)| {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    quoted = !quoted;
                } else if c == ']' && !quoted {
                    return true;
                }
                false
            });
            let Some((i, _)) = close else { return false };
            tail = &tail[i + 1..];
        }
        let Some(next) = tail.strip_prefix('.') else {
            return false;
        };
        rest = next;
    }
    rest.starts_with("data.")
}

/// The raw id `v` holds: an identity's instance address, an association's id, a literal
/// id itself; lists element by element. A data source's id stays unknown (not null): it is
/// the id of something that exists outside the configuration, which only a plan reads.
pub(crate) fn raw_id(v: &Value) -> Value {
    match v {
        Value::String(s) => match marker(s) {
            Some(Marker::Identity { address, .. }) if is_data_address(address) => v.clone(),
            Some(Marker::Identity { address, .. }) => Value::String(address.to_string()),
            Some(Marker::Ref(target)) => Value::String(
                target
                    .split_once('/')
                    .map_or(target, |(_, id)| id)
                    .to_string(),
            ),
            Some(Marker::Unknown { .. }) => v.clone(),
            None if contains_marker(s) => unknown(NOT_KNOWN_INTERPOLATION, true),
            None => v.clone(),
        },
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            Value::Tuple(items.iter().map(raw_id).collect())
        }
        other => other.clone(),
    }
}

/// The id identity of the instance a computed value belongs to
/// (`aws_vpc.main.default_network_acl_id` gives `aws_vpc.main`'s id); unknown for any other
/// value.
fn owner(v: &Value) -> Value {
    match v {
        Value::String(s) => match marker(s) {
            Some(Marker::Identity { address, .. }) => {
                Value::String(identity::identity(address, "id"))
            }
            _ => Value::Unknown(Type::String),
        },
        Value::Null(_) => v.clone(),
        _ => Value::Unknown(Type::String),
    }
}

/// `v` as an expression sees it: unknown markers become HCL's unknown value.
pub(crate) fn for_expression(v: &Value) -> Value {
    fn conv(v: &Value, unknown_type: Type) -> Value {
        match v {
            Value::String(s) if s.starts_with(UNKNOWN) => Value::Unknown(unknown_type),
            Value::List(t, items) => Value::List(
                t.clone(),
                items.iter().map(|i| conv(i, t.clone())).collect(),
            ),
            Value::Set(t, items) => Value::set(
                t.clone(),
                items.iter().map(|i| conv(i, t.clone())).collect(),
            ),
            Value::Map(t, items) => Value::Map(
                t.clone(),
                items
                    .iter()
                    .map(|(k, i)| (k.clone(), conv(i, t.clone())))
                    .collect(),
            ),
            Value::Tuple(items) => {
                Value::Tuple(items.iter().map(|i| conv(i, Type::Dynamic)).collect())
            }
            Value::Object(items) => Value::Object(
                items
                    .iter()
                    .map(|(k, i)| (k.clone(), conv(i, Type::Dynamic)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    conv(v, Type::Dynamic)
}

/// A value as the inventory writes it (`$ref`, `$unknown`).
pub(crate) fn to_json(v: &Value) -> Json {
    match v {
        Value::Null(_) => Json::Null,
        Value::Unknown(_) => crate::raw::unknown(NOT_KNOWN, false),
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => crate::raw::number(n),
        Value::String(s) => match marker(s) {
            Some(Marker::Ref(target)) => {
                let mut m = serde_json::Map::new();
                m.insert("$ref".into(), Json::String(target.to_string()));
                Json::Object(m)
            }
            Some(Marker::Unknown { reason, not_null }) => crate::raw::unknown(reason, not_null),
            Some(Marker::Identity { address, attr }) => {
                crate::raw::unknown(&identity_reason(address, attr), true)
            }
            None if contains_marker(s) => crate::raw::unknown(NOT_KNOWN_INTERPOLATION, true),
            None => Json::String(s.clone()),
        },
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            Json::Array(items.iter().map(to_json).collect())
        }
        Value::Map(_, items) | Value::Object(items) => {
            Json::Object(items.iter().map(|(k, i)| (k.clone(), to_json(i))).collect())
        }
    }
}

/// True when `v` is known: not HCL's unknown, not an unknown marker, not an identity.
pub(crate) fn is_known_scalar(v: &Value) -> bool {
    match v {
        Value::Unknown(_) => false,
        Value::String(s) => !contains_marker(s),
        _ => true,
    }
}

/// A JSON document (a policy) parsed as Terraform's `jsondecode` does, keys as written;
/// text that is not JSON stays a string (as the live collector keeps it), an identity or an
/// unknown stays as it is.
fn document(v: &Value) -> Value {
    match v {
        Value::String(s) if marker(s).is_none() => {
            cloudspec_hcl::json::decode_go(s).unwrap_or_else(|_| v.clone())
        }
        other => other.clone(),
    }
}

/// True when `v` holds nothing unknown: no HCL unknown, no marker or identity.
fn wholly_known(v: &Value) -> bool {
    match v {
        Value::Unknown(_) => false,
        Value::String(s) => !contains_marker(s),
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            items.iter().all(wholly_known)
        }
        Value::Map(_, items) | Value::Object(items) => items.values().all(wholly_known),
        _ => true,
    }
}

/// Terraform's quoting of an instance key in an address (`["/dev/sdf"]`): HCL's quoted
/// string syntax, template sequences escaped.
pub(crate) fn address_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 2);
    out.push('"');
    let mut chars = key.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The functions a mapping's expressions may call: Terraform's standard library plus
/// `ref`, `id`, `owner`, `document`, `known`, `unknown` and `choose` (a conditional whose two
/// results keep their own types: `choose(c, 5, unknown("..."))` is 5 when `c` is true, not
/// the string "5" HCL's `c ? 5 : unknown(...)` gives).
pub(crate) fn functions() -> Arc<FunctionTable> {
    static TABLE: OnceLock<Arc<FunctionTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut t = stdlib().clone();
            let any = |name: &str| Param::new(name, Type::Dynamic).allow_null().allow_unknown();
            t.add(Function::new(
                "ref",
                vec![Param::new("type", Type::String), any("id")],
                Type::Dynamic,
                |args| match args {
                    [Value::String(ty), v] => associate(ty, v).map_err(|e| FuncError::arg(1, e)),
                    _ => Err(FuncError::new("ref(type, id): the type must be a string")),
                },
            ));
            t.add(Function::new(
                "id",
                vec![any("value")],
                Type::Dynamic,
                |args| {
                    Ok(args
                        .first()
                        .map(raw_id)
                        .unwrap_or(Value::Null(Type::Dynamic)))
                },
            ));
            t.add(Function::new(
                "owner",
                vec![any("value")],
                Type::String,
                |args| Ok(args.first().map(owner).unwrap_or(Value::Null(Type::String))),
            ));
            t.add(Function::new(
                "choose",
                vec![
                    Param::new("condition", Type::Bool),
                    any("if_true"),
                    any("if_false"),
                ],
                Type::Dynamic,
                |args| match args {
                    [Value::Bool(c), a, b] => Ok(if *c { a.clone() } else { b.clone() }),
                    _ => Err(FuncError::new("choose(condition, if_true, if_false)")),
                },
            ));
            t.add(Function::new(
                "document",
                vec![any("text")],
                Type::Dynamic,
                |args| {
                    Ok(args
                        .first()
                        .map(document)
                        .unwrap_or(Value::Null(Type::Dynamic)))
                },
            ));
            t.add(Function::new(
                "known",
                vec![any("value")],
                Type::Bool,
                |args| Ok(Value::Bool(args.first().is_some_and(wholly_known))),
            ));
            t.add(
                Function::new(
                    "unknown",
                    vec![Param::new("reason", Type::String)],
                    Type::Dynamic,
                    |args| {
                        let reason = args.first().and_then(Value::as_str).unwrap_or(NOT_KNOWN);
                        let not_null = args.get(1).and_then(Value::as_bool).unwrap_or(false);
                        Ok(unknown(reason, not_null))
                    },
                )
                .variadic(Param::new("not_null", Type::Bool)),
            );
            Arc::new(t)
        })
        .clone()
}

/// Groups the objects of `list` whose members `by` are equal (first appearance order),
/// concatenating their lists `concat` (as EC2 groups security group permissions by
/// protocol and ports). Anything that is not a known list of objects is left as it is, and
/// an object whose keys are not all known is not grouped.
pub(crate) fn regroup(list: &Value, by: &[String], concat: &[String]) -> Value {
    let items = match list {
        Value::List(_, items) | Value::Tuple(items) | Value::Set(_, items) => items,
        other => return other.clone(),
    };
    let mut out: Vec<BTreeMap<String, Value>> = Vec::new();
    let mut keys: Vec<Option<Vec<Json>>> = Vec::new();
    for item in items {
        let Value::Object(fields) = item else {
            return list.clone();
        };
        let key: Vec<Value> = by
            .iter()
            .map(|k| fields.get(k).cloned().unwrap_or(Value::Null(Type::Dynamic)))
            .collect();
        // Compared as the inventory writes them: nulls of any type are equal.
        let key = key
            .iter()
            .all(is_known_scalar)
            .then(|| key.iter().map(to_json).collect::<Vec<_>>());
        let found = key
            .as_ref()
            .and_then(|k| keys.iter().position(|other| other.as_ref() == Some(k)));
        let Some(at) = found else {
            out.push(fields.clone());
            keys.push(key);
            continue;
        };
        let Some(group) = out.get_mut(at) else {
            continue;
        };
        for name in concat {
            let more = fields
                .get(name)
                .cloned()
                .unwrap_or(Value::Tuple(Vec::new()));
            let merged = match (group.get(name), &more) {
                (
                    Some(Value::Tuple(a) | Value::List(_, a) | Value::Set(_, a)),
                    Value::Tuple(b) | Value::List(_, b) | Value::Set(_, b),
                ) => Value::Tuple(a.iter().chain(b).cloned().collect()),
                (None | Some(Value::Null(_)), _) => more.clone(),
                (Some(current), Value::Null(_)) => current.clone(),
                _ => Value::Unknown(Type::Dynamic),
            };
            group.insert(name.clone(), merged);
        }
    }
    Value::Tuple(out.into_iter().map(Value::Object).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markers_become_refs_and_unknowns() {
        let subnet = Value::String(identity::identity("aws_subnet.a", "id"));
        let r = associate("aws:ec2:subnet", &subnet).unwrap_or(Value::dynamic());
        assert_eq!(to_json(&r), json!({"$ref": "aws:ec2:subnet/aws_subnet.a"}));
        let literal = associate("aws:ec2:subnet", &Value::from("subnet-0abc"));
        assert_eq!(
            literal.map(|v| to_json(&v)),
            Ok(json!({"$ref": "aws:ec2:subnet/subnet-0abc"}))
        );
        assert_eq!(to_json(&raw_id(&subnet)), json!("aws_subnet.a"));
        assert_eq!(
            to_json(&subnet),
            json!({"$unknown": "the id of aws_subnet.a, known after apply", "not_null": true})
        );
        assert_eq!(
            to_json(&unknown("AWS decides", false)),
            json!({"$unknown": "AWS decides"})
        );
        let interpolated = Value::String(format!("x-{}", identity::identity("a.b", "id")));
        assert_eq!(
            to_json(&interpolated),
            json!({"$unknown": "interpolates values known after apply", "not_null": true})
        );
    }

    #[test]
    fn an_interpolation_that_starts_with_an_identity_is_not_one() {
        let arn = identity::identity("aws_s3_bucket.b", "arn");
        assert!(marker(&format!("{arn}/*")).is_none());
        assert_eq!(
            to_json(&Value::String(format!("{arn}/*"))),
            json!({"$unknown": "interpolates values known after apply", "not_null": true})
        );
        for address in [
            "a.b",
            "module.net[0].aws_vpc.this",
            "aws_subnet.a[\"x.y\"]",
            "a.b[*]",
        ] {
            assert!(is_address(address), "{address}");
        }
        for not in ["a.b/*", "a.b[\"x\"", "1a.b", "a.b."] {
            assert!(!is_address(not), "{not}");
        }
    }

    /// A data source's id is an existing resource's id, unknown before a plan reads it: a
    /// rule comparing it with a literal is unknown, not a failure (contract §7, §8).
    #[test]
    fn a_data_source_id_is_unknown_not_its_address() {
        for address in [
            "data.aws_ami.latest",
            "module.m.data.aws_vpc.v",
            "module.m[\"a.b\"].data.aws_vpc.v[0]",
        ] {
            let ami = Value::String(identity::identity(address, "id"));
            assert_eq!(
                to_json(&raw_id(&ami)),
                json!({"$unknown": format!("the id of {address}, known after apply"), "not_null": true}),
                "{address}"
            );
            assert_eq!(
                to_json(&associate("aws:ec2:image", &ami).unwrap_or(Value::dynamic())),
                json!({"$ref": format!("aws:ec2:image/{address}")})
            );
        }
        for address in [
            "aws_instance.data",
            "module.data.aws_vpc.v",
            "module.m[\"data.\"].aws_vpc.v",
        ] {
            assert!(!is_data_address(address), "{address}");
        }
    }

    #[test]
    fn expressions_see_unknown_markers_as_unknown() {
        let v = Value::Tuple(vec![unknown("x", true), Value::from(1)]);
        assert_eq!(
            for_expression(&v),
            Value::Tuple(vec![Value::dynamic(), Value::from(1)])
        );
    }

    #[test]
    fn owners_of_computed_attributes() {
        let acl = Value::String(identity::identity("aws_vpc.main", "default_network_acl_id"));
        assert_eq!(
            raw_id(&owner(&acl)),
            Value::String("aws_vpc.main".to_string())
        );
        assert_eq!(owner(&Value::from("acl-1")), Value::Unknown(Type::String));
    }

    #[test]
    fn address_keys_are_quoted_as_terraform_does() {
        assert_eq!(address_key("/dev/sdf"), "\"/dev/sdf\"");
        assert_eq!(address_key("a\"${b}"), "\"a\\\"$${b}\"");
    }

    #[test]
    fn regroup_concatenates_equal_keys() {
        let perm = |p: &str, cidr: &str| {
            Value::object_from([
                ("p", Value::from(p)),
                ("r", Value::Tuple(vec![Value::from(cidr)])),
            ])
        };
        let list = Value::Tuple(vec![perm("tcp", "a"), perm("udp", "b"), perm("tcp", "c")]);
        let grouped = regroup(&list, &["p".to_string()], &["r".to_string()]);
        assert_eq!(
            to_json(&grouped),
            json!([{"p": "tcp", "r": ["a", "c"]}, {"p": "udp", "r": ["b"]}])
        );
    }
}
