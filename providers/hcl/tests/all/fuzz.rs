//! Generated inputs never panic the parser wrapper or the evaluator; deep nesting is a
//! diagnostic, never a stack overflow.

use std::collections::BTreeMap;

use cloudspec_hcl::eval::{self, EvalContext};
use cloudspec_hcl::syntax::{parse_body, parse_expr, parse_template, SourceFile};
use cloudspec_hcl::{json, Type, Value};
use proptest::prelude::*;

fn context() -> EvalContext {
    let mut vars: BTreeMap<String, Value> = match json::decode(
        r#"{"s": "str", "n": 3, "b": true, "z": null, "l": [1, "two", [3]],
            "o": {"a": 1, "b": {"c": ["x", "y"]}, "l": [{"id": 1}, {"id": 2}]},
            "e": [], "m": {"k": "v"}}"#,
    ) {
        Ok(Value::Object(m)) => m,
        other => panic!("bad fixture: {other:?}"),
    };
    vars.insert("u".into(), Value::Unknown(Type::Dynamic));
    vars.insert("us".into(), Value::Unknown(Type::String));
    vars.insert("ul".into(), Value::Unknown(Type::list(Type::Number)));
    EvalContext::new().with_variables(vars)
}

/// Parses `text` as an expression, a body and a template and evaluates what parses.
fn exercise(text: &str) {
    let ctx = context();
    let src = SourceFile::new("fuzz.hcl", text);
    if let Ok(e) = parse_expr(&src) {
        let _ = eval::expr(&e, &ctx, &src);
        let _ = eval::variables(&e, &src);
    }
    if let Ok(b) = parse_body(&src) {
        let _ = eval::body_to_value(&b, &ctx, &src);
    }
    if let Ok(t) = parse_template(&src) {
        let _ = eval::template(&t, &ctx, &src);
    }
}

const TOKENS: &[&str] = &[
    "s",
    "n",
    "b",
    "z",
    "l",
    "o",
    "u",
    "us",
    "ul",
    "e",
    "m",
    "x",
    "a",
    "id",
    "0",
    "1",
    "2.5",
    "-1",
    "1e3",
    "99999999999999999999",
    "\"",
    "\"a\"",
    "\"${",
    "${",
    "%{",
    "}",
    "~}",
    "${~",
    "%{~",
    "if",
    "else",
    "endif",
    "for",
    "endfor",
    "in",
    ":",
    "=>",
    "...",
    "?",
    "*",
    "[*]",
    ".*",
    ".",
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "=",
    "==",
    "!=",
    "<",
    ">=",
    "+",
    "-",
    "/",
    "%",
    "&&",
    "||",
    "!",
    "<<EOF\n",
    "<<-EOF\n",
    "\nEOF\n",
    "EOF",
    "\n",
    " ",
    "\\n",
    "\\u00e9",
    "$${",
    "%%{",
    "null",
    "true",
    "false",
    "upper(",
    "try(",
    "can(",
    "length(",
    "max(",
    "tostring(",
    "concat(",
    "#",
    "//",
    "/*",
    "*/",
    "é",
    "\t",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.concat())
}

/// Syntactically plausible expressions built from a small grammar.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "s", "n", "b", "z", "l", "o", "u", "us", "ul", "e", "m", "nosuch", "0", "1", "-2",
            "0.5", "1e2", "\"\"", "\"txt\"", "true", "false", "null", "[]", "{}",
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|i| i.to_string()),
        "[a-z ]{0,8}".prop_map(|s| format!("\"{s}\"")),
    ];
    leaf.prop_recursive(5, 64, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (prop::sample::select(vec!["-", "!"]), inner.clone())
                .prop_map(|(op, a)| format!("{op}{a}")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, f)| format!("({c} ? {t} : {f})")),
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|v| {
                let items: Vec<String> = v
                    .iter()
                    .enumerate()
                    .map(|(i, e)| format!("k{i} = {e}"))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }),
            (inner.clone(), inner.clone()).prop_map(|(c, v)| format!("[for x in {c} : {v}]")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, k, v)| format!("{{for k, x in {c} : {k} => {v}...}}")),
            (inner.clone(), inner.clone()).prop_map(|(c, f)| format!("[for x in {c} : x if {f}]")),
            (
                inner.clone(),
                prop::sample::select(vec!["a", "b", "id", "c", "0"])
            )
                .prop_map(|(e, a)| format!("{e}.{a}")),
            (inner.clone(), inner.clone()).prop_map(|(e, i)| format!("{e}[{i}]")),
            (
                inner.clone(),
                prop::sample::select(vec!["[*]", ".*", "[*].id", ".*.id", "[*][0]"])
            )
                .prop_map(|(e, s)| format!("{e}{s}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("\"${{{a}}}-${{{b}}}\"")),
            (inner.clone(), inner.clone())
                .prop_map(|(c, t)| format!("\"%{{if {c}}}${{{t}}}%{{else}}e%{{endif}}\"")),
            (inner.clone(), inner.clone())
                .prop_map(|(c, t)| format!("\"%{{for x in {c} ~}} ${{{t}}} %{{~ endfor}}\"")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("try({a}, {b})")),
            inner.clone().prop_map(|a| format!("can({a})")),
            (
                prop::sample::select(vec![
                    "upper",
                    "length",
                    "tostring",
                    "tonumber",
                    "tobool",
                    "tolist",
                    "toset",
                    "tomap",
                    "concat",
                    "max",
                    "min",
                    "keys",
                    "values",
                    "jsonencode",
                    "coalesce",
                    "flatten",
                    "merge",
                    "element",
                    "lookup",
                    "contains",
                    "join",
                    "split",
                    "nosuchfn",
                ]),
                prop::collection::vec(inner.clone(), 0..3),
                any::<bool>()
            )
                .prop_map(|(f, args, expand)| format!(
                    "{f}({}{})",
                    args.join(", "),
                    if expand && !args.is_empty() {
                        "..."
                    } else {
                        ""
                    }
                )),
            inner
                .clone()
                .prop_map(|a| format!("<<EOT\n${{{a}}}\nEOT\n")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(text in soup()) {
        exercise(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,60}") {
        exercise(&text);
    }

    #[test]
    fn generated_expressions_never_panic(text in expression()) {
        exercise(&text);
        exercise(&format!("attr = {text}\nblock \"l\" {{\n  inner = {text}\n}}\n"));
    }

    #[test]
    fn deep_nesting_is_bounded(
        kinds in prop::collection::vec(0usize..8, 1..400),
    ) {
        let mut open = String::new();
        let mut close = String::new();
        for k in &kinds {
            let (o, c) = match k {
                0 => ("[", "]"),
                1 => ("(", ")"),
                2 => ("{a = ", "}"),
                3 => ("f(", ")"),
                4 => ("\"${", "}\""),
                5 => ("[for x in ", " : x]"),
                6 => ("-", ""),
                _ => ("\"%{if true}", "%{endif}\""),
            };
            open.push_str(o);
            close.insert_str(0, c);
        }
        let text = format!("{open}1{close}");
        let src = SourceFile::new("deep", text.clone());
        match parse_expr(&src) {
            Ok(e) => {
                let _ = eval::expr(&e, &context(), &src);
            }
            Err(d) => {
                prop_assert!(kinds.len() > 20, "{} levels rejected: {d:?}", kinds.len());
                prop_assert_eq!(d.summary.as_str(), "Nesting too deep");
            }
        }
    }
}
