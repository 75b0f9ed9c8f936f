//! Inventory values as reports show them: as JSON (`actual`) and as a short text for
//! messages.

use crate::model::{Interner, Value};

/// A value as JSON, for reports (`actual`).
pub(crate) fn to_json(value: &Value, interner: &Interner) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(J::Number)
            .unwrap_or(J::Null),
        Value::Str(s) => J::String(s.to_string()),
        Value::List(items) => J::Array(items.iter().map(|v| to_json(v, interner)).collect()),
        Value::Object(obj) => J::Object(
            obj.iter()
                .map(|(k, v)| (interner.resolve(*k).to_string(), to_json(v, interner)))
                .collect(),
        ),
        Value::Ref(r) => serde_json::json!({ "$ref": &*r.raw }),
        Value::Unknown(u) => serde_json::json!({ "$unknown": &*u.reason }),
    }
}

/// A short rendering of a value for messages, from its JSON form `json` ([`to_json`]):
/// strings quoted, long values cut.
pub(crate) fn display(value: &Value, json: &serde_json::Value) -> String {
    let text = match value {
        Value::Ref(r) => format!("a reference to {}", r.raw),
        _ => json.to_string(),
    };
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}
