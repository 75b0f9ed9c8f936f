//! HCL's JSON syntax, parsed and evaluated: the positioned JSON parser
//! (`json::parse_all`, `json::decode` as `--vars` uses it, and `json::encode` of the
//! result), and JSON bodies as hcldec reads `.json` inputs: attributes evaluated (string
//! values are templates), blocks read through a schema, `dynamic` blocks expanded.
#![no_main]

use cloudspec_hcl::body::{self, AttributeSchema, BlockHeaderSchema, Body, BodySchema};
use cloudspec_hcl::eval::EvalContext;
use libfuzzer_sys::fuzz_target;

fn schema() -> BodySchema {
    BodySchema {
        attributes: vec![
            AttributeSchema::new("name", false),
            AttributeSchema::new("count", false),
        ],
        blocks: vec![
            BlockHeaderSchema::new("resource", ["type", "name"]),
            BlockHeaderSchema::new("variable", ["name"]),
            BlockHeaderSchema::new("locals", Vec::<String>::new()),
            BlockHeaderSchema::new("dynamic", ["type"]),
        ],
    }
}

/// Every attribute evaluated and every block walked, at most `depth` levels down.
fn walk(body: &Body, ctx: &EvalContext, depth: usize) {
    let (content, rest, _) = body.partial_content(&schema());
    for attr in content.attributes.values() {
        let _ = attr.expr.value(ctx);
    }
    let (attrs, _) = rest.just_attributes();
    for attr in attrs.values() {
        let _ = attr.expr.value(ctx);
        let _ = attr.expr.variables();
    }
    if depth > 0 {
        for block in &content.blocks {
            walk(&block.body, ctx, depth - 1);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = cloudspec_fuzz::text(data, "JSON file") else {
        return;
    };
    let _ = cloudspec_hcl::json::parse_all(&text, true);
    if let Ok(value) = cloudspec_hcl::json::decode(&text) {
        let _ = cloudspec_hcl::json::encode(&value);
    }
    let (parsed, diags) = body::parse_json("fuzz.json", &text);
    let Some(parsed) = parsed else {
        return;
    };
    if cloudspec_hcl::diag::has_errors(&diags) {
        return;
    }
    let vars =
        cloudspec_hcl::json::decode(r#"{"var": {"env": "prod", "n": 2}, "local": {"l": [1, 2]}}"#);
    let mut ctx = EvalContext::new();
    if let Ok(cloudspec_hcl::Value::Object(vars)) = vars {
        ctx = ctx.with_variables(vars);
    }
    walk(&parsed, &ctx, 4);
    walk(&body::expand_dynamic(parsed, &ctx), &ctx, 4);
});
