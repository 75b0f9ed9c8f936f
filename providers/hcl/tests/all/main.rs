//! The crate's integration tests, one binary (each `tests/*.rs` file used to be its own
//! binary linking the whole crate). Fixture directories stay where they were
//! (`tests/cases`, `tests/hcldec`) and are found from `CARGO_MANIFEST_DIR`.

mod body_decode;
mod budget;
mod cases;
mod dynblock;
mod eval;
mod fuzz;
mod hcldec_cases;
mod json_syntax;
mod specsuite;
