//! The rule-test-file loader (`cloudspec::testing::parse_test_file`) and runner, as
//! `cloudspec test` uses them. The input is a test file, optionally followed by a line
//! `%%` and the spec it tests. Any text parses or fails without a panic; each case's
//! inline inventory goes through the inventory loader as the runner sends it; with a spec
//! that parses, the file is checked against it and every inline case is run (evaluation
//! of a fuzzed spec over a fuzzed inventory) and its mismatches described.
#![no_main]

use cloudspec::eval::SpecInput;
use cloudspec::testing::{
    check_against_spec, describe_mismatches, inline_inventory_json, parse_test_file, run_case,
    InventorySource,
};
use cloudspec_model::Inventory;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = cloudspec_fuzz::text(data, "rule test file") else {
        return;
    };
    let (test, spec_text) = cloudspec_fuzz::split2(&text);
    let Ok(file) = parse_test_file(test) else {
        return;
    };
    let parsed = cloudspec::syntax::parse(spec_text);
    let spec = parsed.ok();
    if let Some(spec) = spec {
        let _ = check_against_spec(&file, spec);
    }
    for case in &file.cases {
        let InventorySource::Inline(value) = &case.inventory else {
            continue;
        };
        let bytes = inline_inventory_json(value);
        let Ok(inventory) = Inventory::from_slice_with_threads(&bytes, "inline", 1) else {
            continue;
        };
        if let Some(spec) = spec {
            let input = SpecInput {
                file: "fuzz.cloudspec",
                source: spec_text,
                spec,
            };
            let result = run_case(input, &inventory, case, None);
            let _ = describe_mismatches(&result.mismatches);
        }
    }
});
