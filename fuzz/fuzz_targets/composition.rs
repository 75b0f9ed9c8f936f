//! function-hcl compositions, as `cloudspec render` runs them: the input is a txtar archive
//! of HCL files (`-- main.hcl --` markers; text without a marker is one file), optionally
//! followed by a line `%%` and the XR as JSON. `check` (the static passes) and `render`
//! (evaluation, the requirement loop and the response document) must return, never
//! panic, and agree: a composition the static passes reject does not render.
#![no_main]

use cloudspec_composition::input::parse_txtar;
use cloudspec_composition::{check, render, Composition, File, Inputs};
use libfuzzer_sys::fuzz_target;

const DEFAULT_XR: &str = r#"{"apiVersion": "example.com/v1", "kind": "XR",
  "metadata": {"name": "xr", "labels": {"a": "b"}},
  "spec": {"parameters": {"region": "eu-west-1", "names": ["a", "b"], "n": 3}}}"#;

fuzz_target!(|data: &[u8]| {
    let Some(text) = cloudspec_fuzz::text(data, "composition") else {
        return;
    };
    let (hcl, xr) = cloudspec_fuzz::split2(&text);
    let mut files = parse_txtar(hcl);
    if files.is_empty() {
        files.push(File {
            name: "main.hcl".into(),
            text: hcl.to_string(),
        });
    }
    let composition = Composition { files };
    let xr = serde_json::from_str(if xr.trim().is_empty() { DEFAULT_XR } else { xr })
        .unwrap_or_else(|_| serde_json::json!({}));
    let inputs = Inputs {
        xr,
        extra: Some(Vec::new()),
        ..Inputs::default()
    };
    let static_errors = check(&composition);
    let rendered = render(&composition, &inputs);
    if !static_errors.is_empty() {
        assert!(rendered.is_err(), "the static passes failed but render succeeded");
    }
    if let Ok(r) = rendered {
        let _ = serde_json::to_string(&r.document);
    }
});
