//! The pest parser generated from `grammar/cloudspec.pest`. Only `parser` and `errors` see it:
//! pest types never leave the syntax module.

#![allow(missing_docs)]

use pest_derive::Parser;

/// The generated parser; its `Rule` enum names the grammar's rules.
#[derive(Parser)]
#[grammar = "../grammar/cloudspec.pest"]
pub(super) struct CloudSpecParser;
