//! Loads an inventory file several times (as `cloudspec run --inventory` does) and prints
//! load time, throughput and peak memory.
//!
//! `bench-load FILE [--runs 5] [--threads N] [--check-roundtrip]`

use std::path::Path;
use std::process::ExitCode;

use cloudspec_bench::{arg_parsed, arg_value, measure_load, peak_rss_bytes, LoadReport};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: bench-load FILE [--runs N] [--threads N] [--check-roundtrip]");
        return ExitCode::from(2);
    };
    let runs = arg_parsed(&args, "--runs", 5);
    let threads = arg_value(&args, "--threads").and_then(|s| s.parse().ok());
    let check = args.iter().any(|a| a == "--check-roundtrip");
    match measure_load(Path::new(file), runs, threads, check) {
        Ok(report) => {
            print(&report);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn print(r: &LoadReport) {
    let mb = r.bytes as f64 / 1e6;
    println!("file            {:.1} MB, {} resources", mb, r.resources);
    println!(
        "load            best {:.3} s, median {:.3} s  ({:.0} MB/s, {:.2} M resources/s)",
        r.load.best,
        r.load.median,
        mb / r.load.best,
        r.resources as f64 / r.load.best / 1e6
    );
    if let Some(check) = &r.roundtrip {
        println!("round trip      {check}");
    }
    match peak_rss_bytes() {
        Some(peak) => println!(
            "peak memory     {:.1} MB ({:.2}x the file)",
            peak as f64 / 1e6,
            peak as f64 / r.bytes as f64
        ),
        None => println!("peak memory     unknown (no /proc/self/status)"),
    }
}
