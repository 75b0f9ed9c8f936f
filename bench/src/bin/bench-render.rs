//! Render time of function-hcl compositions (issue #19): a generated composition whose one
//! `resources` collection makes N buckets from a list in the XR, and function-hcl's own
//! examples (`../shared/function-hcl-examples`). For each it prints the time of the static
//! passes alone (parsing and checks: `cloudspec render --check`) and of the whole render
//! (best and median of the runs), in process, as `cloudspec render` runs them.
//!
//! `bench-render [--resources 1000] [--runs 20] [--examples DIR]`

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cloudspec_bench::{arg_parsed, arg_value};
use cloudspec_composition::input::{load_composition, load_inputs};
use cloudspec_composition::{check, render, Composition, File, Inputs};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A composition with one collection of `n` buckets, each with locals, a conditional tag,
/// a readiness block and a status contribution, and its XR.
fn generated(n: usize) -> (Composition, Inputs) {
    let hcl = r#"
locals {
  params = req.composite.spec.parameters
  prefix = req.composite.metadata.name
}

function bucketName {
  arg prefix {}
  arg suffix {}
  body = lower("${prefix}-${suffix}")
}

resources buckets {
  for_each = params.buckets
  name     = "bucket-${each.value.name}"
  template {
    locals {
      tags = merge({ team = params.team }, try(each.value.tags, {}))
    }
    body = {
      apiVersion = "s3.aws.upbound.io/v1beta1"
      kind       = "Bucket"
      metadata = {
        name = invoke("bucketName", { prefix = prefix, suffix = each.value.name })
      }
      spec = {
        forProvider = {
          region = params.region
          tags   = each.value.public ? merge(tags, { public = "true" }) : tags
        }
      }
    }
    ready {
      value = try(self.resource.status.atProvider.arn, "") != "" ? "READY_TRUE" : "READY_UNSPECIFIED"
    }
  }
  composite status {
    body = {
      buckets = length(params.buckets)
    }
  }
}
"#;
    let buckets: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "name": format!("b{i:05}"),
                "public": i % 7 == 0,
                "tags": {"index": i.to_string()},
            })
        })
        .collect();
    let xr = serde_json::json!({
        "apiVersion": "example.com/v1",
        "kind": "XBuckets",
        "metadata": {"name": "bench"},
        "spec": {"parameters": {"region": "eu-west-1", "team": "platform", "buckets": buckets}},
    });
    (
        Composition {
            files: vec![File {
                name: "main.hcl".into(),
                text: hcl.into(),
            }],
        },
        Inputs {
            xr,
            ..Inputs::default()
        },
    )
}

fn time(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn measure(label: &str, comp: &Composition, inputs: &Inputs, runs: usize) {
    let resources = match render(comp, inputs) {
        Ok(r) => r.resources.len(),
        Err(f) => {
            eprintln!("{label}: render failed: {f}");
            return;
        }
    };
    let (check_best, check_median) = time(runs, || {
        let _ = check(comp);
    });
    let (best, median) = time(runs, || {
        let _ = render(comp, inputs);
    });
    println!(
        "| {label} | {resources} | {} / {} | {} / {} | {:.0}% |",
        ms(check_best),
        ms(check_median),
        ms(best),
        ms(median),
        100.0 * check_median.as_secs_f64() / median.as_secs_f64().max(1e-9)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = arg_parsed(&args, "--resources", 1000);
    let runs: usize = arg_parsed(&args, "--runs", 20);
    let examples = arg_value(&args, "--examples")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/function-hcl-examples")
        });
    println!("| composition | desired resources | parse + checks (best / median) | render (best / median) | checks / render |");
    println!("| --- | --- | --- | --- | --- |");
    let (comp, inputs) = generated(n);
    measure(&format!("generated, {n} buckets"), &comp, &inputs, runs);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&examples)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    for dir in dirs {
        let Ok(comp) = load_composition(&dir.join("composition.yaml")) else {
            continue;
        };
        let opt = |f: &str| Some(dir.join(f)).filter(|p| p.exists());
        let Ok(inputs) = load_inputs(
            &dir.join("xr.yaml"),
            opt("observed.yaml").as_deref(),
            opt("extra-resources.yaml").as_deref(),
            None,
        ) else {
            continue;
        };
        let label = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        measure(&label, &comp, &inputs, runs);
    }
}
