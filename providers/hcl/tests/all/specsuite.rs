//! HashiCorp's HCL specification test suite (`../shared/hcl-specsuite/tests`, MPL-2.0, read
//! in place), checked the way HashiCorp's harness (`cmd/hclspecsuite`) checks it: for each
//! `NAME.t`, hcldec runs with the spec `NAME.hcldec` over `NAME.hcl` and `NAME.hcl.json`
//! (whichever exist) with `--diags=json --with-type --keep-nulls`, and
//!
//! - `result_type`: the result's type must conform to it;
//! - `result`: converted to `result_type`, it must equal the result (same type, same value);
//! - `diagnostics { error {from to} warning {...} }`: hcldec must fail, and the set of
//!   (severity, range) of its diagnostics in the input must be exactly this set;
//! - `traversals { expect { ref = a.b  from to } }`: with `--var-refs`, exactly these
//!   references at these ranges.
//!
//! Every test must pass: the suite is the contract of HCL's syntax and positions.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cloudspec_hcl::body::{parse_native, AttributeSchema, BlockHeaderSchema, BodySchema, Expr};
use cloudspec_hcl::convert::convert;
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::hcldec::cmd::{run, FileSystem, Options};
use cloudspec_hcl::{Type, Value};

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/hcl-specsuite/tests")
}

fn tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            tests(&p, out);
        } else if p.extension().is_some_and(|e| e == "t") {
            out.push(p);
        }
    }
}

/// A position as the `.t` file writes it: (line, column, byte).
type Pos = (usize, usize, usize);

#[derive(Default)]
struct Expect {
    result_type: Option<Type>,
    result: Option<Value>,
    diagnostics: Option<BTreeSet<(String, Pos, Pos)>>,
    traversals: Option<BTreeSet<(String, Pos, Pos)>>,
}

fn literal(e: &Expr) -> Value {
    let (v, diags) = e.value(&EvalContext::empty());
    assert!(diags.is_empty(), "literal in a .t file: {diags:?}");
    v
}

fn number(body: &cloudspec_hcl::body::Body, name: &str) -> usize {
    let (attrs, _) = body.just_attributes();
    let v = literal(&attrs[name].expr);
    v.as_number()
        .and_then(|n| n.to_string().parse().ok())
        .unwrap_or_else(|| panic!("{name} is not a whole number"))
}

fn range(body: &cloudspec_hcl::body::Body) -> (Pos, Pos) {
    let schema = BodySchema {
        attributes: vec![AttributeSchema::new("ref", false)],
        blocks: vec![
            BlockHeaderSchema::new("from", Vec::<String>::new()),
            BlockHeaderSchema::new("to", Vec::<String>::new()),
        ],
    };
    let (c, _) = body.content(&schema);
    let pos = |name: &str| {
        let b = c
            .blocks
            .iter()
            .find(|b| b.type_name == name)
            .unwrap_or_else(|| panic!("no {name} block"));
        (
            number(&b.body, "line"),
            number(&b.body, "column"),
            number(&b.body, "byte"),
        )
    };
    (pos("from"), pos("to"))
}

/// The text of a traversal expression as the `.t` file writes `ref`.
fn traversal_text(steps: &[TraverseStep]) -> String {
    let mut s = String::new();
    for step in steps {
        match step {
            TraverseStep::Root(n) => s.push_str(n),
            TraverseStep::Attr(n) => {
                s.push('.');
                s.push_str(n);
            }
            TraverseStep::Index(v) => match v {
                Value::String(k) => s.push_str(&format!("[{k:?}]")),
                other => s.push_str(&format!(
                    "[{}]",
                    cloudspec_hcl::json::encode(other).unwrap_or_default()
                )),
            },
        }
    }
    s
}

fn expectations(t: &Path) -> Expect {
    let text = std::fs::read_to_string(t).expect("read .t");
    let (body, diags) = parse_native(&t.to_string_lossy(), &text);
    assert!(diags.is_empty(), "{}: {diags:?}", t.display());
    let body = body.expect("body");
    let schema = BodySchema {
        attributes: vec![
            AttributeSchema::new("result", false),
            AttributeSchema::new("result_type", false),
        ],
        blocks: vec![
            BlockHeaderSchema::new("diagnostics", Vec::<String>::new()),
            BlockHeaderSchema::new("traversals", Vec::<String>::new()),
        ],
    };
    let (c, d) = body.content(&schema);
    assert!(d.is_empty(), "{}: {d:?}", t.display());
    let mut e = Expect::default();
    if let Some(a) = c.attributes.get("result_type") {
        let (native, _) = a.expr.as_native().expect("native");
        e.result_type = Some(Type::from_expr(&native).expect("type"));
    }
    if let Some(a) = c.attributes.get("result") {
        e.result = Some(literal(&a.expr));
    }
    for b in &c.blocks {
        let kinds = BodySchema {
            attributes: Vec::new(),
            blocks: vec![
                BlockHeaderSchema::new("error", Vec::<String>::new()),
                BlockHeaderSchema::new("warning", Vec::<String>::new()),
                BlockHeaderSchema::new("expect", Vec::<String>::new()),
            ],
        };
        let (inner, _) = b.body.content(&kinds);
        let mut set = BTreeSet::new();
        for item in &inner.blocks {
            let (from, to) = range(&item.body);
            let key = if b.type_name == "traversals" {
                let (attrs, _) = item.body.just_attributes();
                let (steps, _) = attrs["ref"]
                    .expr
                    .variables()
                    .into_iter()
                    .next()
                    .expect("a ref traversal");
                traversal_text(&steps)
            } else {
                item.type_name.clone()
            };
            set.insert((key, from, to));
        }
        if b.type_name == "diagnostics" {
            e.diagnostics = Some(set);
        } else {
            e.traversals = Some(set);
        }
    }
    e
}

fn pos_of(j: &serde_json::Value) -> Pos {
    let n = |k: &str| j[k].as_u64().unwrap_or(0) as usize;
    (n("line"), n("column"), n("byte"))
}

/// Runs one test over one input; the problems found.
fn check(t: &Path, spec: &Path, input: &Path, e: &Expect) -> Vec<String> {
    let mut problems = Vec::new();
    let name = input.to_string_lossy().to_string();
    let opts = Options {
        spec: spec.to_string_lossy().to_string(),
        diags_json: true,
        with_type: true,
        keep_nulls: true,
        inputs: vec![name.clone()],
        width: 80,
        ..Options::default()
    };
    let out = run(&opts, &FileSystem);
    match &e.diagnostics {
        Some(want) => {
            if out.status == 0 {
                problems.push(format!("{name}: expected diagnostics, got a result"));
            } else {
                let doc: serde_json::Value =
                    serde_json::from_str(&out.stderr).unwrap_or(serde_json::Value::Null);
                let got: BTreeSet<(String, Pos, Pos)> = doc["diagnostics"]
                    .as_array()
                    .map(|ds| {
                        ds.iter()
                            .filter(|d| d["subject"]["filename"].as_str() == Some(name.as_str()))
                            .map(|d| {
                                (
                                    d["severity"].as_str().unwrap_or("").to_string(),
                                    pos_of(&d["subject"]["start"]),
                                    pos_of(&d["subject"]["end"]),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if &got != want {
                    problems.push(format!(
                        "{name}: diagnostics differ\n  want {want:?}\n  got  {got:?}\n  stderr {}",
                        out.stderr
                    ));
                }
            }
        }
        None => {
            if out.status != 0 {
                problems.push(format!("{name}: failed: {}", out.stderr));
            } else {
                let doc: serde_json::Value =
                    serde_json::from_str(&out.stdout).expect("hcldec result JSON");
                let ty = Type::from_json_value(&doc["type"]).expect("result type");
                // The value read from hcldec's own text (exact numbers), not through serde.
                let whole = cloudspec_hcl::json::decode(&out.stdout).expect("result JSON");
                let raw = match &whole {
                    Value::Object(m) => m.get("value").cloned().expect("value"),
                    _ => panic!("{name}: result is not an object"),
                };
                let value = convert(&raw, &ty)
                    .ok()
                    .unwrap_or_else(|| panic!("{name}: result does not convert to its type"));
                if let Some(want_ty) = &e.result_type {
                    if convert(&value, want_ty).is_err() {
                        problems.push(format!(
                            "{name}: result type {ty} does not conform to {want_ty}"
                        ));
                    }
                }
                if let Some(want) = &e.result {
                    let want_ty = e.result_type.clone().unwrap_or(Type::Dynamic);
                    let want = convert(want, &want_ty).expect("expected result converts");
                    let got = convert(&value, &want_ty).unwrap_or(value.clone());
                    if got.ty() != want.ty() || got.equals(&want) != Value::Bool(true) {
                        problems.push(format!(
                            "{name}: result differs\n  want {}\n  got  {}",
                            cloudspec_hcl::json::encode(&want).unwrap_or_default(),
                            cloudspec_hcl::json::encode(&got).unwrap_or_default()
                        ));
                    }
                }
            }
        }
    }
    if let Some(want) = &e.traversals {
        let refs = Options {
            var_refs: true,
            diags_json: true,
            with_type: false,
            keep_nulls: false,
            ..opts.clone()
        };
        let out = run(&refs, &FileSystem);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_default();
        let got: BTreeSet<(String, Pos, Pos)> = doc
            .as_array()
            .map(|rs| {
                rs.iter()
                    .map(|r| {
                        let text: String = r["steps"]
                            .as_array()
                            .map(|steps| {
                                steps
                                    .iter()
                                    .map(|st| match st["kind"].as_str() {
                                        Some("root") => {
                                            st["name"].as_str().unwrap_or("").to_string()
                                        }
                                        Some("attr") => {
                                            format!(".{}", st["name"].as_str().unwrap_or(""))
                                        }
                                        _ => format!("[{}]", st["key"]),
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        (
                            text,
                            pos_of(&r["range"]["start"]),
                            pos_of(&r["range"]["end"]),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        if &got != want {
            problems.push(format!(
                "{name}: traversals differ\n  want {want:?}\n  got  {got:?}\n  stdout {}",
                out.stdout
            ));
        }
    }
    let _ = t;
    problems
}

#[test]
fn hashicorp_specsuite_passes_whole() {
    let root = suite();
    if !root.exists() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    let mut ts = Vec::new();
    tests(&root, &mut ts);
    assert_eq!(ts.len(), 15, "HashiCorp's suite has 15 tests");
    let mut problems = Vec::new();
    let mut inputs = 0;
    for t in &ts {
        let e = expectations(t);
        let base = t.with_extension("");
        let spec = base.with_extension("hcldec");
        for ext in ["hcl", "hcl.json"] {
            let input = PathBuf::from(format!("{}.{ext}", base.display()));
            if input.exists() {
                inputs += 1;
                problems.extend(check(t, &spec, &input, &e));
            }
        }
    }
    assert!(inputs >= 15, "{inputs} inputs");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
