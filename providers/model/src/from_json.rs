//! From `serde_json` trees to the inventory model, for providers that build their
//! resources' properties as JSON (the AWS collector does): [`value_from_json`] and
//! [`object_from_json`] convert one tree, [`resource_from_json`] one resource, and
//! [`inventory_from_json`] a whole collection run (sorted, duplicates dropped).
//!
//! A JSON object whose only key is `$ref` with a string value (`{"$ref": "aws:ec2:vpc/vpc-1"}`)
//! becomes an association ([`Value::Ref`]), and one whose keys are `$unknown` with a string
//! value and optionally `not_null` with a boolean (`{"$unknown": "computed by AWS",
//! "not_null": true}`) a value not known yet ([`Value::Unknown`]), as in the inventory
//! contract; integers that fit an `i64` are [`Value::Int`], other numbers [`Value::Float`].

use serde_json::{Map, Value as Json};

use crate::intern::Interner;
use crate::inventory::{CollectionError, Inventory, InventoryBuilder, Resource};
use crate::value::{Object, Reference, Unknown, Value};

/// A resource as a provider collected it: its properties still JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonResource {
    /// `aws:ec2:volume`.
    pub type_name: String,
    pub id: String,
    pub region: Option<String>,
    pub account: Option<String>,
    pub properties: Map<String, Json>,
}

/// A JSON tree as a model value: `{"$ref": ...}` objects become associations, object keys
/// are interned in `interner`.
pub fn value_from_json(json: &Json, interner: &mut Interner) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::Str(s.as_str().into()),
        Json::Array(items) => {
            Value::List(items.iter().map(|v| value_from_json(v, interner)).collect())
        }
        Json::Object(m) => match (m.len(), m.get("$ref")) {
            (1, Some(Json::String(raw))) => Value::Ref(Box::new(Reference::new(raw.as_str()))),
            _ => match unknown_from_json(m) {
                Some(unknown) => Value::Unknown(Box::new(unknown)),
                None => Value::Object(object_from_json(m, interner)),
            },
        },
    }
}

/// `{"$unknown": "reason"}`, optionally with `"not_null": true|false`, as the reader takes it.
fn unknown_from_json(m: &Map<String, Json>) -> Option<Unknown> {
    let Some(Json::String(reason)) = m.get("$unknown") else {
        return None;
    };
    let not_null = match (m.len(), m.get("not_null")) {
        (1, _) => false,
        (2, Some(Json::Bool(b))) => *b,
        _ => return None,
    };
    Some(Unknown {
        reason: reason.as_str().into(),
        not_null,
    })
}

/// A JSON object's entries as a model object, keys interned.
pub fn object_from_json(m: &Map<String, Json>, interner: &mut Interner) -> Object {
    Object::new(
        m.iter()
            .map(|(k, v)| (interner.intern(k), value_from_json(v, interner)))
            .collect(),
    )
}

/// One resource, its properties converted with the interner of the inventory it joins.
pub fn resource_from_json(resource: &JsonResource, interner: &mut Interner) -> Resource {
    Resource {
        type_name: resource.type_name.as_str().into(),
        id: resource.id.as_str().into(),
        region: resource.region.as_deref().map(Into::into),
        account: resource.account.as_deref().map(Into::into),
        source: None,
        properties: object_from_json(&resource.properties, interner),
    }
}

/// The finished inventory of one collection run by `provider`: resources sorted by type
/// and id, errors by type, region and message. A `(type, id)` collected twice (the same
/// resource listed on two pages) is the same data, so the first copy stands.
pub fn inventory_from_json(
    provider: &str,
    collected_at: Option<String>,
    mut resources: Vec<JsonResource>,
    mut errors: Vec<CollectionError>,
) -> Inventory {
    resources.sort_by(|a, b| (&a.type_name, &a.id).cmp(&(&b.type_name, &b.id)));
    errors.sort_by(|a, b| {
        (&a.type_name, &a.region, &a.message).cmp(&(&b.type_name, &b.region, &b.message))
    });
    let mut builder = InventoryBuilder::new();
    builder.set_provider(Some(provider.to_string()));
    builder.set_collected_at(collected_at);
    builder.reserve(resources.len());
    for r in resources {
        let resource = Resource {
            properties: object_from_json(&r.properties, builder.interner()),
            type_name: r.type_name.into(),
            id: r.id.into(),
            region: r.region.map(Into::into),
            account: r.account.map(Into::into),
            source: None,
        };
        let _ = builder.push(resource);
    }
    for e in errors {
        builder.push_error(e);
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn res(type_name: &str, id: &str, properties: Json) -> JsonResource {
        let Json::Object(properties) = properties else {
            panic!("an object")
        };
        JsonResource {
            type_name: type_name.into(),
            id: id.into(),
            region: Some("eu-west-1".into()),
            account: None,
            properties,
        }
    }

    #[test]
    fn unknown_markers_become_unknown_values() {
        let mut names = Interner::new();
        let v = value_from_json(
            &json!([{"$unknown": "computed"}, {"$unknown": "an id", "not_null": true},
                    {"$unknown": "x", "other": 1}, {"$unknown": 3}]),
            &mut names,
        );
        let Value::List(items) = v else {
            panic!("{v:?}")
        };
        match (&items[0], &items[1]) {
            (Value::Unknown(a), Value::Unknown(b)) => {
                assert_eq!((&*a.reason, a.not_null), ("computed", false));
                assert_eq!((&*b.reason, b.not_null), ("an id", true));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(items[2], Value::Object(_)));
        assert!(matches!(items[3], Value::Object(_)));
    }

    #[test]
    fn scalars_lists_and_objects() {
        let mut names = Interner::new();
        let v = value_from_json(
            &json!({"a": [1, 2.5, "x", true, null], "b": {"c": -3}}),
            &mut names,
        );
        let Value::Object(o) = v else { panic!("{v:?}") };
        let a = names.get("a").unwrap();
        match o.get(a) {
            Some(Value::List(items)) => {
                assert!(matches!(items[0], Value::Int(1)));
                assert!(matches!(items[1], Value::Float(f) if f == 2.5));
                assert_eq!(items[2].as_str(), Some("x"));
                assert!(matches!(items[3], Value::Bool(true)));
                assert!(items[4].is_null());
            }
            other => panic!("{other:?}"),
        }
        let b = names.get("b").unwrap();
        let c = names.get("c").unwrap();
        match o.get(b) {
            Some(Value::Object(inner)) => assert!(matches!(inner.get(c), Some(Value::Int(-3)))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn integers_beyond_i64_are_floats() {
        let mut names = Interner::new();
        let v = value_from_json(&json!(u64::MAX), &mut names);
        assert!(matches!(v, Value::Float(_)), "{v:?}");
    }

    #[test]
    fn a_lone_ref_is_an_association_and_anything_else_an_object() {
        let mut names = Interner::new();
        let v = value_from_json(&json!({"$ref": "aws:ec2:volume/vol-1"}), &mut names);
        assert!(
            matches!(&v, Value::Ref(r) if &*r.raw == "aws:ec2:volume/vol-1"),
            "{v:?}"
        );
        let v = value_from_json(&json!({"$ref": "t/1", "other": 1}), &mut names);
        assert!(matches!(v, Value::Object(_)), "{v:?}");
        let v = value_from_json(&json!({"$ref": 1}), &mut names);
        assert!(matches!(v, Value::Object(_)), "{v:?}");
    }

    #[test]
    fn a_resource_keeps_its_identity() {
        let mut names = Interner::new();
        let r = resource_from_json(&res("t:a:x", "1", json!({"k": "v"})), &mut names);
        assert_eq!(&*r.type_name, "t:a:x");
        assert_eq!(&*r.id, "1");
        assert_eq!(r.region.as_deref(), Some("eu-west-1"));
        assert_eq!(r.account, None);
        assert!(r.source.is_none());
        assert_eq!(
            r.properties
                .get(names.get("k").unwrap())
                .and_then(Value::as_str),
            Some("v")
        );
    }

    #[test]
    fn an_inventory_is_sorted_resolved_and_keeps_the_first_duplicate() {
        let error = |type_name: &str, message: &str| CollectionError::new(type_name, None, message);
        let inv = inventory_from_json(
            "tiny",
            Some("2024-01-01T00:00:00Z".into()),
            vec![
                res("t:b:y", "2", json!({"n": 1})),
                res("t:a:x", "1", json!({"to": {"$ref": "t:b:y/2"}})),
                res("t:b:y", "2", json!({"n": 2})),
            ],
            vec![error("t:b:y", "second"), error("t:a:x", "first")],
        );
        assert_eq!(inv.provider.as_deref(), Some("tiny"));
        assert_eq!(inv.collected_at.as_deref(), Some("2024-01-01T00:00:00Z"));
        let ids: Vec<_> = inv
            .resources
            .iter()
            .map(|r| format!("{}/{}", r.type_name, r.id))
            .collect();
        assert_eq!(ids, ["t:a:x/1", "t:b:y/2"]);
        let n = inv.sym("n").unwrap();
        assert!(matches!(
            inv.resources[1].properties.get(n),
            Some(Value::Int(1))
        ));
        let to = inv.sym("to").unwrap();
        match inv.resources[0].properties.get(to) {
            Some(Value::Ref(r)) => assert_eq!(r.target, Some(1)),
            other => panic!("{other:?}"),
        }
        assert!(inv.dangling_refs().is_empty());
        let messages: Vec<_> = inv.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["first", "second"]);
    }
}
