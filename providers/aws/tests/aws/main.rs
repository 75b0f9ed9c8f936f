//! The AWS provider's integration tests, in one binary: the schemas follow the naming
//! contract ([`schema`]) and the collector only reads ([`read_only`]).

mod read_only;
mod schema;
