//! Rules evaluated on several threads give the same report as on one.

use std::path::Path;

use cloudspec::eval::{evaluate_with_threads, SpecInput};
use cloudspec::model::Inventory;
use cloudspec::report::{render, Format, RenderOptions};

#[test]
fn thread_count_does_not_change_the_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("examples/prod.cloudspec")).unwrap();
    let parsed = cloudspec::syntax::parse(&source);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let spec = parsed.spec.as_ref().unwrap();
    let inventory = Inventory::load(&root.join("examples/inventory.json")).unwrap();
    let input = SpecInput {
        file: "examples/prod.cloudspec",
        source: &source,
        spec,
    };
    let json = |threads| {
        let outcome = evaluate_with_threads(&[input, input], &inventory, threads);
        render(Format::Json, &outcome, &RenderOptions::default())
    };
    let one = json(1);
    for threads in [2, 3, 8, 64] {
        assert_eq!(one, json(threads), "{threads} threads");
    }
}
