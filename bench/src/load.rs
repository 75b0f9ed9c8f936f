//! Timing inventory loads.

use std::path::Path;
use std::time::Instant;

use cloudspec_model::Inventory;

/// Best and median of several runs, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub best: f64,
    pub median: f64,
}

impl Timing {
    /// The best and median of `samples` (seconds); zero when empty.
    pub fn of(mut samples: Vec<f64>) -> Timing {
        samples.sort_by(f64::total_cmp);
        let best = samples.first().copied().unwrap_or(0.0);
        let median = samples.get(samples.len() / 2).copied().unwrap_or(0.0);
        Timing { best, median }
    }
}

/// What [`measure_load`] measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub bytes: usize,
    pub resources: usize,
    /// Loading the file: reading it block by block, parsing, indexing and resolving
    /// references ([`Inventory::load`], what `cloudspec run --inventory` does).
    pub load: Timing,
    /// The outcome of `--check-roundtrip`: whether saving gives the file back byte for byte.
    pub roundtrip: Option<String>,
}

/// Loads `path` `runs` times. `threads` overrides the loader's thread count; `check` also
/// compares the saved form of the inventory with the file.
pub fn measure_load(
    path: &Path,
    runs: usize,
    threads: Option<usize>,
    check: bool,
) -> Result<LoadReport, String> {
    let mut loads = Vec::new();
    let name = path.display().to_string();
    let mut last = None;
    for _ in 0..runs.max(1) {
        drop(last.take()); // free the previous inventory before the next run
        let started = Instant::now();
        let inventory = match threads {
            Some(t) => Inventory::load_with_threads(path, t),
            None => Inventory::load(path),
        }
        .map_err(|e| e.to_string())?;
        loads.push(started.elapsed().as_secs_f64());
        last = Some(inventory);
    }
    let inventory = last.ok_or("no run")?;
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let roundtrip = check.then(|| {
        if inventory.to_json_string().as_bytes() == bytes.as_slice() {
            "identical: save(load(file)) == file".to_string()
        } else {
            "DIFFERENT: save(load(file)) != file".to_string()
        }
    });
    Ok(LoadReport {
        bytes: bytes.len(),
        resources: inventory.resources.len(),
        load: Timing::of(loads),
        roundtrip,
    })
}
