//! The AWS provider: the resource schemas of the AWS naming contract
//! (`shared/design/aws.md`). Only this crate knows AWS.
#![forbid(unsafe_code)]

mod schema;

pub use schema::schemas;
