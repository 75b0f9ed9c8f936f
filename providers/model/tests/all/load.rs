//! Loading: what the loaded inventory holds, the parallel reader against the serial one,
//! saving to a file, and inputs that must fail without crashing.

use std::path::Path;

use crate::common::canonical;
use cloudspec_model::{Inventory, LoadErrorKind, Value};

fn fixture(name: &str) -> Inventory {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/valid")
        .join(name);
    match Inventory::load(&path) {
        Ok(inv) => inv,
        Err(e) => panic!("{e}"),
    }
}

fn prop<'a>(inv: &'a Inventory, type_name: &str, id: &str, key: &str) -> &'a Value {
    let idx = inv.find(type_name, id).expect("resource");
    let sym = inv.sym(key).expect("key");
    inv.resource(idx)
        .and_then(|r| r.properties.get(sym))
        .expect("property")
}

#[test]
fn references_resolve_at_any_depth_and_in_lists() {
    let inv = fixture("refs-everywhere.json");
    let vpc = inv.find("aws:ec2:vpc", "vpc-1");
    let Value::Ref(r) = prop(&inv, "aws:ec2:instance", "i-1", "vpc") else {
        panic!("not a ref")
    };
    assert_eq!(r.target, vpc);
    // deep.a[0].b.c[0][0]
    let deep = prop(&inv, "aws:ec2:instance", "i-1", "deep");
    let get = |v: &Value, k: &str| match v {
        Value::Object(o) => o.get(inv.sym(k).expect("key")).cloned(),
        _ => None,
    };
    let first = |v: Option<Value>| match v {
        Some(Value::List(items)) => items.first().cloned(),
        _ => None,
    };
    let c = get(
        &get(&first(get(deep, "a")).expect("a[0]"), "b").expect("b"),
        "c",
    );
    let Some(Value::Ref(r)) = first(first(c)) else {
        panic!("c[0][0] is not a ref")
    };
    assert_eq!(r.target, vpc);
}

#[test]
fn reference_ids_keep_their_slashes() {
    let inv = fixture("refs-everywhere.json");
    let Value::Ref(r) = prop(&inv, "aws:ec2:instance", "i-1", "role") else {
        panic!("not a ref")
    };
    assert_eq!(r.target_type(), "aws:iam:role");
    assert_eq!(r.target_id(), "arn:aws:iam::123:role/path/app");
    assert_eq!(
        r.target,
        inv.find("aws:iam:role", "arn:aws:iam::123:role/path/app")
    );
}

#[test]
fn dangling_references_are_listed_once() {
    let inv = fixture("refs-everywhere.json");
    assert_eq!(inv.dangling_refs(), ["aws:ec2:subnet/subnet-404"]);
    let Value::List(items) = prop(&inv, "aws:ec2:instance", "i-1", "missing") else {
        panic!("not a list")
    };
    assert!(items
        .iter()
        .all(|v| matches!(v, Value::Ref(r) if r.target.is_none())));
}

#[test]
fn unknown_markers_keep_reason_and_not_null() {
    let inv = fixture("unknown-markers.json");
    let Value::Unknown(arn) = prop(&inv, "aws:s3:bucket", "aws_s3_bucket.logs", "arn") else {
        panic!()
    };
    assert_eq!(
        (&*arn.reason, arn.not_null),
        ("computed by AWS after apply", true)
    );
    let Value::Unknown(policy) = prop(&inv, "aws:s3:bucket", "aws_s3_bucket.logs", "policy") else {
        panic!()
    };
    assert_eq!(
        (&*policy.reason, policy.not_null),
        ("depends on a data source", false)
    );
    let source = inv
        .resources
        .first()
        .and_then(|r| r.source.clone())
        .expect("source");
    assert_eq!((source.file.as_str(), source.line), ("main.tf", Some(12)));
}

/// The reader guesses each key from the keys before it; `$` keys must still be seen for
/// what they are when they come in a repeated order.
#[test]
fn unknown_markers_in_repeated_objects_all_load_as_unknown() {
    let marker = r#"{"not_null": true, "$unknown": "later"}"#;
    let text = format!(
        r#"{{"cloudspec_inventory": 1, "resources": [{{"type": "t", "id": "i", "properties": {{"a": {marker}, "b": {marker}, "c": [{marker}, {marker}]}}}}]}}"#
    );
    let inv = Inventory::from_slice(text.as_bytes(), "markers.json").expect("loads");
    let mut values: Vec<&Value> = vec![prop(&inv, "t", "i", "a"), prop(&inv, "t", "i", "b")];
    if let Value::List(items) = prop(&inv, "t", "i", "c") {
        values.extend(items.iter());
    }
    assert_eq!(values.len(), 4);
    for value in values {
        assert!(
            matches!(value, Value::Unknown(u) if &*u.reason == "later" && u.not_null),
            "{value:?}"
        );
    }
}

#[test]
fn integers_that_fit_in_i64_are_ints_and_others_floats() {
    let inv = fixture("numbers-and-strings.json");
    let p = |k: &str| prop(&inv, "t", "numbers", k).clone();
    assert_eq!(p("max"), Value::Int(i64::MAX));
    assert_eq!(p("min"), Value::Int(i64::MIN));
    assert_eq!(p("above_i64"), Value::Float(9_223_372_036_854_775_808.0));
    assert_eq!(p("u64_max"), Value::Float(u64::MAX as f64));
    assert_eq!(p("below_i64"), Value::Float(-9_223_372_036_854_775_809.0));
    assert_eq!(p("exponent"), Value::Float(1000.0));
    assert_eq!(p("integral_decimal"), Value::Float(2.0));
    assert_eq!(p("negative"), Value::Int(-12));
}

#[test]
fn escapes_decode() {
    let inv = fixture("numbers-and-strings.json");
    let id = "strings with \"quotes\" and \\ and /";
    assert_eq!(
        prop(&inv, "t", id, "unicode").as_str(),
        Some("café 😀 日本 ✓")
    );
    assert_eq!(
        prop(&inv, "t", id, "controls").as_str(),
        Some("tab\tnew\nline\r\u{1}\u{8}\u{c}")
    );
}

#[test]
fn unknown_fields_are_ignored_and_their_keys_not_interned() {
    let inv = fixture("extra-fields.json");
    assert_eq!(inv.provider.as_deref(), Some("aws"));
    assert_eq!(inv.resources.len(), 1);
    for key in ["nested", "never", "k", "name", "keys"] {
        assert_eq!(inv.sym(key), None, "{key}");
    }
    assert_eq!(inv.errors_for("aws:s3:bucket").count(), 1);
}

#[test]
fn collection_errors_load() {
    let inv = fixture("contract-example.json");
    let errors: Vec<_> = inv.errors_for("aws:s3:bucket").collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].region.as_deref(), Some("eu-west-1"));
    assert_eq!(inv.types(), ["aws:ec2:instance", "aws:ec2:volume"]);
}

/// A pretty-printed inventory of `n` resources big enough for the parallel reader,
/// each pointing at the next and holding a nested list of objects.
fn big_inventory(n: usize) -> String {
    let mut out = String::from("{\n  \"cloudspec_inventory\": 1,\n  \"resources\": [\n");
    for i in 0..n {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&format!(
            "    {{\n      \"type\": \"t{}\",\n      \"id\": \"r{i}\",\n      \"properties\": {{\n        \"next\": {{ \"$ref\": \"t{}/r{}\" }},\n        \"k{}\": [\n          {{ \"a\": {i}, \"b\": \"text {i}\" }},\n          {{ \"c\": [1.5, true, null] }}\n        ]\n      }}\n    }}",
            i % 3,
            (i + 1) % 3,
            i + 1,
            i % 50
        ));
    }
    out.push_str("\n  ],\n  \"errors\": [{\"type\": \"t1\", \"message\": \"m\"}]\n}\n");
    out
}

/// The error of a load that must fail (without printing a whole inventory when it did not).
fn error_of(result: Result<Inventory, cloudspec_model::LoadError>) -> cloudspec_model::LoadError {
    match result {
        Err(e) => e,
        Ok(inv) => panic!(
            "loaded {} resources, expected an error",
            inv.resources.len()
        ),
    }
}

fn load_with(text: &str, threads: usize) -> Result<Inventory, cloudspec_model::LoadError> {
    Inventory::from_slice_with_threads(text.as_bytes(), "big.json", threads)
}

/// Loads `text` from a file named `big.json`, as `cloudspec run --inventory` does: window
/// by window through a memory map, never holding the whole file.
fn load_file_with(text: &str, threads: usize) -> Result<Inventory, cloudspec_model::LoadError> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.json");
    std::fs::write(&path, text).expect("write");
    let loaded = Inventory::load_with_threads(&path, threads);
    loaded.map_err(|mut e| {
        e.file = e.file.replace(&path.display().to_string(), "big.json");
        e
    })
}

#[test]
fn parallel_read_equals_serial_read() {
    let text = big_inventory(24_000);
    assert!(
        text.len() > 4 << 20,
        "too small to be split: {}",
        text.len()
    );
    let serial = load_with(&text, 1).expect("serial");
    for threads in [2, 3, 4] {
        let parallel = load_with(&text, threads).expect("parallel");
        assert_eq!(
            canonical(&parallel),
            canonical(&serial),
            "{threads} threads"
        );
        assert_eq!(parallel.to_json_string(), serial.to_json_string());
    }
    for threads in [1, 2, 3] {
        let from_file = load_file_with(&text, threads).expect("file");
        assert_eq!(
            canonical(&from_file),
            canonical(&serial),
            "file, {threads} threads"
        );
    }
    assert_eq!(serial.dangling_refs(), ["t0/r24000"]);
}

#[test]
fn parallel_errors_are_the_serial_errors() {
    let text = big_inventory(24_000);
    let late = text.replacen("\"id\": \"r23000\"", "\"id\": 23000", 1);
    let duplicate = text.replacen("\"id\": \"r23001\"", "\"id\": \"r3\"", 1);
    let broken = text.replacen("\"text 20000\"", "\"text 20000", 1);
    for bad in [late, duplicate, broken] {
        let serial = error_of(load_with(&bad, 1));
        for threads in [2, 4] {
            assert_eq!(load_with(&bad, threads).err().as_ref(), Some(&serial));
        }
        for threads in [1, 2] {
            assert_eq!(load_file_with(&bad, threads).err().as_ref(), Some(&serial));
        }
    }
    let serial = error_of(load_with(
        &text.replacen("\"id\": \"r23000\"", "\"id\": 23000", 1),
        1,
    ));
    assert_eq!(serial.json_path, "$.resources[23000].id");
    assert_eq!(serial.to_string(), format!("big.json:{}:13: expected \"id\" to be a string, found number (at $.resources[23000].id)", 4 + 23000 * 11 + 2));
}

/// A named pipe is read once, whole: a malformed inventory from a pipe still gets the
/// serial read's exact error (it cannot be read a second time).
#[cfg(unix)]
#[test]
fn a_pipe_is_read_once_with_exact_errors() {
    let text = big_inventory(24_000).replacen("\"id\": \"r23000\"", "\"id\": 23000", 1);
    let serial = error_of(load_with(&text, 1));
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("inventory.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let writer = {
        let (fifo, text) = (fifo.clone(), text.clone());
        std::thread::spawn(move || std::fs::write(fifo, text))
    };
    let err = error_of(Inventory::load_with_threads(&fifo, 2));
    assert!(writer.join().is_ok_and(|w| w.is_ok()));
    assert_eq!(
        (err.line, err.column, err.json_path, err.message),
        (serial.line, serial.column, serial.json_path, serial.message)
    );
}

#[test]
fn a_split_inside_a_nested_list_falls_back_to_the_serial_read() {
    // Nested list elements at the indentation of resources: split candidates that are
    // not resource boundaries.
    let mut text = String::from(
        "{\"cloudspec_inventory\": 1, \"resources\": [\n    {\"type\": \"t\", \"id\": \"first\"}",
    );
    for i in 0..60_000 {
        text.push_str(&format!(",\n    {{\"type\": \"t\", \"id\": \"r{i}\", \"properties\": {{\"l\": [\n    {{\"a\": 1}},\n    {{\"a\": 2}}\n]}}}}"));
    }
    text.push_str("\n]}");
    assert!(text.len() > 4 << 20);
    let serial = load_with(&text, 1).expect("serial");
    let parallel = load_with(&text, 2).expect("parallel");
    assert_eq!(canonical(&parallel), canonical(&serial));
    let from_file = load_file_with(&text, 2).expect("file");
    assert_eq!(canonical(&from_file), canonical(&serial));
}

#[test]
fn hundred_thousand_nested_arrays_are_an_error_not_a_crash() {
    let text = format!(
        "{{\"cloudspec_inventory\": 1, \"resources\": [{{\"type\": \"t\", \"id\": \"i\", \"properties\": {{\"x\": {}{}}}}}]}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let err = error_of(load_with(&text, 1));
    assert_eq!(err.kind, LoadErrorKind::Syntax);
    assert!(err.message.contains("nesting deeper than 128"), "{err}");
    let bare = "[".repeat(100_000);
    assert!(load_with(&bare, 1).is_err());
}

/// The old temporary name (`.NAME.PID.tmp`) followed a link planted there; the temporary
/// file is now created exclusively.
#[cfg(unix)]
#[test]
fn save_never_writes_through_a_planted_temporary_link() {
    let dir = tempfile::tempdir().expect("tempdir");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").expect("victim");
    for name in [
        format!(".inventory.json.{}.tmp", std::process::id()),
        format!(".inventory.json.{}.0.tmp", std::process::id()),
    ] {
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).expect("link");
    }
    let path = dir.path().join("inventory.json");
    fixture("contract-example.json").save(&path).expect("save");
    assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "keep");
    assert!(Inventory::load(&path).is_ok());
}

#[test]
fn save_writes_the_file_atomically_and_it_loads_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("inventory.json");
    let inv = fixture("contract-example.json");
    inv.save(&path).expect("save");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, ["inventory.json"], "no temporary file left behind");
    let again = Inventory::load(&path).expect("load");
    assert_eq!(canonical(&again), canonical(&inv));
    assert!(std::fs::read_to_string(&path)
        .expect("read")
        .ends_with("}\n"));
}

#[test]
fn a_missing_file_is_an_io_error_without_position() {
    let err = error_of(Inventory::load(Path::new("/nonexistent/inventory.json")));
    assert_eq!(err.kind, LoadErrorKind::Io);
    assert_eq!((err.line, err.column), (None, None));
    assert!(
        err.to_string()
            .starts_with("/nonexistent/inventory.json: cannot read: "),
        "{err}"
    );
    assert!(err.to_string().ends_with("(at $)"));
}

#[test]
fn columns_count_characters_not_bytes() {
    let text = "{\"cloudspec_inventory\": 1, \"resources\": [{\"type\": \"é\", \"id\": 1}]}";
    let err = error_of(load_with(text, 1));
    assert_eq!((err.line, err.column), (Some(1), Some(62)));
}

/// The header's `origin` (`design/terraform.md` section 3): read, written back as read, and
/// the directory reports locate the resources' files in.
#[test]
fn the_origin_is_kept_and_locates_source_files() {
    let text = r#"{"cloudspec_inventory": 1, "resources": [
      {"type": "t", "id": "a", "source": {"file": "modules/net/main.tf", "line": 3}},
      {"type": "t", "id": "b"}],
      "origin": {"kind": "terraform", "path": "./infra/"}}"#;
    let inv = load_with(text, 1).expect("loads");
    let origin = inv.origin.clone().expect("origin");
    assert_eq!(
        (origin.kind.as_str(), origin.path.as_str()),
        ("terraform", "./infra/")
    );
    let source = inv.resources[0].source.as_deref().expect("source");
    assert_eq!(source.file, "modules/net/main.tf");
    assert_eq!(source.located(), "infra/modules/net/main.tf");
    let saved = inv.to_json_string();
    assert!(
        saved.contains("  \"origin\": {\n    \"kind\": \"terraform\",\n    \"path\": \"./infra/\"\n  },\n  \"resources\""),
        "{saved}"
    );
    assert_eq!(
        load_with(&saved, 1).expect("reloads").to_json_string(),
        saved
    );
}

#[test]
fn the_origin_root_of_a_plan_is_its_folder() {
    let origin = |path: &str| cloudspec_model::Origin {
        kind: "terraform".into(),
        path: path.into(),
    };
    let cases = [
        ("infra", "main.tf", Some("infra")),
        (".", "main.tf", None),
        ("/abs/infra", "main.tf", Some("/abs/infra")),
        ("plan.json", "plan.json", None),
        ("out/plan.json", "plan.json", Some("out")),
        ("./out/plan.json", "plan.json", Some("out")),
        ("/plan.json", "plan.json", Some("/")),
        ("C:\\infra", "main.tf", Some("C:/infra")),
    ];
    for (path, file, want) in cases {
        assert_eq!(
            origin(path).root_for(file).as_deref(),
            want,
            "{path} {file}"
        );
    }
}

#[test]
fn a_malformed_origin_is_an_error_at_its_position() {
    for (origin, message) in [
        (
            r#""infra""#,
            "big.json:1:55: expected \"origin\" to be an object {\"kind\": ..., \"path\": ...}, found string (at $.origin)",
        ),
        (
            r#"{"kind": "terraform"}"#,
            "big.json:1:55: missing required field \"path\" (at $.origin)",
        ),
        (
            r#"{"kind": 1, "path": "x"}"#,
            "big.json:1:64: expected \"kind\" to be a string, found number (at $.origin.kind)",
        ),
    ] {
        let text = format!(r#"{{"cloudspec_inventory": 1, "resources": [], "origin": {origin}}}"#);
        assert_eq!(error_of(load_with(&text, 1)).to_string(), message, "{origin}");
    }
}

/// A collection error may name the members its failed call fills (`members`): read,
/// written back as read, and refused when not a list of strings.
#[test]
fn collection_errors_keep_their_members() {
    let text = r#"{"cloudspec_inventory": 1, "resources": [], "errors": [
      {"type": "aws:ec2:region", "region": "us-east-1", "members": ["ebs_default_kms_key_id"],
       "message": "GetEbsDefaultKmsKeyId: denied"},
      {"type": "aws:ec2:region", "region": "eu-west-1", "message": "DescribeRegions: denied"}]}"#;
    let inv = load_with(text, 1).expect("loads");
    assert_eq!(inv.errors[0].members, ["ebs_default_kms_key_id"]);
    assert!(inv.errors[1].members.is_empty());
    let saved = inv.to_json_string();
    assert!(
        saved.contains("\"region\": \"us-east-1\",\n      \"members\": [\"ebs_default_kms_key_id\"],\n      \"message\""),
        "{saved}"
    );
    assert_eq!(
        load_with(&saved, 1).expect("reloads").to_json_string(),
        saved
    );
    let bad = r#"{"cloudspec_inventory": 1, "resources": [], "errors": [{"type": "t", "members": "x", "message": "m"}]}"#;
    assert_eq!(
        error_of(load_with(bad, 1)).to_string(),
        "big.json:1:81: expected \"members\" to be an array of strings, found string (at $.errors[0].members)"
    );
}
