//! Property tests: no input panics the loader, and generated inventories round-trip.

use crate::common::canonical;
use cloudspec_model::Inventory;
use proptest::prelude::*;
use serde_json::{json, Value as Json};

/// Any JSON value (keys that may look like markers included).
fn any_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<u64>().prop_map(|i| json!(i)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".{0,8}".prop_map(Json::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Json::Array),
            prop::collection::btree_map(
                prop_oneof![
                    "[a-z_]{0,6}",
                    Just("$ref".into()),
                    Just("$unknown".into()),
                    Just("not_null".into())
                ],
                inner,
                0..5
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

/// Property values an inventory may hold: JSON plus references and unknown markers.
fn property_json(ids: usize) -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<u64>().prop_map(|i| json!(i)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Json::String),
        (0..3usize, 0..ids + 2).prop_map(|(t, i)| json!({"$ref": format!("t{t}/id/{i}")})),
        ("[ -~]{0,10}", any::<bool>()).prop_map(|(r, n)| if n {
            json!({"$unknown": r, "not_null": true})
        } else {
            json!({"$unknown": r})
        }),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Json::Array),
            prop::collection::btree_map("[a-zA-Z_ :\"\\\\é]{0,8}", inner, 0..6)
                .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

/// A whole inventory document with unique (type, id) pairs.
fn inventory_json() -> impl Strategy<Value = Json> {
    (1..12usize).prop_flat_map(|n| {
        let resource = (0..3usize, prop::option::of("[a-z0-9-]{1,8}"), prop::collection::btree_map("[a-z_]{1,8}", property_json(n), 0..6));
        prop::collection::vec(resource, n..=n).prop_map(|resources| {
            let resources: Vec<Json> = resources
                .into_iter()
                .enumerate()
                .map(|(i, (t, region, props))| {
                    let mut r = json!({"type": format!("t{t}"), "id": format!("id/{i}"), "properties": props});
                    if let Some(region) = region {
                        r["region"] = json!(region);
                    }
                    r
                })
                .collect();
            json!({"cloudspec_inventory": 1, "provider": "test", "resources": resources, "errors": [{"type": "t1", "message": "m"}]})
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Inventory::from_slice(&bytes, "random.json");
    }

    #[test]
    fn random_bytes_after_a_valid_prefix_never_panic(tail in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = b"{\"cloudspec_inventory\": 1, \"resources\": [{\"type\": \"t\", \"id\": \"i\", \"properties\": ".to_vec();
        bytes.extend(tail);
        let _ = Inventory::from_slice(&bytes, "random.json");
    }

    #[test]
    fn random_json_never_panics_and_loads_back_the_same(props in any_json()) {
        let text = json!({"cloudspec_inventory": 1, "resources": [{"type": "t", "id": "i", "properties": props}]}).to_string();
        if let Ok(inv) = Inventory::from_slice(text.as_bytes(), "random.json") {
            let again = Inventory::from_slice(inv.to_json_string().as_bytes(), "saved.json");
            prop_assert_eq!(again.map(|a| canonical(&a)).ok(), Some(canonical(&inv)));
        }
    }

    #[test]
    fn marker_free_json_always_loads(props in any_json()) {
        let text = serde_json::to_string_pretty(&json!({"cloudspec_inventory": 1, "resources": [{"type": "t", "id": "i", "properties": {"p": props}}]})).unwrap_or_default();
        if !text.contains("\"$ref\"") && !text.contains("\"$unknown\"") {
            let loaded = Inventory::from_slice(text.as_bytes(), "random.json");
            prop_assert!(loaded.is_ok(), "{:?}", loaded.err());
        }
    }

    /// The reader's inventories resolve references by walking only keys that hold them;
    /// the same resources pushed one by one (every value walked) resolve the same.
    #[test]
    fn resolving_under_reference_keys_equals_walking_everything(doc in inventory_json()) {
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        let inv = Inventory::from_slice(text.as_bytes(), "gen.json");
        prop_assert!(inv.is_ok(), "{:?}", inv.as_ref().err());
        let inv = inv.unwrap_or_default();
        let mut builder = cloudspec_model::InventoryBuilder::new();
        *builder.interner() = inv.interner.clone();
        for resource in &inv.resources {
            let mut resource = resource.clone();
            for (_, value) in resource.properties.entries.iter_mut() {
                unresolve(value);
            }
            prop_assert!(builder.push(resource).is_ok());
        }
        for error in &inv.errors {
            builder.push_error(error.clone());
        }
        builder.set_provider(inv.provider.clone());
        prop_assert_eq!(canonical(&builder.finish()), canonical(&inv));
    }

    #[test]
    fn generated_inventories_round_trip(doc in inventory_json()) {
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        let inv = Inventory::from_slice(text.as_bytes(), "gen.json");
        prop_assert!(inv.is_ok(), "{:?}", inv.as_ref().err());
        let inv = inv.unwrap_or_default();
        let saved = inv.to_json_string();
        let again = Inventory::from_slice(saved.as_bytes(), "saved.json");
        prop_assert!(again.is_ok(), "{:?}", again.as_ref().err());
        let again = again.unwrap_or_default();
        prop_assert_eq!(canonical(&again), canonical(&inv));
        prop_assert_eq!(again.to_json_string(), saved);
    }
}

/// JSON text for `value` with two-space indents, where the characters of the keys for
/// which `escape` says so are written as `\uXXXX` escapes.
fn pretty_with_escaped_keys(
    value: &Json,
    escape: &mut impl FnMut() -> bool,
    indent: usize,
    out: &mut String,
) {
    let (close, members): (char, Vec<(Option<&String>, &Json)>) = match value {
        Json::Object(map) if !map.is_empty() => {
            ('}', map.iter().map(|(k, v)| (Some(k), v)).collect())
        }
        Json::Array(items) if !items.is_empty() => (']', items.iter().map(|v| (None, v)).collect()),
        other => return out.push_str(&other.to_string()),
    };
    out.push(if close == '}' { '{' } else { '[' });
    out.push('\n');
    for (i, (key, v)) in members.iter().enumerate() {
        out.push_str(&" ".repeat(indent + 2));
        if let Some(key) = key {
            if escape() {
                let units: String = key.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
                out.push_str(&format!("\"{units}\""));
            } else {
                out.push_str(&Json::String((*key).clone()).to_string());
            }
            out.push_str(": ");
        }
        pretty_with_escaped_keys(v, escape, indent + 2, out);
        out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
    }
    out.push_str(&" ".repeat(indent));
    out.push(close);
}

/// Forgets every reference's target.
fn unresolve(value: &mut cloudspec_model::Value) {
    use cloudspec_model::Value;
    match value {
        Value::Ref(r) => r.target = None,
        Value::List(items) => items.iter_mut().for_each(unresolve),
        Value::Object(o) => o.entries.iter_mut().for_each(|(_, v)| unresolve(v)),
        _ => {}
    }
}

/// Plain JSON of a loaded value (the inputs below hold no references or unknowns).
fn plain(inv: &Inventory, v: &cloudspec_model::Value) -> Json {
    use cloudspec_model::Value;
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Float(f) => json!(f),
        Value::Str(s) => json!(&**s),
        Value::List(items) => items.iter().map(|i| plain(inv, i)).collect(),
        Value::Object(o) => Json::Object(
            o.iter()
                .map(|(k, v)| (inv.interner.resolve(*k).to_string(), plain(inv, v)))
                .collect(),
        ),
        Value::Ref(r) => json!({ "$ref": &*r.raw }),
        Value::Unknown(u) => json!({ "$unknown": &*u.reason }),
    }
}

/// Objects of a few shapes, so that keys repeat in the same order from one object to the
/// next (the reader guesses the next key from the last ones) and sometimes do not: keys
/// that are prefixes of others, that need escapes, that are not ASCII, or empty.
fn repetitive_properties() -> impl Strategy<Value = Json> {
    let key = prop_oneof![
        Just("a".to_string()),
        Just("ab".to_string()),
        Just("b".to_string()),
        Just("a\"".to_string()),
        Just("\\".to_string()),
        Just("é".to_string()),
        Just("\\n".to_string()),
        Just("\n".to_string()),
        Just(String::new()),
        Just("size".to_string()),
    ];
    let leaf = prop_oneof![
        Just(Json::Null),
        (0..100i64).prop_map(|i| json!(i)),
        "[a-z]{0,3}".prop_map(Json::String)
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map(key.clone(), inner, 0..5)
                .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The loaded properties are what an independent JSON parser reads, whatever the
    /// reader guessed about the keys.
    #[test]
    fn properties_are_what_serde_json_reads(
        props in prop::collection::vec(repetitive_properties(), 1..8),
        escapes in prop::collection::vec(any::<bool>(), 64),
    ) {
        let resources: Vec<Json> = props
            .iter()
            .enumerate()
            .map(|(i, p)| json!({"type": "t", "id": format!("r{i}"), "properties": {"p": p, "q": p}}))
            .collect();
        let doc = json!({"cloudspec_inventory": 1, "resources": resources});
        let mut next = escapes.iter().cycle();
        let mut escape = || *next.next().unwrap_or(&false);
        let mut text = String::new();
        pretty_with_escaped_keys(&doc, &mut escape, 0, &mut text);
        let oracle: Json = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let inv = Inventory::from_slice(text.as_bytes(), "keys.json");
        prop_assert!(inv.is_ok(), "{:?}", inv.as_ref().err());
        let inv = inv.unwrap_or_default();
        for (i, resource) in inv.resources.iter().enumerate() {
            let loaded = Json::Object(
                resource
                    .properties
                    .iter()
                    .map(|(k, v)| (inv.interner.resolve(*k).to_string(), plain(&inv, v)))
                    .collect(),
            );
            prop_assert_eq!(&loaded, &oracle["resources"][i]["properties"]);
        }
    }
}

/// The keys of every object in `value`, sorted.
fn all_keys(value: &Json, out: &mut std::collections::BTreeSet<String>) {
    match value {
        Json::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                all_keys(v, out);
            }
        }
        Json::Array(items) => items.iter().for_each(|v| all_keys(v, out)),
        _ => {}
    }
}

/// A projection over the keys of `doc`: each key dropped, kept through or kept whole by
/// `choices` (cycled); also the names of each set, for [`prune`].
fn projection_of(
    doc: &Json,
    choices: &[u8],
) -> (
    cloudspec_model::Projection,
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
) {
    let mut keys = std::collections::BTreeSet::new();
    all_keys(doc, &mut keys);
    let (mut through, mut whole) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    let mut keep = cloudspec_model::Projection::new();
    for (key, choice) in keys.into_iter().zip(choices.iter().cycle()) {
        match choice {
            1 => {
                keep.keep_through(&key);
                through.insert(key);
            }
            2 => {
                keep.keep_whole(&key);
                whole.insert(key);
            }
            _ => {}
        }
    }
    (keep, through, whole)
}

/// What a projection keeps of a fully loaded object, computed on the model: the
/// independent statement of `Projection`'s rules.
fn prune(
    inv: &Inventory,
    object: &mut cloudspec_model::Object,
    through: &std::collections::BTreeSet<String>,
    whole: &std::collections::BTreeSet<String>,
) {
    let entries: Vec<(cloudspec_model::Sym, cloudspec_model::Value)> =
        std::mem::take(&mut object.entries)
            .into_vec()
            .into_iter()
            .filter_map(|(k, mut v)| {
                let name = inv.interner.resolve(k);
                if name.starts_with('$') || name == "not_null" || whole.contains(name) {
                    Some((k, v))
                } else if through.contains(name) {
                    prune_value(inv, &mut v, through, whole);
                    Some((k, v))
                } else {
                    None
                }
            })
            .collect();
    object.entries = entries.into_boxed_slice();
}

fn prune_value(
    inv: &Inventory,
    value: &mut cloudspec_model::Value,
    through: &std::collections::BTreeSet<String>,
    whole: &std::collections::BTreeSet<String>,
) {
    match value {
        cloudspec_model::Value::Object(o) => prune(inv, o, through, whole),
        cloudspec_model::Value::List(items) => items
            .iter_mut()
            .for_each(|v| prune_value(inv, v, through, whole)),
        _ => {}
    }
}

/// A projected load of `text` is the full load pruned, or the full load's error.
fn check_projected(text: &[u8], doc: &Json, choices: &[u8]) -> Result<(), TestCaseError> {
    let (keep, through, whole) = projection_of(doc, choices);
    let full = Inventory::from_slice_with_threads(text, "p.json", 1);
    let projected = Inventory::from_slice_projected(text, "p.json", 1, &keep);
    match (full, projected) {
        (Ok(mut full), Ok(projected)) => {
            let mut resources = std::mem::take(&mut full.resources);
            for r in &mut resources {
                prune(&full, &mut r.properties, &through, &whole);
            }
            full.resources = resources;
            prop_assert_eq!(canonical(&projected), canonical(&full));
        }
        (Err(full), Err(projected)) => prop_assert_eq!(projected.to_string(), full.to_string()),
        (full, projected) => prop_assert!(
            false,
            "full load {:?}, projected load {:?}",
            full.err(),
            projected.err()
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A projected load keeps exactly what the projection names, and the dangling
    /// references under what it drops are still listed.
    #[test]
    fn a_projected_load_is_the_full_load_pruned(
        doc in inventory_json(),
        choices in prop::collection::vec(0..3u8, 1..12),
        pretty in any::<bool>(),
    ) {
        let text = if pretty {
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        } else {
            doc.to_string()
        };
        check_projected(text.as_bytes(), &doc, &choices)?;
    }

    /// On a damaged document a projected load fails exactly as a full load does: what it
    /// drops is still read and checked.
    #[test]
    fn a_projected_load_of_a_damaged_document_fails_as_a_full_load(
        doc in inventory_json(),
        choices in prop::collection::vec(0..3u8, 1..12),
        damage in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"{}[],:\"\\ $e.-0x\n".to_vec())), 1..3),
    ) {
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default().into_bytes();
        for (at, byte) in damage {
            let at = at.index(text.len());
            text[at] = byte;
        }
        check_projected(&text, &doc, &choices)?;
    }
}
