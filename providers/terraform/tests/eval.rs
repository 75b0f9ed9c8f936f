//! Data-driven cases for the Terraform loader (`design/terraform.md` sections 3, 6, 7, 10),
//! one folder per case under `tests/eval/<name>/`:
//!
//! - `tf/`: the root module (and whatever it calls: `tf/modules/...`, `tf/.terraform/...`);
//! - `vars.json` (optional): `{"args": [{"var": "NAME=VALUE"} | {"var_file": "FILE"}],
//!   "env": {"NAME": "VALUE"}, "tree": "DIR"}`, the `--var`/`--var-file` arguments in
//!   order (files relative to the case folder), the `TF_VAR_*` environment and the
//!   `--terraform-root` tree (relative to the case folder: `.` is the case folder, so
//!   `tf/` may call a module in `<case>/modules/`);
//! - exactly one of `expected.json` (the instances: address, type, provider, source,
//!   region, default tags, whether it stands for an unknown expansion, and the raw
//!   properties) and `expected.err` (the `Failure` text, one line per diagnostic);
//! - `warnings.txt` when warnings are expected (one per line).
//!
//! `UPDATE_EVAL=1` (re)writes the expected files from the actual output; `EVAL=text` runs
//! only the cases whose folder name contains `text`. Written expectations are to be read
//! against the contract and Terraform's semantics, not trusted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cloudspec_terraform::eval::{evaluate, Options};
use cloudspec_terraform::raw::{raw, to_json};
use cloudspec_terraform::vars::VarArg;
use serde_json::{json, Value};

/// A case that takes longer than this is reported as hanging.
const TIMEOUT: Duration = Duration::from_secs(30);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval")
}

fn case_dirs() -> Vec<PathBuf> {
    let filter = std::env::var("EVAL").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .expect("tests/eval")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .filter(|p| name(p).contains(&filter))
        .collect();
    dirs.sort();
    dirs
}

fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

fn options(dir: &Path) -> Options {
    let mut options = Options {
        root: dir.join("tf"),
        ..Options::default()
    };
    let Ok(text) = std::fs::read_to_string(dir.join("vars.json")) else {
        return options;
    };
    let v: Value = serde_json::from_str(&text).expect("vars.json");
    // Files as the command line would name them from the crate's directory.
    let rel = Path::new("tests/eval").join(name(dir));
    for arg in v["args"].as_array().into_iter().flatten() {
        if let Some(s) = arg["var"].as_str() {
            let (n, value) = s.split_once('=').expect("NAME=VALUE");
            options.vars.push(VarArg::Value {
                name: n.to_string(),
                value: value.to_string(),
            });
        } else if let Some(f) = arg["var_file"].as_str() {
            options.vars.push(VarArg::File(rel.join(f)));
        }
    }
    if let Some(tree) = v["tree"].as_str() {
        options.tree = Some(dir.join(tree));
    }
    if let Some(env) = v["env"].as_object() {
        options.env = env
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect::<BTreeMap<_, _>>();
    }
    options
}

struct Outcome {
    result: Result<Value, String>,
    warnings: String,
}

fn run(dir: &Path) -> Result<(Outcome, Duration), String> {
    let options = options(dir);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(name(dir))
        .spawn(move || {
            let start = Instant::now();
            let outcome = match evaluate(&options) {
                Ok(evaluated) => {
                    let instances: Vec<Value> = evaluated
                        .instances
                        .iter()
                        .map(|i| {
                            let r = raw(i);
                            json!({
                                "address": i.address,
                                "tf_type": i.tf_type,
                                "provider": i.provider,
                                "file": i.file,
                                "line": i.line,
                                "region": i.region,
                                "default_tags": to_json(&i.default_tags, 0),
                                "unknown_expansion": i.unknown_expansion,
                                "type": r.type_name,
                                "properties": Value::Object(r.properties),
                            })
                        })
                        .collect();
                    Outcome {
                        result: Ok(Value::Array(instances)),
                        warnings: evaluated.warnings.join("\n"),
                    }
                }
                Err(f) => Outcome {
                    result: Err(f.to_string()),
                    warnings: String::new(),
                },
            };
            let _ = tx.send((outcome, start.elapsed()));
        })
        .unwrap();
    rx.recv_timeout(TIMEOUT).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => format!("did not finish within {TIMEOUT:?}"),
        mpsc::RecvTimeoutError::Disconnected => "panicked".to_string(),
    })
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

fn write_or_remove(path: &Path, text: Option<String>) {
    match text {
        Some(t) => std::fs::write(path, t).unwrap(),
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn update(dir: &Path, out: &Outcome) {
    match &out.result {
        Ok(v) => {
            write_or_remove(&dir.join("expected.json"), Some(pretty(v)));
            write_or_remove(&dir.join("expected.err"), None);
        }
        Err(e) => {
            write_or_remove(&dir.join("expected.err"), Some(format!("{e}\n")));
            write_or_remove(&dir.join("expected.json"), None);
        }
    }
    let warnings = (!out.warnings.is_empty()).then(|| format!("{}\n", out.warnings));
    write_or_remove(&dir.join("warnings.txt"), warnings);
}

fn check(dir: &Path, out: &Outcome) -> Result<(), String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    match (&out.result, read("expected.json"), read("expected.err")) {
        (Ok(v), Some(expected), None) => {
            let expected: Value = serde_json::from_str(&expected).map_err(|e| e.to_string())?;
            if *v != expected {
                return Err(format!(
                    "instances differ:\n--- expected\n{}--- actual\n{}",
                    pretty(&expected),
                    pretty(v)
                ));
            }
        }
        (Err(e), None, Some(expected)) => {
            if e.trim_end() != expected.trim_end() {
                return Err(format!(
                    "failure differs:\n--- expected\n{expected}--- actual\n{e}\n"
                ));
            }
        }
        (Ok(v), _, Some(expected)) => {
            return Err(format!(
                "expected a failure:\n{expected}but got instances:\n{}",
                pretty(v)
            ))
        }
        (Err(e), _, _) => return Err(format!("unexpected failure:\n{e}")),
        (Ok(_), None, None) => return Err("no expected.json nor expected.err".into()),
    }
    let expected_warnings = read("warnings.txt").unwrap_or_default();
    if out.warnings.trim_end() != expected_warnings.trim_end() {
        return Err(format!(
            "warnings differ:\n--- expected\n{expected_warnings}--- actual\n{}\n",
            out.warnings
        ));
    }
    Ok(())
}

#[test]
fn eval_cases() {
    let updating = std::env::var_os("UPDATE_EVAL").is_some();
    let mut failures = Vec::new();
    let dirs = case_dirs();
    assert!(!dirs.is_empty(), "no case found");
    for dir in &dirs {
        match run(dir) {
            Ok((out, took)) => {
                if took > Duration::from_secs(10) {
                    failures.push(format!("{}: took {took:?}", name(dir)));
                }
                if updating {
                    update(dir, &out);
                } else if let Err(e) = check(dir, &out) {
                    failures.push(format!("{}: {e}", name(dir)));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", name(dir))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}

/// Regression: every instance of a `for_each` over another resource copied that whole
/// resource into its own scope (2,000 instances took 13 s in a release build).
#[test]
fn thousands_of_instances_evaluate_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("locals {\n  subnets = {\n");
    for i in 0..1500 {
        text.push_str(&format!(
            "    s{i} = {{ cidr = \"10.{}.{}.0/24\" }}\n",
            i / 250,
            i % 250
        ));
    }
    text.push_str(
        r#"  }
}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/8"
}
resource "aws_subnet" "s" {
  for_each   = local.subnets
  vpc_id     = aws_vpc.main.id
  cidr_block = each.value.cidr
}
resource "aws_instance" "i" {
  for_each  = aws_subnet.s
  subnet_id = each.value.id
  tags      = { Name = each.key }
}
output "ips" {
  value = [for k, v in aws_instance.i : v.private_ip]
}
"#,
    );
    std::fs::write(dir.path().join("main.tf"), text).unwrap();
    let start = Instant::now();
    let evaluated = evaluate(&Options {
        root: dir.path().to_path_buf(),
        ..Options::default()
    })
    .unwrap();
    assert_eq!(evaluated.instances.len(), 3001);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

/// The contract with the mappings: an instance's body, decoded with a schema and evaluated
/// in its scope, gives the configured values, `each`/`count` of that instance, expanded
/// `dynamic` blocks and identities that name the instance they come from.
/// Regression: `aws_vpc.main.default_network_acl_id` was a bare unknown, so the mapping of
/// `aws_default_network_acl` (which finds its VPC as the owner of that id) never found it
/// outside the mapping tests' stand-in evaluator.
#[test]
fn computed_ids_of_managed_resources_name_their_owner() {
    use cloudspec_terraform::identity;

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        r#"
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
data "aws_vpc" "other" {}
resource "aws_default_network_acl" "default" {
  default_network_acl_id = aws_vpc.main.default_network_acl_id
  tags = {
    other = data.aws_vpc.other.main_route_table_id
    dns   = aws_vpc.main.enable_dns_support
  }
}
"#,
    )
    .unwrap();
    let evaluated = evaluate(&Options {
        root: dir.path().to_path_buf(),
        ..Options::default()
    })
    .unwrap();
    let acl = evaluated
        .instances
        .iter()
        .find(|i| i.address == "aws_default_network_acl.default")
        .unwrap();
    let (attrs, _) = acl.body.just_attributes();
    let id = attrs["default_network_acl_id"].expr.value(&acl.ctx).0;
    assert_eq!(
        identity::parse(id.as_str().unwrap()),
        Some(("aws_vpc.main", "default_network_acl_id"))
    );
    let tags = attrs["tags"].expr.value(&acl.ctx).0;
    // A data source's attributes, and a managed resource's other computed ones, are
    // unknown.
    let (cloudspec_hcl::Value::Object(m) | cloudspec_hcl::Value::Map(_, m)) = &tags else {
        panic!("{tags:?}")
    };
    assert!(m["other"].is_unknown(), "{tags:?}");
    assert!(m["dns"].is_unknown(), "{tags:?}");
}

#[test]
fn an_instance_body_decodes_in_its_scope() {
    use cloudspec_hcl::body::{AttributeSchema, BlockHeaderSchema, BodySchema};
    use cloudspec_hcl::Value;
    use cloudspec_terraform::identity;

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        r#"
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "s" {
  for_each   = { a = "10.0.1.0/24" }
  vpc_id     = aws_vpc.main.id
  cidr_block = each.value
  dynamic "tag" {
    for_each = ["x", "y"]
    content {
      name = "${each.key}-${tag.value}"
    }
  }
}
"#,
    )
    .unwrap();
    let evaluated = evaluate(&Options {
        root: dir.path().to_path_buf(),
        ..Options::default()
    })
    .unwrap();
    let subnet = &evaluated.instances[1];
    assert_eq!(subnet.address, "aws_subnet.s[\"a\"]");
    let schema = BodySchema {
        attributes: vec![
            AttributeSchema::new("vpc_id", false),
            AttributeSchema::new("cidr_block", false),
        ],
        blocks: vec![BlockHeaderSchema::new("tag", Vec::<String>::new())],
    };
    let (content, _, diags) = subnet.body.partial_content(&schema);
    assert!(diags.is_empty(), "{diags:?}");
    let value = |name: &str| content.attributes[name].expr.value(&subnet.ctx).0;
    let vpc_id = value("vpc_id");
    assert_eq!(
        identity::parse(vpc_id.as_str().unwrap()),
        Some(("aws_vpc.main", "id"))
    );
    assert_eq!(value("cidr_block"), Value::string("10.0.1.0/24"));
    let names: Vec<Value> = content
        .blocks
        .iter()
        .map(|b| {
            // With a schema, as hcldec decodes (`just_attributes` of a generated block is
            // its original body's, without the iterator: HCL's dynblock).
            let schema = BodySchema {
                attributes: vec![AttributeSchema::new("name", true)],
                blocks: Vec::new(),
            };
            let (attrs, _) = b.body.content(&schema);
            attrs.attributes["name"].expr.value(&subnet.ctx).0
        })
        .collect();
    assert_eq!(names, vec![Value::string("a-x"), Value::string("a-y")]);
}

/// Hostile: `fileset` in a `for` walks the tree again for every element; the walks of one
/// evaluation are bounded together.
#[test]
fn repeated_fileset_walks_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for d in 0..20 {
        let sub = dir.path().join(format!("d{d}"));
        std::fs::create_dir(&sub).unwrap();
        for f in 0..100 {
            std::fs::write(sub.join(format!("f{f}.txt")), "").unwrap();
        }
    }
    std::fs::write(
        dir.path().join("main.tf"),
        r#"locals {
  all = [for i in range(200) : length(fileset(path.module, "**/*.txt"))]
}
resource "aws_s3_bucket" "b" {
  bucket = local.all[0]
}
"#,
    )
    .unwrap();
    let start = Instant::now();
    let failure = evaluate(&Options {
        root: dir.path().to_path_buf(),
        ..Options::default()
    })
    .unwrap_err();
    assert!(
        failure
            .to_string()
            .contains("fileset calls looked at more than 300000 files and directories in all"),
        "{failure}"
    );
    assert!(start.elapsed() < Duration::from_secs(20));
}
