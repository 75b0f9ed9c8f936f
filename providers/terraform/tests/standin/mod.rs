//! A stand-in for the module evaluator (`eval::evaluate`), so the mapping tests do not wait
//! for it: [`instances`] reads one configuration file and gives its managed resource
//! instances as the evaluator will. When the evaluator lands, [`instances`] becomes a call
//! of `eval::evaluate` on the case's directory and this module goes.
//!
//! What it does (and no more): `variable` defaults overridden by the case's `vars.json`;
//! `locals` in file order; one `provider "aws"` block's `region` and `default_tags`;
//! `count` (a known number gives `ADDR[i]`, an unknown one the single `ADDR[*]` instance);
//! data sources wholly unknown. Every resource is visible to expressions as an object of
//! its configured top-level arguments plus identities (`identity::identity(ADDR, ATTR)`)
//! for the computed attributes a mapping test refers to (`id`, `arn`, the VPC's default
//! ACL...). `dynamic` blocks are expanded.

use std::collections::BTreeMap;
use std::path::Path;

use cloudspec_hcl::body::{expand_dynamic, AttributeSchema, BlockHeaderSchema, Body, BodySchema};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Type, Value};
use cloudspec_terraform::{identity, Instance};

/// Computed attributes that evaluate to an identity when the configuration does not set
/// them.
const COMPUTED: &[&str] = &[
    "id",
    "arn",
    "owner_id",
    "bucket",
    "name",
    "default_network_acl_id",
    "default_security_group_id",
    "default_route_table_id",
    "private_ip",
    "public_ip",
];

/// The managed resource instances of `file` (`main.tf` or `main.tf.json`) in `dir`.
pub fn instances(dir: &Path, file: &str) -> Vec<Instance> {
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
    let (body, diags) = cloudspec_hcl::body::parse_file(file, &text);
    assert!(
        !cloudspec_hcl::diag::has_errors(&diags),
        "{file}: {diags:?}"
    );
    let body = body.unwrap_or_else(Body::empty);
    let header = |t: &str, labels: &[&str]| BlockHeaderSchema::new(t, labels.iter().copied());
    let schema = BodySchema {
        attributes: Vec::new(),
        blocks: vec![
            header("resource", &["type", "name"]),
            header("data", &["type", "name"]),
            header("provider", &["name"]),
            header("variable", &["name"]),
            header("locals", &[]),
        ],
    };
    let (content, _, diags) = body.partial_content(&schema);
    assert!(diags.is_empty(), "{file}: {diags:?}");
    let blocks = |t: &'static str| content.blocks.iter().filter(move |b| b.type_name == t);

    // var: declared defaults, then vars.json.
    let mut vars = BTreeMap::new();
    for v in blocks("variable") {
        let (c, _, _) = v.body.partial_content(&BodySchema {
            attributes: vec![AttributeSchema::new("default", false)],
            blocks: Vec::new(),
        });
        let default = c
            .attributes
            .get("default")
            .map_or(Value::dynamic(), |a| a.expr.value(&EvalContext::new()).0);
        vars.insert(v.labels[0].clone(), default);
    }
    if let Ok(json) = std::fs::read_to_string(dir.join("vars.json")) {
        if let Ok(Value::Object(given)) = cloudspec_hcl::json::decode(&json) {
            vars.extend(given);
        }
    }
    let mut scope = BTreeMap::from([
        ("var".to_string(), Value::Object(vars)),
        ("local".to_string(), Value::Object(BTreeMap::new())),
    ]);
    for l in blocks("locals") {
        let (attrs, _) = l.body.just_attributes();
        let mut attrs: Vec<_> = attrs.into_values().collect();
        attrs.sort_by_key(|a| a.name_range.start.byte);
        for a in attrs {
            let ctx = EvalContext::new().with_variables(scope.clone());
            let v = a.expr.value(&ctx).0;
            if let Some(Value::Object(locals)) = scope.get_mut("local") {
                locals.insert(a.name.clone(), v);
            }
        }
    }

    // Data sources: unknown. Resources: identities first, then configured arguments.
    let mut data: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for d in blocks("data") {
        data.entry(d.labels[0].clone())
            .or_default()
            .insert(d.labels[1].clone(), Value::dynamic());
    }
    scope.insert(
        "data".to_string(),
        Value::Object(
            data.into_iter()
                .map(|(k, v)| (k, Value::Object(v)))
                .collect(),
        ),
    );
    let count_of = |b: &cloudspec_hcl::body::Block, ctx: &EvalContext| -> Option<Value> {
        attribute(&b.body, "count").map(|e| e.value(ctx).0)
    };
    for pass in 0..2 {
        let ctx = EvalContext::new().with_variables(scope.clone());
        let mut objects: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for r in blocks("resource") {
            let (ty, name) = (&r.labels[0], &r.labels[1]);
            let address = format!("{ty}.{name}");
            let object = |address: &str| {
                let mut attrs: BTreeMap<String, Value> = COMPUTED
                    .iter()
                    .map(|a| (a.to_string(), Value::String(identity::identity(address, a))))
                    .collect();
                if pass == 1 {
                    for (k, v) in configured(&r.body) {
                        let value = v.value(&ctx).0;
                        if value.is_wholly_known() && !value.is_null() {
                            attrs.insert(k, value);
                        }
                    }
                }
                Value::Object(attrs)
            };
            let value = match count_of(r, &ctx) {
                None => object(&address),
                Some(Value::Number(n)) => Value::Tuple(
                    (0..n.to_usize().unwrap_or(0))
                        .map(|i| object(&format!("{address}[{i}]")))
                        .collect(),
                ),
                Some(_) => Value::dynamic(),
            };
            objects
                .entry(ty.clone())
                .or_default()
                .insert(name.clone(), value);
        }
        for (ty, by_name) in objects {
            scope.insert(ty, Value::Object(by_name.into_iter().collect()));
        }
    }

    // The provider's region and default tags.
    let ctx = EvalContext::new().with_variables(scope.clone());
    let mut region = None;
    let mut default_tags = Value::Object(BTreeMap::new());
    if let Some(p) = blocks("provider").next() {
        let (c, _, _) = p.body.partial_content(&BodySchema {
            attributes: vec![AttributeSchema::new("region", false)],
            blocks: vec![header("default_tags", &[])],
        });
        region = c
            .attributes
            .get("region")
            .and_then(|a| a.expr.value(&ctx).0.as_str().map(str::to_string));
        if let Some(dt) = c.blocks.first() {
            if let Some(tags) = attribute(&dt.body, "tags") {
                default_tags = tags.value(&ctx).0;
            }
        }
    }

    let mut out = Vec::new();
    for r in blocks("resource") {
        let (ty, name) = (&r.labels[0], &r.labels[1]);
        let address = format!("{ty}.{name}");
        let expansions: Vec<(String, Option<Value>, bool)> = match count_of(r, &ctx) {
            None => vec![(address.clone(), None, false)],
            Some(Value::Number(n)) => (0..n.to_usize().unwrap_or(0))
                .map(|i| (format!("{address}[{i}]"), Some(Value::from(i)), false))
                .collect(),
            Some(_) => vec![(
                format!("{address}[*]"),
                Some(Value::Unknown(Type::Number)),
                true,
            )],
        };
        for (address, index, unknown_expansion) in expansions {
            let mut vars = scope.clone();
            if let Some(i) = index {
                vars.insert("count".into(), Value::object_from([("index", i)]));
            }
            let ctx = EvalContext::new().with_variables(vars);
            out.push(Instance {
                address,
                tf_type: ty.clone(),
                provider: "aws".into(),
                body: expand_dynamic(r.body.clone(), &ctx),
                ctx,
                file: file.to_string(),
                line: r.def_range.start.line,
                region: region.clone(),
                default_tags: default_tags.clone(),
                unknown_expansion,
                args: None,
            });
        }
    }
    out
}

/// The expression of attribute `name` of `body`, if written.
fn attribute(body: &Body, name: &str) -> Option<cloudspec_hcl::body::Expr> {
    let (mut c, _, _) = body.partial_content(&BodySchema {
        attributes: vec![AttributeSchema::new(name, false)],
        blocks: Vec::new(),
    });
    c.attributes.remove(name).map(|a| a.expr)
}

/// The arguments of a resource that other resources of the mapping tests refer to.
fn configured(body: &Body) -> BTreeMap<String, cloudspec_hcl::body::Expr> {
    ["bucket", "name", "cidr_block", "availability_zone"]
        .into_iter()
        .filter_map(|n| attribute(body, n).map(|e| (n.to_string(), e)))
        .collect()
}
