//! Text to AST: the pest grammar (`grammar/cloudspec.pest`), the parser that builds the
//! typed [`ast`], and the formatter that prints an AST back in canonical layout.
//!
//! - [`parse`] never panics; every problem comes back as a [`Diagnostic`](crate::diagnostic::Diagnostic).
//! - [`format::format`] prints a parsed spec in canonical layout, keeping comments.
//! - [`predicates::PREDICATES`] is the table of every predicate (its spellings and operands
//!   for the parser; the table itself lives in [`crate::predicates`]).

pub mod ast;
mod errors;
pub mod format;
mod grammar;
pub mod lexer;
mod parser;
pub mod pattern;
pub mod predicates;

pub use parser::{parse, parse_whole_file, Parsed};
