//! cloudspec: plain-English compliance rules over cloud resources.
//!
//! Data flows one way through the stages: [`syntax`] (text to AST), [`check`] (AST against
//! resource schemas), [`eval`] (AST + inventory to [`outcome`]s), [`report`] (outcomes to
//! formats), and [`cli`] wires them. See ARCHITECTURE.md.
#![forbid(unsafe_code)]

pub mod baseline;
pub mod check;
pub mod cli;
pub mod controls;
pub mod diagnostic;
pub mod eval;
pub mod outcome;
pub mod plan;
pub mod predicates;
pub mod render_diagnostics;
pub mod report;
pub mod rule_docs;
pub mod syntax;
pub mod testing;
pub mod text;
mod truth;
pub mod waivers;

pub use cloudspec_model as model;

/// The threads evaluation and reports use: the available cores (those this process may run
/// on), at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}
