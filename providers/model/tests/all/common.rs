//! Helpers shared by the model's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use cloudspec_model::{Inventory, Value};
use serde_json::json;

/// A form of an inventory independent of symbol numbers, key order and resource order:
/// two inventories are the same when their canonical forms are equal. Integers and
/// decimals stay apart, and each reference carries the (type, id) it resolved to.
pub fn canonical(inv: &Inventory) -> serde_json::Value {
    let mut resources: Vec<serde_json::Value> = inv
        .resources
        .iter()
        .map(|r| {
            json!({
                "type": &*r.type_name,
                "id": &*r.id,
                "region": r.region.as_deref(),
                "account": r.account.as_deref(),
                "source": r.source.as_ref().map(|s| json!({"file": s.file, "line": s.line})),
                "properties": object(inv, r.properties.iter()),
            })
        })
        .collect();
    resources.sort_by_key(|r| (r["type"].to_string(), r["id"].to_string()));
    let mut errors: Vec<serde_json::Value> = inv
        .errors
        .iter()
        .map(|e| json!({"type": e.type_name, "region": e.region, "message": e.message}))
        .collect();
    errors.sort_by_key(|e| e.to_string());
    json!({
        "provider": inv.provider,
        "collected_at": inv.collected_at,
        "dangling": inv.dangling.as_str(),
        "resources": resources,
        "errors": errors,
        "dangling": inv.dangling_refs(),
    })
}

fn object<'a>(
    inv: &Inventory,
    entries: impl Iterator<Item = &'a (cloudspec_model::Sym, Value)>,
) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> = entries
        .map(|(k, v)| (inv.interner.resolve(*k).to_string(), value(inv, v)))
        .collect();
    serde_json::Value::Object(map)
}

fn value(inv: &Inventory, v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!({ "int": i }),
        Value::Float(f) => json!({ "float": f }),
        Value::Str(s) => json!(&**s),
        Value::List(items) => items.iter().map(|i| value(inv, i)).collect(),
        Value::Object(o) => object(inv, o.iter()),
        Value::Ref(r) => {
            let target = r
                .target
                .and_then(|t| inv.resource(t))
                .map(|t| (&*t.type_name, &*t.id));
            json!({ "ref": &*r.raw, "target": target })
        }
        Value::Unknown(u) => json!({ "unknown": &*u.reason, "not_null": u.not_null }),
    }
}

/// The `.json` files of `tests/fixtures/<dir>`, sorted.
pub fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

/// Whether expected files should be rewritten (`UPDATE_EXPECTED=1`).
pub fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECTED").is_some()
}

/// Compares `actual` with the file `path` (or rewrites it when updating); returns a
/// failure description.
pub fn check_expected(path: &std::path::Path, actual: &str) -> Option<String> {
    if updating() {
        std::fs::write(path, actual).ok()?;
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    (expected != actual).then(|| {
        format!(
            "{}:\n  expected: {expected:?}\n  actual:   {actual:?}",
            path.display()
        )
    })
}
