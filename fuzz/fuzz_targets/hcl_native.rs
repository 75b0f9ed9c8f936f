//! HCL native syntax, parsed and evaluated as `cloudspec hcl eval` does: `parse_body`
//! (and on failure the body parser's own diagnostics), `body_to_value` with Terraform's
//! functions and variables, and the result encoded as JSON. The same text also goes
//! through the body API (`just_attributes`, each expression evaluated, `dynamic` blocks
//! expanded). The input is the HCL file, optionally followed by a line `%%` and a JSON
//! object of variables (as `--vars`); without it, a fixed set of variables.
#![no_main]

use std::collections::BTreeMap;

use cloudspec_hcl::body::{self, BodySchema};
use cloudspec_hcl::eval::{body_to_value, EvalContext};
use cloudspec_hcl::syntax::{parse_body, SourceFile};
use cloudspec_hcl::Value;
use libfuzzer_sys::fuzz_target;

const DEFAULT_VARS: &str = r#"{"var": {"env": "prod", "count": 3, "names": ["a", "b"],
  "tags": {"Name": "web", "team": "x"}}, "local": {"n": 1, "s": "x", "l": [1, 2, 3]},
  "each": {"key": "k", "value": "v"}, "count": {"index": 0}}"#;

fn variables(text: &str) -> BTreeMap<String, Value> {
    let json = if text.trim().is_empty() {
        DEFAULT_VARS
    } else {
        text
    };
    match cloudspec_hcl::json::decode(json) {
        Ok(Value::Object(vars)) => vars,
        _ => BTreeMap::new(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = cloudspec_fuzz::text(data, "HCL file") else {
        return;
    };
    let (hcl, vars) = cloudspec_fuzz::split2(&text);
    let ctx = EvalContext::new().with_variables(variables(vars));

    let src = SourceFile::new("fuzz.hcl", hcl);
    match parse_body(&src) {
        Ok(body) => {
            let (value, _diags) = body_to_value(&body, &ctx, &src);
            let _ = cloudspec_hcl::json::encode(&value);
        }
        Err(_) => {
            let _ = body::parse_native("fuzz.hcl", hcl);
        }
    }

    // The body API (what hcldec and schema decoding use).
    let (parsed, diags) = body::parse_native("fuzz.hcl", hcl);
    if let (Some(parsed), false) = (parsed, cloudspec_hcl::diag::has_errors(&diags)) {
        let expanded = body::expand_dynamic(parsed.clone(), &ctx);
        let (attrs, _) = expanded.just_attributes();
        for attr in attrs.values() {
            let _ = attr.expr.value(&ctx);
        }
        let (content, _rest, _) = parsed.partial_content(&BodySchema::default());
        for block in &content.blocks {
            let _ = block.body.just_attributes();
        }
    }
});
