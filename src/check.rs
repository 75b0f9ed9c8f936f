//! Static checks of a spec against resource schemas (before anything runs).
use crate::diagnostic::Diagnostic;
use crate::model::schema::SchemaSet;
use crate::syntax::ast::Spec;

/// The schemas of a provider known to this build (`"aws"`), if any.
pub fn schemas_for(_provider: &str) -> Option<SchemaSet> {
    None
}

/// Every problem of `spec` against `schemas`. Types without a schema are not checked.
pub fn check(_spec: &Spec, _schemas: &SchemaSet) -> Vec<Diagnostic> {
    Vec::new()
}
