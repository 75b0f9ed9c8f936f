use super::*;
use crate::types::Type;
use crate::value::Value;

fn enc(v: &Value) -> String {
    encode(v).unwrap()
}

fn s(x: &str) -> Value {
    Value::String(x.to_string())
}

fn obj(pairs: &[(&str, Value)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn encode_terraform_examples() {
    assert_eq!(
        enc(&Value::Tuple(vec![s("foo"), s("bar"), Value::Bool(true)])),
        "- \"foo\"\n- \"bar\"\n- true\n"
    );
    assert_eq!(
        enc(&obj(&[("a", s("b")), ("c", s("d"))])),
        "\"a\": \"b\"\n\"c\": \"d\"\n"
    );
    assert_eq!(enc(&Value::Bool(true)), "true\n...\n");
    assert_eq!(enc(&Value::Null(Type::Dynamic)), "null\n...\n");
    assert_eq!(enc(&s("true")), "\"true\"\n");
    assert_eq!(enc(&s("")), "\"\"\n");
}

#[test]
fn encode_nesting() {
    let v = obj(&[(
        "a",
        obj(&[(
            "b",
            Value::Tuple(vec![
                Value::Number(Number::from_i64(1)),
                obj(&[("c", Value::Null(Type::Dynamic))]),
            ]),
        )]),
    )]);
    assert_eq!(enc(&v), "\"a\":\n  \"b\":\n  - 1\n  - \"c\": null\n");
    assert_eq!(enc(&obj(&[])), "{}\n");
    assert_eq!(enc(&Value::Tuple(vec![])), "[]\n");
    assert_eq!(
        enc(&obj(&[("a", Value::Tuple(vec![])), ("b", obj(&[]))])),
        "\"a\": []\n\"b\": {}\n"
    );
    assert_eq!(
        enc(&Value::Tuple(vec![Value::Tuple(vec![s("x"), s("y")])])),
        "- - \"x\"\n  - \"y\"\n"
    );
}

#[test]
fn encode_strings() {
    assert_eq!(enc(&s("a\nb")), "|-\n  a\n  b\n");
    assert_eq!(enc(&s("a\n")), "|\n  a\n");
    assert_eq!(enc(&s("a\n\n")), "|+\n  a\n\n");
    assert_eq!(enc(&obj(&[("k", s("x\ny"))])), "\"k\": |-\n  x\n  y\n");
    assert_eq!(enc(&s("tab\there")), "\"tab\\there\"\n");
    assert_eq!(enc(&s("q\"b\\")), "\"q\\\"b\\\\\"\n");
    assert_eq!(enc(&s("é ü")), "\"é ü\"\n");
    assert_eq!(enc(&s("\u{1F600}")), "\"\\U0001F600\"\n");
    assert_eq!(enc(&s("a\tb\nc")), "\"a\\tb\\nc\"\n");
    assert_eq!(enc(&s(" lead\nx")), "|2-\n   lead\n  x\n");
    let long = "word ".repeat(20);
    let long = long.trim_end();
    assert_eq!(
        enc(&s(long)),
        format!(
            "\"{}\n  {}\"\n",
            "word ".repeat(17).trim_end(),
            "word ".repeat(3).trim_end()
        )
    );
}

fn dec(src: &str) -> Result<Value, String> {
    decode(src)
}

#[test]
fn decode_scalars() {
    assert!(matches!(dec("true"), Ok(Value::Bool(true))));
    assert!(matches!(dec("yes"), Ok(Value::Bool(true))));
    assert!(matches!(dec("Off"), Ok(Value::Bool(false))));
    assert!(matches!(dec("~"), Ok(Value::Null(Type::Dynamic))));
    assert!(matches!(dec("---"), Ok(Value::Null(Type::Dynamic))));
    assert!(matches!(dec("hello"), Ok(Value::String(ref x)) if x == "hello"));
    assert!(matches!(dec("'true'"), Ok(Value::String(ref x)) if x == "true"));
    assert!(matches!(dec("\"1\""), Ok(Value::String(ref x)) if x == "1"));
    assert!(matches!(dec("!!str true"), Ok(Value::String(ref x)) if x == "true"));
    assert!(matches!(dec("12"), Ok(Value::Number(ref n)) if *n == Number::from_i64(12)));
    assert!(matches!(dec("0x1F"), Ok(Value::Number(ref n)) if *n == Number::from_i64(31)));
    assert!(matches!(dec("0o17"), Ok(Value::Number(ref n)) if *n == Number::from_i64(15)));
    assert!(matches!(dec("1_000"), Ok(Value::Number(ref n)) if *n == Number::from_i64(1000)));
    assert!(matches!(dec("-.5"), Ok(Value::Number(ref n)) if *n == Number::parse("-0.5").unwrap()));
    assert!(matches!(dec("1e3"), Ok(Value::Number(ref n)) if *n == Number::from_i64(1000)));
    assert!(matches!(dec("2006-1-2"), Ok(Value::String(ref x)) if x == "2006-01-02T00:00:00Z"));
    assert!(matches!(dec("12:30"), Ok(Value::String(ref x)) if x == "12:30"));
    assert!(matches!(dec("|-\n  1.50"), Ok(Value::String(ref x)) if x == "1.5"));
    assert!(
        matches!(dec("|\n  hello\n  world"), Ok(Value::String(ref x)) if x == "hello\nworld\n")
    );
    assert!(matches!(dec(">\n  hello\n  world"), Ok(Value::String(ref x)) if x == "hello world\n"));
    assert!(matches!(dec("!!binary aGVsbG8="), Ok(Value::String(ref x)) if x == "aGVsbG8="));
}

#[test]
fn decode_errors() {
    assert_eq!(
        dec(".NaN").unwrap_err(),
        "floating point NaN is not supported"
    );
    assert_eq!(
        dec("!!bool bananas").unwrap_err(),
        "cannot parse \"bananas\" as tag:yaml.org,2002:bool"
    );
    assert_eq!(
        dec("!!binary '>>>>>>>>>'").unwrap_err(),
        "cannot parse \">>>>>>>>>\" as tag:yaml.org,2002:binary: not valid base64"
    );
    assert_eq!(
        dec("!!nope foo").unwrap_err(),
        "unsupported tag \"tag:yaml.org,2002:nope\""
    );
    assert_eq!(
        dec("\nfoo: &bar\n  - x\n  - *bar\n").unwrap_err(),
        "on line 3, column 5: cannot refer to anchor \"bar\" from inside its own definition"
    );
    assert_eq!(
        dec("a: 1\n---\nb: 2\n").unwrap_err(),
        "on line 1, column 1: unexpected extra content after value"
    );
    assert_eq!(
        dec("").unwrap_err(),
        "on line 1, column 1: missing start of document"
    );
    assert_eq!(
        dec("# just a comment\n").unwrap_err(),
        "on line 1, column 1: missing start of document"
    );
    assert_eq!(
        dec("foo: bar\n  bad: indent").unwrap_err(),
        "on line 2, column 1: mapping values are not allowed in this context"
    );
    assert_eq!(
        dec("a:\n  - x\n  - *nope\n").unwrap_err(),
        "on line 2, column 5: reference to undefined anchor \"nope\""
    );
    assert_eq!(
        dec("a:\n  b: !!map [1]\n").unwrap_err(),
        "on line 1, column 6: can't interpret sequence as tag:yaml.org,2002:map"
    );
    assert_eq!(
        dec("a:\n  ? [x]\n  : y\n").unwrap_err(),
        "on line 1, column 5: only strings are allowed as mapping keys"
    );
    assert_eq!(
        dec("a:\n  ~: y\n").unwrap_err(),
        "on line 1, column 3: mapping key cannot be null"
    );
}

#[test]
fn decode_collections() {
    let v = dec("a: 1\nb:\n  - foo\n  - true\nc: {x: null}\n").unwrap();
    let Value::Object(m) = v else {
        panic!("not an object")
    };
    assert!(matches!(m.get("a"), Some(Value::Number(_))));
    assert!(matches!(m.get("b"), Some(Value::Tuple(items)) if items.len() == 2));
    assert!(
        matches!(m.get("c"), Some(Value::Object(c)) if matches!(c.get("x"), Some(Value::Null(_))))
    );
    let v = dec("foo: &bar\n  - x\nbar: *bar\n").unwrap();
    let Value::Object(m) = v else {
        panic!("not an object")
    };
    assert!(matches!(m.get("bar"), Some(Value::Tuple(items)) if items.len() == 1));
    let v = dec("1: a\ntrue: b\n1.50: c\n").unwrap();
    let Value::Object(m) = v else {
        panic!("not an object")
    };
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    assert_eq!(keys, ["1", "1.5", "true"]);
    let v = dec("a: 1\na: 2\n").unwrap();
    let Value::Object(m) = v else {
        panic!("not an object")
    };
    assert!(matches!(m.get("a"), Some(Value::Number(n)) if *n == Number::from_i64(2)));
}

#[test]
fn decode_depth_is_bounded() {
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(dec(&deep).is_err() || dec(&deep).is_ok());
    let deep_block: String = (0..1500)
        .map(|i| format!("{}- \n", " ".repeat(i * 2)))
        .collect();
    assert!(dec(&deep_block).is_err());
}
