//! Crossplane function-hcl compositions end to end, as the real binary: `cloudspec render`
//! (and `--check`), and `cloudspec run --composition` judging the desired resources
//! (docs/compositions.md, contract `design/function-hcl.md`).

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cloudspec");

fn cloudspec(args: &[&str], dir: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CLOUDSPEC_LOG")
        .env("NO_COLOR", "1")
        .output()
        .expect("run cloudspec")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The repository, where `examples/composition` is.
fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `cloudspec run s.cloudspec --composition comp --xr XR MORE...` in `dir`.
fn run_composition(dir: &Path, xr: &str, more: &[&str]) -> Output {
    let mut args = vec!["run", "s.cloudspec", "--composition", "comp", "--xr", xr];
    args.extend_from_slice(more);
    cloudspec(&args, dir)
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }
    dir
}

const XR: &str = "apiVersion: example.org/v1alpha1\nkind: XBucketSet\nmetadata:\n  name: team-data\nspec:\n  region: eu-west-1\n  buckets:\n    - name: raw\n";

/// One bucket per entry of the XR's spec.buckets, in comp/main.hcl.
const BUCKETS_HCL: &str = r#"resources bucket {
  for_each = { for b in req.composite.spec.buckets : b.name => b }
  name     = "bucket-${each.key}"
  template {
    body = {
      apiVersion = "s3.aws.upbound.io/v1beta1"
      kind       = "Bucket"
      metadata   = { name = "${req.composite.metadata.name}-${each.key}" }
      spec       = { forProvider = { region = req.composite.spec.region } }
    }
  }
}
"#;

const SPEC: &str = "Spec \"buckets\"\nGroup \"S3\"\nRule \"Buckets are in Ireland\"\nOn k8s:s3.aws.upbound.io:Bucket\nAssert spec ( forProvider ( region == \"eu-west-1\" ) )\n";

// --- arguments and inputs (no rendering) ---------------------------------------------

#[test]
fn xr_and_composition_go_together_on_run() {
    let dir = dir_with(&[
        ("s.cloudspec", SPEC),
        ("xr.yaml", XR),
        ("comp/main.hcl", ""),
    ]);
    let out = cloudspec(&["run", "s.cloudspec", "--xr", "xr.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "the following required arguments were not provided:\n  --composition <PATH>"
        ),
        "{}",
        stderr(&out)
    );
    let out = cloudspec(&["run", "s.cloudspec", "--composition", "comp"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("  --xr <XR.yaml>"),
        "{}",
        stderr(&out)
    );
    let out = cloudspec(
        &[
            "run",
            "s.cloudspec",
            "--observed",
            "o.yaml",
            "--composition",
            "comp",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn render_needs_an_xr_unless_it_only_checks() {
    let dir = dir_with(&[("xr.yaml", XR), ("comp/main.hcl", "")]);
    let out = cloudspec(&["render", "comp"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("  --xr <XR.yaml>"),
        "{}",
        stderr(&out)
    );
    let out = cloudspec(
        &["render", "--check", "comp", "--xr", "xr.yaml"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .starts_with("error: the argument '--check' cannot be used with '--xr <XR.yaml>'"),
        "{}",
        stderr(&out)
    );
    let out = cloudspec(
        &["render", "comp", "--xr", "xr.yaml", "--format", "toml"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_malformed_xr_is_reported_at_its_position_and_nothing_is_printed() {
    let dir = dir_with(&[("xr.yaml", "a: 1\nb: [1, 2\nc: 3\n"), ("comp/main.hcl", "")]);
    let out = cloudspec(&["render", "comp", "--xr", "xr.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "xr.yaml:3:2: error: did not find expected ',' or ']'\n"
    );
}

#[test]
fn input_errors_without_a_position_are_error_lines() {
    let dir = dir_with(&[("xr.yaml", XR), ("empty/notes.md", "")]);
    let out = cloudspec(&["render", "empty", "--xr", "xr.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: empty: no HCL input files found (no *.hcl file in this directory)\n"
    );
    let dir = dir_with(&[("comp/main.hcl", BUCKETS_HCL)]);
    let out = cloudspec(&["render", "comp", "--xr", "missing.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: missing.yaml: cannot read: No such file or directory (os error 2)\n"
    );
    let dir = dir_with(&[
        ("comp/main.hcl", BUCKETS_HCL),
        ("xr.yaml", XR),
        (
            "obs.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
        ),
    ]);
    let out = cloudspec(
        &[
            "render",
            "comp",
            "--xr",
            "xr.yaml",
            "--observed",
            "obs.yaml",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: obs.yaml: document 1 (ConfigMap \"c\"): no crossplane.io/composition-resource-name \
         annotation; each observed resource is named by it (metadata.annotations)\n"
    );
}

#[test]
fn run_reports_an_unreadable_xr_and_stops() {
    let dir = dir_with(&[("s.cloudspec", SPEC), ("comp/main.hcl", BUCKETS_HCL)]);
    let out = run_composition(dir.path(), "missing.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: missing.yaml: cannot read: No such file or directory (os error 2)\n"
    );
}

#[test]
fn specs_on_k8s_types_pass_the_static_checks() {
    let out = cloudspec(
        &["validate", "examples/composition/buckets.cloudspec"],
        repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "ok: 1 file\n");
    let out = cloudspec(
        &["fmt", "--check", "examples/composition/buckets.cloudspec"],
        repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn render_help_teaches_the_inputs_and_the_output() {
    let out = cloudspec(&["render", "--help"], repo());
    assert_eq!(out.status.code(), Some(0));
    let help = stdout(&out);
    for needle in [
        "cloudspec render examples/composition/composition --xr examples/composition/xr.yaml",
        "cloudspec render --check",
        "--extra-resources <EXTRA.yaml>",
        "--format <FORMAT>",
        "desired.resources",
        "FILE:LINE:COL: error: SUMMARY; DETAIL",
        "Exit status: 0 rendered",
    ] {
        assert!(help.contains(needle), "{needle:?} not in\n{help}");
    }
}

// --- render ---------------------------------------------------------------------------

#[test]
fn render_check_passes_a_sound_composition() {
    let out = cloudspec(
        &["render", "--check", "examples/composition/composition"],
        repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "ok: examples/composition/composition passes the static checks (2 files)\n"
    );
}

#[test]
fn render_check_reports_an_undefined_variable_where_it_is() {
    let bad = "locals {\n  a = missing.x\n}\n";
    let dir = dir_with(&[("comp/main.hcl", bad)]);
    let out = cloudspec(&["render", "--check", "comp"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "main.hcl:2:7: error: reference to non-existent variable; missing\n"
    );
}

#[test]
fn render_check_reports_every_static_error() {
    let bad = "locals {\n  a = missing.x\n}\n\nresource r {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { b = invoke(\"nope\", {}) }\n  }\n}\n";
    let dir = dir_with(&[("comp/main.hcl", bad)]);
    let out = cloudspec(&["render", "--check", "comp"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(
        lines[0],
        "main.hcl:2:7: error: reference to non-existent variable; missing"
    );
    assert!(lines[1].starts_with("main.hcl:9:"), "{err}");
    assert!(
        lines[1].ends_with(": error: invoke called on unknown function: \"nope\""),
        "{err}"
    );
}

#[test]
fn render_prints_the_response_as_yaml_or_json() {
    let args = [
        "render",
        "examples/composition/composition",
        "--xr",
        "examples/composition/xr.yaml",
    ];
    let out = cloudspec(&args, repo());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let yaml: serde_json::Value = serde_yaml_ng::from_str(&stdout(&out)).expect("YAML");
    let names: Vec<&String> = yaml["desired"]["resources"]
        .as_object()
        .expect("desired resources")
        .keys()
        .collect();
    assert_eq!(
        names,
        [
            "bucket-curated",
            "bucket-raw",
            "bucket-scratch",
            "versioning-curated",
            "versioning-raw",
            "versioning-scratch"
        ]
    );
    let scratch = &yaml["desired"]["resources"]["versioning-scratch"]["resource"];
    assert_eq!(
        scratch["spec"]["forProvider"]["versioningConfiguration"][0]["status"],
        "Suspended"
    );
    assert_eq!(scratch["spec"]["forProvider"]["region"], "us-east-1");
    // Keys are sorted, the top level included.
    let text = stdout(&out);
    let top: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with([' ', '-']))
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    let mut sorted = top.clone();
    sorted.sort_unstable();
    assert_eq!(top, sorted);

    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let out = cloudspec(&json_args, repo());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json, yaml, "the same document either way");
    assert!(text.starts_with("{\n  \"conditions\": ["), "{text}");
    assert!(text.ends_with("}\n"));
}

#[test]
fn a_failed_render_exits_2_with_nothing_on_stdout() {
    // for_each that does not evaluate is fatal (contract section 3).
    let hcl = "resources b {\n  for_each = req.composite.spec.nothing\n  template {\n    body = {}\n  }\n}\n";
    let dir = dir_with(&[("comp/main.hcl", hcl), ("xr.yaml", XR)]);
    let out = cloudspec(&["render", "comp", "--xr", "xr.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.starts_with("main.hcl:"), "{err}");
    assert!(
        err.contains(": error: unable to evaluate for_each for resource collection b"),
        "{err}"
    );
}

// --- run --composition ----------------------------------------------------------------

fn report(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
}

fn rule<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["rules"].as_array().into_iter().flatten())
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no rule {name:?}"))
}

#[test]
fn run_judges_the_example_composition() {
    let out = cloudspec(
        &[
            "run",
            "examples/composition/buckets.cloudspec",
            "--composition",
            "examples/composition/composition",
            "--xr",
            "examples/composition/xr.yaml",
            "--format",
            "json",
        ],
        repo(),
    );
    // `scratch` is outside the EU and not versioned.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = report(&out);
    let region = rule(&r, "Buckets name a region inside the EU");
    assert_eq!(region["status"], "fail");
    assert_eq!(region["on"], "k8s:s3.aws.upbound.io:Bucket");
    let ids: Vec<&str> = region["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|x| x["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["bucket-curated", "bucket-raw", "bucket-scratch"]);
    let scratch = &region["resources"][2];
    assert_eq!(scratch["status"], "fail");
    assert_eq!(
        scratch["source"],
        serde_json::json!({"file": "examples/composition/composition/main.hcl", "line": 17})
    );
    assert_eq!(rule(&r, "Buckets carry the team tag")["status"], "pass");
    assert_eq!(rule(&r, "Bucket versioning is enabled")["status"], "fail");
    assert_eq!(rule(&r, "Versioning names its bucket")["status"], "pass");
    let claim = rule(&r, "Bucket names are DNS-safe");
    assert_eq!(claim["status"], "pass");
    assert_eq!(claim["resources"][0]["id"], "team-data");
    assert_eq!(
        claim["resources"][0]["source"],
        serde_json::json!({"file": "examples/composition/xr.yaml"})
    );
}

#[test]
fn a_dropped_resource_makes_rules_on_its_type_error() {
    // The region reads an attribute the XR does not have: the bucket is dropped, and its
    // type is known from apiVersion and kind.
    let hcl = BUCKETS_HCL.replace("req.composite.spec.region", "req.composite.spec.nowhere");
    let dir = dir_with(&[
        ("comp/main.hcl", &hcl),
        ("xr.yaml", XR),
        ("s.cloudspec", SPEC),
    ]);
    let out = run_composition(dir.path(), "xr.yaml", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let r = report(&out);
    let rule = rule(&r, "Buckets are in Ireland");
    assert_eq!(rule["status"], "error");
    let message = rule["error"].as_str().unwrap_or("");
    assert!(
        message.starts_with(
            "k8s:s3.aws.upbound.io:Bucket, whose collection failed (resource \"bucket-raw\" \
             (comp/main.hcl:4) was not rendered: its body is incomplete"
        ),
        "{message}"
    );
}

#[test]
fn rendered_resources_join_a_saved_inventory_and_clash_on_one_type_and_id() {
    let inventory = r#"{"cloudspec_inventory": 1, "resources": [
        {"type": "k8s:s3.aws.upbound.io:Bucket", "id": "legacy", "properties": {"spec": {"forProvider": {"region": "us-west-2"}}}}
    ]}"#;
    let dir = dir_with(&[
        ("comp/main.hcl", BUCKETS_HCL),
        ("xr.yaml", XR),
        ("s.cloudspec", SPEC),
        ("inv.json", inventory),
    ]);
    let args = [
        "run",
        "s.cloudspec",
        "--composition",
        "comp",
        "--xr",
        "xr.yaml",
        "--inventory",
        "inv.json",
        "--format",
        "json",
    ];
    let out = cloudspec(&args, dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = report(&out);
    let ids: Vec<&str> = rule(&r, "Buckets are in Ireland")["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|x| x["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["bucket-raw", "legacy"]);

    // --save-inventory writes the union: the saved file judges the same without the
    // composition.
    let mut saving = args.to_vec();
    saving.extend(["--save-inventory", "union.json"]);
    let out = cloudspec(&saving, dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("union.json")).expect("saved inventory"),
    )
    .expect("JSON");
    let mut saved_ids: Vec<String> = saved["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| {
            format!(
                "{}/{}",
                r["type"].as_str().unwrap_or(""),
                r["id"].as_str().unwrap_or("")
            )
        })
        .collect();
    saved_ids.sort();
    assert_eq!(
        saved_ids,
        [
            "k8s:example.org:XBucketSet/team-data",
            "k8s:s3.aws.upbound.io:Bucket/bucket-raw",
            "k8s:s3.aws.upbound.io:Bucket/legacy",
        ]
    );
    let again = cloudspec(
        &[
            "run",
            "s.cloudspec",
            "--inventory",
            "union.json",
            "--format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));

    let clash = inventory.replace("\"legacy\"", "\"bucket-raw\"");
    std::fs::write(dir.path().join("inv.json"), clash).expect("write");
    let out = cloudspec(&args, dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: resource k8s:s3.aws.upbound.io:Bucket/bucket-raw comes from two sources, \
         inventory inv.json and composition comp: a (type, id) must be unique in a run\n"
    );
}

#[test]
fn a_failed_render_stops_the_run_naming_the_composition() {
    let bad = "locals {\n  a = missing.x\n}\n";
    let dir = dir_with(&[
        ("comp/main.hcl", bad),
        ("xr.yaml", XR),
        ("s.cloudspec", SPEC),
    ]);
    let out = run_composition(dir.path(), "xr.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: composition comp: main.hcl:2:7: error: reference to non-existent variable; missing\n"
    );
}

#[test]
fn fail_on_incomplete_exits_3_after_printing_the_document() {
    let hcl = BUCKETS_HCL.replace("req.composite.spec.region", "req.composite.spec.nowhere");
    let dir = dir_with(&[("comp/main.hcl", &hcl), ("xr.yaml", XR)]);
    let plain = cloudspec(&["render", "comp", "--xr", "xr.yaml"], dir.path());
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let strict = cloudspec(
        &["render", "comp", "--xr", "xr.yaml", "--fail-on-incomplete"],
        dir.path(),
    );
    assert_eq!(strict.status.code(), Some(3), "{}", stderr(&strict));
    assert_eq!(stdout(&strict), stdout(&plain));
    assert!(stdout(&strict).contains("reason: IncompleteItemsPresent"));
    let complete = cloudspec(
        &[
            "render",
            "examples/composition/composition",
            "--xr",
            "examples/composition/xr.yaml",
            "--fail-on-incomplete",
        ],
        repo(),
    );
    assert_eq!(complete.status.code(), Some(0), "{}", stderr(&complete));
}
