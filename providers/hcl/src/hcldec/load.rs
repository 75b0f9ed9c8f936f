//! Loading a spec file (hcldec's `cmd/hcldec/spec.go` and `ext/userfunc`): the single root
//! spec block, `variables` blocks and `function` blocks.
//!
//! Spec block arguments are decoded as `gohcl.DecodeBody` decodes hcldec's argument
//! structs: in a context without variables or functions (except `literal`'s `value`,
//! which may call the spec definition functions), with `gohcl`'s diagnostics
//! ("Unsuitable value type") for values of the wrong type.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::body::{AttributeSchema, Block, BlockHeaderSchema, Body, BodySchema, Expr};
use crate::convert::convert;
use crate::diag::{has_errors, Diagnostic, Severity};
use crate::eval::EvalContext;
use crate::functions::{FuncError, Function, FunctionTable, Param};
use crate::types::Type;
use crate::value::Value;

use super::funcs::spec_functions;
use super::spec::{
    implied_type, range_string, AttrSpec, BlockAttrsSpec, BlockListSpec, BlockMapSpec, BlockSpec,
    Spec, TransformSpec,
};

/// Spec blocks nested deeper than this are an error (the parser's own limit is lower).
const MAX_SPEC_DEPTH: usize = 100;

/// At most this many labels per `block_map` (each is one level of nested maps).
const MAX_BLOCK_MAP_LABELS: usize = 64;

/// A loaded spec file.
#[derive(Clone, Debug)]
pub struct SpecFile {
    /// The root spec.
    pub root: Spec,
    /// Variables defined by `variables` blocks (command-line variables override them).
    pub variables: BTreeMap<String, Value>,
    /// Functions defined by `function` blocks, for the input files' expressions.
    pub functions: FunctionTable,
}

/// The evaluation context of spec-file expressions: no variables, the spec definition
/// functions (hcldec's `specCtx`).
pub fn spec_context() -> EvalContext {
    EvalContext::empty().with_functions(spec_functions())
}

/// hcldec's `errSpec`: what a spec block with errors decodes to.
fn err_spec() -> Spec {
    Spec::Literal(Value::Null(Type::Dynamic))
}

/// The block types a spec may have, in hcldec's order (`block_attrs`, which hcldec's list
/// leaves out although it decodes it, is included).
const SPEC_BLOCK_TYPES: &[&str] = &[
    "object",
    "array",
    "literal",
    "attr",
    "block",
    "block_list",
    "block_map",
    "block_set",
    "block_attrs",
    "default",
    "transform",
];

fn spec_schema(labelled: bool) -> BodySchema {
    BodySchema {
        attributes: Vec::new(),
        blocks: SPEC_BLOCK_TYPES
            .iter()
            .map(|t| BlockHeaderSchema {
                type_name: (*t).to_string(),
                label_names: if labelled {
                    vec!["key".to_string()]
                } else {
                    Vec::new()
                },
            })
            .collect(),
    }
}

/// Loads a spec file from its text (always native syntax, as hcldec reads it).
pub fn load_spec(filename: &str, text: &str) -> (SpecFile, Vec<Diagnostic>) {
    let (body, mut diags) = crate::body::parse_native(filename, text);
    let empty = SpecFile {
        root: err_spec(),
        variables: BTreeMap::new(),
        functions: FunctionTable::empty(),
    };
    let Some(body) = body else {
        return (empty, diags);
    };
    if has_errors(&diags) {
        return (empty, diags);
    }
    let (spec, more) = load_spec_body(&body);
    diags.extend(more);
    (spec, diags)
}

/// Loads a spec file from its parsed body.
pub fn load_spec_body(body: &Body) -> (SpecFile, Vec<Diagnostic>) {
    let (functions, rest, mut diags) = decode_user_functions(body, "function");
    let (content, rest, more) = rest.partial_content(&BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema {
            type_name: "variables".into(),
            label_names: Vec::new(),
        }],
    });
    diags.extend(more);
    let ctx = spec_context();
    let mut variables = BTreeMap::new();
    for block in &content.blocks {
        let (attrs, more) = block.body.just_attributes();
        diags.extend(more);
        for (name, attr) in attrs {
            let (val, more) = attr.expr.value(&ctx);
            diags.extend(more);
            variables.insert(name, val);
        }
    }
    let (root, more) = decode_spec_root(&rest);
    diags.extend(more);
    (
        SpecFile {
            root,
            variables,
            functions,
        },
        diags,
    )
}

fn decode_spec_root(body: &Body) -> (Spec, Vec<Diagnostic>) {
    let (content, mut diags) = body.content(&spec_schema(false));
    match content.blocks.as_slice() {
        [] => {
            if !has_errors(&diags) {
                diags.push(Diagnostic::error(
                    "Missing spec block",
                    "A spec file must have exactly one root block specifying how to map to a JSON value.",
                    Some(body.missing_item_range()),
                ));
            }
            (err_spec(), diags)
        }
        [block] => {
            let (spec, more) = decode_spec_block(block, 0);
            diags.extend(more);
            (spec, diags)
        }
        [_, second, ..] => {
            diags.push(Diagnostic::error(
                "Extraneous spec block",
                "A spec file must have exactly one root block specifying how to map to a JSON value.",
                Some(second.def_range.clone()),
            ));
            (err_spec(), diags)
        }
    }
}

fn decode_spec_block(block: &Block, depth: usize) -> (Spec, Vec<Diagnostic>) {
    if depth > MAX_SPEC_DEPTH {
        return (
            err_spec(),
            vec![Diagnostic::error(
                "Spec nested too deeply",
                format!("Spec blocks may be nested at most {MAX_SPEC_DEPTH} levels deep."),
                Some(block.def_range.clone()),
            )],
        );
    }
    let implied = block.labels.first().cloned().unwrap_or_default();
    let body = &block.body;
    let depth = depth + 1;
    match block.type_name.as_str() {
        "object" => decode_object_spec(body, depth),
        "array" => decode_array_spec(body, depth),
        "attr" => decode_attr_spec(body, implied),
        "block" => decode_block_spec(body, implied, depth),
        "block_list" => decode_block_list_spec(body, implied, depth, false),
        "block_set" => decode_block_list_spec(body, implied, depth, true),
        "block_map" => decode_block_map_spec(body, implied, depth),
        "block_attrs" => decode_block_attrs_spec(body, implied),
        "default" => decode_default_spec(body, depth),
        "transform" => decode_transform_spec(body, depth),
        "literal" => decode_literal_spec(body),
        other => (
            err_spec(),
            vec![Diagnostic::error(
                "Invalid spec block",
                format!(
                    "Blocks of type {} are not expected here.",
                    crate::types::go_quote(other)
                ),
                Some(block.type_range.clone()),
            )],
        ),
    }
}

fn decode_object_spec(body: &Body, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (content, mut diags) = body.content(&spec_schema(true));
    let mut props = BTreeMap::new();
    for block in &content.blocks {
        let (spec, more) = decode_spec_block(block, depth);
        diags.extend(more);
        if let Some(key) = block.labels.first() {
            props.insert(key.clone(), spec);
        }
    }
    (Spec::Object(props), diags)
}

fn decode_array_spec(body: &Body, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (content, mut diags) = body.content(&spec_schema(false));
    let mut elems = Vec::with_capacity(content.blocks.len());
    for block in &content.blocks {
        let (spec, more) = decode_spec_block(block, depth);
        diags.extend(more);
        elems.push(spec);
    }
    (Spec::Tuple(elems), diags)
}

fn decode_attr_spec(body: &Body, implied: String) -> (Spec, Vec<Diagnostic>) {
    let (args, _, mut diags) = decode_args(
        body,
        &EvalContext::empty(),
        &[
            ("name", Kind::Str),
            ("type", Kind::Expr),
            ("required", Kind::Bool),
        ],
        false,
    );
    if has_errors(&diags) {
        return (err_spec(), diags);
    }
    let name = args.string("name").unwrap_or(implied);
    let (ty, more) = type_expr(args.expr("type"));
    diags.extend(more);
    if name.is_empty() {
        diags.push(Diagnostic::error(
            "Missing name in attribute spec",
            "The name attribute is required, to specify the attribute name that is expected in an input HCL file.",
            Some(body.missing_item_range()),
        ));
        return (err_spec(), diags);
    }
    let required = args.bool("required").unwrap_or(false);
    (Spec::Attr(AttrSpec { name, ty, required }), diags)
}

fn decode_block_spec(body: &Body, implied: String, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (args, nested, diags) = match block_spec_parts(
        body,
        &[("block_type", Kind::Str), ("required", Kind::Bool)],
        depth,
    ) {
        Ok(parts) => parts,
        Err(diags) => return (err_spec(), diags),
    };
    let spec = BlockSpec {
        type_name: args.string("block_type").unwrap_or(implied),
        nested: Box::new(nested),
        required: args.bool("required").unwrap_or(false),
    };
    (Spec::Block(spec), diags)
}

/// A block spec's own arguments (`fields`) and the nested spec in the rest of its body;
/// the diagnostics alone when the arguments are wrong.
fn block_spec_parts(
    body: &Body,
    fields: &[(&'static str, Kind)],
    depth: usize,
) -> Result<(Args, Spec, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (args, rest, mut diags) = decode_args(body, &EvalContext::empty(), fields, true);
    if has_errors(&diags) {
        return Err(diags);
    }
    let (nested, more) = decode_block_nested_spec(&rest.unwrap_or_else(|| body.clone()), depth);
    diags.extend(more);
    Ok((args, nested, diags))
}

fn missing_block_type(kind: &str, body: &Body) -> Diagnostic {
    Diagnostic::error(
        format!("Missing block_type in {kind} spec"),
        "The block_type attribute is required, to specify the block type name that is expected in an input HCL file.",
        Some(body.missing_item_range()),
    )
}

fn decode_block_list_spec(
    body: &Body,
    implied: String,
    depth: usize,
    set: bool,
) -> (Spec, Vec<Diagnostic>) {
    let (args, nested, mut diags) = match block_spec_parts(
        body,
        &[
            ("block_type", Kind::Str),
            ("min_items", Kind::Int),
            ("max_items", Kind::Int),
        ],
        depth,
    ) {
        Ok(parts) => parts,
        Err(diags) => return (err_spec(), diags),
    };
    let spec = BlockListSpec {
        type_name: args.string("block_type").unwrap_or(implied),
        nested: Box::new(nested),
        min_items: args.int("min_items").unwrap_or(0),
        max_items: args.int("max_items").unwrap_or(0),
    };
    if spec.type_name.is_empty() {
        let kind = if set { "block_set" } else { "block_list" };
        diags.push(missing_block_type(kind, body));
        return (err_spec(), diags);
    }
    if set {
        (Spec::BlockSet(spec), diags)
    } else {
        (Spec::BlockList(spec), diags)
    }
}

fn decode_block_map_spec(body: &Body, implied: String, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (args, nested, mut diags) = match block_spec_parts(
        body,
        &[("block_type", Kind::Str), ("labels", Kind::StrList)],
        depth,
    ) {
        Ok(parts) => parts,
        Err(diags) => return (err_spec(), diags),
    };
    let spec = BlockMapSpec {
        type_name: args.string("block_type").unwrap_or(implied),
        label_names: args.list("labels").unwrap_or_default(),
        nested: Box::new(nested),
    };
    if spec.type_name.is_empty() {
        diags.push(missing_block_type("block_map", body));
        return (err_spec(), diags);
    }
    if spec.label_names.is_empty() {
        diags.push(Diagnostic::error(
            "Invalid block label name list",
            "A block_map must have at least one label specified.",
            Some(body.missing_item_range()),
        ));
        return (err_spec(), diags);
    }
    if spec.label_names.len() > MAX_BLOCK_MAP_LABELS {
        diags.push(Diagnostic::error(
            "Invalid block label name list",
            format!("A block_map may have at most {MAX_BLOCK_MAP_LABELS} labels."),
            Some(body.missing_item_range()),
        ));
        return (err_spec(), diags);
    }
    let spec = Spec::BlockMap(spec);
    if implied_type(&spec).has_dynamic_types() {
        diags.push(Diagnostic::error(
            "Invalid block_map spec",
            "A block_map spec may not contain attributes with type 'any'.",
            Some(body.missing_item_range()),
        ));
    }
    (spec, diags)
}

fn decode_block_nested_spec(body: &Body, depth: usize) -> (Spec, Vec<Diagnostic>) {
    const DETAIL: &str =
        "A block spec must have exactly one child spec specifying how to decode block contents.";
    let (content, mut diags) = body.content(&spec_schema(false));
    match content.blocks.as_slice() {
        [] => {
            if !has_errors(&diags) {
                diags.push(Diagnostic::error(
                    "Missing spec block",
                    DETAIL,
                    Some(body.missing_item_range()),
                ));
            }
            (err_spec(), diags)
        }
        [block] => {
            let (spec, more) = decode_spec_block(block, depth);
            diags.extend(more);
            (spec, diags)
        }
        [_, second, ..] => {
            diags.push(Diagnostic::error(
                "Extraneous spec block",
                DETAIL,
                Some(second.def_range.clone()),
            ));
            (err_spec(), diags)
        }
    }
}

fn decode_block_attrs_spec(body: &Body, implied: String) -> (Spec, Vec<Diagnostic>) {
    let (args, _, mut diags) = decode_args(
        body,
        &EvalContext::empty(),
        &[
            ("block_type", Kind::Str),
            ("element_type", Kind::Expr),
            ("required", Kind::Bool),
        ],
        false,
    );
    if has_errors(&diags) {
        return (err_spec(), diags);
    }
    let (element_type, more) = type_expr(args.expr("element_type"));
    diags.extend(more);
    let spec = BlockAttrsSpec {
        type_name: args.string("block_type").unwrap_or(implied),
        element_type,
        required: args.bool("required").unwrap_or(false),
    };
    if spec.type_name.is_empty() {
        diags.push(missing_block_type("block_attrs", body));
        return (err_spec(), diags);
    }
    (Spec::BlockAttrs(spec), diags)
}

fn decode_literal_spec(body: &Body) -> (Spec, Vec<Diagnostic>) {
    let (args, _, diags) = decode_args(body, &spec_context(), &[("value", Kind::Value)], false);
    if has_errors(&diags) {
        return (err_spec(), diags);
    }
    let value = args.value("value").unwrap_or(Value::Null(Type::Dynamic));
    (Spec::Literal(value), diags)
}

fn decode_default_spec(body: &Body, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (content, mut diags) = body.content(&spec_schema(false));
    let Some(first) = content.blocks.first() else {
        if !has_errors(&diags) {
            diags.push(Diagnostic::error(
                "Missing spec block",
                "A default block must have at least one nested spec, each specifying a possible outcome.",
                Some(body.missing_item_range()),
            ));
        }
        return (err_spec(), diags);
    };
    if content.blocks.len() == 1 && !has_errors(&diags) {
        // hcldec points this warning at the (missing) second block and crashes; the only
        // block is the sensible subject.
        diags.push(Diagnostic {
            severity: Severity::Warning,
            summary: "Useless default block".into(),
            detail: "A default block with only one spec is equivalent to using that spec alone."
                .into(),
            subject: Some(first.def_range.clone()),
            expression: None,
        });
    }
    let mut spec: Option<Spec> = None;
    for block in &content.blocks {
        let (candidate, more) = decode_spec_block(block, depth);
        let failed = has_errors(&more);
        diags.extend(more);
        if failed {
            continue;
        }
        spec = Some(match spec {
            None => candidate,
            Some(primary) => Spec::Default {
                primary: Box::new(primary),
                default: Box::new(candidate),
            },
        });
    }
    (spec.unwrap_or_else(err_spec), diags)
}

fn decode_transform_spec(body: &Body, depth: usize) -> (Spec, Vec<Diagnostic>) {
    let (args, rest, mut diags) =
        decode_args(body, &EvalContext::empty(), &[("result", Kind::Expr)], true);
    if has_errors(&diags) {
        return (err_spec(), diags);
    }
    let rest = rest.unwrap_or_else(|| body.clone());
    let (content, nested_diags) = rest.content(&spec_schema(false));
    let nested_failed = has_errors(&nested_diags);
    diags.extend(nested_diags);
    let [block] = content.blocks.as_slice() else {
        if !nested_failed {
            diags.push(Diagnostic::error(
                "Invalid transform spec",
                "A transform spec block must have exactly one nested spec block.",
                Some(body.missing_item_range()),
            ));
        }
        return (err_spec(), diags);
    };
    let (wrapped, more) = decode_spec_block(block, depth);
    diags.extend(more);
    let spec = TransformSpec {
        wrapped: Box::new(wrapped),
        expr: args.expr("result"),
        ctx: spec_context(),
        var_name: "nested".into(),
    };
    (Spec::Transform(spec), diags)
}

/// A type expression (`type`, `element_type`); absent or `null` means `any`.
fn type_expr(expr: Option<Expr>) -> (Type, Vec<Diagnostic>) {
    let Some(expr) = expr else {
        return (Type::Dynamic, Vec::new());
    };
    let invalid = |detail: String| {
        (
            Type::Dynamic,
            vec![Diagnostic::error(
                "Invalid type specification",
                detail,
                Some(expr.range()),
            )],
        )
    };
    match expr.as_native() {
        Some((native, _)) => {
            if matches!(&native, hcl_edit::expr::Expression::Null(_)) {
                return (Type::Dynamic, Vec::new());
            }
            match Type::from_expr(&native) {
                Ok(t) => (t, Vec::new()),
                Err(detail) => invalid(detail),
            }
        }
        None => invalid(
            "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".into(),
        ),
    }
}

// --- gohcl-style argument decoding -------------------------------------------------------

/// How one argument of a spec block is decoded (the Go field type in hcldec's structs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `*string`: optional.
    Str,
    /// `*bool`: optional.
    Bool,
    /// `*int`: optional.
    Int,
    /// `hcl.Expression`: optional, kept unevaluated.
    Expr,
    /// `[]string`: required.
    StrList,
    /// `cty.Value`: required, any value.
    Value,
}

enum ArgVal {
    Str(String),
    Bool(bool),
    Int(i64),
    Expr(Expr),
    StrList(Vec<String>),
    Value(Value),
}

#[derive(Default)]
struct Args(BTreeMap<&'static str, ArgVal>);

impl Args {
    fn string(&self, name: &str) -> Option<String> {
        match self.0.get(name) {
            Some(ArgVal::Str(s)) => Some(s.clone()),
            _ => None,
        }
    }
    fn bool(&self, name: &str) -> Option<bool> {
        match self.0.get(name) {
            Some(ArgVal::Bool(b)) => Some(*b),
            _ => None,
        }
    }
    fn int(&self, name: &str) -> Option<i64> {
        match self.0.get(name) {
            Some(ArgVal::Int(i)) => Some(*i),
            _ => None,
        }
    }
    fn expr(&self, name: &str) -> Option<Expr> {
        match self.0.get(name) {
            Some(ArgVal::Expr(e)) => Some(e.clone()),
            _ => None,
        }
    }
    fn list(&self, name: &str) -> Option<Vec<String>> {
        match self.0.get(name) {
            Some(ArgVal::StrList(l)) => Some(l.clone()),
            _ => None,
        }
    }
    fn value(&self, name: &str) -> Option<Value> {
        match self.0.get(name) {
            Some(ArgVal::Value(v)) => Some(v.clone()),
            _ => None,
        }
    }
}

/// `gohcl.DecodeBody` into a struct of the given fields; with `remain`, the attributes
/// and blocks the fields do not name are returned as a body instead of being errors.
fn decode_args(
    body: &Body,
    ctx: &EvalContext,
    fields: &[(&'static str, Kind)],
    remain: bool,
) -> (Args, Option<Body>, Vec<Diagnostic>) {
    let mut sorted: Vec<(&'static str, Kind)> = fields.to_vec();
    sorted.sort_by_key(|(name, _)| *name);
    let schema = BodySchema {
        attributes: sorted
            .iter()
            .map(|(name, kind)| AttributeSchema {
                name: (*name).to_string(),
                required: matches!(kind, Kind::StrList | Kind::Value),
            })
            .collect(),
        blocks: Vec::new(),
    };
    let (content, rest, mut diags) = if remain {
        let (c, r, d) = body.partial_content(&schema);
        (c, Some(r), d)
    } else {
        let (c, d) = body.content(&schema);
        (c, None, d)
    };
    let mut args = Args::default();
    for (name, kind) in sorted {
        let Some(attr) = content.attributes.get(name) else {
            continue;
        };
        if kind == Kind::Expr {
            args.0.insert(name, ArgVal::Expr(attr.expr.clone()));
            continue;
        }
        let (val, more) = attr.expr.value(ctx);
        diags.extend(more);
        match from_value(&val, kind) {
            Ok(Some(v)) => {
                args.0.insert(name, v);
            }
            Ok(None) => {}
            Err(message) => diags.push(Diagnostic::error(
                "Unsuitable value type",
                format!("Unsuitable value: {message}"),
                Some(attr.expr.start_range()),
            )),
        }
    }
    (args, rest, diags)
}

const NOT_KNOWN: &str = "value must be known";
const NOT_AN_INT: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// `convert.Convert` to the Go field's implied type, then `gocty.FromCtyValue`. `None` for
/// a null (a nil pointer or slice).
fn from_value(val: &Value, kind: Kind) -> Result<Option<ArgVal>, String> {
    let want = match kind {
        Kind::Str => Type::String,
        Kind::Bool => Type::Bool,
        Kind::Int => Type::Number,
        Kind::StrList => Type::list(Type::String),
        Kind::Value | Kind::Expr => return Ok(Some(ArgVal::Value(val.clone()))),
    };
    let val = convert(val, &want).map_err(|e| e.message)?;
    if val.is_null() {
        return Ok(match kind {
            Kind::StrList => Some(ArgVal::StrList(Vec::new())),
            _ => None,
        });
    }
    match (kind, val) {
        (_, Value::Unknown(_)) => Err(NOT_KNOWN.into()),
        (Kind::Str, Value::String(s)) => Ok(Some(ArgVal::Str(s))),
        (Kind::Bool, Value::Bool(b)) => Ok(Some(ArgVal::Bool(b))),
        (Kind::Int, Value::Number(n)) => n
            .to_i64()
            .map(|i| Some(ArgVal::Int(i)))
            .ok_or_else(|| NOT_AN_INT.to_string()),
        (Kind::StrList, Value::List(_, elems)) => {
            let mut out = Vec::with_capacity(elems.len());
            for e in elems {
                match e {
                    Value::String(s) => out.push(s),
                    Value::Null(_) => return Err("null value is not allowed".into()),
                    _ => return Err(NOT_KNOWN.into()),
                }
            }
            Ok(Some(ArgVal::StrList(out)))
        }
        _ => Err(NOT_KNOWN.into()),
    }
}

// --- user functions (ext/userfunc) --------------------------------------------------------

/// hcl's `Diagnostics.Error()`: the first diagnostic as `range: summary; detail`, and a
/// count of the others.
fn diagnostics_error(diags: &[Diagnostic]) -> String {
    let one = |d: &Diagnostic| {
        let subject = d
            .subject
            .as_ref()
            .map(range_string)
            .unwrap_or_else(|| "<nil>".into());
        format!("{subject}: {}; {}", d.summary, d.detail)
    };
    match diags {
        [] => "no diagnostics".into(),
        [d] => one(d),
        [d, rest @ ..] => format!("{}, and {} other diagnostic(s)", one(d), rest.len()),
    }
}

/// `userfunc.DecodeUserFunctions`: the `function "name" { params = [...],
/// variadic_param = name, result = expr }` blocks of `body`, the rest of the body, and the
/// diagnostics. Function results are evaluated in the spec context extended with the
/// parameters (a variadic parameter is a tuple of the extra arguments), so user functions
/// may call the spec definition functions but not each other.
pub fn decode_user_functions(
    body: &Body,
    block_type: &str,
) -> (FunctionTable, Body, Vec<Diagnostic>) {
    let (content, rest, mut diags) = body.partial_content(&BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema {
            type_name: block_type.into(),
            label_names: vec!["name".into()],
        }],
    });
    let mut table = FunctionTable::empty();
    if has_errors(&diags) {
        return (table, rest, diags);
    }
    let func_schema = BodySchema {
        attributes: vec![
            AttributeSchema {
                name: "params".into(),
                required: true,
            },
            AttributeSchema {
                name: "variadic_param".into(),
                required: false,
            },
            AttributeSchema {
                name: "result".into(),
                required: true,
            },
        ],
        blocks: Vec::new(),
    };
    'blocks: for block in &content.blocks {
        let Some(name) = block.labels.first() else {
            continue;
        };
        let (fc, more) = block.body.content(&func_schema);
        let failed = has_errors(&more);
        diags.extend(more);
        if failed {
            continue;
        }
        let (Some(params_attr), Some(result_attr)) =
            (fc.attributes.get("params"), fc.attributes.get("result"))
        else {
            continue;
        };
        let Some(param_exprs) = params_attr.expr.as_list() else {
            diags.push(Diagnostic::error(
                "Invalid expression",
                "A static list expression is required.",
                Some(params_attr.expr.start_range()),
            ));
            continue;
        };
        let mut params = Vec::with_capacity(param_exprs.len());
        for pe in &param_exprs {
            match pe.as_keyword() {
                Some(p) => params.push(p),
                None => {
                    diags.push(Diagnostic::error(
                        "Invalid param element",
                        "Each parameter name must be an identifier.",
                        Some(pe.range()),
                    ));
                    continue 'blocks;
                }
            }
        }
        let variadic = match fc.attributes.get("variadic_param") {
            None => None,
            Some(attr) => match attr.expr.as_keyword() {
                Some(v) => Some(v),
                None => {
                    diags.push(Diagnostic::error(
                        "Invalid variadic_param",
                        "The variadic parameter name must be an identifier.",
                        Some(attr.expr.range()),
                    ));
                    continue;
                }
            },
        };
        let result = result_attr.expr.clone();
        let closure_params = params.clone();
        let closure_variadic = variadic.clone();
        let imp = Arc::new(move |args: &[Value]| -> Result<Value, FuncError> {
            let mut vars = BTreeMap::new();
            for (i, p) in closure_params.iter().enumerate() {
                let v = args.get(i).cloned().unwrap_or(Value::Null(Type::Dynamic));
                vars.insert(p.clone(), v);
            }
            if let Some(v) = &closure_variadic {
                let extra = args.get(closure_params.len()..).unwrap_or_default();
                vars.insert(v.clone(), Value::tuple(extra.to_vec()));
            }
            let ctx = spec_context().child(vars);
            let (val, diags) = result.value(&ctx);
            if has_errors(&diags) {
                return Err(FuncError::new(diagnostics_error(&diags)));
            }
            Ok(val)
        });
        let mut f = Function::with_closure(
            name.clone(),
            params
                .iter()
                .map(|p| Param::new(p.clone(), Type::Dynamic))
                .collect(),
            Type::Dynamic,
            imp,
        );
        if let Some(v) = variadic {
            f = f.variadic(Param::new(v, Type::Dynamic));
        }
        table.add(f);
    }
    (table, rest, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Range;

    #[test]
    fn diagnostics_as_one_error() {
        let r = Range {
            filename: "f".into(),
            start: crate::diag::Pos {
                line: 1,
                column: 2,
                byte: 1,
            },
            end: crate::diag::Pos {
                line: 1,
                column: 5,
                byte: 4,
            },
        };
        let d = Diagnostic::error("Unknown variable", "No x.", Some(r));
        assert_eq!(
            diagnostics_error(std::slice::from_ref(&d)),
            "f:1,2-5: Unknown variable; No x."
        );
        assert_eq!(
            diagnostics_error(&[d.clone(), d]),
            "f:1,2-5: Unknown variable; No x., and 1 other diagnostic(s)"
        );
    }

    #[test]
    fn gocty_decoding_of_arguments() {
        assert!(matches!(
            from_value(&Value::from(5), Kind::Str),
            Ok(Some(ArgVal::Str(s))) if s == "5"
        ));
        assert!(matches!(
            from_value(&Value::Null(Type::String), Kind::Str),
            Ok(None)
        ));
        assert!(matches!(
            from_value(&Value::from("true"), Kind::Bool),
            Ok(Some(ArgVal::Bool(true)))
        ));
        assert_eq!(
            from_value(&Value::Unknown(Type::Dynamic), Kind::Str).err(),
            Some(NOT_KNOWN.to_string())
        );
        let half = Value::Number(
            crate::number::Number::parse("1.5").unwrap_or_else(crate::number::Number::zero),
        );
        assert_eq!(
            from_value(&half, Kind::Int).err(),
            Some(NOT_AN_INT.to_string())
        );
        assert!(matches!(
            from_value(&Value::tuple(vec!["a".into(), Value::from(1)]), Kind::StrList),
            Ok(Some(ArgVal::StrList(l))) if l == vec!["a".to_string(), "1".to_string()]
        ));
        assert_eq!(
            from_value(
                &Value::tuple(vec!["a".into(), Value::Null(Type::String)]),
                Kind::StrList
            )
            .err(),
            Some("null value is not allowed".to_string())
        );
        assert!(matches!(
            from_value(&Value::Null(Type::Dynamic), Kind::StrList),
            Ok(Some(ArgVal::StrList(l))) if l.is_empty()
        ));
    }
}

#[cfg(test)]
mod load_tests {
    use super::*;
    use crate::functions::call_function;

    #[test]
    fn a_default_with_one_spec_warns() {
        let (file, diags) = load_spec("s", "default {\n  literal {\n    value = 1\n  }\n}\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].severity, Severity::Warning);
        assert_eq!(diags[0].summary, "Useless default block");
        let subject = diags[0].subject.clone().unwrap_or_default();
        assert_eq!((subject.start.line, subject.start.column), (2, 3));
        assert!(matches!(file.root, Spec::Literal(_)));
    }

    #[test]
    fn defaults_nest_left_to_right() {
        let (file, diags) = load_spec(
            "s",
            "default {\n  attr {\n    name = \"a\"\n  }\n  attr {\n    name = \"b\"\n  }\n  literal {\n    value = 1\n  }\n}\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let Spec::Default { primary, default } = file.root else {
            panic!("not a default spec");
        };
        assert!(matches!(*default, Spec::Literal(_)));
        assert!(matches!(*primary, Spec::Default { .. }));
    }

    #[test]
    fn block_attrs_is_a_spec_type() {
        let (file, diags) = load_spec(
            "s",
            "block_attrs {\n  block_type   = \"env\"\n  element_type = map(string)\n  required     = true\n}\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let Spec::BlockAttrs(b) = file.root else {
            panic!("not block_attrs");
        };
        assert_eq!(
            b,
            BlockAttrsSpec {
                type_name: "env".into(),
                element_type: Type::map(Type::String),
                required: true,
            }
        );
    }

    #[test]
    fn null_type_is_any() {
        let (file, diags) = load_spec("s", "attr {\n  name = \"a\"\n  type = null\n}\n");
        assert!(diags.is_empty(), "{diags:?}");
        assert!(matches!(
            file.root,
            Spec::Attr(AttrSpec {
                ty: Type::Dynamic,
                ..
            })
        ));
    }

    #[test]
    fn variables_and_functions() {
        let (file, diags) = load_spec(
            "s",
            r#"variables {
  a = upper("x")
  b = [1, 2]
}
variables {
  c = true
}
function "twice" {
  params = [n]
  result = n * 2
}
function "count" {
  params         = [first]
  variadic_param = rest
  result         = length(rest) + 1
}
literal {
  value = 1
}
"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(file.variables.get("a"), Some(&Value::from("X")));
        assert_eq!(file.variables.len(), 3);
        let twice = file.functions.get("twice").cloned();
        let twice = twice.map(|f| call_function(&f, &[Value::from(21)]));
        assert_eq!(twice, Some(Ok(Value::from(42))));
        let count = file.functions.get("count").cloned();
        let count = count.map(|f| call_function(&f, &[Value::from(1), Value::from(2), "x".into()]));
        assert_eq!(count, Some(Ok(Value::from(3))));
    }

    #[test]
    fn label_lists_are_bounded() {
        let labels = vec!["\"l\""; MAX_BLOCK_MAP_LABELS + 1].join(", ");
        let text = format!(
            "block_map {{\n  block_type = \"b\"\n  labels = [{labels}]\n  object {{}}\n}}\n"
        );
        let (_, diags) = load_spec("s", &text);
        assert_eq!(diags.len(), 1);
        assert_eq!(
            diags[0].detail,
            format!("A block_map may have at most {MAX_BLOCK_MAP_LABELS} labels.")
        );
    }
}
