//! Projected loads (`Inventory::load_projected`) against full loads on documents whose
//! dropped properties hold every kind of valid and invalid JSON: the same errors, the same
//! dangling references, and nothing of what was dropped.

use cloudspec_model::{Inventory, Projection};

fn document(properties: &str) -> String {
    format!(
        "{{\"cloudspec_inventory\": 1, \"resources\": [\n  {{\"type\": \"t\", \"id\": \"i\", \"properties\": {properties}}}\n]}}"
    )
}

/// Keeps `kept` whole and drops everything else (`x` in the cases).
fn keep() -> Projection {
    let mut keep = Projection::new();
    keep.keep_whole("kept");
    keep
}

fn load(properties: &str) -> (Result<Inventory, String>, Result<Inventory, String>) {
    let text = document(properties);
    let full = Inventory::from_slice_with_threads(text.as_bytes(), "p.json", 1);
    let projected = Inventory::from_slice_projected(text.as_bytes(), "p.json", 1, &keep());
    (
        full.map_err(|e| e.to_string()),
        projected.map_err(|e| e.to_string()),
    )
}

#[test]
fn dropped_values_fail_as_they_do_in_a_full_load() {
    let deep = format!("{{\"x\": {}1{}}}", "[".repeat(200), "]".repeat(200));
    let cases = [
        (
            r#"{"x": {"a": 1, "a": 2}, "kept": 1}"#,
            r#"p.json:2:57: duplicate key "a" (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": 1, "kept": 1, "x": 2}"#,
            r#"p.json:2:62: duplicate key "x" (at $.resources[0].properties)"#,
        ),
        (
            r#"{"x": "bad \q"}"#,
            r#"p.json:2:53: not JSON: invalid escape in a string (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": {"a": {"b": [1]}, "c": {"d": "bad \q"}}}"#,
            r#"p.json:2:82: not JSON: invalid escape in a string (at $.resources[0].properties.x.c.d)"#,
        ),
        (
            r#"{"x": 1e999}"#,
            r#"p.json:2:48: not JSON: number out of range: 1e999 (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": 01}"#,
            r#"p.json:2:49: not JSON: expected `,` or `}` after an object member (at $.resources[0].properties)"#,
        ),
        (
            r#"{"x": [1, 2,]}"#,
            r#"p.json:2:54: not JSON: expected a JSON value (at $.resources[0].properties.x[2])"#,
        ),
        (
            r#"{"x": {"$unknown": 5}}"#,
            r#"p.json:2:49: expected "$unknown" to be a string (why the value is unknown), found number (at $.resources[0].properties.x.$unknown)"#,
        ),
        (
            r#"{"$unknown": "r", "x": 1}"#,
            r#"p.json:2:43: unexpected key "x" next to "$unknown" (allowed: "$unknown", "not_null") (at $.resources[0].properties)"#,
        ),
        (
            r#"{"x": 1, "$unknown": 5}"#,
            r#"p.json:2:51: unexpected key "x" next to "$unknown" (allowed: "$unknown", "not_null") (at $.resources[0].properties)"#,
        ),
        (
            &deep,
            r#"p.json:2:172: not JSON: nesting deeper than 128 arrays and objects"#,
        ),
        (
            "{\"x\": \"ctl\u{1}\"}",
            r#"p.json:2:52: not JSON: control character (U+0000 to U+001F) in a string: escape it (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": tru}"#,
            r#"p.json:2:48: not JSON: expected a JSON value (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": -}"#,
            r#"p.json:2:49: not JSON: invalid number: expected a digit (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": 1.}"#,
            r#"p.json:2:50: not JSON: invalid number: expected a digit after `.` (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": {"a" 1}}"#,
            r#"p.json:2:53: not JSON: expected `:` after an object key (at $.resources[0].properties.x)"#,
        ),
        (
            r#"{"x": {"$ref": 5}}"#,
            r#"p.json:2:56: expected "$ref" to be a string "<type>/<id>", found number (at $.resources[0].properties.x.$ref)"#,
        ),
        (
            r#"{"x": {"$ref": "noslash"}}"#,
            r#"p.json:2:56: expected "$ref" to be "<type>/<id>", found "noslash" (at $.resources[0].properties.x.$ref)"#,
        ),
        (
            r#"{"x": {"$ref": "/i"}}"#,
            r#"p.json:2:56: expected "$ref" to be "<type>/<id>", found "/i" (at $.resources[0].properties.x.$ref)"#,
        ),
        (
            r#"{"x": [{"$ref": "t/i", "y": 1}]}"#,
            r#"p.json:2:63: "$ref" must be the only key of its object (at $.resources[0].properties.x[0].$ref)"#,
        ),
        (
            r#"{"x": {"a": 1, "$ref": "t/i"}}"#,
            r#"p.json:2:57: "$ref" must be the only key of its object (at $.resources[0].properties.x.$ref)"#,
        ),
        (
            r#"{"x": {"$ref": "t/i"}, "x": 2}"#,
            r#"p.json:2:65: duplicate key "x" (at $.resources[0].properties)"#,
        ),
    ];
    for (properties, expected) in cases {
        let (full, projected) = load(properties);
        let full = full
            .err()
            .unwrap_or_else(|| panic!("{properties}: a full load succeeds"));
        assert_eq!(
            projected.err().as_deref(),
            Some(full.as_str()),
            "{properties}"
        );
        // The nesting error's path is 128 indexes long: its start is enough.
        assert!(full.starts_with(expected), "{properties}: {full}");
    }
}

#[test]
fn dropped_values_are_gone_and_their_dangling_references_listed() {
    // Each document, and the same without what the projection drops.
    let cases = [
        (
            r#"{"x": "a\u00e9\n \"q\"", "kept": {"a": [1, {"b": null}]}}"#,
            r#"{"kept": {"a": [1, {"b": null}]}}"#,
        ),
        (
            r#"{"x": {"a": [1.5, -0, 2.25e3, true, false, null, "s", {}, []]}, "kept": 1}"#,
            r#"{"kept": 1}"#,
        ),
        (
            r#"{"x": [{"y": {"$ref": "t/missing"}}], "kept": {"$ref": "t/i"}}"#,
            r#"{"kept": {"$ref": "t/i"}}"#,
        ),
        (
            r#"{"x": {"$unknown": "later", "not_null": true}, "kept": 2}"#,
            r#"{"kept": 2}"#,
        ),
        (r#"{"x": {"": 1, "a b": 2}, "kept": 3}"#, r#"{"kept": 3}"#),
        // Not plain at the bottom (an escape), so read in full: its plain members'
        // references are counted once, as a full load counts them.
        (
            r#"{"x": {"a": {"$ref": "t/gone"}, "b": {"c": {"d": "e\"f"}}}, "kept": 4}"#,
            r#"{"kept": 4}"#,
        ),
    ];
    for (properties, without) in cases {
        let (full, projected) = load(properties);
        let (full, projected) = match (full, projected) {
            (Ok(f), Ok(p)) => (f, p),
            other => panic!("{properties}: {other:?}"),
        };
        let expected = Inventory::from_slice(document(without).as_bytes(), "w.json")
            .unwrap_or_else(|e| panic!("{without}: {e}"));
        assert_eq!(
            projected.to_json_string(),
            expected.to_json_string(),
            "{properties}"
        );
        assert_eq!(
            projected.dangling_refs(),
            full.dangling_refs(),
            "{properties}"
        );
    }
    let (_, projected) = load(r#"{"x": [{"y": {"$ref": "t/missing"}}]}"#);
    assert_eq!(
        projected.map(|p| p.dangling_refs().to_vec()),
        Ok(vec!["t/missing".to_string()])
    );
}
