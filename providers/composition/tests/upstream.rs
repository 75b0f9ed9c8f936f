//! function-hcl's own examples (`../shared/function-hcl-examples/`, read in place): each
//! Composition is rendered with its XR (and observed and extra resources) and compared
//! with crossplane render's `expected.yaml`, as that folder's README says: every desired
//! resource once crossplane's own additions are set aside, the XR's status and its
//! `FullyResolved`/`HclDiagnostics` conditions, the results and the context.

use std::path::{Path, PathBuf};

use cloudspec_composition::input::{load_composition, load_inputs};
use serde_json::{json, Value};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/function-hcl-examples")
}

fn yaml_docs(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .filter(|v: &Value| !v.is_null())
        .collect()
}

/// The expected document's parts: (XR status without conditions, our conditions,
/// resources by name, results, context).
fn expected(
    dir: &Path,
) -> (
    Value,
    Vec<Value>,
    serde_json::Map<String, Value>,
    Vec<Value>,
    Value,
) {
    let docs = yaml_docs(&dir.join("expected.yaml"));
    let mut status = json!({});
    let mut conditions = Vec::new();
    let mut resources = serde_json::Map::new();
    let mut results = Vec::new();
    let mut context = Value::Null;
    for (i, d) in docs.into_iter().enumerate() {
        let kind = d["kind"].as_str().unwrap_or_default().to_string();
        let api = d["apiVersion"].as_str().unwrap_or_default().to_string();
        if i == 0 {
            let mut s = d.get("status").cloned().unwrap_or(json!({}));
            for c in s["conditions"].as_array().cloned().unwrap_or_default() {
                if c["type"] == "FullyResolved" || c["type"] == "HclDiagnostics" {
                    conditions.push(json!({
                        "type": c["type"], "reason": c["reason"], "message": c["message"],
                        "status": if c["status"] == "True" { "STATUS_CONDITION_TRUE" } else { "STATUS_CONDITION_FALSE" },
                        "target": "TARGET_COMPOSITE",
                    }));
                }
            }
            s.as_object_mut().unwrap().remove("conditions");
            status = s;
        } else if api == "render.crossplane.io/v1beta1" && kind == "Result" {
            results.push(json!({"message": d["message"], "severity": d["severity"]}));
        } else if api == "render.crossplane.io/v1beta1" && kind == "Context" {
            context = d["fields"].clone();
        } else {
            let mut r = d.clone();
            let meta = r["metadata"].as_object_mut().unwrap();
            let name = meta["annotations"]["crossplane.io/composition-resource-name"]
                .as_str()
                .unwrap()
                .to_string();
            meta.remove("generateName");
            meta.remove("ownerReferences");
            let ann = meta["annotations"].as_object_mut().unwrap();
            ann.remove("crossplane.io/composition-resource-name");
            if ann.is_empty() {
                meta.remove("annotations");
            }
            if let Some(labels) = meta.get_mut("labels").and_then(|l| l.as_object_mut()) {
                labels.remove("crossplane.io/composite");
                if labels.is_empty() {
                    meta.remove("labels");
                }
            }
            resources.insert(name, r);
        }
    }
    (status, conditions, resources, results, context)
}

#[test]
fn upstream_examples_render_as_crossplane_does() {
    let root = examples();
    if !root.exists() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 10, "the ten upstream examples");
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let comp = load_composition(&dir.join("composition.yaml")).unwrap();
        let opt = |f: &str| Some(dir.join(f)).filter(|p| p.exists());
        let inputs = load_inputs(
            &dir.join("xr.yaml"),
            opt("observed.yaml").as_deref(),
            opt("extra-resources.yaml").as_deref(),
            None,
        )
        .unwrap();
        let rendered = match cloudspec_composition::render(&comp, &inputs) {
            Ok(r) => r,
            Err(f) => {
                failures.push(format!("{name}: render failed: {f}"));
                continue;
            }
        };
        let doc = &rendered.document;
        if std::env::var("SHOW").is_ok() {
            eprintln!("== {name}\n{}", serde_json::to_string_pretty(doc).unwrap());
        }
        let (status, conditions, resources, results, context) = expected(dir);
        let got_status = doc["desired"]["composite"]["resource"]
            .get("status")
            .cloned()
            .unwrap_or(json!({}));
        let mut got_resources = serde_json::Map::new();
        for (k, v) in doc["desired"]["resources"].as_object().unwrap() {
            got_resources.insert(k.clone(), v["resource"].clone());
        }
        let got_results: Vec<Value> = doc["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!({"message": r["message"], "severity": r["severity"]}))
            .collect();
        let got_context = match doc["context"].as_object() {
            Some(m) if m.is_empty() => Value::Null,
            _ => doc["context"].clone(),
        };
        for (what, got, want) in [
            ("status", got_status, status),
            ("conditions", json!(doc["conditions"]), json!(conditions)),
            (
                "resources",
                Value::Object(got_resources),
                Value::Object(resources),
            ),
            ("results", json!(got_results), json!(results)),
            ("context", got_context, context),
        ] {
            if got != want {
                failures.push(format!(
                    "{name}: {what} differ\n  got:  {got}\n  want: {want}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
