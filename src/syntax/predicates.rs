//! The predicate table as the syntax layer sees it: every
//! [`PredicateKind`](super::ast::PredicateKind) with its spellings and the operands it takes.
//! The table itself, one row per kind holding everything about a predicate, is
//! [`crate::predicates`]; this module names its syntax side for the parser, the docs and the
//! tests.

pub use crate::predicates::{def, Operands, PredicateDef, PREDICATES};
