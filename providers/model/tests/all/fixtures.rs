//! Data-driven tests over `tests/fixtures`:
//! - every `invalid/NAME.json` fails to load with the message in `invalid/NAME.expected`
//!   (the same with one thread and with several);
//! - every `valid/NAME.json` loads, saves to exactly `valid/NAME.saved`, and loads back
//!   equal to what was first loaded.
//!
//! `UPDATE_EXPECTED=1 cargo test -p cloudspec-model --test fixtures` rewrites the expected
//! files; review the diff.

use crate::common::{canonical, check_expected, fixtures};
use cloudspec_model::Inventory;

fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn invalid_inventories_fail_with_the_expected_message() {
    let cases = fixtures("invalid");
    assert!(cases.len() >= 40, "fixtures missing: {}", cases.len());
    let mut failures = Vec::new();
    for path in &cases {
        let name = file_name(path);
        let bytes = std::fs::read(path).unwrap_or_default();
        let serial = Inventory::from_slice_with_threads(&bytes, &name, 1);
        let parallel = Inventory::from_slice_with_threads(&bytes, &name, 4);
        match (serial, parallel) {
            (Err(a), Err(b)) if a == b => {
                if let Some(f) = check_expected(&path.with_extension("expected"), &format!("{a}\n"))
                {
                    failures.push(f);
                }
            }
            (Err(a), Err(b)) => {
                failures.push(format!("{name}: threads change the error: {a} / {b}"))
            }
            _ => failures.push(format!("{name}: loaded, expected an error")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_inventories_round_trip_through_save() {
    let mut failures = Vec::new();
    for path in fixtures("valid") {
        let name = file_name(&path);
        let first = match Inventory::load(&path) {
            Ok(inv) => inv,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let saved = first.to_json_string();
        if let Some(f) = check_expected(&path.with_extension("saved"), &saved) {
            failures.push(f);
        }
        match Inventory::from_slice(saved.as_bytes(), &name) {
            Ok(again) => {
                if canonical(&again) != canonical(&first) {
                    failures.push(format!("{name}: load(save(x)) != x"));
                }
                if again.to_json_string() != saved {
                    failures.push(format!("{name}: save is not idempotent"));
                }
            }
            Err(e) => failures.push(format!("{name}: the saved form does not load: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
