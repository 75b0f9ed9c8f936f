//! Raw resources: every managed instance as `terraform:<provider>:<rest>` (the Terraform
//! type split at its first `_`), id its address, properties its arguments as written
//! (nested blocks as lists of objects, unset arguments absent, computed attributes
//! unknown).
//!
//! Values known only after apply are `{"$unknown": REASON}` (the inventory's form):
//!
//! - an identity (`aws_subnet.main.id`) is `{"$unknown": "id of aws_subnet.main, known
//!   after apply", "not_null": true}` for an `id` or `arn` (a resource always has them),
//!   without `not_null` for any other attribute;
//! - a string built from one (`"${aws_s3_bucket.b.arn}/*"`) is `{"$unknown": "built from
//!   arn of aws_s3_bucket.b, known after apply"}`;
//! - any other unknown value says why when its argument's expression shows it: `depends on
//!   var.x, which has no value` (a root variable without a value), `depends on count.index,
//!   not known before apply (...)` (an unknown `count`/`for_each`), `timestamp() is known
//!   only when Terraform runs`, `file() reads a file outside the Terraform directory, ...`;
//!   else `{"$unknown": "known after apply"}` (a computed attribute).
//!
//! In the JSON syntax every property of a resource is an argument (only a provider's
//! schema tells a nested block there), so a block written as a JSON object is an object.

use cloudspec_hcl::body::{BodySchema, Expr};
use cloudspec_hcl::eval::{traverse_abs, TraverseStep};
use cloudspec_hcl::Value;
use serde_json::{Map, Value as Json};

use crate::eval::values::body_value;
use crate::{identity, Instance, MappedResource};

/// The reason of an unknown value that is not an identity.
pub const UNKNOWN: &str = "known after apply";

/// The raw type of a Terraform type: `aws_s3_bucket` -> `terraform:aws:s3_bucket`.
pub fn raw_type(tf_type: &str) -> String {
    match tf_type.split_once('_') {
        Some((provider, rest)) => format!("terraform:{provider}:{rest}"),
        None => format!("terraform:{tf_type}:{tf_type}"),
    }
}

/// The raw resource of one instance.
pub fn raw(instance: &Instance) -> MappedResource {
    let computed;
    let value = match &instance.args {
        Some(args) => args,
        None => {
            computed = body_value(&instance.body, &instance.ctx, true).0;
            &computed
        }
    };
    let names = instance.body.item_names();
    let schema = BodySchema {
        attributes: names.schema().attributes,
        blocks: Vec::new(),
    };
    let (content, _, _) = instance.body.partial_content(&schema);
    let mut properties = Map::new();
    if let Value::Object(attrs) = value {
        for (name, v) in attrs {
            if v.is_null() {
                continue; // null is unset
            }
            let reason = match content.attributes.get(name) {
                Some(attr) if !v.is_wholly_known() => unknown_reason(&attr.expr, instance),
                _ => UNKNOWN.to_string(),
            };
            properties.insert(name.clone(), json_with(v, &reason, 0));
        }
    }
    MappedResource {
        type_name: raw_type(&instance.tf_type),
        id: instance.address.clone(),
        region: instance.region.clone(),
        file: instance.file.clone(),
        line: Some(instance.line as u64),
        properties,
    }
}

/// `{"$unknown": reason}`, with `"not_null": true` when asked.
pub fn unknown(reason: &str, not_null: bool) -> Json {
    let mut m = Map::new();
    m.insert("$unknown".into(), Json::String(reason.to_string()));
    if not_null {
        m.insert("not_null".into(), Json::Bool(true));
    }
    Json::Object(m)
}

/// Values nest at most this deep in JSON (deeper is unknown).
const MAX_DEPTH: usize = 256;

/// Why an argument's value is unknown, from what its expression reads: a variable
/// without a value, `count`/`each` of an unknown expansion, or else a value known only
/// after apply.
fn unknown_reason(expr: &Expr, instance: &Instance) -> String {
    for (steps, _) in expr.variables() {
        let (Some(TraverseStep::Root(root)), Some(TraverseStep::Attr(name))) =
            (steps.first(), steps.get(1))
        else {
            continue;
        };
        match root.as_str() {
            "var" => {
                let (v, _) = traverse_abs(&steps[..2], &instance.ctx, None);
                if v.is_unknown() {
                    return if instance.address.starts_with("module.") {
                        format!("depends on var.{name}, which is not known before apply")
                    } else {
                        format!("depends on var.{name}, which has no value")
                    };
                }
            }
            "count" | "each" if instance.unknown_expansion => {
                return format!(
                    "depends on {root}.{name}, not known before apply (one instance stands for \
                     all of {})",
                    instance.address
                );
            }
            _ => {}
        }
    }
    // A function is the cause only when nothing else the expression reads can be.
    let only_constants = expr.variables().iter().all(|(steps, _)| {
        matches!(steps.first(), Some(TraverseStep::Root(r)) if r == "path" || r == "terraform")
    });
    if !only_constants {
        return UNKNOWN.to_string();
    }
    let mut names = crate::eval::refs::ReadNames::default();
    crate::eval::refs::read_attributes(expr, &Default::default(), &mut names);
    for (function, reason) in FUNCTION_REASONS {
        if names.functions.contains(*function) {
            return format!("{function}() {reason}");
        }
    }
    UNKNOWN.to_string()
}

const NOT_READ: &str =
    "reads a file outside the Terraform directory, which cloudspec does not read";
const NOT_LOOKED: &str = "looks outside the Terraform directory, where cloudspec does not look";
const AT_RUN: &str = "is known only when Terraform runs";

/// Why a function's result may be unknown.
const FUNCTION_REASONS: &[(&str, &str)] = &[
    ("timestamp", AT_RUN),
    ("plantimestamp", AT_RUN),
    ("uuid", AT_RUN),
    ("bcrypt", AT_RUN),
    ("file", NOT_READ),
    ("filebase64", NOT_READ),
    ("fileexists", NOT_LOOKED),
    ("fileset", NOT_LOOKED),
    ("templatefile", NOT_READ),
    ("filemd5", NOT_READ),
    ("filesha1", NOT_READ),
    ("filesha256", NOT_READ),
    ("filesha512", NOT_READ),
    ("filebase64sha256", NOT_READ),
    ("filebase64sha512", NOT_READ),
];

/// A value in the inventory's JSON form (identities and unknowns as `$unknown`).
pub fn to_json(v: &Value, depth: usize) -> Json {
    json_with(v, UNKNOWN, depth)
}

/// [`to_json`] with `reason` for unknown values that are not identities.
fn json_with(v: &Value, reason: &str, depth: usize) -> Json {
    if depth > MAX_DEPTH {
        return unknown(reason, false);
    }
    match v {
        Value::Null(_) => Json::Null,
        Value::Unknown(_) => unknown(reason, false),
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => number(n),
        Value::String(s) => match identity::parse(s) {
            Some((address, attr)) => unknown(
                &format!("{attr} of {address}, known after apply"),
                attr == "id" || attr == "arn",
            ),
            None if identity::contains_identity(s) => match identity::first_in(s) {
                Some((address, attr)) => built_from(address, attr),
                None => unknown(UNKNOWN, false),
            },
            // An identity inside JSON text (`jsonencode`, a policy document).
            None if s.contains(ESCAPED_MARK) => match escaped_identity(s) {
                Some((address, attr)) => built_from(&address, &attr),
                None => unknown(UNKNOWN, false),
            },
            None => Json::String(s.clone()),
        },
        Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs) => {
            Json::Array(vs.iter().map(|e| json_with(e, reason, depth + 1)).collect())
        }
        Value::Map(_, m) | Value::Object(m) => Json::Object(
            m.iter()
                .map(|(k, e)| (k.clone(), json_with(e, reason, depth + 1)))
                .collect(),
        ),
    }
}

fn built_from(address: &str, attr: &str) -> Json {
    unknown(
        &format!("built from {attr} of {address}, known after apply"),
        false,
    )
}

/// An identity as JSON text writes it (its markers escaped).
const ESCAPED_MARK: &str = "\\u0001tf:";

/// The first identity written as JSON text inside `s`.
fn escaped_identity(s: &str) -> Option<(String, String)> {
    let start = s.find(ESCAPED_MARK)?;
    let rest = &s[start..];
    let end = rest.find("\\u0002")?;
    let inner = rest
        .get(6..end)?
        .replace("\\\"", "\"")
        .replace("\\\\", "\\");
    let text = format!("\u{1}{inner}\u{2}");
    identity::parse(&text).map(|(a, t)| (a.to_string(), t.to_string()))
}

/// A number as JSON: an integer when it is one (64 bits, signed or not), else the nearest
/// double; one no double holds (beyond 1e308) as its decimal text.
pub(crate) fn number(n: &cloudspec_hcl::Number) -> Json {
    if n.is_integer() {
        if let Some(i) = n.to_i64() {
            return Json::from(i);
        }
        if let Some(u) = n.to_u64() {
            return Json::from(u);
        }
    }
    match serde_json::Number::from_f64(n.to_f64()) {
        Some(f) => Json::Number(f),
        None => Json::String(n.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_become_unknown_with_their_reason() {
        let id = identity::identity("aws_subnet.main", "id");
        assert_eq!(
            to_json(&Value::string(id.clone()), 0),
            serde_json::json!({"$unknown": "id of aws_subnet.main, known after apply", "not_null": true})
        );
        let arn = identity::identity("aws_s3_bucket.b[\"x y\"]", "arn");
        assert_eq!(
            to_json(&Value::string(format!("{arn}/*")), 0),
            serde_json::json!({"$unknown": "built from arn of aws_s3_bucket.b[\"x y\"], known after apply"})
        );
        assert_eq!(
            to_json(&Value::dynamic(), 0),
            serde_json::json!({"$unknown": "known after apply"})
        );
    }
}
