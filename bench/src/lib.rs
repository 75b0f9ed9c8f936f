//! Benchmarks for cloudspec: a deterministic synthetic AWS inventory ([`generate`]) and
//! load measurements ([`measure_load`]). The binaries in `src/bin` are thin wrappers.
#![forbid(unsafe_code)]

mod generate;
mod load;

pub use generate::{generate, GenConfig, GenStats};
pub use load::{measure_load, LoadReport, Timing};

/// The peak resident memory of this process so far (`VmHWM`), in bytes, on Linux.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The value after `flag` in `args` (`--runs 5`).
pub fn arg_value(args: &[String], flag: &str) -> Option<String> {
    let at = args.iter().position(|a| a == flag)?;
    args.get(at + 1).cloned()
}

/// The value after `flag` in `args` parsed as a `T` (`--runs 5`); `default` when the flag is
/// absent or its value does not parse.
pub fn arg_parsed<T: std::str::FromStr>(args: &[String], flag: &str, default: T) -> T {
    arg_value(args, flag)
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
