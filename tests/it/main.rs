//! The root crate's integration tests, as one test binary: every test binary links the
//! whole library and the AWS SDK, so one binary instead of one per file saves most of the
//! link time of `cargo test` after a change to `src/`. Each file below was its own binary
//! and is a module now; add new test files here as modules, not as `tests/*.rs`.
//!
//! The modules share one process: a test must not change process-wide state (environment
//! variables, the current directory, a global subscriber); run the real binary with its
//! own environment and `current_dir` instead, as the tests here do. Snapshots are in
//! `snapshots/` beside this file, named `it__MODULE__NAME.snap`.

mod audit_examples;
// Live collection against moto: needs the live AWS collector (default feature `live-aws`).
#[cfg(feature = "live-aws")]
mod aws_moto;
mod baseline;
mod cli_docs;
mod cli_hcl;
mod cli_hcldec;
mod cli_logging;
mod cli_now;
mod cli_syntax;
mod cli_test_cmd;
mod composition_cli;
mod conformance;
mod controls;
mod eval_budget;
mod eval_threads;
mod fmt;
mod output_dir;
mod plan;
mod projection;
mod proptest_eval;
mod proptest_syntax;
// Runs `cli::dispatch_with` in this process: its logging installs the (text) tracing
// subscriber once, which only formats the in-process runs' own messages.
mod provider_seam;
mod report;
mod rule_packs;
mod security;
mod syntax;
mod terraform_cases;
mod terraform_cli;
mod terraform_corpus;
#[cfg(feature = "live-aws")]
mod two_stage;
mod waivers;

use std::process::{Command, Output};
use std::time::Duration;

/// `cmd.output()` for a binary a test has just copied (to run it as another user):
/// retried while the copy is "busy" (ETXTBSY). A child that another test thread forks
/// while the copy is still open for writing inherits that descriptor until it execs, and
/// in one process the tests of every module spawn children concurrently.
pub fn output_of_fresh_copy(cmd: &mut Command) -> std::io::Result<Output> {
    let mut tries = 0;
    loop {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            result => return result,
        }
    }
}
