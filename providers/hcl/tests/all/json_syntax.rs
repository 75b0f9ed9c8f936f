//! The HCL JSON syntax (seed `002_f24785b1f74b38e4.txt`): every example of the seed with
//! its documented result, the errors the seed names, ranges, static analyses, and a fuzz
//! test that parsing and decoding never panic.

use std::collections::BTreeMap;

use cloudspec_hcl::body::{
    self, expr_call, expr_list, expr_map, AttributeSchema, Block, BlockHeaderSchema, Body,
    BodySchema, Expr,
};
use cloudspec_hcl::diag::{Diagnostic, Pos, Range};
use cloudspec_hcl::eval::{EvalContext, TraverseStep};
use cloudspec_hcl::{Number, Type, Value};
use proptest::prelude::*;

fn pos(line: usize, column: usize, byte: usize) -> Pos {
    Pos { line, column, byte }
}

fn range(start: Pos, end: Pos) -> Range {
    Range {
        filename: "test.json".into(),
        start,
        end,
    }
}

fn parse(text: &str) -> Body {
    let (body, diags) = body::parse_json("test.json", text);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
    body.expect("a body")
}

fn parse_err(text: &str) -> Vec<Diagnostic> {
    let (_, diags) = body::parse_json("test.json", text);
    diags
}

fn attrs_schema(names: &[&str]) -> BodySchema {
    BodySchema {
        attributes: names
            .iter()
            .map(|n| AttributeSchema::new(*n, false))
            .collect(),
        blocks: vec![],
    }
}

fn block_schema(type_name: &str, labels: &[&str]) -> BodySchema {
    BodySchema {
        attributes: vec![],
        blocks: vec![BlockHeaderSchema::new(type_name, labels.iter().copied())],
    }
}

fn vars(pairs: &[(&str, Value)]) -> EvalContext {
    let map: BTreeMap<String, Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    EvalContext::new().with_variables(map)
}

fn attr_value(body: &Body, name: &str, ctx: &EvalContext) -> (Value, Vec<Diagnostic>) {
    let (attrs, diags) = body.just_attributes();
    assert!(diags.is_empty(), "{diags:?}");
    attrs[name].expr.value(ctx)
}

/// A block as (labels, the value of its `child_attr`).
fn block_summary(blocks: &[Block]) -> Vec<(Vec<String>, Value)> {
    blocks
        .iter()
        .map(|b| {
            let (content, diags) = b.body.content(&attrs_schema(&["child_attr"]));
            assert!(diags.is_empty(), "{diags:?}");
            let v = content
                .attributes
                .get("child_attr")
                .map(|a| a.expr.value(&EvalContext::new()).0)
                .unwrap_or(Value::Null(Type::Dynamic));
            (b.labels.clone(), v)
        })
        .collect()
}

fn labelled(labels: &[&str], child: &str) -> (Vec<String>, Value) {
    (
        labels.iter().map(|s| s.to_string()).collect(),
        Value::from(child),
    )
}

fn num(s: &str) -> Value {
    Value::Number(Number::parse(s).expect("number"))
}

// ---------------------------------------------------------------------------------------
// Structural elements

#[test]
fn seed_attribute_example() {
    let body = parse(
        r#"{
  "foo": "bar baz"
}"#,
    );
    let (content, diags) = body.content(&attrs_schema(&["foo"]));
    assert!(diags.is_empty());
    let attr = &content.attributes["foo"];
    assert_eq!(attr.name, "foo");
    assert_eq!(attr.name_range, range(pos(2, 3, 4), pos(2, 8, 9)));
    assert_eq!(attr.range, range(pos(2, 3, 4), pos(2, 19, 20)));
    assert_eq!(attr.expr.range(), range(pos(2, 10, 11), pos(2, 19, 20)));
    assert_eq!(
        attr.expr.value(&EvalContext::new()).0,
        Value::from("bar baz")
    );
}

#[test]
fn seed_block_examples_without_labels() {
    let schema = block_schema("foo", &[]);
    let one = parse(
        r#"{
  "foo": {
    "child_attr": "baz"
  }
}"#,
    );
    let (content, diags) = one.content(&schema);
    assert!(diags.is_empty());
    assert_eq!(block_summary(&content.blocks), vec![labelled(&[], "baz")]);
    let block = &content.blocks[0];
    assert_eq!(block.type_range, range(pos(2, 3, 4), pos(2, 8, 9)));
    assert_eq!(block.def_range, range(pos(2, 10, 11), pos(2, 11, 12)));
    assert!(block.label_ranges.is_empty());

    let two = parse(
        r#"{
  "foo": [
    {
      "child_attr": "baz"
    },
    {
      "child_attr": "boz"
    }
  ]
}"#,
    );
    let (content, diags) = two.content(&schema);
    assert!(diags.is_empty());
    assert_eq!(
        block_summary(&content.blocks),
        vec![labelled(&[], "baz"), labelled(&[], "boz")]
    );
    // Blocks from an array are defined at the array's opening bracket.
    assert_eq!(
        content.blocks[1].def_range,
        range(pos(2, 10, 11), pos(2, 11, 12))
    );

    let none = parse(
        r#"{
  "foo": []
}"#,
    );
    let (content, diags) = none.content(&schema);
    assert!(diags.is_empty());
    assert!(content.blocks.is_empty());
}

/// The seed's first two-label example, as written: its trailing comma is not JSON, and
/// HCL's JSON parser rejects it.
const TWO_LABELS_1: &str = r#"{
  "foo": {
    "bar": {
      "baz": {
        "child_attr": "baz"
      },
      "boz": {
        "child_attr": "baz"
      }
    },
    "boz": {
      "baz": {
        "child_attr": "baz"
      },
    }
  }
}"#;

const TWO_LABELS_2: &str = r#"{
  "foo": {
    "bar": {
      "baz": {
        "child_attr": "baz"
      },
      "boz": {
        "child_attr": "baz"
      }
    },
    "boz": {
      "baz": [
        {
          "child_attr": "baz"
        },
        {
          "child_attr": "boz"
        }
      ]
    }
  }
}"#;

const TWO_LABELS_3: &str = r#"{
  "foo": [
    {
      "bar": {
        "baz": {
          "child_attr": "baz"
        },
        "boz": {
          "child_attr": "baz"
        }
      },
    },
    {
      "bar": {
        "baz": [
          {
            "child_attr": "baz"
          },
          {
            "child_attr": "boz"
          }
        ]
      }
    }
  ]
}"#;

const TWO_LABELS_4: &str = r#"{
  "foo": {
    "bar": {
      "baz": {
        "child_attr": "baz"
      },
      "boz": {
        "child_attr": "baz"
      }
    },
    "bar": {
      "baz": [
        {
          "child_attr": "baz"
        },
        {
          "child_attr": "boz"
        }
      ]
    }
  }
}"#;

/// The seed's examples with the trailing commas removed (the only change).
fn without_trailing_commas(text: &str) -> String {
    text.replace("},\n    }", "}\n    }")
        .replace("},\n    },", "}\n    },")
}

fn two_label_blocks(text: &str) -> Vec<(Vec<String>, Value)> {
    let body = parse(text);
    let (content, diags) = body.content(&block_schema("foo", &["a", "b"]));
    assert!(diags.is_empty(), "{diags:?}");
    block_summary(&content.blocks)
}

#[test]
fn seed_two_label_examples_as_written_have_trailing_commas() {
    // HCL's parser goes on after the error: in the third example the element object it
    // abandoned leaves its closing brace for the enclosing array ("Mismatched brackets").
    for (text, line, column, count) in [(TWO_LABELS_1, 14, 8, 1), (TWO_LABELS_3, 11, 8, 2)] {
        let diags = parse_err(text);
        assert_eq!(diags.len(), count, "{diags:?}");
        assert_eq!(diags[0].summary, "Trailing comma in object");
        assert_eq!(
            diags[0].detail,
            "JSON does not permit a trailing comma after the final property in an object."
        );
        let subject = diags[0].subject.clone().unwrap();
        assert_eq!((subject.start.line, subject.start.column), (line, column));
    }
    let diags = parse_err(TWO_LABELS_3);
    assert_eq!(diags[1].summary, "Mismatched brackets");
    assert_eq!(
        diags[1].detail,
        "A JSON array must be closed with a bracket, not a brace."
    );
    assert_eq!(
        diags[1].subject,
        Some(range(pos(12, 5, 162), pos(12, 6, 163)))
    );
    assert!(parse_err(TWO_LABELS_2).is_empty());
    assert!(parse_err(TWO_LABELS_4).is_empty());
}

#[test]
fn seed_two_label_examples_decode_to_blocks() {
    let form1 = two_label_blocks(&without_trailing_commas(TWO_LABELS_1));
    let form2 = two_label_blocks(TWO_LABELS_2);
    let form3 = two_label_blocks(&without_trailing_commas(TWO_LABELS_3));
    let form4 = two_label_blocks(TWO_LABELS_4);
    assert_eq!(
        form1,
        vec![
            labelled(&["bar", "baz"], "baz"),
            labelled(&["bar", "boz"], "baz"),
            labelled(&["boz", "baz"], "baz"),
        ]
    );
    assert_eq!(
        form2,
        vec![
            labelled(&["bar", "baz"], "baz"),
            labelled(&["bar", "boz"], "baz"),
            labelled(&["boz", "baz"], "baz"),
            labelled(&["boz", "baz"], "boz"),
        ]
    );
    // An array at the label level and a repeated property name are the same thing.
    let same = vec![
        labelled(&["bar", "baz"], "baz"),
        labelled(&["bar", "boz"], "baz"),
        labelled(&["bar", "baz"], "baz"),
        labelled(&["bar", "baz"], "boz"),
    ];
    assert_eq!(form3, same);
    assert_eq!(form4, same);
    // Every form gives the blocks the native syntax gives for the same definitions.
    let native = r#"
foo "bar" "baz" {
  child_attr = "baz"
}
foo "bar" "boz" {
  child_attr = "baz"
}
foo "bar" "baz" {
  child_attr = "baz"
}
foo "bar" "baz" {
  child_attr = "boz"
}
"#;
    let (nbody, diags) = body::parse_native("test.hcl", native);
    assert!(diags.is_empty());
    let (ncontent, diags) = nbody.unwrap().content(&block_schema("foo", &["a", "b"]));
    assert!(diags.is_empty());
    assert_eq!(block_summary(&ncontent.blocks), same);
}

#[test]
fn label_ranges_are_the_property_names() {
    let body = parse(r#"{"resource":{"foo_instance":{"bar":{}}}}"#);
    let (content, diags) = body.content(&block_schema("resource", &["type", "name"]));
    assert!(diags.is_empty());
    let b = &content.blocks[0];
    assert_eq!(b.labels, vec!["foo_instance", "bar"]);
    assert_eq!(
        b.label_ranges,
        vec![
            range(pos(1, 14, 13), pos(1, 28, 27)),
            range(pos(1, 30, 29), pos(1, 35, 34)),
        ]
    );
    assert_eq!(b.def_range, range(pos(1, 36, 35), pos(1, 37, 36)));
    assert_eq!(b.type_range, range(pos(1, 2, 1), pos(1, 12, 11)));
    assert_eq!(
        content.missing_item_range,
        range(pos(1, 40, 39), pos(1, 41, 40))
    );
}

#[test]
fn body_as_array_of_objects() {
    let body = parse(r#"[{"a": 1}, {"b": 2}]"#);
    let (content, diags) = body.content(&attrs_schema(&["a", "b"]));
    assert!(diags.is_empty());
    assert_eq!(
        content.attributes["a"].expr.value(&EvalContext::new()).0,
        num("1")
    );
    assert_eq!(
        content.attributes["b"].expr.value(&EvalContext::new()).0,
        num("2")
    );
    // An array's missing item range is its opening bracket.
    assert_eq!(
        content.missing_item_range,
        range(pos(1, 1, 0), pos(1, 2, 1))
    );
}

#[test]
fn non_object_array_elements_in_bodies_are_errors() {
    let body = parse(r#"[{"a": 1}, "nope", [2]]"#);
    let (_, _, diags) = body.partial_content(&attrs_schema(&["a"]));
    let got: Vec<(&str, &str, Pos)> = diags
        .iter()
        .map(|d| {
            (
                d.summary.as_str(),
                d.detail.as_str(),
                d.subject.clone().unwrap().start,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "Incorrect JSON value type",
                "A JSON object is required here, to define arguments and child blocks.",
                pos(1, 12, 11),
            ),
            (
                "Incorrect JSON value type",
                "A JSON object is required here, to define arguments and child blocks.",
                pos(1, 20, 19),
            ),
        ]
    );
    // Blocks whose label level has a non-object element.
    let body = parse(r#"{"foo": [{"x": {}}, 5]}"#);
    let (content, diags) = body.content(&block_schema("foo", &["name"]));
    assert_eq!(content.blocks.len(), 1);
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].detail,
        "A JSON object is required here, to specify name labels for this block."
    );
    let body = parse(r#"{"foo": "x"}"#);
    let (_, diags) = body.content(&block_schema("foo", &["name"]));
    assert_eq!(
        diags[0].detail,
        "Either a JSON object or JSON array of objects is required here, to specify name labels for this block."
    );
    let (_, diags) = body.content(&block_schema("foo", &[]));
    assert_eq!(diags[0].summary, "Incorrect JSON value type");
    assert_eq!(
        diags[0].detail,
        "Either a JSON object or a JSON array is required, representing the contents of one or more \"foo\" blocks."
    );
    assert_eq!(diags[0].subject, Some(range(pos(1, 9, 8), pos(1, 12, 11))));
}

#[test]
fn block_body_that_is_not_an_object() {
    let body = parse(r#"{"foo": [1]}"#);
    let (content, diags) = body.content(&block_schema("foo", &[]));
    assert!(diags.is_empty());
    let (_, diags) = content.blocks[0].body.content(&BodySchema::default());
    assert_eq!(diags.len(), 2, "HCL reports it twice: {diags:?}");
    assert_eq!(
        diags[0].detail,
        "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks."
    );
}

#[test]
fn missing_block_label() {
    let body = parse(r#"{"foo": {}}"#);
    let (content, diags) = body.content(&block_schema("foo", &["name"]));
    assert!(content.blocks.is_empty());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Missing block label");
    assert_eq!(
        diags[0].detail,
        "At least one object property is required, whose name represents the foo block's name."
    );
    assert_eq!(diags[0].subject, Some(range(pos(1, 9, 8), pos(1, 10, 9))));
}

#[test]
fn null_blocks_are_no_blocks() {
    let body = parse(r#"{"resource": null, "other": {"x": null}}"#);
    let schema = BodySchema {
        attributes: vec![],
        blocks: vec![
            BlockHeaderSchema::new("resource", Vec::<String>::new()),
            BlockHeaderSchema::new("other", ["name"]),
        ],
    };
    let (content, diags) = body.content(&schema);
    assert!(diags.is_empty());
    assert!(content.blocks.is_empty());
}

#[test]
fn comments_are_ignored_in_bodies_only() {
    let body = parse(r#"{"//": "a comment", "a": {"//": "kept", "b": 1}, "//": "another"}"#);
    let (content, diags) = body.content(&attrs_schema(&["a"]));
    assert!(diags.is_empty(), "{diags:?}");
    let v = content.attributes["a"].expr.value(&EvalContext::new()).0;
    assert_eq!(
        v,
        Value::object_from([("//", Value::from("kept")), ("b", num("1"))])
    );
    let (attrs, diags) = body.just_attributes();
    assert!(diags.is_empty());
    assert_eq!(attrs.keys().collect::<Vec<_>>(), vec!["a"]);
    // In a block body too.
    let body = parse(r#"{"blk": {"//": "x", "a": true}}"#);
    let (content, _) = body.content(&block_schema("blk", &[]));
    let (inner, diags) = content.blocks[0].body.content(&attrs_schema(&["a"]));
    assert!(diags.is_empty());
    assert!(inner.attributes.contains_key("a"));
}

#[test]
fn extraneous_properties() {
    let body = parse(r#"{"nmae": "x", "other": 1}"#);
    let schema = BodySchema {
        attributes: vec![AttributeSchema::new("name", false)],
        blocks: vec![BlockHeaderSchema::new("thing", Vec::<String>::new())],
    };
    let (_, diags) = body.content(&schema);
    let got: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d.summary.as_str(), d.detail.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "Extraneous JSON object property",
                "No argument or block type is named \"nmae\". Did you mean \"name\"?"
            ),
            (
                "Extraneous JSON object property",
                "No argument or block type is named \"other\"."
            ),
        ]
    );
    assert_eq!(diags[0].subject, Some(range(pos(1, 2, 1), pos(1, 8, 7))));
}

#[test]
fn missing_and_duplicate_arguments() {
    let body = parse(r#"{"name": "a", "name": "b"}"#);
    let schema = BodySchema {
        attributes: vec![
            AttributeSchema::new("name", true),
            AttributeSchema::new("age", true),
        ],
        blocks: vec![],
    };
    let (content, diags) = body.content(&schema);
    assert_eq!(
        content.attributes["name"].expr.value(&EvalContext::new()).0,
        Value::from("a")
    );
    let got: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d.summary.as_str(), d.detail.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "Duplicate argument",
                "The argument \"name\" was already set at test.json:1,2-13."
            ),
            (
                "Missing required argument",
                "The argument \"age\" is required, but no definition was found."
            ),
        ]
    );
    assert_eq!(
        diags[0].subject,
        Some(range(pos(1, 15, 14), pos(1, 21, 20)))
    );
    // The missing item range of an object is its closing brace.
    assert_eq!(
        diags[1].subject,
        Some(range(pos(1, 26, 25), pos(1, 27, 26)))
    );
}

#[test]
fn just_attributes_mode() {
    let body = parse(r#"{"foo": true, "foo": false, "bar": 1}"#);
    let (attrs, diags) = body.just_attributes();
    assert_eq!(attrs.keys().collect::<Vec<_>>(), vec!["bar", "foo"]);
    assert_eq!(
        attrs["foo"].expr.value(&EvalContext::new()).0,
        Value::Bool(true)
    );
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Duplicate attribute definition");
    assert_eq!(
        diags[0].detail,
        "The argument \"foo\" was already set at test.json:1,2-13."
    );
    // "Dynamic attributes" mode needs a single object.
    let body = parse(r#"[{"a": 1}]"#);
    let (attrs, diags) = body.just_attributes();
    assert!(attrs.is_empty());
    assert_eq!(diags[0].summary, "Incorrect JSON value type");
    assert_eq!(
        diags[0].detail,
        "A JSON object is required here, setting the arguments for this block."
    );
    assert_eq!(diags[0].subject, Some(range(pos(1, 1, 0), pos(1, 2, 1))));
}

#[test]
fn partial_content_leaves_the_rest() {
    let body = parse(r#"{"a": 1, "b": 2, "blk": {}}"#);
    let (content, remain, diags) = body.partial_content(&attrs_schema(&["a"]));
    assert!(diags.is_empty());
    assert!(content.attributes.contains_key("a"));
    let (rest, diags) = remain.content(&BodySchema {
        attributes: vec![AttributeSchema::new("b", true)],
        blocks: vec![BlockHeaderSchema::new("blk", Vec::<String>::new())],
    });
    assert!(diags.is_empty(), "{diags:?}");
    assert!(rest.attributes.contains_key("b"));
    assert!(!rest.attributes.contains_key("a"));
    assert_eq!(rest.blocks.len(), 1);
    // What the first pass took is gone.
    let (_, diags) = remain.content(&attrs_schema(&["a"]));
    assert_eq!(diags.len(), 2);
    assert!(diags
        .iter()
        .all(|d| d.summary == "Extraneous JSON object property"));
}

#[test]
fn root_must_be_an_object() {
    let (body, diags) = body::parse_json("test.json", "  \"hello\"");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Root value must be object");
    assert_eq!(
        diags[0].detail,
        "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects."
    );
    assert_eq!(diags[0].subject, Some(range(pos(1, 3, 2), pos(1, 10, 9))));
    // The body is an empty placeholder: no further errors.
    let (content, diags) = body.unwrap().content(&BodySchema::default());
    assert!(diags.is_empty());
    assert!(content.attributes.is_empty());
}

#[test]
fn json_parse_errors_are_diagnostics() {
    let diags = parse_err(r#"{"a" = 1}"#);
    assert_eq!(diags.len(), 2);
    assert_eq!(diags[0].summary, "Missing property value colon");
    assert_eq!(
        diags[0].detail,
        "JSON uses a colon as its name/value delimiter, not an equals sign."
    );
    assert_eq!(diags[0].subject.clone().unwrap().start, pos(1, 6, 5));
    // The root object was abandoned, so it is not an object (json.Parse's extra error).
    assert_eq!(diags[1].summary, "Root value must be object");
    assert_eq!(diags[1].subject, Some(range(pos(1, 1, 0), pos(1, 2, 1))));
}

/// HCL's JSON parser recovers: errors in values inside a container are all reported,
/// an abandoned container cascades as HCL's does, "Extraneous data after value" only
/// comes when nothing else was reported, and a root that could not be parsed adds "Root
/// value must be object".
#[test]
fn json_parse_errors_recover_as_hcl_does() {
    let summaries = |text: &str| -> Vec<(String, usize)> {
        parse_err(text)
            .into_iter()
            .map(|d| (d.summary, d.subject.unwrap().start.column))
            .collect()
    };
    let s = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|(a, b)| (a.to_string(), *b)).collect()
    };
    assert_eq!(
        summaries(r#"{"a": NaN, "b": tru}"#),
        s(&[("Invalid JSON keyword", 7), ("Invalid JSON keyword", 17)])
    );
    assert_eq!(
        summaries(r#"{"a": [1,], "b": 2}"#),
        s(&[
            ("Trailing comma in array", 9),
            ("Mismatched braces", 10),
            ("Root value must be object", 1)
        ])
    );
    assert_eq!(
        summaries("{"),
        s(&[
            ("Missing value", 2),
            ("Invalid object property name", 2),
            ("Root value must be object", 1)
        ])
    );
    assert_eq!(
        summaries(""),
        s(&[("Missing value", 1), ("Root value must be object", 1)])
    );
    assert_eq!(
        summaries(r#"{"a": 1} x"#),
        s(&[("Extraneous data after value", 10)])
    );
    assert_eq!(
        summaries(r#"{"a": "\q", "b": 1 "c": 2}"#),
        s(&[
            ("Invalid JSON string", 10),
            ("Missing attribute seperator comma", 27),
            ("Root value must be object", 1)
        ])
    );
    assert_eq!(
        summaries(r#"[{"a": 1}, 2, }"#),
        s(&[
            ("Missing JSON value", 15),
            ("Mismatched brackets", 15),
            ("Root value must be object", 1)
        ])
    );
    // Too deep: the scan stops there.
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(200), "]".repeat(200));
    assert_eq!(summaries(&deep), s(&[("Nesting too deep", 134)]));
}

// ---------------------------------------------------------------------------------------
// Expressions

#[test]
fn expression_mapping() {
    let body = parse(
        r#"{
  "string": "string_val",
  "number": 5,
  "bool_true": true,
  "bool_false": false,
  "array": ["a", 1, null],
  "object": {"key": "value"},
  "null": null
}"#,
    );
    let (attrs, diags) = body.just_attributes();
    assert!(diags.is_empty());
    let ctx = EvalContext::new();
    let v = |n: &str| attrs[n].expr.value(&ctx).0;
    assert_eq!(v("string"), Value::from("string_val"));
    assert_eq!(v("number"), num("5"));
    assert_eq!(v("bool_true"), Value::Bool(true));
    assert_eq!(v("bool_false"), Value::Bool(false));
    assert_eq!(
        v("array"),
        Value::Tuple(vec![Value::from("a"), num("1"), Value::Null(Type::Dynamic)])
    );
    assert_eq!(
        v("object"),
        Value::object_from([("key", Value::from("value"))])
    );
    assert_eq!(v("null"), Value::Null(Type::Dynamic));
}

#[test]
fn numbers_are_exact() {
    let body =
        parse(r#"{"big": 123456789012345678901234567890.123456789, "exp": 1e150, "neg": -0.1e-3}"#);
    let ctx = EvalContext::new();
    assert_eq!(
        attr_value(&body, "big", &ctx).0,
        num("123456789012345678901234567890.123456789")
    );
    assert_eq!(attr_value(&body, "exp", &ctx).0, num("1e150"));
    assert_eq!(attr_value(&body, "neg", &ctx).0, num("-0.0001"));
    // The seed's way of writing a number in full-expression mode.
    let body = parse(r#"{"n": "${1e150}"}"#);
    assert_eq!(attr_value(&body, "n", &ctx).0, num("1e150"));
}

#[test]
fn strings_in_literal_only_mode() {
    let text = r#"{"s": "Hello world! Template sequences like ${ are not intepreted here."}"#;
    let body = parse(text);
    let (v, diags) = attr_value(&body, "s", &EvalContext::empty());
    assert!(diags.is_empty());
    assert_eq!(
        v,
        Value::from("Hello world! Template sequences like ${ are not intepreted here.")
    );
    // Property names are literal too.
    let body = parse(r#"{"o": {"${a}": "${b}"}}"#);
    let (v, diags) = attr_value(&body, "o", &EvalContext::empty());
    assert!(diags.is_empty());
    assert_eq!(v, Value::object_from([("${a}", Value::from("${b}"))]));
}

#[test]
fn strings_in_full_expression_mode() {
    let body = parse(
        r#"{"s": "Hello, ${name}! Template sequences are interpreted in full expression mode."}"#,
    );
    let ctx = vars(&[("name", Value::from("Ermintrude"))]);
    let (v, diags) = attr_value(&body, "s", &ctx);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        v,
        Value::from(
            "Hello, Ermintrude! Template sequences are interpreted in full expression mode."
        )
    );
    // Interpolation unwrapping: the result is a number, not a string.
    let body = parse(r#"{"sum": "${ a + b }"}"#);
    let ctx = vars(&[("a", num("1")), ("b", num("2"))]);
    let (v, diags) = attr_value(&body, "sum", &ctx);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(v, num("3"));
    // Functions are available.
    let body = parse(r#"{"u": "${abs(-2)}-%{ if true }y%{ endif }"}"#);
    let (v, diags) = attr_value(&body, "u", &EvalContext::new());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(v, Value::from("2-y"));
}

#[test]
fn template_errors_are_positioned_inside_the_string() {
    let body = parse("{\n  \"s\": \"x ${nope} y\"\n}");
    let (v, diags) = attr_value(&body, "s", &EvalContext::new());
    assert!(!v.is_known());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Unknown variable");
    assert_eq!(diags[0].detail, "There is no variable named \"nope\".");
    assert_eq!(
        diags[0].subject,
        Some(range(pos(2, 13, 14), pos(2, 17, 18)))
    );
}

#[test]
fn object_names_are_templates() {
    let body = parse(r#"{"o": {"happy ${v}": "val", "${n}": 1}}"#);
    let ctx = vars(&[("v", Value::from("case")), ("n", num("2"))]);
    let (v, diags) = attr_value(&body, "o", &ctx);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        v,
        Value::object_from([("2", num("1")), ("happy case", Value::from("val"))])
    );
}

#[test]
fn duplicate_properties_in_an_expression_object() {
    let body = parse(r#"{"o": {"a": 1, "a": 2}}"#);
    let (v, diags) = attr_value(&body, "o", &EvalContext::empty());
    assert_eq!(v, Value::object_from([("a", num("1"))]));
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Duplicate object attribute");
    assert_eq!(
        diags[0].detail,
        "An attribute named \"a\" was already defined at test.json:1,8-11."
    );
    assert_eq!(
        diags[0].subject,
        Some(range(pos(1, 16, 15), pos(1, 19, 18)))
    );
    // In full-expression mode the names after evaluation are compared.
    let body = parse(r#"{"o": {"a": 1, "${x}": 2}}"#);
    let (_, diags) = attr_value(&body, "o", &vars(&[("x", Value::from("a"))]));
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Duplicate object attribute");
}

#[test]
fn null_property_names_are_errors() {
    let body = parse(r#"{"o": {"${null}": 1, "b": 2}}"#);
    let (v, diags) = attr_value(&body, "o", &EvalContext::new());
    assert_eq!(v, Value::object_from([("b", num("2"))]));
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Invalid object key expression");
    assert_eq!(diags[0].detail, "Cannot use null value as an object key.");
    assert_eq!(diags[0].subject, Some(range(pos(1, 8, 7), pos(1, 17, 16))));
}

#[test]
fn property_names_that_are_not_strings() {
    let body = parse(r#"{"o": {"${[1]}": 1}}"#);
    let (_, diags) = attr_value(&body, "o", &EvalContext::new());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Invalid object key expression");
    assert!(
        diags[0]
            .detail
            .starts_with("Cannot use this expression as an object key: "),
        "{}",
        diags[0].detail
    );
}

#[test]
fn unknown_property_names_make_the_object_unknown() {
    let body = parse(r#"{"o": {"${u}": 1, "b": 2}}"#);
    let (v, diags) = attr_value(&body, "o", &vars(&[("u", Value::Unknown(Type::String))]));
    assert!(diags.is_empty());
    assert_eq!(v, Value::Unknown(Type::Dynamic));
    // An unknown variable (an error) too, with its diagnostic.
    let (v, diags) = attr_value(&body, "o", &EvalContext::new());
    assert_eq!(v, Value::Unknown(Type::Dynamic));
    assert_eq!(diags[0].summary, "Unknown variable");
}

#[test]
fn expression_variables() {
    type Want<'a> = &'a [(&'a str, Pos, Pos)];
    let cases: &[(&str, Want)] = &[
        (r#"{"a":true}"#, &[]),
        (
            r#"{"a":"${foo}"}"#,
            &[("foo", pos(1, 9, 8), pos(1, 12, 11))],
        ),
        (
            r#"{"a":["${foo}"]}"#,
            &[("foo", pos(1, 10, 9), pos(1, 13, 12))],
        ),
        (
            r#"{"a":{"b":"${foo}"}}"#,
            &[("foo", pos(1, 14, 13), pos(1, 17, 16))],
        ),
        (
            r#"{"a":{"${foo}":"b"}}"#,
            &[("foo", pos(1, 10, 9), pos(1, 13, 12))],
        ),
    ];
    for (text, want) in cases {
        let body = parse(text);
        let (attrs, _) = body.just_attributes();
        let got: Vec<(String, Pos, Pos)> = attrs["a"]
            .expr
            .variables()
            .into_iter()
            .map(|(steps, r)| match steps.first() {
                Some(TraverseStep::Root(n)) => (n.clone(), r.start, r.end),
                other => panic!("{other:?}"),
            })
            .collect();
        let want: Vec<(String, Pos, Pos)> = want
            .iter()
            .map(|(n, s, e)| (n.to_string(), *s, *e))
            .collect();
        assert_eq!(got, want, "{text}");
    }
}

// ---------------------------------------------------------------------------------------
// Static analyses

fn attr_expr(text: &str) -> Expr {
    let body = parse(text);
    let (attrs, diags) = body.just_attributes();
    assert!(diags.is_empty());
    attrs["a"].expr.clone()
}

#[test]
fn static_list() {
    let e = attr_expr(r#"{"a": ["hello", "${x}"]}"#);
    let items = e.as_list().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0].value(&EvalContext::empty()).0,
        Value::from("hello")
    );
    assert_eq!(items[1].value(&vars(&[("x", num("4"))])).0, num("4"));
    let e = attr_expr(r#"{"a": "[1, 2]"}"#);
    assert!(e.as_list().is_none());
    let err = expr_list(&e).unwrap_err().remove(0);
    assert_eq!(err.summary, "Invalid expression");
    assert_eq!(err.detail, "A static list expression is required.");
    assert_eq!(err.subject, Some(range(pos(1, 7, 6), pos(1, 15, 14))));
}

#[test]
fn static_map() {
    let e = attr_expr(r#"{"a": {"k${n}": "v"}}"#);
    let pairs = e.as_map().unwrap();
    assert_eq!(pairs.len(), 1);
    let (k, v) = &pairs[0];
    assert_eq!(k.value(&EvalContext::empty()).0, Value::from("k${n}"));
    assert_eq!(k.value(&vars(&[("n", num("1"))])).0, Value::from("k1"));
    assert_eq!(v.value(&EvalContext::empty()).0, Value::from("v"));
    assert_eq!(k.range(), range(pos(1, 8, 7), pos(1, 15, 14)));
    let e = attr_expr(r#"{"a": [1]}"#);
    let err = expr_map(&e).unwrap_err().remove(0);
    assert_eq!(err.detail, "A static map expression is required.");
    assert_eq!(err.subject, Some(range(pos(1, 7, 6), pos(1, 8, 7))));
}

#[test]
fn static_call() {
    let e = attr_expr(r#"{"a": "list(string, 1 + 2)"}"#);
    let (name, args) = e.as_call().unwrap();
    assert_eq!(name, "list");
    assert_eq!(args.len(), 2);
    assert_eq!(args[0].as_keyword().as_deref(), Some("string"));
    assert_eq!(args[1].value(&EvalContext::new()).0, num("3"));
    // Positioned from the string's opening quote, as HCL does.
    assert_eq!(args[0].range(), range(pos(1, 12, 11), pos(1, 18, 17)));
    for text in [r#"{"a": "foo"}"#, r#"{"a": "f("}"#, r#"{"a": 1}"#] {
        let e = attr_expr(text);
        assert!(e.as_call().is_none(), "{text}");
        let err = expr_call(&e).unwrap_err().remove(0);
        assert_eq!(err.detail, "A static function call is required.");
    }
}

#[test]
fn static_traversal() {
    let e = attr_expr(r#"{"a": "foo.bar[0][\"baz\"]"}"#);
    let (steps, r) = e.as_traversal().unwrap();
    assert_eq!(
        steps,
        vec![
            TraverseStep::Root("foo".into()),
            TraverseStep::Attr("bar".into()),
            TraverseStep::Index(num("0")),
            TraverseStep::Index(Value::from("baz")),
        ]
    );
    // Positioned from the string's opening quote, as HCL does.
    assert_eq!(r.start, pos(1, 7, 6));
    assert_eq!(e.as_keyword(), None);
    let e = attr_expr(r#"{"a": "foo"}"#);
    assert_eq!(e.as_keyword().as_deref(), Some("foo"));
    for text in [
        r#"{"a": "foo[x]"}"#,
        r#"{"a": "foo()"}"#,
        r#"{"a": "${foo}"}"#,
        r#"{"a": true}"#,
    ] {
        let e = attr_expr(text);
        assert!(e.as_traversal().is_none(), "{text}");
        let err = body::abs_traversal_for_expr(&e).unwrap_err().remove(0);
        assert_eq!(err.summary, "Invalid expression");
        assert_eq!(err.subject, Some(e.range()));
    }
}

#[test]
fn as_native_for_type_expressions() {
    let e = attr_expr(r#"{"a": "map(list(number))"}"#);
    let (native, _) = e.as_native().unwrap();
    assert_eq!(
        Type::from_expr(&native).unwrap(),
        Type::map(Type::list(Type::Number))
    );
    assert!(attr_expr(r#"{"a": 1}"#).as_native().is_none());
}

#[test]
fn merged_json_and_native_files() {
    let (a, _) = body::parse_file("a.hcl", "x = 1\n");
    let (b, _) = body::parse_file("b.hcl.json", r#"{"y": 2, "x": 3}"#);
    let merged = Body::merge(vec![a.unwrap(), b.unwrap()]);
    let (content, diags) = merged.content(&attrs_schema(&["x", "y"]));
    assert_eq!(
        content.attributes["x"].expr.value(&EvalContext::new()).0,
        num("1")
    );
    assert_eq!(
        content.attributes["y"].expr.value(&EvalContext::new()).0,
        num("2")
    );
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Duplicate argument");
    assert_eq!(
        diags[0].detail,
        "Argument \"x\" was already set at a.hcl:1,1-2"
    );
    assert_eq!(
        diags[0].subject,
        Some(Range {
            filename: "b.hcl.json".into(),
            start: pos(1, 10, 9),
            end: pos(1, 13, 12),
        })
    );
}

// ---------------------------------------------------------------------------------------
// Fuzzing: neither parsing nor decoding panics.

fn decode_everything(body: &Body, depth: usize) {
    let schema = BodySchema {
        attributes: vec![
            AttributeSchema::new("a", false),
            AttributeSchema::new("b", true),
        ],
        blocks: vec![
            BlockHeaderSchema::new("blk", Vec::<String>::new()),
            BlockHeaderSchema::new("lbl", ["x", "y"]),
            BlockHeaderSchema::new("dynamic", ["type"]),
        ],
    };
    let ctx = EvalContext::new().with_variables(BTreeMap::from([("v".to_string(), num("1"))]));
    let (content, _) = body.content(&schema);
    let (_, remain, _) = body.partial_content(&attrs_schema(&["a"]));
    let _ = remain.content(&BodySchema::default());
    let (attrs, _) = body.just_attributes();
    for attr in content.attributes.values().chain(attrs.values()) {
        let _ = attr.expr.value(&ctx);
        let _ = attr.expr.value(&EvalContext::empty());
        let _ = attr.expr.variables();
        let _ = attr.expr.as_list();
        let _ = attr.expr.as_map();
        let _ = attr.expr.as_call();
        let _ = attr.expr.as_traversal();
        let _ = attr.expr.start_range();
    }
    if depth < 4 {
        for block in content.blocks {
            decode_everything(&block.body, depth + 1);
        }
    }
    let expanded = body::expand_dynamic(body.clone(), &ctx);
    let _ = expanded.content(&schema);
}

fn json_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
        Just("\"a\"".to_string()),
        Just("\"b\"".to_string()),
        Just("\"blk\"".to_string()),
        Just("\"lbl\"".to_string()),
        Just("\"//\"".to_string()),
        Just("\"${v}\"".to_string()),
        Just("\"${\"".to_string()),
        Just("\"%{ if v }x%{ endif }\"".to_string()),
        Just("\"${null}\"".to_string()),
        Just("1e999".to_string()),
        Just("-0.5".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        "[ -~]{0,3}".prop_map(|s| s),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,64}") {
        if let (Some(body), _) = body::parse_json("f.json", &text) {
            decode_everything(&body, 0);
        }
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(json_token(), 0..40)) {
        let text = tokens.concat();
        if let (Some(body), _) = body::parse_json("f.json", &text) {
            decode_everything(&body, 0);
        }
    }

    #[test]
    fn structured_json_never_panics(v in json_value()) {
        let text = v.to_string();
        if let (Some(body), _) = body::parse_json("f.json", &text) {
            decode_everything(&body, 0);
        }
    }
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i32>().prop_map(|n| serde_json::json!(n)),
        prop_oneof![
            Just("a"),
            Just("${v}"),
            Just("${v + 1}"),
            Just("${"),
            Just("x${null}"),
            Just("%{for x in v}y%{endfor}"),
            Just("foo.bar[0]"),
            Just("f(1)"),
        ]
        .prop_map(|s| serde_json::Value::String(s.to_string())),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("a"),
                        Just("b"),
                        Just("blk"),
                        Just("lbl"),
                        Just("dynamic"),
                        Just("for_each"),
                        Just("content"),
                        Just("//"),
                        Just("${v}"),
                    ],
                    inner
                ),
                0..4
            )
            .prop_map(|props| {
                serde_json::Value::Object(
                    props.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
                )
            }),
        ]
    })
}
