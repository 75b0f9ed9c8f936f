//! The model crate's integration tests, as one test binary (one link instead of five).

mod common;
mod fixtures;
mod hostile;
mod load;
mod projection;
mod proptests;
