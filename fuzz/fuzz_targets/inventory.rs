//! The inventory loader (`cloudspec_model::Inventory`), as `run --inventory` uses it: any
//! bytes load or fail without a panic; a projected load (what `run` does) fails exactly
//! where the full load does, with the same message; and a loaded inventory saved and
//! loaded again saves to the same bytes.
#![no_main]

use cloudspec_model::{Inventory, Projection};
use libfuzzer_sys::fuzz_target;

/// Keeps what a typical rule set reads: some members through (objects under them are
/// projected in turn), some whole, and every other property dropped.
fn projection() -> Projection {
    let mut keep = Projection::new();
    keep.keep_through("tags")
        .keep_through("ingress")
        .keep_through("vpc")
        .keep_through("instances")
        .keep_whole("cidr_block")
        .keep_whole("policy")
        .keep_whole("Name")
        .keep_whole("encrypted");
    keep
}

fuzz_target!(|data: &[u8]| {
    let full = Inventory::from_slice_with_threads(data, "fuzz.json", 1);
    let projected = Inventory::from_slice_projected(data, "fuzz.json", 1, &projection());
    match (&full, &projected) {
        (Ok(_), Ok(_)) => {}
        (Err(a), Err(b)) => assert_eq!(a, b, "a projected load failed differently"),
        (Ok(_), Err(e)) => panic!("only the projected load failed: {e}"),
        (Err(e), Ok(_)) => panic!("only the full load failed: {e}"),
    }
    if let Ok(inventory) = full {
        let saved = inventory.to_json_string();
        match Inventory::from_slice_with_threads(saved.as_bytes(), "saved.json", 1) {
            Ok(again) => assert_eq!(again.to_json_string(), saved, "save is not stable"),
            Err(e) => panic!("a saved inventory does not load: {e}\n{saved}"),
        }
    }
});
