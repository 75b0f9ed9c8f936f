//! Writes a synthetic AWS inventory.
//!
//! `gen-inventory --instances 100000 --out /tmp/inv-100k.json [--seed 42]`

use std::process::ExitCode;

use cloudspec_bench::{arg_parsed, arg_value, generate, GenConfig};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(instances), Some(out)) = (arg_value(&args, "--instances"), arg_value(&args, "--out"))
    else {
        eprintln!("usage: gen-inventory --instances N --out FILE [--seed S]");
        return ExitCode::from(2);
    };
    let Ok(instances) = instances.parse::<usize>() else {
        eprintln!("--instances must be a number, found {instances}");
        return ExitCode::from(2);
    };
    let seed = arg_parsed(&args, "--seed", 42);
    let config = GenConfig { instances, seed };
    let started = std::time::Instant::now();
    match std::fs::File::create(&out).and_then(|f| generate(&config, std::io::BufWriter::new(f))) {
        Ok(stats) => {
            eprintln!(
                "wrote {out}: {} resources ({} instances), {:.1} MB in {:.1} s",
                stats.resources,
                instances,
                stats.bytes as f64 / 1e6,
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {out}: {e}");
            ExitCode::FAILURE
        }
    }
}
