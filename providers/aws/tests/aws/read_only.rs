//! The collector only reads: every SDK operation the crate's source calls is a Describe,
//! List or Get. A call like `client.create_volume()` or `client.put_bucket_policy()`
//! anywhere in `src/` fails this test (SDK clients are always named `client`), whether in
//! the table of types (`src/types.rs`, where the requests of most types are written) or
//! in the collector.

use std::path::Path;

const READ_VERBS: &[&str] = &["describe", "list", "get"];

/// Client methods that are not API operations.
const NOT_OPERATIONS: &[&str] = &["clone", "config"];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("readable source");
            out.push((path.display().to_string(), text));
        }
    }
}

/// Removes whitespace that precedes a `.` (method chains split over lines).
fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending = String::new();
    for c in text.chars() {
        if c.is_whitespace() {
            pending.push(c);
        } else {
            if c != '.' {
                out.push_str(&pending);
            }
            pending.clear();
            out.push(c);
        }
    }
    out
}

/// Every `client.<op>(` call: the method names called on an SDK client.
fn client_calls(text: &str) -> Vec<String> {
    let text = squeeze(text);
    let mut calls = Vec::new();
    for (pos, _) in text.match_indices("client.") {
        let rest = &text[pos + "client.".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if rest[name.len()..].starts_with('(') {
            calls.push(name);
        }
    }
    calls
}

#[test]
fn the_collector_calls_only_read_operations() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut seen = 0;
    for (file, text) in &files {
        for call in client_calls(text)
            .into_iter()
            .filter(|c| !NOT_OPERATIONS.contains(&c.as_str()))
        {
            seen += 1;
            let verb = call.split('_').next().unwrap_or("");
            assert!(
                READ_VERBS.contains(&verb),
                "{file}: `client.{call}(` is not a Describe/List/Get operation"
            );
        }
    }
    assert!(
        seen > 20,
        "expected the collector's SDK calls, found {seen}"
    );
    let in_table = files
        .iter()
        .filter(|(file, _)| file.ends_with("types.rs"))
        .map(|(_, text)| client_calls(text).len())
        .sum::<usize>();
    assert!(
        in_table > 10,
        "expected the table's requests in src/types.rs, found {in_table}"
    );
}

#[test]
fn the_scanner_catches_a_write_call() {
    assert_eq!(
        client_calls("client.put_bucket_policy().send()"),
        ["put_bucket_policy"]
    );
    assert_eq!(
        client_calls("let x = client.describe_volumes();"),
        ["describe_volumes"]
    );
    assert_eq!(
        client_calls("client\n    .delete_volume()"),
        ["delete_volume"]
    );
}
