//! The `--terraform` source of `cloudspec run`.
