//! STUB: pest parse tree to AST, with every error as a Diagnostic.
use super::ast::Spec;
use crate::diagnostic::Diagnostic;

/// The result of parsing one file: the tree (when the structure could be recovered) and
/// every problem found.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub spec: Option<Spec>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a `.cloudspec` source text. Never panics.
pub fn parse(_source: &str) -> Parsed {
    Parsed { spec: None, diagnostics: vec![] }
}
