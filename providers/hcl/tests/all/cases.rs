//! Data-driven expression tests: every `tests/cases/**/*.yaml` file is a list of cases.
//!
//! ```yaml
//! - expr: 'upper("abc")'        # an HCL expression (native syntax)
//!   vars: '{"s": "x", "u": {"$unknown": "string"}}'  # optional JSON object of variables
//!   json: '"ABC"'               # expected value as JSON (exact numbers, sorted keys)
//!   type: '"string"'            # optional expected type, cty JSON type notation
//!   unknown: true               # optional: the result is unknown (`type` compared if given)
//!   error: 'Invalid function argument'  # instead of json: an error diagnostic's summary
//!                               # or detail contains this text
//! ```
//!
//! In `vars`, an object `{"$unknown": <type>}` is an unknown value of that type and
//! `{"$null": <type>}` a null of that type (plain JSON `null` is a null of type `any`).
//! Every failing case is reported (file, index, expression), not just the first.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudspec_hcl::diag::{Diagnostic, Severity};
use cloudspec_hcl::eval::{self, EvalContext};
use cloudspec_hcl::syntax::{parse_expr, SourceFile};
use cloudspec_hcl::{json, Type, Value};
use serde_yaml_ng::Value as Yaml;

const KEYS: &[&str] = &["expr", "vars", "json", "type", "unknown", "error"];

struct Case {
    expr: String,
    vars: Option<String>,
    json: Option<String>,
    ty: Option<String>,
    unknown: bool,
    error: Option<String>,
}

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            case_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

fn string_field(map: &serde_yaml_ng::Mapping, key: &str) -> Result<Option<String>, String> {
    match map.get(key) {
        None | Some(Yaml::Null) => Ok(None),
        Some(Yaml::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("`{key}` must be a string, found {other:?}")),
    }
}

fn parse_case(item: &Yaml) -> Result<Case, String> {
    let Yaml::Mapping(map) = item else {
        return Err("a case must be a mapping".into());
    };
    for key in map.keys() {
        match key {
            Yaml::String(k) if KEYS.contains(&k.as_str()) => {}
            other => return Err(format!("unknown key {other:?} (allowed: {KEYS:?})")),
        }
    }
    let expr = string_field(map, "expr")?.ok_or("missing `expr`")?;
    let unknown = match map.get("unknown") {
        None | Some(Yaml::Null) => false,
        Some(Yaml::Bool(b)) => *b,
        Some(other) => return Err(format!("`unknown` must be a bool, found {other:?}")),
    };
    let case = Case {
        expr,
        vars: string_field(map, "vars")?,
        json: string_field(map, "json")?,
        ty: string_field(map, "type")?,
        unknown,
        error: string_field(map, "error")?,
    };
    let outcomes = usize::from(case.json.is_some())
        + usize::from(case.unknown)
        + usize::from(case.error.is_some());
    if outcomes != 1 {
        return Err("a case needs exactly one of `json`, `unknown: true` or `error`".into());
    }
    Ok(case)
}

/// Turns `{"$unknown": t}` / `{"$null": t}` objects into unknown / null values of type `t`.
fn with_markers(v: Value) -> Result<Value, String> {
    Ok(match v {
        Value::Object(attrs) => {
            if attrs.len() == 1 {
                for (marker, is_unknown) in [("$unknown", true), ("$null", false)] {
                    if let Some(t) = attrs.get(marker) {
                        let text = json::encode(t)?;
                        let ty = Type::from_json(&text)?;
                        return Ok(if is_unknown {
                            Value::Unknown(ty)
                        } else {
                            Value::Null(ty)
                        });
                    }
                }
            }
            Value::Object(
                attrs
                    .into_iter()
                    .map(|(k, v)| with_markers(v).map(|v| (k, v)))
                    .collect::<Result<_, _>>()?,
            )
        }
        Value::Tuple(vs) => {
            Value::Tuple(vs.into_iter().map(with_markers).collect::<Result<_, _>>()?)
        }
        other => other,
    })
}

fn parse_vars(text: &str) -> Result<BTreeMap<String, Value>, String> {
    match json::decode(text).map_err(|e| format!("invalid vars JSON: {e:?}"))? {
        Value::Object(attrs) => match with_markers(Value::Object(attrs))? {
            Value::Object(attrs) => Ok(attrs),
            _ => Err("vars must be a JSON object".into()),
        },
        _ => Err("vars must be a JSON object".into()),
    }
}

fn show_diags(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("[{}: {}]", d.summary, d.detail))
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_case(case: &Case) -> Result<(), String> {
    let vars = match &case.vars {
        Some(text) => parse_vars(text)?,
        None => BTreeMap::new(),
    };
    let src = SourceFile::new("case.hcl", case.expr.clone());
    let ctx = EvalContext::new().with_variables(vars);
    let (value, diags) = match parse_expr(&src) {
        Ok(e) => eval::expr(&e, &ctx, &src),
        Err(d) => (eval::dynamic(), vec![d]),
    };
    let errors: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if let Some(want) = &case.error {
        if errors.is_empty() {
            return Err(format!(
                "expected an error containing {want:?}, got value {}",
                json::encode(&value).unwrap_or_else(|_| format!("{value:?}"))
            ));
        }
        if !errors
            .iter()
            .any(|d| d.summary.contains(want.as_str()) || d.detail.contains(want.as_str()))
        {
            return Err(format!(
                "expected an error containing {want:?}, got {}",
                show_diags(&diags)
            ));
        }
        return Ok(());
    }
    if !errors.is_empty() {
        return Err(format!("unexpected errors: {}", show_diags(&diags)));
    }
    if let Some(want_ty) = &case.ty {
        let want = Type::from_json(want_ty).map_err(|e| format!("bad `type`: {e}"))?;
        if value.ty() != want {
            return Err(format!(
                "expected type {}, got {}",
                want.to_json(),
                value.ty().to_json()
            ));
        }
    }
    if case.unknown {
        if !value.is_unknown() {
            return Err(format!(
                "expected an unknown value, got {}",
                json::encode(&value).unwrap_or_else(|_| format!("{value:?}"))
            ));
        }
        return Ok(());
    }
    if let Some(want) = &case.json {
        let want = json::decode(want)
            .map_err(|e| format!("bad `json`: {e:?}"))
            .and_then(|v| json::encode(&v))?;
        let got =
            json::encode(&value).map_err(|e| format!("result is not JSON: {e} ({value:?})"))?;
        if got != want {
            return Err(format!("expected {want}, got {got}"));
        }
    }
    Ok(())
}

#[test]
fn expression_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut files = Vec::new();
    case_files(&root, &mut files);
    files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    for file in &files {
        let name = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: cannot read: {e}"));
                continue;
            }
        };
        let items = match serde_yaml_ng::from_str::<Yaml>(&text) {
            Ok(Yaml::Sequence(items)) => items,
            Ok(Yaml::Null) => Vec::new(),
            Ok(_) => {
                failures.push(format!("{name}: the file must be a list of cases"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: invalid YAML: {e}"));
                continue;
            }
        };
        for (i, item) in items.iter().enumerate() {
            total += 1;
            let result = parse_case(item).and_then(|case| {
                let expr = case.expr.clone();
                std::panic::catch_unwind(|| run_case(&case))
                    .unwrap_or_else(|_| Err("panicked".into()))
                    .map_err(|e| format!("`{expr}`: {e}"))
            });
            if let Err(e) = result {
                failures.push(format!("{name} #{i}: {e}"));
            }
        }
    }
    assert!(total > 0, "no cases found under {}", root.display());
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
