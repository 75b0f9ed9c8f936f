//! The AWS provider: the resource schemas of the AWS naming contract
//! (`shared/design/aws.md`), the table of resource types with the API calls and IAM
//! actions each needs ([`types`], read by [`catalog`]), the [`LiveAws`] provider and,
//! behind the `collect` feature, the live collector on the AWS SDK.
//! Only this crate knows AWS.
#![forbid(unsafe_code)]
#![recursion_limit = "256"]

pub mod catalog;
#[cfg(feature = "collect")]
pub mod collect;
mod provider;
mod schema;
pub mod types;

pub use catalog::iam_policy;
pub use provider::LiveAws;
pub use schema::schemas;
