//! Text to AST: the pest grammar (`grammar/cloudspec.pest`), the parser that builds the
//! typed [`ast`], and the formatter that prints an AST back in canonical layout.

pub mod ast;
mod parser;
pub mod format;

pub use parser::{parse, Parsed};
