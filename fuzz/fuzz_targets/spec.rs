//! The spec parser (`cloudspec::syntax::parse`), as `validate`, `run` and `fmt` use it:
//! any text parses without a panic; diagnostics render; a spec without errors is checked
//! against the AWS schemas, planned and projected; and the formatter's output parses back
//! to the same tree (spans do not take part in `==`) and is a fixed point of `fmt`.
#![no_main]

use cloudspec::render_diagnostics::render;
use cloudspec::syntax::{format::format, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(source) = cloudspec_fuzz::text(data, "spec") else {
        return;
    };
    let parsed = parse(&source);
    let _ = render("fuzz.cloudspec", &source, &parsed.diagnostics, false);
    let Some(spec) = parsed.ok() else {
        return;
    };
    // The schemas every subcommand checks against: the source registry's.
    static SCHEMAS: std::sync::OnceLock<Vec<cloudspec::model::schema::SchemaSet>> =
        std::sync::OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| cloudspec::cli::sources::Registry::builtin().schemas());
    let diagnostics = cloudspec::check::check_all(spec, schemas);
    let _ = render("fuzz.cloudspec", &source, &diagnostics, false);
    for set in schemas {
        let _ = cloudspec::plan::plan(&[spec], set);
    }
    let _ = cloudspec::eval::projection([spec]);

    let once = format(spec, &source);
    let again = parse(&once);
    assert!(
        !again.has_errors(),
        "formatted text does not parse:\n{once}\n{:?}",
        again.diagnostics
    );
    assert_eq!(
        again.spec.as_ref(),
        Some(spec),
        "formatting changed the tree:\n{once}"
    );
    if let Some(respec) = again.spec.as_ref() {
        assert_eq!(format(respec, &once), once, "formatting is not idempotent");
    }
});
