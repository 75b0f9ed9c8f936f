use serde_json::json;

use super::*;
use crate::{Desired, Dropped};

fn xr() -> Json {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "XBuckets",
        "metadata": {"name": "team-a"},
        "spec": {"buckets": ["logs"]}
    })
}

fn bucket(name: &str, region: Json) -> Desired {
    Desired {
        name: name.into(),
        body: json!({
            "apiVersion": "s3.aws.upbound.io/v1beta1",
            "kind": "Bucket",
            "metadata": {"name": name},
            "spec": {"forProvider": {"region": region}}
        }),
        file: "main.hcl".into(),
        line: 4,
    }
}

fn rendered(resources: Vec<Desired>, dropped: Vec<Dropped>) -> Rendered {
    Rendered {
        document: Json::Null,
        resources,
        dropped,
    }
}

fn origins() -> Origins {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.hcl"), "x = 1\n").unwrap();
    let loaded = crate::input::load(dir.path()).unwrap();
    // The directory is gone once this returns; the origins only name it.
    loaded.origins
}

fn plan(types: &[&str]) -> CollectionPlan {
    let mut plan = CollectionPlan::new();
    for t in types {
        plan.add_type(t);
    }
    plan
}

#[test]
fn types_come_from_api_version_and_kind() {
    let of = |v: &str, k: &str| k8s_type(&json!({"apiVersion": v, "kind": k}));
    assert_eq!(
        of("s3.aws.upbound.io/v1beta1", "Bucket").as_deref(),
        Some("k8s:s3.aws.upbound.io:Bucket")
    );
    assert_eq!(of("v1", "ConfigMap").as_deref(), Some("k8s:core:ConfigMap"));
    assert_eq!(of("", "ConfigMap"), None);
    assert_eq!(of("v1", ""), None);
    assert_eq!(of("/v1", "X"), None);
    assert_eq!(k8s_type(&json!({"kind": "X"})), None);
    assert_eq!(k8s_type(&json!({"apiVersion": 1, "kind": "X"})), None);
}

#[test]
fn desired_resources_and_the_xr_join_the_inventory() {
    let r = rendered(
        vec![
            bucket("logs-1", json!("eu-west-1")),
            bucket("logs-0", json!(null)),
        ],
        vec![],
    );
    let judged = inventory(&r, &xr(), "xr.yaml", &origins(), &plan(&[])).unwrap();
    assert!(judged.warnings.is_empty());
    let inv = judged.inventory;
    let got: Vec<(&str, &str)> = inv
        .resources
        .iter()
        .map(|r| (&*r.type_name, &*r.id))
        .collect();
    assert_eq!(
        got,
        [
            ("k8s:example.com:XBuckets", "team-a"),
            ("k8s:s3.aws.upbound.io:Bucket", "logs-0"),
            ("k8s:s3.aws.upbound.io:Bucket", "logs-1"),
        ]
    );
    let xr = &inv.resources[0];
    assert_eq!(xr.source.as_deref(), Some(&Source::new("xr.yaml", None)));
    assert_eq!(xr.region, None);
    let logs1 = &inv.resources[2];
    assert_eq!(logs1.region.as_deref(), Some("eu-west-1"));
    let source = logs1.source.as_deref().unwrap();
    assert!(source.file.ends_with("main.hcl"), "{source:?}");
    assert_eq!(source.line, Some(4));
    // The properties are the whole object.
    let kind = inv.sym("kind").unwrap();
    assert_eq!(
        logs1.properties.get(kind).and_then(|v| v.as_str()),
        Some("Bucket")
    );
    assert_eq!(inv.resources[1].region, None);
    assert!(inv.errors.is_empty());
}

#[test]
fn a_dropped_resource_of_known_type_is_an_error_on_that_type() {
    let dropped = Dropped {
        name: "logs-2".into(),
        api_version: Some("s3.aws.upbound.io/v1beta1".into()),
        kind: Some("Bucket".into()),
        message: "main.hcl:9,3-14,4:discarded resource logs-2\nreq.composite.spec.x, main.hcl:12,20-41: Unsupported attribute; This object does not have an attribute named \"x\".\nunknown values: req.composite.spec.x".into(),
        file: "main.hcl".into(),
        line: 9,
    };
    let r = rendered(vec![bucket("logs-0", json!("eu-west-1"))], vec![dropped]);
    let judged = inventory(&r, &xr(), "xr.yaml", &origins(), &plan(&[])).unwrap();
    assert!(judged.warnings.is_empty());
    let errors = &judged.inventory.errors;
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].type_name, "k8s:s3.aws.upbound.io:Bucket");
    assert!(
        errors[0].message.starts_with("resource \"logs-2\" ("),
        "{}",
        errors[0].message
    );
    assert!(
        errors[0].message.ends_with(
            "main.hcl:9) was not rendered: its body is incomplete (req.composite.spec.x, \
             main.hcl:12,20-41: Unsupported attribute; This object does not have an attribute \
             named \"x\".; unknown values: req.composite.spec.x)"
        ),
        "{}",
        errors[0].message
    );
}

#[test]
fn a_dropped_resource_of_unknown_type_is_an_error_on_every_k8s_type_judged() {
    let dropped = Dropped {
        name: "mystery".into(),
        api_version: None,
        kind: Some("Bucket".into()),
        message: "main.hcl:9,3-14,4:discarded resource mystery".into(),
        file: "main.hcl".into(),
        line: 9,
    };
    let r = rendered(vec![], vec![dropped]);
    let p = plan(&[
        "k8s:s3.aws.upbound.io:Bucket",
        "k8s:core:ConfigMap",
        "aws:s3:bucket",
    ]);
    let judged = inventory(&r, &xr(), "xr.yaml", &Origins::default(), &p).unwrap();
    let types: Vec<&str> = judged
        .inventory
        .errors
        .iter()
        .map(|e| e.type_name.as_str())
        .collect();
    assert_eq!(
        types,
        ["k8s:core:ConfigMap", "k8s:s3.aws.upbound.io:Bucket"]
    );
    assert_eq!(
        judged.inventory.errors[0].message,
        "resource \"mystery\" (main.hcl:9) was not rendered: its body is incomplete, and its \
         apiVersion and kind are unknown, so it may be of this type"
    );
    assert_eq!(
        judged.warnings,
        [
            "composition: resource \"mystery\" (main.hcl:9) was not rendered: its body is \
          incomplete, and its apiVersion and kind are unknown: every rule on a k8s: type gives \
          error"
        ]
    );
    // A desired resource without a type is treated alike.
    let mut untyped = bucket("odd", json!("eu-west-1"));
    untyped.body = json!({"metadata": {"name": "odd"}});
    let judged = inventory(
        &rendered(vec![untyped], vec![]),
        &xr(),
        "xr.yaml",
        &Origins::default(),
        &p,
    )
    .unwrap();
    assert_eq!(judged.inventory.errors.len(), 2);
    assert_eq!(judged.inventory.resources.len(), 1);
    assert!(
        judged.warnings[0].contains("\"odd\" (main.hcl:4) has no apiVersion and kind"),
        "{:?}",
        judged.warnings
    );
}

#[test]
fn the_xr_needs_a_type_and_a_name() {
    let r = rendered(vec![], vec![]);
    let no_name = json!({"apiVersion": "example.com/v1", "kind": "X"});
    assert_eq!(
        inventory(&r, &no_name, "xr.yaml", &Origins::default(), &plan(&[]))
            .unwrap_err()
            .message,
        "xr.yaml: the composite resource has no metadata.name; run --composition judges it by that name"
    );
    let no_type = json!({"metadata": {"name": "x"}});
    assert_eq!(
        inventory(&r, &no_type, "xr.yaml", &Origins::default(), &plan(&[]))
            .unwrap_err()
            .message,
        "xr.yaml: the composite resource has no apiVersion and kind; run --composition judges it as type k8s:<group>:<Kind>"
    );
}

#[test]
fn the_xr_and_a_desired_resource_of_one_type_and_name_clash() {
    let mut same = bucket("team-a", json!("eu-west-1"));
    same.body = xr();
    let err = inventory(
        &rendered(vec![same], vec![]),
        &xr(),
        "xr.yaml",
        &Origins::default(),
        &plan(&[]),
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "the composite resource and the desired resource \"team-a\" are both \
         k8s:example.com:XBuckets/team-a: a (type, id) must be unique in a run"
    );
}

#[test]
fn a_failed_render_names_the_composition_on_every_line() {
    let failure = Failure {
        diagnostics: vec![
            crate::Diagnostic::error("first", "", None),
            crate::Diagnostic::error("second", "why", None),
        ],
    };
    assert_eq!(
        render_failed(Path::new("comp"), &failure).message,
        "composition comp: error: first\ncomposition comp: error: second; why"
    );
}

#[test]
fn load_needs_a_composition_and_an_xr() {
    let plan = CollectionPlan::new();
    let mut options = cloudspec_model::Options::default();
    let request = |options: &cloudspec_model::Options| {
        CompositionSource
            .load(&LoadRequest {
                plan: &plan,
                keep: None,
                options,
            })
            .unwrap_err()
            .message
    };
    assert_eq!(
        request(&options),
        "no composition given: pass --composition PATH"
    );
    options.paths.push("comp".into());
    assert_eq!(
        request(&options),
        "--composition needs --xr XR.yaml: the composite resource to render it for"
    );
    let dir = tempfile::tempdir().unwrap();
    options.paths = vec![dir.path().to_path_buf()];
    options.set(XR, "xr.yaml");
    assert_eq!(
        request(&options),
        format!(
            "{}: no HCL input files found (no *.hcl file in this directory)",
            display_path(dir.path())
        )
    );
    std::fs::write(dir.path().join("main.hcl"), "x = 1\n").unwrap();
    options.settings.clear();
    options.set(XR, dir.path().join("xr.yaml").display().to_string());
    assert!(
        request(&options).ends_with("xr.yaml: cannot read: No such file or directory (os error 2)"),
        "{}",
        request(&options)
    );
}
