//! Dynamic blocks (`ext/dynblock`, the expressions seed's "dynamic blocks" section):
//! for_each, iterator, labels, content, nesting, the iterator's key and value, and the
//! errors with their ranges, in both syntaxes.

use std::collections::BTreeMap;

use cloudspec_hcl::body::{self, AttributeSchema, Block, BlockHeaderSchema, Body, BodySchema};
use cloudspec_hcl::diag::{Diagnostic, Pos};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::{Number, Type, Value};

fn pos(line: usize, column: usize, byte: usize) -> Pos {
    Pos { line, column, byte }
}

fn num(s: &str) -> Value {
    Value::Number(Number::parse(s).expect("number"))
}

fn parse(name: &str, text: &str) -> Body {
    let (body, diags) = body::parse_file(name, text);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
    body.expect("a body")
}

fn schema(attrs: &[&str], blocks: &[(&str, &[&str])]) -> BodySchema {
    BodySchema {
        attributes: attrs
            .iter()
            .map(|n| AttributeSchema::new(*n, false))
            .collect(),
        blocks: blocks
            .iter()
            .map(|(t, l)| BlockHeaderSchema::new(*t, l.iter().copied()))
            .collect(),
    }
}

fn ctx_with(vars: &[(&str, Value)]) -> EvalContext {
    EvalContext::new().with_variables(
        vars.iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    )
}

/// `(labels, attr value)` for each block, evaluating `attr` in `ctx`.
fn blocks_with(blocks: &[Block], attr: &str, ctx: &EvalContext) -> Vec<(Vec<String>, Value)> {
    blocks
        .iter()
        .map(|b| {
            let (content, diags) = b.body.content(&schema(&[attr], &[]));
            assert!(diags.is_empty(), "{diags:?}");
            let (v, diags) = content.attributes[attr].expr.value(ctx);
            assert!(diags.is_empty(), "{diags:?}");
            (b.labels.clone(), v)
        })
        .collect()
}

fn summaries(diags: &[Diagnostic]) -> Vec<(&str, &str)> {
    diags
        .iter()
        .map(|d| (d.summary.as_str(), d.detail.as_str()))
        .collect()
}

fn seed_locals() -> Value {
    Value::object_from([(
        "ports",
        Value::Tuple(vec![
            Value::object_from([("port_label", Value::from("api")), ("port", num("80"))]),
            Value::object_from([("port_label", Value::from("ui")), ("port", num("8080"))]),
        ]),
    )])
}

const SEED_NATIVE: &str = r#"
job "example" {
  datacenters = ["dc1"]

  group "cache" {
    network {

      mode = "host"

      dynamic "port" {
        for_each = local.ports
        labels   = [port.value.port_label]

        content {
          to = port.value.port
        }
      }
    }
  }
}
"#;

const SEED_JSON: &str = r#"{
  "job": {
    "example": {
      "datacenters": ["dc1"],
      "group": {
        "cache": {
          "network": {
            "mode": "host",
            "dynamic": {
              "port": {
                "for_each": "${local.ports}",
                "labels": ["${port.value.port_label}"],
                "content": {
                  "to": "${port.value.port}"
                }
              }
            }
          }
        }
      }
    }
  }
}"#;

fn seed_ports(name: &str, text: &str) -> Vec<(Vec<String>, Value)> {
    let ctx = ctx_with(&[("local", seed_locals())]);
    let file = body::expand_dynamic(parse(name, text), &ctx);
    let (content, diags) = file.content(&schema(&[], &[("job", &["name"])]));
    assert!(diags.is_empty(), "{diags:?}");
    let job = &content.blocks[0];
    let (job_c, diags) = job
        .body
        .content(&schema(&["datacenters"], &[("group", &["name"])]));
    assert!(diags.is_empty(), "{diags:?}");
    let (group_c, diags) = job_c.blocks[0]
        .body
        .content(&schema(&[], &[("network", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    let (net_c, diags) = group_c.blocks[0]
        .body
        .content(&schema(&["mode"], &[("port", &["label"])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        net_c.attributes["mode"].expr.value(&ctx).0,
        Value::from("host")
    );
    blocks_with(&net_c.blocks, "to", &ctx)
}

#[test]
fn seed_example_expands_ports() {
    let want = vec![
        (vec!["api".to_string()], num("80")),
        (vec!["ui".to_string()], num("8080")),
    ];
    assert_eq!(seed_ports("job.hcl", SEED_NATIVE), want);
    assert_eq!(seed_ports("job.hcl.json", SEED_JSON), want);
}

#[test]
fn generated_blocks_ranges() {
    let ctx = ctx_with(&[("local", seed_locals())]);
    let body = body::expand_dynamic(
        parse(
            "t.hcl",
            "dynamic \"port\" {\n  for_each = local.ports\n  labels = [port.value.port_label]\n  content {}\n}\n",
        ),
        &ctx,
    );
    let (content, diags) = body.content(&schema(&[], &[("port", &["label"])]));
    assert!(diags.is_empty(), "{diags:?}");
    let b = &content.blocks[0];
    assert_eq!(b.type_name, "port");
    // The type is the dynamic block's label; the labels are the label expressions.
    assert_eq!(
        (b.type_range.start, b.type_range.end),
        (pos(1, 9, 8), pos(1, 15, 14))
    );
    assert_eq!(
        (b.label_ranges[0].start, b.label_ranges[0].end),
        (pos(3, 13, 54), pos(3, 34, 75))
    );
    assert_eq!(
        (b.def_range.start, b.def_range.end),
        (pos(1, 1, 0), pos(1, 15, 14))
    );
}

#[test]
fn iterator_key_and_value() {
    let text = r#"
dynamic "item" {
  for_each = coll
  iterator = it
  content {
    k = it.key
    v = it.value
  }
}
"#;
    let cases = vec![
        (
            Value::list(Type::String, vec![Value::from("a"), Value::from("b")]),
            vec![(num("0"), Value::from("a")), (num("1"), Value::from("b"))],
        ),
        (
            Value::map(
                Type::Number,
                BTreeMap::from([("y".to_string(), num("2")), ("x".to_string(), num("1"))]),
            ),
            vec![(Value::from("x"), num("1")), (Value::from("y"), num("2"))],
        ),
        (
            Value::set(Type::String, vec![Value::from("q"), Value::from("p")]),
            vec![
                (Value::from("p"), Value::from("p")),
                (Value::from("q"), Value::from("q")),
            ],
        ),
        (
            Value::object_from([("o", Value::Bool(true))]),
            vec![(Value::from("o"), Value::Bool(true))],
        ),
    ];
    for (coll, want) in cases {
        let ctx = ctx_with(&[("coll", coll.clone())]);
        let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
        let (content, diags) = body.content(&schema(&[], &[("item", &[])]));
        assert!(diags.is_empty(), "{diags:?}");
        let got: Vec<(Value, Value)> = content
            .blocks
            .iter()
            .map(|b| {
                let (c, diags) = b.body.content(&schema(&["k", "v"], &[]));
                assert!(diags.is_empty(), "{diags:?}");
                (
                    c.attributes["k"].expr.value(&ctx).0,
                    c.attributes["v"].expr.value(&ctx).0,
                )
            })
            .collect();
        assert_eq!(got, want, "{coll:?}");
    }
}

#[test]
fn nested_dynamic_blocks_see_all_iterators() {
    let text = r#"
parent {
  dynamic "child" {
    for_each = child_objs
    content {
      name = child.key
      dynamic "grandchild" {
        for_each = child.value.children
        labels   = [grandchild.key]
        content {
          parent_key = child.key
          value      = grandchild.value
        }
      }
      static {
        from = child.value.children[0]
      }
    }
  }
}
"#;
    let objs = Value::object_from([
        (
            "a",
            Value::object_from([(
                "children",
                Value::Tuple(vec![Value::from("a0"), Value::from("a1")]),
            )]),
        ),
        (
            "b",
            Value::object_from([("children", Value::Tuple(vec![Value::from("b0")]))]),
        ),
    ]);
    let ctx = ctx_with(&[("child_objs", objs)]);
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("parent", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    let (parent, diags) = content.blocks[0]
        .body
        .content(&schema(&[], &[("child", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(parent.blocks.len(), 2);
    let mut got = Vec::new();
    for child in &parent.blocks {
        let (c, diags) = child.body.content(&schema(
            &["name"],
            &[("grandchild", &["key"]), ("static", &[])],
        ));
        assert!(diags.is_empty(), "{diags:?}");
        let name = c.attributes["name"].expr.value(&ctx).0;
        for g in &c.blocks {
            if g.type_name == "static" {
                let (s, _) = g.body.content(&schema(&["from"], &[]));
                got.push((
                    name.clone(),
                    vec![],
                    s.attributes["from"].expr.value(&ctx).0,
                ));
                continue;
            }
            let (gc, diags) = g.body.content(&schema(&["parent_key", "value"], &[]));
            assert!(diags.is_empty(), "{diags:?}");
            assert_eq!(gc.attributes["parent_key"].expr.value(&ctx).0, name);
            got.push((
                name.clone(),
                g.labels.clone(),
                gc.attributes["value"].expr.value(&ctx).0,
            ));
        }
    }
    let s = |x: &str| Value::from(x);
    assert_eq!(
        got,
        vec![
            (s("a"), vec!["0".to_string()], s("a0")),
            (s("a"), vec!["1".to_string()], s("a1")),
            (s("a"), vec![], s("a0")),
            (s("b"), vec!["0".to_string()], s("b0")),
            (s("b"), vec![], s("b0")),
        ]
    );
}

#[test]
fn static_and_dynamic_blocks_interleave_in_order() {
    let text = "x { n = 0 }\ndynamic \"x\" {\n  for_each = [1, 2]\n  content { n = x.value }\n}\nx { n = 3 }\n";
    let ctx = EvalContext::new();
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("x", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert!(content.blocks.iter().all(|b| !b.body.is_unknown()));
    let vals: Vec<Value> = blocks_with(&content.blocks, "n", &ctx)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(vals, vec![num("0"), num("1"), num("2"), num("3")]);
}

#[test]
fn variables_leave_out_iterators() {
    let text = "dynamic \"x\" {\n  for_each = [1]\n  iterator = it\n  content { n = it.value + other.attr }\n}\n";
    let body = body::expand_dynamic(parse("t.hcl", text), &EvalContext::new());
    let (content, _) = body.content(&schema(&[], &[("x", &[])]));
    let (c, _) = content.blocks[0].body.content(&schema(&["n"], &[]));
    let vars = c.attributes["n"].expr.variables();
    assert_eq!(vars.len(), 1);
    assert_eq!(
        vars[0].0,
        vec![
            TraverseStep::Root("other".into()),
            TraverseStep::Attr("attr".into())
        ]
    );
}

#[test]
fn unknown_for_each_gives_one_unknown_block() {
    let text =
        "dynamic \"x\" {\n  for_each = coll\n  content {\n    n = 1\n    inner { m = 2 }\n  }\n}\n";
    let ctx = ctx_with(&[("coll", Value::Unknown(Type::list(Type::String)))]);
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("x", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(content.blocks.len(), 1);
    assert!(content.blocks[0].body.is_unknown());
    let (c, diags) = content.blocks[0]
        .body
        .content(&schema(&["n"], &[("inner", &[])]));
    assert!(c.blocks[0].body.is_unknown());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(c.attributes["n"].expr.value(&ctx).0, Value::dynamic());
    let (inner, _) = c.blocks[0].body.content(&schema(&["m"], &[]));
    assert_eq!(inner.attributes["m"].expr.value(&ctx).0, Value::dynamic());
    // Of unknown type too.
    let ctx = ctx_with(&[("coll", Value::dynamic())]);
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("x", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(content.blocks.len(), 1);
}

fn expand_errors(text: &str, vars: &[(&str, Value)], block: (&str, &[&str])) -> Vec<Diagnostic> {
    let ctx = ctx_with(vars);
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (_, diags) = body.content(&schema(&[], &[block]));
    diags
}

#[test]
fn bad_for_each_values() {
    let text = "dynamic \"x\" {\n  for_each = v\n  content {}\n}\n";
    let subject = Some((pos(2, 14, 27), pos(2, 15, 28)));
    for (v, detail) in [
        (
            Value::Null(Type::list(Type::String)),
            "Cannot use a null value in for_each.",
        ),
        (
            Value::Null(Type::Dynamic),
            "Cannot use a null value in for_each.",
        ),
        (
            Value::from("str"),
            "Cannot use a string value in for_each. An iterable collection is required.",
        ),
        (
            Value::Unknown(Type::Number),
            "Cannot use a number value in for_each. An iterable collection is required.",
        ),
    ] {
        let diags = expand_errors(text, &[("v", v)], ("x", &[]));
        assert_eq!(
            summaries(&diags),
            vec![("Invalid dynamic for_each value", detail)]
        );
        assert_eq!(diags[0].subject.as_ref().map(|r| (r.start, r.end)), subject);
    }
    // An error evaluating for_each is reported as is.
    let diags = expand_errors(text, &[], ("x", &[]));
    assert_eq!(diags[0].summary, "Unknown variable");
}

#[test]
fn bad_dynamic_block_bodies() {
    let no_for_each = expand_errors("dynamic \"x\" {\n  content {}\n}\n", &[], ("x", &[]));
    assert_eq!(
        summaries(&no_for_each),
        vec![(
            "Missing required argument",
            "The argument \"for_each\" is required, but no definition was found."
        )]
    );
    let no_labels = expand_errors(
        "dynamic \"x\" {\n  for_each = [1]\n  content {}\n}\n",
        &[],
        ("x", &["name"]),
    );
    assert_eq!(
        summaries(&no_labels),
        vec![(
            "Missing required argument",
            "The argument \"labels\" is required, but no definition was found."
        )]
    );
    let no_content = expand_errors("dynamic \"x\" {\n  for_each = [1]\n}\n", &[], ("x", &[]));
    assert_eq!(
        summaries(&no_content),
        vec![(
            "Missing dynamic content block",
            "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block."
        )]
    );
    assert_eq!(
        no_content[0].subject.as_ref().map(|r| r.start),
        Some(pos(1, 13, 12))
    );
    let two = expand_errors(
        "dynamic \"x\" {\n  for_each = [1]\n  content {}\n  content {}\n}\n",
        &[],
        ("x", &[]),
    );
    assert_eq!(
        summaries(&two),
        vec![(
            "Extraneous dynamic content block",
            "Only one nested content block is allowed for each dynamic block."
        )]
    );
    assert_eq!(
        two[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(4, 3, 46), pos(4, 10, 53)))
    );
    let extra = expand_errors(
        "dynamic \"x\" {\n  for_each = [1]\n  other = 1\n  content {}\n}\n",
        &[],
        ("x", &[]),
    );
    assert_eq!(
        summaries(&extra),
        vec![(
            "Unsupported argument",
            "An argument named \"other\" is not expected here."
        )]
    );
    let no_label = expand_errors(
        "dynamic {\n  for_each = [1]\n  content {}\n}\n",
        &[],
        ("x", &[]),
    );
    assert_eq!(
        summaries(&no_label),
        vec![(
            "Missing type for dynamic",
            "All dynamic blocks must have 1 labels (type)."
        )]
    );
}

#[test]
fn bad_iterators() {
    let diags = expand_errors(
        "dynamic \"x\" {\n  for_each = [1]\n  iterator = a.b\n  content {}\n}\n",
        &[],
        ("x", &[]),
    );
    assert_eq!(
        summaries(&diags),
        vec![(
            "Invalid dynamic iterator name",
            "Dynamic iterator must be a single variable name."
        )]
    );
    assert_eq!(
        diags[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(3, 14, 44), pos(3, 17, 47)))
    );
    let diags = expand_errors(
        "dynamic \"x\" {\n  for_each = [1]\n  iterator = \"it\"\n  content {}\n}\n",
        &[],
        ("x", &[]),
    );
    assert_eq!(diags[0].summary, "Invalid expression");
    assert!(diags[0]
        .detail
        .starts_with("A single static variable reference is required"));
}

#[test]
fn bad_labels() {
    let run = |labels: &str, vars: &[(&str, Value)]| {
        let text = format!(
            "dynamic \"x\" {{\n  for_each = [\"a\"]\n  labels = {labels}\n  content {{}}\n}}\n"
        );
        expand_errors(&text, vars, ("x", &["one", "two"]))
    };
    let diags = run("[\"a\", \"b\", \"c\"]", &[]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Extraneous dynamic block label",
            "Blocks of type \"x\" require 2 label(s)."
        )]
    );
    assert_eq!(
        diags[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(3, 23, 55), pos(3, 26, 58)))
    );
    let diags = run("[\"a\"]", &[]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Insufficient dynamic block labels",
            "Blocks of type \"x\" require 2 label(s)."
        )]
    );
    assert_eq!(
        diags[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(3, 12, 44), pos(3, 17, 49)))
    );
    let diags = run("\"a\"", &[]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Invalid expression",
            "A static list expression is required."
        )]
    );
    let diags = run("[x.value, [1]]", &[]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Invalid dynamic block label",
            "Cannot use this value as a dynamic block label: string required."
        )]
    );
    assert_eq!(
        diags[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(3, 22, 54), pos(3, 25, 57)))
    );
    let diags = run("[x.value, null]", &[]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Invalid dynamic block label",
            "Cannot use a null value as a dynamic block label."
        )]
    );
    let diags = run("[x.value, u]", &[("u", Value::Unknown(Type::String))]);
    assert_eq!(
        summaries(&diags),
        vec![(
            "Invalid dynamic block label",
            "This value is not yet known. Dynamic block labels must be immediately-known values."
        )]
    );
    let diags = run("[x.value, nope]", &[]);
    assert_eq!(summaries(&diags)[0].0, "Unknown variable");
    // Numbers and bools convert to strings.
    let ctx = EvalContext::new();
    let text = "dynamic \"x\" {\n  for_each = [\"a\"]\n  labels = [x.value, 2]\n  content {}\n}\n";
    let body = body::expand_dynamic(parse("t.hcl", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("x", &["one", "two"])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(content.blocks[0].labels, vec!["a", "2"]);
}

#[test]
fn dynamic_blocks_of_unexpected_types() {
    let text = "dynamic \"nope\" {\n  for_each = [1]\n  content {}\n}\n";
    let body = body::expand_dynamic(parse("t.hcl", text), &EvalContext::new());
    let (_, diags) = body.content(&schema(&[], &[("x", &[])]));
    assert_eq!(
        summaries(&diags),
        vec![(
            "Unsupported block type",
            "Blocks of type \"nope\" are not expected here."
        )]
    );
    assert_eq!(
        diags[0].subject.as_ref().map(|r| (r.start, r.end)),
        Some((pos(1, 9, 8), pos(1, 15, 14)))
    );
    // Partial content leaves them for later.
    let (content, remain, diags) = body.partial_content(&schema(&[], &[("x", &[])]));
    assert!(diags.is_empty());
    assert!(content.blocks.is_empty());
    let (rest, diags) = remain.content(&schema(&[], &[("nope", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(rest.blocks.len(), 1);
    // What the first pass took is not expanded again.
    let (rest, diags) = remain.content(&schema(&[], &[("nope", &[]), ("x", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(rest.blocks.len(), 1);
}

#[test]
fn partial_content_hides_taken_attributes() {
    let text = "a = 1\nb = 2\ndynamic \"x\" {\n  for_each = [1]\n  content {}\n}\n";
    let body = body::expand_dynamic(parse("t.hcl", text), &EvalContext::new());
    let (content, remain, diags) = body.partial_content(&schema(&["a"], &[("x", &[])]));
    assert!(diags.is_empty());
    assert_eq!(content.blocks.len(), 1);
    assert!(content.attributes.contains_key("a"));
    let (rest, diags) = remain.content(&schema(&["b"], &[]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(rest.attributes.keys().collect::<Vec<_>>(), vec!["b"]);
    assert!(rest.blocks.is_empty());
}

#[test]
fn json_dynamic_blocks() {
    let text = r#"{
  "dynamic": {
    "rule": [
      {
        "for_each": "${rules}",
        "iterator": "r",
        "labels": ["${r.key}"],
        "content": {"port": "${r.value}"}
      }
    ]
  }
}"#;
    let rules = Value::object_from([("http", num("80")), ("https", num("443"))]);
    let ctx = ctx_with(&[("rules", rules)]);
    let body = body::expand_dynamic(parse("t.hcl.json", text), &ctx);
    let (content, diags) = body.content(&schema(&[], &[("rule", &["name"])]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        blocks_with(&content.blocks, "port", &ctx),
        vec![
            (vec!["http".to_string()], num("80")),
            (vec!["https".to_string()], num("443")),
        ]
    );
    // The iterator of a JSON dynamic block is a string holding a traversal.
    let bad = text.replace("\"iterator\": \"r\"", "\"iterator\": 5");
    let body = body::expand_dynamic(parse("t.hcl.json", &bad), &ctx);
    let (_, diags) = body.content(&schema(&[], &[("rule", &["name"])]));
    assert_eq!(diags[0].summary, "Invalid expression");
}

#[test]
fn expand_dynamic_of_merged_files() {
    let (a, _) = body::parse_native(
        "a.hcl",
        "dynamic \"x\" {\n  for_each = [1]\n  content { n = x.value }\n}\n",
    );
    let (b, _) = body::parse_json("b.json", r#"{"x": {"n": 5}}"#);
    let merged = Body::merge(vec![a.unwrap(), b.unwrap()]);
    let ctx = EvalContext::new();
    let body = body::expand_dynamic(merged, &ctx);
    let (content, diags) = body.content(&schema(&[], &[("x", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    let vals: Vec<Value> = blocks_with(&content.blocks, "n", &ctx)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(vals, vec![num("1"), num("5")]);
}
