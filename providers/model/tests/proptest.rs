//! Property tests: no input panics the loader, and generated inventories round-trip.

mod common;

use cloudspec_model::Inventory;
use common::canonical;
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
