//! Hostile inventories (`docs/security.md`, issue 16): inputs built to make the loader slow,
//! endless or noisy. Each must fail (or load) at once, with a bounded message that has a
//! position and a JSON path. No test here times anything: the quadratic cases are sized so
//! that the old code took minutes (bench/README.md has the figures).

use std::io::Write as _;
use std::path::Path;

use cloudspec_model::{Inventory, Projection};

/// An inventory with one resource whose `properties` are `properties` (JSON text).
fn with_properties(properties: &str) -> String {
    format!(
        "{{\n  \"cloudspec_inventory\": 1,\n  \"resources\": [\n    {{\"type\": \"t\", \"id\": \"i-1\", \"properties\": {properties}}}\n  ]\n}}\n"
    )
}

fn error(text: &str, threads: usize) -> String {
    match Inventory::from_slice_with_threads(text.as_bytes(), "f.json", threads) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

/// `{"k0": 0, "k1": 1, ...}` with `n` keys, then `tail` (`, "k0": 0`, say) before `}`.
fn many_keys(n: usize, tail: &str) -> String {
    let mut out = String::from("{");
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("\"k{i}\": {i}"));
    }
    out.push_str(tail);
    out.push('}');
    out
}

#[test]
fn an_object_with_many_keys_loads_and_its_duplicates_are_found() {
    // 100,000 distinct keys: the old duplicate check compared each key with all before it.
    let n = 100_000;
    let text = with_properties(&many_keys(n, ""));
    let inv = Inventory::from_slice(text.as_bytes(), "f.json").expect("loads");
    assert_eq!(inv.resources[0].properties.len(), n);

    // A duplicate of the first key at the very end, of a middle one, of the last one.
    for dup in [0, n / 2, n - 1] {
        let text = with_properties(&many_keys(n, &format!(", \"k{dup}\": 7")));
        let column = text.rfind(&format!("\"k{dup}\": 7")).expect("tail") + 1
            - text.find("    {").expect("line 4");
        for threads in [1, 4] {
            assert_eq!(
                error(&text, threads),
                format!(
                    "f.json:4:{column}: duplicate key \"k{dup}\" (at $.resources[0].properties)"
                )
            );
        }
    }
}

#[test]
fn duplicates_are_found_in_every_object_size_around_the_switch_to_a_set() {
    // Objects of 1 to 80 keys, each key duplicated at the end in turn, nested and not.
    for n in [1, 2, 31, 32, 33, 63, 64, 65, 80] {
        for dup in 0..n {
            let object = many_keys(n, &format!(", \"k{dup}\": null"));
            let text = with_properties(&format!("{{\"deep\": [{object}]}}"));
            let e = error(&text, 1);
            assert!(
                e.ends_with(&format!(
                    "duplicate key \"k{dup}\" (at $.resources[0].properties.deep[0])"
                )),
                "{n} keys, duplicate k{dup}: {e}"
            );
        }
        // No duplicate: loads.
        let text = with_properties(&many_keys(n, ""));
        assert!(Inventory::from_slice(text.as_bytes(), "f.json").is_ok());
    }
}

#[test]
fn duplicates_among_dropped_and_kept_keys_of_a_big_object_are_found() {
    // A projected load keeps `k1` only; the duplicate of the dropped `k5` comes after the
    // object has grown past the size where the keys go into a set.
    let mut keep = Projection::new();
    keep.keep_whole("k1");
    for (dup, n) in [(5, 100), (1, 100), (99, 100), (5, 20)] {
        let text = with_properties(&many_keys(n, &format!(", \"k{dup}\": 1")));
        let e = Inventory::from_slice_projected(text.as_bytes(), "f.json", 1, &keep)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.ends_with(&format!(
                "duplicate key \"k{dup}\" (at $.resources[0].properties)"
            )),
            "{e}"
        );
        assert_eq!(e, error(&text, 1));
    }
    // Inside a dropped property: stepped over while small, read in full when big.
    for n in [10, 100, 10_000] {
        let text = with_properties(&format!("{{\"dropped\": {}}}", many_keys(n, ", \"k3\": 1")));
        let e = Inventory::from_slice_projected(text.as_bytes(), "f.json", 1, &keep)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.ends_with("duplicate key \"k3\" (at $.resources[0].properties.dropped)"),
            "{n}: {e}"
        );
    }
}

#[test]
fn dev_zero_fails_at_its_first_byte() {
    // The old loader read a device whole before parsing: endless for /dev/zero.
    let e = Inventory::load(Path::new("/dev/zero")).expect_err("not an inventory");
    assert_eq!(
        e.to_string(),
        "/dev/zero:1:1: not JSON: expected a JSON value (at $)"
    );
}

#[test]
fn a_pipe_that_never_ends_fails_at_its_first_wrong_byte() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo: skipped");
        return;
    }
    let writer_path = fifo.clone();
    // Whitespace, then an array, then garbage forever (until the reader goes away).
    let writer = std::thread::spawn(move || {
        let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(&writer_path) else {
            return;
        };
        let _ = w.write_all(b"\n\n  [");
        let block = vec![b'1'; 1 << 16];
        while w.write_all(&block).is_ok() {}
    });
    let e = Inventory::load(&fifo).expect_err("not an inventory");
    let name = fifo.display().to_string();
    assert_eq!(
        e.to_string(),
        format!("{name}:3:3: expected the inventory to be a JSON object, found array (at $)")
    );
    drop(e);
    let _ = writer.join();
}

#[test]
fn a_pipe_with_an_inventory_loads() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo: skipped");
        return;
    }
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        if let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(&writer_path) {
            let _ = w.write_all(with_properties("{\"a\": 1}").as_bytes());
        }
    });
    let inv = Inventory::load(&fifo).expect("loads");
    assert_eq!(inv.resources.len(), 1);
    let _ = writer.join();
}

#[test]
fn messages_quote_a_bounded_excerpt_of_the_input() {
    let long = "x".repeat(100_000);
    let cases = [
        // A long duplicate key, in the message and in the path.
        with_properties(&format!("{{\"{long}\": {{\"a\": 1, \"a\": 2}}}}")),
        with_properties(&format!("{{\"{long}\": 1, \"{long}\": 2}}")),
        // A long reference, a long number, a long unknown-marker key.
        with_properties(&format!("{{\"r\": {{\"$ref\": \"{long}\"}}}}")),
        with_properties(&format!("{{\"n\": 1{}e400}}", "0".repeat(100_000))),
        with_properties(&format!("{{\"u\": {{\"$unknown\": \"\", \"{long}\": 1}}}}")),
        // A long type, a long duplicate resource id, a long collected_at.
        with_properties("{}").replace("\"type\": \"t\"", &format!("\"type\": \"{long}/\"")),
        with_properties("{}")
            .replace(
                "{\"type\"",
                &format!("{{\"type\": \"t\", \"id\": \"{long}\"}}, {{\"type\""),
            )
            .replace("\"id\": \"i-1\"", &format!("\"id\": \"{long}\"")),
        with_properties("{}").replace(
            "\"resources\"",
            &format!("\"collected_at\": \"{long}\", \"resources\""),
        ),
    ];
    for (k, text) in cases.iter().enumerate() {
        let e = error(text, 1);
        assert!(e.len() < 400, "case {k}: {} bytes: {e}", e.len());
        assert!(e.contains('…'), "case {k}: nothing cut: {e}");
    }
}

#[test]
fn control_characters_never_reach_a_message() {
    let cases = [
        with_properties("{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}"),
        with_properties("{\"r\": {\"$ref\": \"\\u009b31m\"}}"),
        with_properties("{\"a\\u202e\": {\"$unknown\": 5}}"),
        with_properties("{}")
            .replace(
                "{\"type\"",
                "{\"type\": \"t\", \"id\": \"\\u001b]0;pwned\\u0007\"}, {\"type\"",
            )
            .replace("\"id\": \"i-1\"", "\"id\": \"\\u001b]0;pwned\\u0007\""),
    ];
    for (k, text) in cases.iter().enumerate() {
        let e = error(text, 1);
        assert!(
            !e.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "case {k}: {e:?}"
        );
    }
    let e = error(&cases[3], 1);
    assert_eq!(
        e,
        "f.json:4:50: duplicate resource t/\\u{1b}]0;pwned\\u{7} (first at $.resources[0]) (at $.resources[1])"
    );
}

#[test]
fn a_file_name_with_control_characters_is_escaped() {
    let e = Inventory::from_slice(b"[]", "a\x1b[31m.json").expect_err("not an inventory");
    assert_eq!(
        e.to_string(),
        "a\\u{1b}[31m.json:1:1: expected the inventory to be a JSON object, found array (at $)"
    );
}

#[test]
fn invalid_utf8_is_reported_where_it_is_with_its_path() {
    let cases: [(&[u8], &str); 5] = [
        (
            b"{\"cloudspec_inventory\": 1, \"resources\": [{\"type\": \"t\", \"id\": \"a\xffb\"}]}",
            "f.json:1:64: not JSON: invalid UTF-8 (an inventory is UTF-8 JSON) (at $.resources[0].id)",
        ),
        (
            b"{\"cloudspec_inventory\": 1,\r\"resources\": [{\"type\": \"t\", \"id\": \"i\",\r \"properties\": {\"x\": [1, \xc3(]}}]}",
            "f.json:3:26: not JSON: invalid UTF-8 (an inventory is UTF-8 JSON) (at $.resources[0].properties.x[1])",
        ),
        (
            b"\xef\xbb\xbf{\"\xff\": 1}",
            "f.json:1:3: not JSON: invalid UTF-8 (an inventory is UTF-8 JSON) (at $)",
        ),
        // An error before the invalid byte is the one reported.
        (
            b"{\"cloudspec_inventory\": 1, \"resources\": [{\"type\": 4}], \"x\": \"\xff\"}",
            "f.json:1:51: expected \"type\" to be a string, found number (at $.resources[0].type)",
        ),
        (
            b"\xff",
            "f.json:1:1: not JSON: invalid UTF-8 (an inventory is UTF-8 JSON) (at $)",
        ),
    ];
    for (bytes, expected) in cases {
        for threads in [1, 4] {
            let e =
                Inventory::from_slice_with_threads(bytes, "f.json", threads).expect_err("invalid");
            assert_eq!(e.to_string(), expected);
        }
    }
}

#[test]
fn a_byte_order_mark_is_skipped_and_not_counted() {
    let text = with_properties("{\"a\": 1}");
    let with_bom = [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat();
    let inv = Inventory::from_slice(&with_bom, "f.json").expect("loads");
    assert_eq!(
        inv.to_json_string(),
        Inventory::from_slice(text.as_bytes(), "f.json")
            .expect("loads")
            .to_json_string()
    );
    let e = Inventory::from_slice(b"\xef\xbb\xbf  [1]", "f.json").expect_err("array");
    assert_eq!(
        e.to_string(),
        "f.json:1:3: expected the inventory to be a JSON object, found array (at $)"
    );
    // Only at the start: a second one is not JSON.
    let e = Inventory::from_slice(b"\xef\xbb\xbf\xef\xbb\xbf{}", "f.json").expect_err("two");
    assert_eq!(
        e.to_string(),
        "f.json:1:1: not JSON: expected a JSON value (at $)"
    );
}

#[test]
fn a_lone_carriage_return_ends_a_line() {
    let text = with_properties("{\"a\": tru}").replace('\n', "\r");
    assert_eq!(
        error(&text, 1),
        "f.json:4:52: not JSON: expected a JSON value (at $.resources[0].properties.a)"
    );
}

#[test]
fn deep_nesting_everywhere_is_an_error_not_a_crash() {
    // Deep in properties, in an unknown field, in a source, in a dropped property.
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_object = format!("{}1{}", "{\"a\": ".repeat(100_000), "}".repeat(100_000));
    let mut keep = Projection::new();
    keep.keep_whole("kept");
    for value in [&deep, &deep_object] {
        for text in [
            with_properties(&format!("{{\"p\": {value}}}")),
            with_properties("{}").replace("\"id\"", &format!("\"x\": {value}, \"id\"")),
            with_properties("{}")
                .replace("\"resources\"", &format!("\"x\": {value}, \"resources\"")),
        ] {
            let e = error(&text, 1);
            assert!(
                e.contains("nesting deeper than 128 arrays and objects"),
                "{e}"
            );
            let e = Inventory::from_slice_projected(text.as_bytes(), "f.json", 1, &keep)
                .expect_err("deep");
            assert!(e.to_string().contains("nesting deeper than 128"), "{e}");
        }
    }
}

/// `n` distinct keys of 65 ASCII characters with one and the same FxHash (rustc-hash 2.1):
/// the first 16-byte block is free, the third's first half cancels it (a product with
/// zero), the rest is fixed. A map with a fixed hash seed holding them scans them all on
/// every insert.
fn colliding_keys(n: usize) -> Vec<String> {
    const SEED1: u64 = 0x243f_6a88_85a3_08d3;
    const ZERO_COLLAPSE: u64 = 0xa409_3822_299f_31d0;
    let mix = |x: u64, y: u64| {
        let full = u128::from(x).wrapping_mul(u128::from(y));
        (full as u64) ^ ((full >> 64) as u64)
    };
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut keys = Vec::with_capacity(n);
    while keys.len() < n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let free: [u8; 16] =
            std::array::from_fn(|i| b'a' + (state.rotate_left(i as u32 * 4) % 26) as u8);
        let (x, y) = free.split_at(8);
        let x = u64::from_le_bytes(x.try_into().unwrap_or_default());
        let y = u64::from_le_bytes(y.try_into().unwrap_or_default());
        let cancel = mix(SEED1 ^ x, ZERO_COLLAPSE ^ y).to_le_bytes();
        if !cancel.is_ascii() {
            continue;
        }
        let mut key = Vec::with_capacity(65);
        key.extend_from_slice(&free);
        key.extend_from_slice(b"BBBBBBBBBBBBBBBB");
        key.extend_from_slice(&cancel);
        key.extend_from_slice(b"CCCCCCCCDDDDDDDDDDDDDDDDE");
        keys.push(String::from_utf8(key).unwrap_or_default());
    }
    keys.sort();
    keys.dedup();
    keys
}

#[test]
fn keys_and_ids_built_to_collide_load_in_linear_time() {
    // With FxHash, 20,000 such keys took 6.2 s to intern (release build), and as many
    // resource ids as long to index; the maps keyed by input text now have a random seed.
    let keys = colliding_keys(20_000);
    let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let properties: Vec<String> = keys.iter().map(|k| format!("{}: 1", json(k))).collect();
    let text = with_properties(&format!("{{{}}}", properties.join(", ")));
    let inv = Inventory::from_slice(text.as_bytes(), "f.json").expect("loads");
    assert_eq!(inv.resources[0].properties.len(), keys.len());

    let resources: Vec<String> = keys
        .iter()
        .map(|k| format!("{{\"type\": \"t\", \"id\": {}}}", json(k)))
        .collect();
    let text = format!(
        "{{\"cloudspec_inventory\": 1, \"resources\": [{}]}}",
        resources.join(",\n")
    );
    let inv = Inventory::from_slice(text.as_bytes(), "f.json").expect("loads");
    assert_eq!(inv.resources.len(), keys.len());
    assert!(inv.find("t", &keys[keys.len() / 2]).is_some());
}
