//! Schema decoding of bodies (`hcl.Body.Content`, `PartialContent`, `JustAttributes`,
//! `hcl.MergeBodies`) with HCL's exact diagnostics and ranges, the static analyses of
//! native expressions, and the agreement of both syntaxes.

use std::collections::BTreeMap;

use cloudspec_hcl::body::{
    self, abs_traversal_for_expr, expr_call, expr_list, expr_map, AttributeSchema, Block,
    BlockHeaderSchema, Body, BodySchema, Expr,
};
use cloudspec_hcl::diag::{Diagnostic, Pos, Range};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::{Number, Type, Value};

fn pos(line: usize, column: usize, byte: usize) -> Pos {
    Pos { line, column, byte }
}

fn range(file: &str, start: Pos, end: Pos) -> Range {
    Range {
        filename: file.into(),
        start,
        end,
    }
}

fn native(text: &str) -> Body {
    let (body, diags) = body::parse_native("t.hcl", text);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
    body.expect("a body")
}

fn num(s: &str) -> Value {
    Value::Number(Number::parse(s).expect("number"))
}

fn schema(attrs: &[(&str, bool)], blocks: &[(&str, &[&str])]) -> BodySchema {
    BodySchema {
        attributes: attrs
            .iter()
            .map(|(n, r)| AttributeSchema::new(*n, *r))
            .collect(),
        blocks: blocks
            .iter()
            .map(|(t, l)| BlockHeaderSchema::new(*t, l.iter().copied()))
            .collect(),
    }
}

/// (summary, detail, subject start and end) of a diagnostic.
type Described = (String, String, Option<(Pos, Pos)>);

fn described(diags: &[Diagnostic]) -> Vec<Described> {
    diags
        .iter()
        .map(|d| {
            (
                d.summary.clone(),
                d.detail.clone(),
                d.subject.as_ref().map(|r| (r.start, r.end)),
            )
        })
        .collect()
}

fn d(summary: &str, detail: &str, subject: Option<(Pos, Pos)>) -> Described {
    (summary.to_string(), detail.to_string(), subject)
}

#[test]
fn attributes_and_blocks() {
    let body = native(
        r#"
name = "web"
count = 2

disk "root" {
  size = 10
}
disk "data" {
  size = 100
}
"#,
    );
    let (content, diags) = body.content(&schema(
        &[("name", true), ("count", false), ("absent", false)],
        &[("disk", &["label"])],
    ));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        content.attributes.keys().collect::<Vec<_>>(),
        vec!["count", "name"]
    );
    let name = &content.attributes["name"];
    assert_eq!(name.name_range, range("t.hcl", pos(2, 1, 1), pos(2, 5, 5)));
    assert_eq!(name.range, range("t.hcl", pos(2, 1, 1), pos(2, 13, 13)));
    assert_eq!(
        name.expr.range(),
        range("t.hcl", pos(2, 8, 8), pos(2, 13, 13))
    );
    assert_eq!(name.expr.value(&EvalContext::new()).0, Value::from("web"));
    let labels: Vec<&[String]> = content.blocks.iter().map(|b| b.labels.as_slice()).collect();
    assert_eq!(labels, vec![["root".to_string()], ["data".to_string()]]);
    let (inner, diags) = content.blocks[1]
        .body
        .content(&schema(&[("size", true)], &[]));
    assert!(diags.is_empty());
    assert_eq!(
        inner.attributes["size"].expr.value(&EvalContext::new()).0,
        num("100")
    );
}

#[test]
fn unsupported_arguments() {
    let body = native("nmae = 1\nthing = 2\nzzz = 3\n");
    let (_, diags) = body.content(&schema(&[("name", false)], &[("thing", &[])]));
    assert_eq!(
        described(&diags),
        vec![
            d(
                "Unsupported argument",
                "An argument named \"nmae\" is not expected here. Did you mean \"name\"?",
                Some((pos(1, 1, 0), pos(1, 5, 4))),
            ),
            d(
                "Unsupported argument",
                "An argument named \"thing\" is not expected here. Did you mean to define a block of type \"thing\"?",
                Some((pos(2, 1, 9), pos(2, 6, 14))),
            ),
            d(
                "Unsupported argument",
                "An argument named \"zzz\" is not expected here.",
                Some((pos(3, 1, 19), pos(3, 4, 22))),
            ),
        ]
    );
}

#[test]
fn already_set_attributes_are_not_suggested() {
    let body = native("name = 1\nnmae = 2\n");
    let (_, diags) = body.content(&schema(&[("name", false)], &[]));
    assert_eq!(
        described(&diags),
        vec![d(
            "Unsupported argument",
            "An argument named \"nmae\" is not expected here.",
            Some((pos(2, 1, 9), pos(2, 5, 13))),
        )]
    );
}

#[test]
fn unsupported_blocks() {
    let body = native("resorce {}\nsize {}\nother \"x\" {}\n");
    let (_, diags) = body.content(&schema(&[("size", false)], &[("resource", &[])]));
    assert_eq!(
        described(&diags),
        vec![
            d(
                "Unsupported block type",
                "Blocks of type \"resorce\" are not expected here. Did you mean \"resource\"?",
                Some((pos(1, 1, 0), pos(1, 8, 7))),
            ),
            d(
                "Unsupported block type",
                "Blocks of type \"size\" are not expected here. Did you mean to define argument \"size\"? If so, use the equals sign to assign it a value.",
                Some((pos(2, 1, 11), pos(2, 5, 15))),
            ),
            d(
                "Unsupported block type",
                "Blocks of type \"other\" are not expected here.",
                Some((pos(3, 1, 19), pos(3, 6, 24))),
            ),
        ]
    );
}

#[test]
fn missing_required_arguments() {
    let body = native("\n  a = 1\nblk {\n  b = 2\n}\n");
    let (content, diags) = body.content(&schema(&[("a", true), ("x", true)], &[("blk", &[])]));
    // A file's missing item range is its first token (the newline at 1:1 here).
    assert_eq!(
        described(&diags),
        vec![d(
            "Missing required argument",
            "The argument \"x\" is required, but no definition was found.",
            Some((pos(1, 1, 0), pos(1, 1, 0))),
        )]
    );
    // A block body's is its opening brace.
    let (_, diags) = content.blocks[0]
        .body
        .content(&schema(&[("b", true), ("c", true)], &[]));
    assert_eq!(
        described(&diags),
        vec![d(
            "Missing required argument",
            "The argument \"c\" is required, but no definition was found.",
            Some((pos(3, 5, 13), pos(3, 5, 13))),
        )]
    );
}

#[test]
fn label_count_mismatches() {
    let body = native("a \"x\" {}\nb \"x\" \"y\" \"z\" {}\nc \"x\" {}\nc {}\n");
    let (content, diags) = body.content(&schema(
        &[],
        &[
            ("a", &[]),
            ("b", &["type", "name"]),
            ("c", &["type", "name"]),
        ],
    ));
    assert!(content.blocks.is_empty());
    assert_eq!(
        described(&diags),
        vec![
            d(
                "Extraneous label for a",
                "No labels are expected for a blocks.",
                Some((pos(1, 3, 2), pos(1, 6, 5))),
            ),
            d(
                "Extraneous label for b",
                "Only 2 labels (type, name) are expected for b blocks.",
                Some((pos(2, 11, 19), pos(2, 14, 22))),
            ),
            d(
                "Missing name for c",
                "All c blocks must have 2 labels (type, name).",
                Some((pos(3, 7, 32), pos(3, 8, 33))),
            ),
            d(
                "Missing type for c",
                "All c blocks must have 2 labels (type, name).",
                Some((pos(4, 3, 37), pos(4, 4, 38))),
            ),
        ]
    );
}

#[test]
fn identifier_labels_and_ranges() {
    let body = native("resource aws_s3_bucket \"b\" {\n}\n");
    let (content, diags) = body.content(&schema(&[], &[("resource", &["type", "name"])]));
    assert!(diags.is_empty());
    let b = &content.blocks[0];
    assert_eq!(b.labels, vec!["aws_s3_bucket", "b"]);
    assert_eq!(
        b.label_ranges,
        vec![
            range("t.hcl", pos(1, 10, 9), pos(1, 23, 22)),
            range("t.hcl", pos(1, 24, 23), pos(1, 27, 26)),
        ]
    );
    assert_eq!(b.def_range, range("t.hcl", pos(1, 1, 0), pos(1, 27, 26)));
    assert_eq!(b.type_range, range("t.hcl", pos(1, 1, 0), pos(1, 9, 8)));
}

#[test]
fn partial_content_and_remain() {
    let body = native("a = 1\nb = 2\nx {}\ny {}\nx {}\n");
    let (content, remain, diags) = body.partial_content(&schema(&[("a", true)], &[("x", &[])]));
    assert!(diags.is_empty());
    assert_eq!(content.attributes.keys().collect::<Vec<_>>(), vec!["a"]);
    assert_eq!(content.blocks.len(), 2);
    // The rest: taken items are gone, so asking again for "a" reports it missing.
    let (rest, diags) = remain.content(&schema(&[("a", true), ("b", false)], &[("y", &[])]));
    assert_eq!(rest.attributes.keys().collect::<Vec<_>>(), vec!["b"]);
    assert_eq!(rest.blocks.len(), 1);
    assert_eq!(
        described(&diags),
        vec![d(
            "Missing required argument",
            "The argument \"a\" is required, but no definition was found.",
            Some((pos(1, 1, 0), pos(1, 1, 0))),
        )]
    );
    // Taken blocks are not reported as unsupported either.
    let (_, diags) = remain.content(&schema(&[("b", false)], &[("y", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn just_attributes() {
    let body = native("a = 1\nb = \"x\"\nblk {}\nother {}\n");
    let (attrs, diags) = body.just_attributes();
    assert_eq!(attrs.keys().collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(
        described(&diags),
        vec![d(
            "Unexpected \"blk\" block",
            "Blocks are not allowed here.",
            Some((pos(3, 1, 14), pos(3, 4, 17))),
        )]
    );
}

#[test]
fn merged_bodies() {
    let (a, _) = body::parse_native("a.hcl", "x = 1\nblk {}\n");
    let (b, _) = body::parse_native("b.hcl", "y = 2\nx = 3\nblk {}\n");
    let merged = Body::merge(vec![a.unwrap(), b.unwrap()]);
    let (content, diags) = merged.content(&schema(
        &[("x", true), ("y", true), ("z", true)],
        &[("blk", &[])],
    ));
    assert_eq!(content.blocks.len(), 2);
    assert_eq!(
        content.attributes["x"].expr.value(&EvalContext::new()).0,
        num("1")
    );
    assert_eq!(
        described(&diags),
        vec![
            d(
                "Duplicate argument",
                "Argument \"x\" was already set at a.hcl:1,1-2",
                Some((pos(2, 1, 6), pos(2, 2, 7))),
            ),
            d(
                "Missing required argument",
                "The argument \"z\" is required, but was not set.",
                None,
            ),
        ]
    );
    assert_eq!(diags[0].subject.as_ref().unwrap().filename, "b.hcl");
    assert_eq!(merged.missing_item_range().filename, "a.hcl");
    // Just attributes.
    let (attrs, diags) = merged.just_attributes();
    assert_eq!(attrs.keys().collect::<Vec<_>>(), vec!["x", "y"]);
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(
        summaries,
        vec![
            "Unexpected \"blk\" block",
            "Unexpected \"blk\" block",
            "Duplicate argument"
        ]
    );
    // Merging merged bodies flattens them; partial content of a merge.
    let (c, _) = body::parse_native("c.hcl", "w = 0\n");
    let again = Body::merge(vec![merged, c.unwrap()]);
    let (content, remain, diags) = again.partial_content(&schema(&[("w", true)], &[]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(content.attributes["w"].range.filename, "c.hcl");
    let (rest, _) = remain.content(&schema(&[("x", false), ("y", false)], &[("blk", &[])]));
    assert_eq!(rest.blocks.len(), 2);
}

// ---------------------------------------------------------------------------------------
// Both syntaxes decode alike.

fn summary(body: &Body, depth: usize) -> BTreeMap<String, String> {
    let s = schema(
        &[("name", true), ("tags", false), ("n", false)],
        &[("disk", &["kind"]), ("net", &[])],
    );
    let (content, diags) = body.content(&s);
    assert!(diags.is_empty(), "{diags:?}");
    let ctx =
        EvalContext::new().with_variables(BTreeMap::from([("v".to_string(), Value::from("x"))]));
    let mut out = BTreeMap::new();
    for (name, attr) in &content.attributes {
        let (v, diags) = attr.expr.value(&ctx);
        assert!(diags.is_empty(), "{diags:?}");
        out.insert(
            name.clone(),
            cloudspec_hcl::json::encode(&v).unwrap_or_default(),
        );
    }
    for (i, b) in content.blocks.iter().enumerate() {
        if depth < 2 {
            let inner = block_summary(b);
            out.insert(format!("{}#{i}{:?}", b.type_name, b.labels), inner);
        }
    }
    out
}

fn block_summary(b: &Block) -> String {
    let (content, diags) = b.body.content(&schema(&[("size", false)], &[]));
    assert!(diags.is_empty(), "{diags:?}");
    content
        .attributes
        .get("size")
        .map(|a| a.expr.value(&EvalContext::new()).0)
        .map(|v| cloudspec_hcl::json::encode(&v).unwrap_or_default())
        .unwrap_or_default()
}

#[test]
fn native_and_json_twins_agree() {
    let hcl = r#"
name = "web-${v}"
tags = { env = "prod", "k${v}" = [1, 2.5, true, null] }
n    = 1e3
disk "root" {
  size = 10
}
disk "data" {
  size = 100
}
net {}
"#;
    let json = r#"{
  "name": "web-${v}",
  "tags": {"env": "prod", "k${v}": [1, 2.5, true, null]},
  "n": 1e3,
  "disk": {"root": {"size": 10}, "data": [{"size": 100}]},
  "net": {}
}"#;
    let (h, d1) = body::parse_file("t.hcl", hcl);
    let (j, d2) = body::parse_file("t.hcl.json", json);
    assert!(d1.is_empty() && d2.is_empty());
    let hs = summary(&h.unwrap(), 0);
    let js = summary(&j.unwrap(), 0);
    assert_eq!(hs, js);
    assert_eq!(hs["name"], "\"web-x\"");
    assert_eq!(hs["n"], "1000");
    assert_eq!(hs["tags"], r#"{"env":"prod","kx":[1,2.5,true,null]}"#);
}

// ---------------------------------------------------------------------------------------
// Static analyses of native expressions.

fn expr(text: &str) -> Expr {
    let body = native(&format!("a = {text}\n"));
    let (attrs, _) = body.just_attributes();
    attrs["a"].expr.clone()
}

#[test]
fn native_static_list_and_map() {
    let items = expr("[1, x, \"s\"]").as_list().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[2].value(&EvalContext::empty()).0, Value::from("s"));
    assert_eq!(items[1].as_keyword().as_deref(), Some("x"));
    let err = expr_list(&expr("{}")).unwrap_err().remove(0);
    assert_eq!(
        (err.summary.as_str(), err.detail.as_str()),
        (
            "Invalid expression",
            "A static list expression is required."
        )
    );
    assert_eq!(
        err.subject,
        Some(range("t.hcl", pos(1, 5, 4), pos(1, 6, 5)))
    );

    let pairs = expr("{ name = 1, \"q\" = 2, (k) = 3 }").as_map().unwrap();
    let ctx =
        EvalContext::new().with_variables(BTreeMap::from([("k".to_string(), Value::from("kv"))]));
    let keys: Vec<Value> = pairs.iter().map(|(k, _)| k.value(&ctx).0).collect();
    assert_eq!(
        keys,
        vec![Value::from("name"), Value::from("q"), Value::from("kv")]
    );
    assert_eq!(pairs[0].0.as_keyword().as_deref(), Some("name"));
    assert_eq!(pairs[2].1.value(&ctx).0, num("3"));
    // A bare traversal of several steps as a key is ambiguous to evaluate, but is a
    // traversal for the static analyses.
    let pairs = expr("{ a.b = 1 }").as_map().unwrap();
    let (v, diags) = pairs[0].0.value(&ctx);
    assert_eq!(v, Value::dynamic());
    assert_eq!(
        described(&diags),
        vec![d(
            "Ambiguous attribute key",
            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
            Some((pos(1, 7, 6), pos(1, 10, 9))),
        )]
    );
    assert_eq!(pairs[0].0.as_traversal().unwrap().0.len(), 2);
    let err = expr_map(&expr("[1]")).unwrap_err().remove(0);
    assert_eq!(err.detail, "A static map expression is required.");
}

#[test]
fn native_static_traversal_and_keyword() {
    let (steps, r) = expr("var.list[0].name[\"k\"]").as_traversal().unwrap();
    assert_eq!(
        steps,
        vec![
            TraverseStep::Root("var".into()),
            TraverseStep::Attr("list".into()),
            TraverseStep::Index(num("0")),
            TraverseStep::Attr("name".into()),
            TraverseStep::Index(Value::from("k")),
        ]
    );
    assert_eq!(r, range("t.hcl", pos(1, 5, 4), pos(1, 26, 25)));
    let (steps, _) = expr("a.0").as_traversal().unwrap();
    assert_eq!(steps[1], TraverseStep::Index(num("0")));
    assert_eq!(expr("foo").as_keyword().as_deref(), Some("foo"));
    assert_eq!(expr("foo.bar").as_keyword(), None);
    for bad in ["foo[bar]", "foo.*", "f(1)", "\"x\"", "1 + 2", "true"] {
        let e = expr(bad);
        assert!(e.as_traversal().is_none(), "{bad}");
        let err = abs_traversal_for_expr(&e).unwrap_err().remove(0);
        assert_eq!(
            err.detail,
            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here."
        );
        assert_eq!(err.subject, Some(e.range()));
    }
}

#[test]
fn native_static_call() {
    let e = expr("object({ a = string })");
    let (name, args) = e.as_call().unwrap();
    assert_eq!(name, "object");
    assert_eq!(args.len(), 1);
    assert!(args[0].as_map().is_some());
    assert_eq!(
        e.start_range(),
        range("t.hcl", pos(1, 5, 4), pos(1, 12, 11))
    );
    let err = expr_call(&expr("[1]")).unwrap_err().remove(0);
    assert_eq!(err.detail, "A static function call is required.");
    let (name, _) = expr("provider::p::f(1)").as_call().unwrap();
    assert_eq!(name, "provider::p::f");
}

#[test]
fn native_type_expressions() {
    let (e, _) = expr("list(object({ a = number }))").as_native().unwrap();
    assert_eq!(
        Type::from_expr(&e).unwrap(),
        Type::list(Type::object([("a", Type::Number)]))
    );
}

#[test]
fn static_values_and_variables() {
    let e = Expr::static_value(num("7"), range("x", pos(1, 1, 0), pos(1, 2, 1)));
    assert_eq!(e.value(&EvalContext::empty()).0, num("7"));
    assert!(e.variables().is_empty());
    let vars = expr("a.b + c[0] + [for x in d : x + e]").variables();
    let roots: Vec<String> = vars
        .iter()
        .map(|(steps, _)| match &steps[0] {
            TraverseStep::Root(n) => n.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(roots, vec!["a", "c", "d", "e"]);
}

#[test]
fn attribute_redefined() {
    let (body, diags) = body::parse_native("t.hcl", "a = 1\nb = 0\na = 2\n");
    assert_eq!(
        described(&diags),
        vec![d(
            "Attribute redefined",
            "The argument \"a\" was already set at t.hcl:1,1-2. Each argument may be set only once.",
            Some((pos(3, 1, 12), pos(3, 2, 13))),
        )]
    );
    // Parsing goes on with the first definition, as HCL's parser does.
    let (content, diags) = body
        .unwrap()
        .content(&schema(&[("a", true), ("b", true)], &[]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        content.attributes["a"].expr.value(&EvalContext::new()).0,
        num("1")
    );

    let text = "blk {\n  x = 1\n  x = \"two\"\n  x = 3\n}\nx = 4\n";
    let (body, diags) = body::parse_native("t.hcl", text);
    assert_eq!(
        described(&diags),
        vec![
            d(
                "Attribute redefined",
                "The argument \"x\" was already set at t.hcl:2,3-4. Each argument may be set only once.",
                Some((pos(3, 3, 16), pos(3, 4, 17))),
            ),
            d(
                "Attribute redefined",
                "The argument \"x\" was already set at t.hcl:2,3-4. Each argument may be set only once.",
                Some((pos(4, 3, 28), pos(4, 4, 29))),
            ),
        ]
    );
    let (content, _) = body
        .unwrap()
        .content(&schema(&[("x", true)], &[("blk", &[])]));
    let (inner, _) = content.blocks[0].body.content(&schema(&[("x", true)], &[]));
    assert_eq!(
        inner.attributes["x"].expr.value(&EvalContext::new()).0,
        num("1")
    );
    assert_eq!(
        content.attributes["x"].expr.value(&EvalContext::new()).0,
        num("4")
    );
    // With another syntax error later on, both are reported and there is no body.
    let (body, diags) = body::parse_native("t.hcl", "a = 1\na = 2\nb = \n");
    assert!(body.is_none());
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(summaries, vec!["Attribute redefined", "Invalid syntax"]);
}

// ---------------------------------------------------------------------------------------
// Fuzzing: native bodies never panic the decoder either.

use proptest::prelude::*;

fn native_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a = 1\n".to_string()),
        Just("a = 2\n".to_string()),
        Just("b = \"${v}\"\n".to_string()),
        Just("blk {\n".to_string()),
        Just("lbl \"x\" \"y\" {\n".to_string()),
        Just("lbl \"x\" {\n".to_string()),
        Just("dynamic \"blk\" {\n".to_string()),
        Just("dynamic \"lbl\" {\n".to_string()),
        Just("for_each = v\n".to_string()),
        Just("for_each = [1, 2]\n".to_string()),
        Just("labels = [blk.key, 2]\n".to_string()),
        Just("iterator = it\n".to_string()),
        Just("content {\n".to_string()),
        Just("}\n".to_string()),
        Just("x { y = 1 }\n".to_string()),
        "[ -~]{0,4}".prop_map(|s| s),
    ]
}

fn decode_all(body: &Body, depth: usize) {
    let s = schema(
        &[("a", false), ("b", true)],
        &[("blk", &[]), ("lbl", &["x", "y"]), ("content", &[])],
    );
    let ctx = EvalContext::new().with_variables(BTreeMap::from([(
        "v".to_string(),
        Value::Tuple(vec![num("1")]),
    )]));
    let expanded = body::expand_dynamic(body.clone(), &ctx);
    for b in [body, &expanded] {
        let (content, _) = b.content(&s);
        let _ = b.just_attributes();
        let (_, remain, _) = b.partial_content(&schema(&[("a", false)], &[("blk", &[])]));
        let _ = remain.content(&BodySchema::default());
        for attr in content.attributes.values() {
            let _ = attr.expr.value(&ctx);
            let _ = attr.expr.variables();
            let _ = attr.expr.as_map();
        }
        if depth < 4 {
            for block in &content.blocks {
                decode_all(&block.body, depth + 1);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn native_token_soup_never_panics(tokens in prop::collection::vec(native_token(), 0..30)) {
        let text = tokens.concat();
        if let (Some(body), _) = body::parse_native("f.hcl", &text) {
            decode_all(&body, 0);
        }
    }
}
