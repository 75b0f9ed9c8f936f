//! The request (`req.*`, contract section 2) and the values crossing between JSON and HCL.

use std::collections::BTreeMap;

use cloudspec_hcl::{Number, Type, Value};

use crate::response::{Requirements, Selector};
use crate::{Failure, Inputs};

/// Annotations crossplane's function-hcl puts on collection members.
pub(crate) const ANNOTATION_BASE_NAME: &str = "hcl.fn.crossplane.io/collection-base-name";
pub(crate) const ANNOTATION_INDEX: &str = "hcl.fn.crossplane.io/collection-index";

/// One call's request.
pub(crate) struct Request {
    /// The XR without `metadata.managedFields`.
    pub composite: Value,
    /// Every observed resource by name, collection members included (`self.resource` and
    /// the fail-safe see members too; `req.resource` does not).
    pub observed: BTreeMap<String, Value>,
    /// Observed collection members by base name, ordered by their collection index.
    pub collections: BTreeMap<String, Vec<String>>,
    /// Answers to the requirements of the previous call (`None`: nothing matched).
    pub extra: BTreeMap<String, Option<Vec<serde_json::Value>>>,
    /// The incoming context.
    pub context: serde_json::Map<String, serde_json::Value>,
}

impl Request {
    /// The first call's request: no extra resources yet.
    pub(crate) fn new(inputs: &Inputs) -> Result<Request, Failure> {
        let composite = from_json(&without_managed_fields(&inputs.xr));
        let mut observed = BTreeMap::new();
        let mut members: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for (name, body) in &inputs.observed {
            let annotations = body
                .pointer("/metadata/annotations")
                .and_then(|a| a.as_object());
            let base = annotations
                .and_then(|a| a.get(ANNOTATION_BASE_NAME))
                .and_then(|v| v.as_str())
                .filter(|b| !b.is_empty());
            if let Some(base) = base {
                let index = annotations
                    .and_then(|a| a.get(ANNOTATION_INDEX))
                    .and_then(|v| v.as_str())
                    .unwrap_or_default();
                members
                    .entry(base.to_string())
                    .or_default()
                    .push((index.to_string(), name.clone()));
            }
            observed.insert(name.clone(), from_json(&without_managed_fields(body)));
        }
        let collections = members
            .into_iter()
            .map(|(base, mut names)| {
                names.sort();
                (base, names.into_iter().map(|(_, n)| n).collect())
            })
            .collect();
        Ok(Request {
            composite,
            observed,
            collections,
            extra: BTreeMap::new(),
            context: inputs.context.clone(),
        })
    }

    /// Answers `requirements` from `inputs.extra` as crossplane's fetcher does: `matchName`
    /// gives the first object (by name) with that apiVersion, kind and name; `matchLabels`
    /// every such object carrying all the labels, by name; nothing matched is `None`.
    pub(crate) fn answer(&mut self, requirements: &Requirements, inputs: &Inputs) {
        self.extra = requirements
            .iter()
            .map(|(name, selector)| {
                let found = inputs
                    .extra
                    .as_deref()
                    .map(|objects| select(objects, selector))
                    .filter(|found| !found.is_empty());
                (name.clone(), found)
            })
            .collect();
    }

    /// Whether a resource of this name is observed (collection members included).
    pub(crate) fn is_observed(&self, name: &str) -> bool {
        self.observed.contains_key(name)
    }

    /// The `req` variable.
    pub(crate) fn value(&self) -> Value {
        let mut resource = BTreeMap::new();
        let mut connection = BTreeMap::new();
        let member: std::collections::BTreeSet<&String> =
            self.collections.values().flatten().collect();
        for (name, body) in &self.observed {
            if !member.contains(name) {
                resource.insert(name.clone(), body.clone());
                connection.insert(name.clone(), Value::Null(Type::Dynamic));
            }
        }
        let mut resources = BTreeMap::new();
        let mut connections = BTreeMap::new();
        for (base, names) in &self.collections {
            resources.insert(base.clone(), self.members(base));
            connections.insert(
                base.clone(),
                Value::Tuple(vec![Value::Null(Type::Dynamic); names.len()]),
            );
        }
        let extra = self
            .extra
            .iter()
            .map(|(name, found)| {
                let v = match found {
                    Some(objects) => Value::Tuple(
                        objects
                            .iter()
                            .map(|o| from_json(&without_managed_fields(o)))
                            .collect(),
                    ),
                    None => Value::Null(Type::Dynamic),
                };
                (name.clone(), v)
            })
            .collect();
        Value::object_from([
            (
                "context",
                from_json(&serde_json::Value::Object(self.context.clone())),
            ),
            ("composite", self.composite.clone()),
            ("composite_connection", Value::Null(Type::Dynamic)),
            ("resource", Value::Object(resource)),
            ("connection", Value::Object(connection)),
            ("resources", Value::Object(resources)),
            ("connections", Value::Object(connections)),
            ("extra_resources", Value::Object(extra)),
        ])
    }

    /// The observed members of collection `base`, in collection-index order (`null` when
    /// there are none).
    pub(crate) fn members(&self, base: &str) -> Value {
        match self.collections.get(base) {
            Some(names) => Value::Tuple(
                names
                    .iter()
                    .filter_map(|n| self.observed.get(n).cloned())
                    .collect(),
            ),
            None => Value::Null(Type::Dynamic),
        }
    }

    /// `null`s, one per member of collection `base` (`null` when there are none).
    pub(crate) fn member_connections(&self, base: &str) -> Value {
        match self.collections.get(base) {
            Some(names) => Value::Tuple(vec![Value::Null(Type::Dynamic); names.len()]),
            None => Value::Null(Type::Dynamic),
        }
    }
}

fn select(objects: &[serde_json::Value], selector: &Selector) -> Vec<serde_json::Value> {
    let text = |o: &serde_json::Value, pointer: &str| -> String {
        o.pointer(pointer)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let mut found: Vec<&serde_json::Value> = objects
        .iter()
        .filter(|o| {
            text(o, "/apiVersion") == selector.api_version && text(o, "/kind") == selector.kind
        })
        .filter(|o| match &selector.name {
            Some(name) => text(o, "/metadata/name") == *name,
            None => {
                let labels = o.pointer("/metadata/labels").and_then(|l| l.as_object());
                selector.labels.iter().all(|(k, v)| {
                    labels.and_then(|l| l.get(k)).and_then(|x| x.as_str()) == Some(v.as_str())
                })
            }
        })
        .collect();
    found.sort_by_key(|o| text(o, "/metadata/name"));
    if selector.name.is_some() {
        found.truncate(1);
    }
    found.into_iter().cloned().collect()
}

fn without_managed_fields(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    if let Some(meta) = v.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        meta.remove("managedFields");
    }
    v
}

/// A JSON value as HCL sees it (cty's implied type: objects and tuples).
pub(crate) fn from_json(v: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::Null(Type::Dynamic),
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match Number::parse(&n.to_string()) {
            Some(n) => Value::Number(n),
            None => Value::Null(Type::Number),
        },
        J::String(s) => Value::string(s.clone()),
        J::Array(items) => Value::Tuple(items.iter().map(from_json).collect()),
        J::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()),
    }
}

/// A wholly known value as JSON (cty's JSON encoding; sets and lists become arrays, maps
/// and objects objects). `None` for an unknown value anywhere inside.
pub(crate) fn to_json(v: &Value) -> Option<serde_json::Value> {
    let text = cloudspec_hcl::json::encode(v).ok()?;
    serde_json::from_str(&text).ok()
}
