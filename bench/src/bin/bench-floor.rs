//! What the machine charges a load before cloudspec's own work: reading a file from the page
//! cache, and touching fresh memory. Both set the floor under `bench-eval --load-only`
//! (bench/README.md, issue #22, sixth session).
//!
//! `bench-floor FILE [--runs 3] [--fresh-mib 256]`:
//! - **page cache**: FILE read with `pread(2)` into one reused 8 MiB buffer, each cache line
//!   read once, as the loader reads a window. The time depends on how the page cache holds
//!   the file: in 2 MiB folios (written in large writes, as cloudspec writes its files) or in
//!   small ones (written in small writes by another program).
//! - **fresh memory**: one byte written per 4 KiB page of a new allocation of `--fresh-mib`
//!   MiB (each page a fault, and the kernel zeroing it), then the same again on the same
//!   memory (no faults). The difference is what the kept values of a load pay for their
//!   memory on this machine before anything is stored in it.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::process::ExitCode;
use std::time::Instant;

use cloudspec_bench::arg_parsed;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The buffer the file is read into: the size of the loader's largest windows (it maps
/// the file in windows of 4-8 MiB, `json/segments.rs` and `json/mapped.rs`; `pread` into
/// one buffer costs the page cache the same per folio, bench/README.md).
const BUFFER: usize = 8 << 20;

const PAGE: usize = 4096;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: bench-floor FILE [--runs N] [--fresh-mib N]");
        return ExitCode::from(2);
    };
    let runs: usize = arg_parsed(&args, "--runs", 3);
    let fresh_mib: usize = arg_parsed(&args, "--fresh-mib", 256);
    // First, before anything is freed that the allocation could reuse.
    let (fresh, reused) = fresh_memory(fresh_mib << 20);
    match page_cache(path, runs) {
        Ok((bytes, best)) => println!(
            "page cache      best {best:.3} s ({:.0} MB/s; {bytes} bytes read into one {} MiB buffer)",
            bytes as f64 / best / 1e6,
            BUFFER >> 20
        ),
        Err(e) => {
            eprintln!("bench-floor: {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let pages = ((fresh_mib << 20) / PAGE) as f64;
    println!(
        "fresh memory    {fresh:.3} s for {fresh_mib} MiB ({:.2} us a 4 KiB page); the same memory again {reused:.3} s",
        fresh / pages * 1e6
    );
    ExitCode::SUCCESS
}

/// The file's size and the best of `runs` reads of it.
fn page_cache(path: &str, runs: usize) -> std::io::Result<(u64, f64)> {
    let file = File::open(path)?;
    let size = file.metadata()?.len();
    let mut buffer = vec![0u8; BUFFER];
    let mut best = f64::INFINITY;
    let mut sum = 0u64;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let mut offset = 0u64;
        while offset < size {
            let read = file.read_at(&mut buffer, offset)?;
            if read == 0 {
                break;
            }
            sum += buffer
                .get(..read)
                .unwrap_or_default()
                .iter()
                .step_by(64)
                .map(|&b| u64::from(b))
                .sum::<u64>();
            offset += read as u64;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    std::hint::black_box(sum);
    Ok((size, best))
}

/// Seconds to write one byte per page of `bytes` of new memory, then of the same memory.
fn fresh_memory(bytes: usize) -> (f64, f64) {
    // Zeroed by the allocator's pages coming fresh from the kernel: nothing is touched yet.
    let mut memory = vec![0u8; bytes];
    let mut touch = |value: u8| {
        let start = Instant::now();
        for byte in memory.iter_mut().step_by(PAGE) {
            *byte = value;
        }
        start.elapsed().as_secs_f64()
    };
    let fresh = touch(1);
    let reused = touch(2);
    std::hint::black_box(&memory);
    (fresh, reused)
}
