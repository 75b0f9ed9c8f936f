//! From SDK values to the inventory model: small helpers the per-service converters use
//! (tags to maps, ids to associations, timestamps to RFC 3339). The collected JSON trees
//! become model values in `cloudspec_model::from_json`.

use aws_smithy_types::date_time::Format;
use aws_smithy_types::DateTime;
use serde_json::{Map, Value as Json};

/// An association to `type_name/id`, or null when there is no id.
pub(crate) fn r(type_name: &str, id: Option<&str>) -> Json {
    match id {
        Some(id) if !id.is_empty() => {
            let mut m = Map::new();
            m.insert("$ref".into(), Json::String(format!("{type_name}/{id}")));
            Json::Object(m)
        }
        _ => Json::Null,
    }
}

/// A to-many association from a list of ids.
pub(crate) fn refs<'a>(type_name: &str, ids: impl IntoIterator<Item = &'a str>) -> Json {
    Json::Array(ids.into_iter().map(|id| r(type_name, Some(id))).collect())
}

/// A list of raw ids.
pub(crate) fn strs<'a>(ids: impl IntoIterator<Item = &'a str>) -> Json {
    Json::Array(
        ids.into_iter()
            .map(|s| Json::String(s.to_string()))
            .collect(),
    )
}

/// An AWS enum as its wire string.
pub(crate) fn en<T: AsRef<str>>(v: Option<&T>) -> Json {
    v.map_or(Json::Null, |v| Json::String(v.as_ref().to_string()))
}

/// A timestamp as an RFC 3339 string.
pub(crate) fn ts(v: Option<&DateTime>) -> Json {
    v.and_then(|d| d.fmt(Format::DateTime).ok())
        .map_or(Json::Null, Json::String)
}

/// A list converted element by element.
pub(crate) fn list<T>(items: &[T], f: impl Fn(&T) -> Json) -> Json {
    Json::Array(items.iter().map(f).collect())
}

/// An optional nested property, null when absent.
pub(crate) fn opt<T>(v: Option<&T>, f: impl Fn(&T) -> Json) -> Json {
    v.map_or(Json::Null, f)
}

/// `[{Key, Value}]` as a key-value object.
pub(crate) fn tag_map<'a>(
    pairs: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
) -> Json {
    let mut m = Map::new();
    for (k, v) in pairs {
        if let Some(k) = k {
            m.insert(k.to_string(), Json::String(v.unwrap_or("").to_string()));
        }
    }
    Json::Object(m)
}

/// A JSON document (a policy) parsed into a nested property; unparsable text stays a string.
pub(crate) fn document(text: Option<&str>) -> Json {
    match text {
        None => Json::Null,
        Some(t) => {
            let decoded = percent_decode(t);
            serde_json::from_str(&decoded).unwrap_or(Json::String(t.to_string()))
        }
    }
}

/// EC2 returns some policy documents URL-encoded; plain JSON passes through unchanged.
fn percent_decode(s: &str) -> String {
    if !s.trim_start().starts_with('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes.get(i), hex) {
            (Some(b'%'), Some(b)) => {
                out.push(b);
                i += 3;
            }
            (Some(b'+'), _) => {
                out.push(b' ');
                i += 1;
            }
            (Some(&b), _) => {
                out.push(b);
                i += 1;
            }
            (None, _) => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Replaces associations to types the run did not collect with null (the raw id stays
/// readable beside them), so a run does not warn about references no rule follows.
pub(crate) fn prune_refs(json: &mut Json, collected: &dyn Fn(&str) -> bool) {
    match json {
        Json::Array(items) => items.iter_mut().for_each(|i| prune_refs(i, collected)),
        Json::Object(m) => {
            if let (1, Some(Json::String(raw))) = (m.len(), m.get("$ref")) {
                let target = raw.split_once('/').map_or(raw.as_str(), |(t, _)| t);
                if !collected(target) {
                    *json = Json::Null;
                }
                return;
            }
            m.values_mut().for_each(|v| prune_refs(v, collected));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_ref_objects_or_null() {
        assert_eq!(
            r("aws:ec2:volume", Some("vol-1")),
            serde_json::json!({"$ref": "aws:ec2:volume/vol-1"})
        );
        assert_eq!(r("aws:ec2:volume", None), Json::Null);
        assert_eq!(r("aws:ec2:volume", Some("")), Json::Null);
    }

    #[test]
    fn url_encoded_policies_are_decoded() {
        let doc = document(Some("%7B%22Version%22%3A%222012-10-17%22%7D"));
        assert_eq!(doc["Version"], "2012-10-17");
        assert_eq!(document(Some("{\"a\":1}"))["a"], 1);
        assert_eq!(document(Some("not json")), Json::String("not json".into()));
    }
}
