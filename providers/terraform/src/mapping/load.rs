//! Reading a mapping file (`docs/terraform.md`, "Mapping a new type") into a [`Mapping`]:
//! every error with its position (`file:line:col`), all of them at once.
//!
//! Arguments of the file's blocks are constants (strings, bools, lists of strings, type
//! expressions), read without variables or functions; expressions (`literal`'s `value`,
//! `transform`'s `result`, `attr`'s `default`, a `contribute`'s `target`, `path`, `set`
//! and `append`, an `after_merge`'s `value`) are kept and evaluated per resource. Each is
//! also evaluated once here with every per-resource variable unknown, so a misspelt
//! function or variable is a load error, not a surprise on some configuration.

use std::collections::BTreeMap;

use cloudspec_hcl::body::{
    AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema, Expr,
};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Range, Severity, Type, Value};

use super::spec::Node;
use super::values::functions;
use crate::Failure;

/// The mapping of one Terraform type: one file of `mappings/`.
#[derive(Clone, Debug)]
pub struct Mapping {
    pub(crate) tf_type: String,
    pub(crate) file: String,
    /// The cloudspec type its resources become; none for a type that only contributes to
    /// others (`aws_s3_bucket_versioning`).
    pub(crate) target: Option<String>,
    pub(crate) locals: Value,
    /// The root `object`: the resource's properties (also the value contributions read).
    pub(crate) properties: BTreeMap<String, Node>,
    pub(crate) contributions: Vec<Contribution>,
    pub(crate) derived: Vec<Derive>,
    pub(crate) groups: Vec<Group>,
    pub(crate) after_merge: Vec<(String, Expr)>,
    pub(crate) reverse: Vec<Reverse>,
    pub(crate) replaces: Vec<Replace>,
    /// `extends = "TYPE"`: the mapping this one starts from, and where it says so.
    pub(crate) extends: Option<(String, Range)>,
}

/// A `replaces "LABEL" { target = ... }` block: the resource stands for the `single`
/// resource `LABEL` its target derives (`aws_default_security_group` for its VPC's
/// `default_security_group`), which is then left out.
#[derive(Clone, Debug)]
pub(crate) struct Replace {
    pub derived: String,
    pub target: Expr,
}

/// A `contribute` block: part of another resource's value.
#[derive(Clone, Debug)]
pub(crate) struct Contribution {
    pub to: String,
    pub target: Expr,
    pub match_member: Option<String>,
    pub path: Expr,
    pub op: Op,
    pub inline: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Set(Expr),
    Append(Expr),
}

/// A `derive` block: one more resource per nested block of the resource.
#[derive(Clone, Debug)]
pub(crate) struct Derive {
    pub block: String,
    pub target: String,
    pub key: Option<String>,
    pub always: bool,
    /// One resource from no block (`ADDR.LABEL`): what AWS creates along with the resource
    /// (a VPC's default security group).
    pub single: bool,
    pub properties: BTreeMap<String, Node>,
    pub contributions: Vec<Contribution>,
}

/// A `group` block: list elements with equal keys merged.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub member: String,
    pub by: Vec<String>,
    pub concat: Vec<String>,
}

/// A `reverse` block: the resources of `from` whose `via` holds this resource's id.
#[derive(Clone, Debug)]
pub(crate) struct Reverse {
    pub member: String,
    pub from: String,
    pub via: Vec<String>,
}

impl Mapping {
    /// The Terraform type this file maps (its file name without `.hcl`).
    pub fn tf_type(&self) -> &str {
        &self.tf_type
    }

    /// The file it was read from, as named in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The cloudspec type its resources become (none: it only contributes to others).
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// Every top-level member the mapping gives its resources a value (or an unknown)
    /// for: the root object's properties, reverse links, `group` and `after_merge` members.
    pub fn members(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.properties.keys().map(String::as_str).collect();
        out.extend(self.reverse.iter().map(|r| r.member.as_str()));
        out.extend(self.groups.iter().map(|g| g.member.as_str()));
        out.extend(self.after_merge.iter().map(|(m, _)| m.as_str()));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The resources it derives: (block type, cloudspec type, members).
    pub fn derived(&self) -> Vec<(&str, &str, Vec<&str>)> {
        self.derived
            .iter()
            .map(|d| {
                (
                    d.block.as_str(),
                    d.target.as_str(),
                    d.properties.keys().map(String::as_str).collect(),
                )
            })
            .collect()
    }
}

/// Loads the mapping of `tf_type` from `text`, read from `file`.
pub(crate) fn load(tf_type: &str, file: &str, text: &str) -> Result<Mapping, Failure> {
    let (body, mut diags) = cloudspec_hcl::body::parse_native(file, text);
    let errors = |diags: Vec<Diagnostic>| Failure {
        diagnostics: diags
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect(),
    };
    let Some(body) = body else {
        return Err(errors(diags));
    };
    if cloudspec_hcl::diag::has_errors(&diags) {
        return Err(errors(diags));
    }
    let mut loader = Loader {
        diags: Vec::new(),
        probes: Vec::new(),
    };
    let mapping = loader.file(tf_type, file, &body);
    loader.probe(&mapping.locals);
    diags.extend(loader.diags);
    if cloudspec_hcl::diag::has_errors(&diags) {
        return Err(errors(diags));
    }
    Ok(mapping)
}

/// The variables an expression may use, by where it is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// A spec of the root object: `local`, `self`.
    Spec { derived: bool, nested: bool },
    /// A `contribute` or `after_merge` expression: also `resource`.
    Resource { derived: bool },
}

struct Loader {
    diags: Vec<Diagnostic>,
    /// Expressions to evaluate once with unknown variables, and their scope.
    probes: Vec<(Expr, Scope)>,
}

/// The spec block types, hcldec's then ours.
const SPEC_TYPES: &[&str] = &[
    "object",
    "array",
    "attr",
    "literal",
    "block",
    "block_list",
    "block_set",
    "block_map",
    "block_attrs",
    "default",
    "transform",
    "ref",
    "unknown",
    "parent",
];

fn header(name: &str, labels: &[&str]) -> BlockHeaderSchema {
    BlockHeaderSchema::new(name, labels.iter().copied())
}

fn error(summary: &str, detail: impl Into<String>, range: Range) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(range))
}

/// How the spec blocks nested in a spec block are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Nested {
    None,
    /// `object`'s properties: `attr "name" { ... }`.
    Labelled,
    Unlabelled,
}

impl Loader {
    fn file(&mut self, tf_type: &str, file: &str, body: &Body) -> Mapping {
        let schema = BodySchema {
            attributes: vec![
                AttributeSchema::new("type", false),
                AttributeSchema::new("extends", false),
            ],
            blocks: vec![
                header("locals", &[]),
                header("object", &[]),
                header("contribute", &[]),
                header("derive", &["block"]),
                header("group", &["member"]),
                header("after_merge", &["member"]),
                header("reverse", &["member"]),
                header("replaces", &["derived"]),
            ],
        };
        let (content, diags) = body.content(&schema);
        self.diags.extend(diags);
        let target = self.string(&content, "type");
        let mut mapping = Mapping {
            tf_type: tf_type.to_string(),
            file: file.to_string(),
            target,
            locals: Value::Object(BTreeMap::new()),
            properties: BTreeMap::new(),
            contributions: Vec::new(),
            derived: Vec::new(),
            groups: Vec::new(),
            after_merge: Vec::new(),
            reverse: Vec::new(),
            replaces: Vec::new(),
            extends: None,
        };
        if let Some(name) = self.string(&content, "extends") {
            let range = content
                .attributes
                .get("extends")
                .map_or_else(|| body.missing_item_range(), |a| a.expr.range());
            mapping.extends = Some((name, range));
        }
        let mut objects = Vec::new();
        for block in &content.blocks {
            match block.type_name.as_str() {
                "locals" => self.locals(block, &mut mapping.locals),
                "object" => objects.push(block),
                "contribute" => {
                    let c = self.contribute(block, false);
                    mapping.contributions.extend(c);
                }
                "derive" => {
                    let d = self.derive(block);
                    mapping.derived.extend(d);
                }
                "group" => {
                    let g = self.group(block);
                    mapping.groups.extend(g);
                }
                "after_merge" => {
                    let (c, _) = self.content(&block.body, &["value"], Nested::None);
                    let member = block.labels.first().cloned().unwrap_or_default();
                    if let Some(e) = self.required_expr(&c, "value", block) {
                        self.probes
                            .push((e.clone(), Scope::Resource { derived: false }));
                        mapping.after_merge.push((member, e));
                    }
                }
                "reverse" => {
                    let r = self.reverse(block);
                    mapping.reverse.extend(r);
                }
                "replaces" => {
                    let (c, _) = self.content(&block.body, &["target"], Nested::None);
                    if let Some(target) = self.required_expr(&c, "target", block) {
                        self.probes
                            .push((target.clone(), Scope::Resource { derived: false }));
                        mapping.replaces.push(Replace {
                            derived: block.labels.first().cloned().unwrap_or_default(),
                            target,
                        });
                    }
                }
                _ => {}
            }
        }
        // A mapping that extends another may leave its object out (it changes none of the
        // properties it inherits).
        if !(objects.is_empty() && mapping.extends.is_some()) {
            mapping.properties = self.root_object(&objects, body, false);
        }
        if mapping.target.is_none()
            && mapping.extends.is_none()
            && !content.attributes.contains_key("type")
        {
            let lone = mapping
                .groups
                .first()
                .map(|g| g.member.as_str())
                .or(mapping.after_merge.first().map(|(m, _)| m.as_str()))
                .or(mapping.reverse.first().map(|r| r.member.as_str()));
            if let Some(member) = lone {
                self.diags.push(error(
                    "Missing type",
                    format!("{member} is a member of the resources this file produces, but it has no type = \"...\": say which cloudspec type its resources are."),
                    body.missing_item_range(),
                ));
            } else if mapping.contributions.is_empty() && mapping.derived.is_empty() {
                self.diags.push(error(
                    "Mapping produces nothing",
                    "A mapping file needs type = \"...\" (the cloudspec type its resources become), or contribute or derive blocks.",
                    body.missing_item_range(),
                ));
            }
        }
        mapping
    }

    /// The single `object` block of a file or a `derive` block.
    fn root_object(
        &mut self,
        objects: &[&Block],
        body: &Body,
        derived: bool,
    ) -> BTreeMap<String, Node> {
        match objects {
            [] => {
                self.diags.push(error(
                    "Missing object block",
                    "The properties of the resource are one object block (hcldec's object spec): object { attr \"name\" { ... } ... }.",
                    body.missing_item_range(),
                ));
                BTreeMap::new()
            }
            [one, rest @ ..] => {
                if let Some(second) = rest.first() {
                    self.diags.push(error(
                        "Duplicate object block",
                        format!(
                            "Only one object block is allowed here; the first is at line {}.",
                            one.def_range.start.line
                        ),
                        second.def_range.clone(),
                    ));
                }
                match self.spec(
                    one,
                    "",
                    Scope::Spec {
                        derived,
                        nested: false,
                    },
                ) {
                    Node::Object(props) => props,
                    _ => BTreeMap::new(),
                }
            }
        }
    }

    fn locals(&mut self, block: &Block, locals: &mut Value) {
        let (attrs, diags) = block.body.just_attributes();
        self.diags.extend(diags);
        let mut attrs: Vec<_> = attrs.into_values().collect();
        attrs.sort_by_key(|a| a.name_range.start.byte);
        for attr in attrs {
            let ctx = EvalContext::empty()
                .with_functions(functions())
                .with_variables(BTreeMap::from([("local".to_string(), locals.clone())]));
            let (v, diags) = attr.expr.value(&ctx);
            self.diags.extend(diags);
            if let Value::Object(m) = locals {
                m.insert(attr.name.clone(), v);
            }
        }
    }

    fn contribute(&mut self, block: &Block, derived: bool) -> Option<Contribution> {
        let (c, _) = self.content(
            &block.body,
            &["to", "target", "match", "path", "set", "append", "inline"],
            Nested::None,
        );
        let scope = Scope::Resource { derived };
        let to = self.required_string(&c, "to", block);
        let target = self.required_expr(&c, "target", block);
        let path = self.required_expr(&c, "path", block);
        let match_member = self.string(&c, "match");
        let inline = self.strings(&c, "inline").unwrap_or_default();
        let op = match (self.expr(&c, "set"), self.expr(&c, "append")) {
            (Some(e), None) => Some(Op::Set(e)),
            (None, Some(e)) => Some(Op::Append(e)),
            (Some(_), Some(e)) => {
                self.diags.push(error(
                    "Conflicting contribution",
                    "A contribute block either sets a member (set = ...) or appends to a list (append = [...]), not both.",
                    e.range(),
                ));
                None
            }
            (None, None) => {
                self.diags.push(error(
                    "Missing contribution",
                    "A contribute block needs set = VALUE (the member's value) or append = [ELEMENTS] (elements added to a list).",
                    block.body.missing_item_range(),
                ));
                None
            }
        };
        for e in [&target, &path].into_iter().flatten() {
            self.probes.push((e.clone(), scope));
        }
        if let Some(Op::Set(e) | Op::Append(e)) = &op {
            self.probes.push((e.clone(), scope));
        }
        Some(Contribution {
            to: to?,
            target: target?,
            match_member,
            path: path?,
            op: op?,
            inline,
        })
    }

    fn derive(&mut self, block: &Block) -> Option<Derive> {
        let schema = BodySchema {
            attributes: ["type", "key", "always", "single"]
                .into_iter()
                .map(|n| AttributeSchema::new(n, false))
                .collect(),
            blocks: vec![header("object", &[]), header("contribute", &[])],
        };
        let (c, diags) = block.body.content(&schema);
        self.diags.extend(diags);
        let target = self.required_string(&c, "type", block);
        let key = self.string(&c, "key");
        let always = self.bool(&c, "always").unwrap_or(false);
        let single = self.bool(&c, "single").unwrap_or(false);
        let objects: Vec<&Block> = c
            .blocks
            .iter()
            .filter(|b| b.type_name == "object")
            .collect();
        let properties = self.root_object(&objects, &block.body, true);
        let contributions = c
            .blocks
            .iter()
            .filter(|b| b.type_name == "contribute")
            .filter_map(|b| self.contribute(b, true))
            .collect();
        Some(Derive {
            block: block.labels.first().cloned().unwrap_or_default(),
            target: target?,
            key,
            always,
            single,
            properties,
            contributions,
        })
    }

    fn group(&mut self, block: &Block) -> Option<Group> {
        let (c, _) = self.content(&block.body, &["by", "concat"], Nested::None);
        let by = self.strings(&c, "by");
        let concat = self.strings(&c, "concat");
        if by.is_none() || concat.is_none() {
            self.diags.push(error(
                "Missing group arguments",
                "A group block needs by = [MEMBERS] (the members whose equal values make one element) and concat = [MEMBERS] (the lists concatenated).",
                block.body.missing_item_range(),
            ));
        }
        Some(Group {
            member: block.labels.first().cloned().unwrap_or_default(),
            by: by?,
            concat: concat?,
        })
    }

    fn reverse(&mut self, block: &Block) -> Option<Reverse> {
        let (c, _) = self.content(&block.body, &["from", "via"], Nested::None);
        let from = self.required_string(&c, "from", block);
        let via = self.required_string(&c, "via", block);
        Some(Reverse {
            member: block.labels.first().cloned().unwrap_or_default(),
            from: from?,
            via: via?.split('.').map(str::to_string).collect(),
        })
    }

    /// The content of a block with arguments `args` and nested spec blocks.
    fn content(&mut self, body: &Body, args: &[&str], nested: Nested) -> (BodyContent, Vec<Block>) {
        let labels: &[&str] = if nested == Nested::Labelled {
            &["name"]
        } else {
            &[]
        };
        let schema = BodySchema {
            attributes: args
                .iter()
                .map(|n| AttributeSchema::new(*n, false))
                .collect(),
            blocks: if nested == Nested::None {
                Vec::new()
            } else {
                SPEC_TYPES.iter().map(|t| header(t, labels)).collect()
            },
        };
        let (content, diags) = body.content(&schema);
        self.diags.extend(diags);
        let blocks = content.blocks.clone();
        (content, blocks)
    }

    /// One spec block. `implied` is the name an `attr` or a block spec reads when it does
    /// not say: the property's label, inherited by unlabelled nested specs.
    fn spec(&mut self, block: &Block, implied: &str, scope: Scope) -> Node {
        let implied = block
            .labels
            .first()
            .map_or(implied, String::as_str)
            .to_string();
        let body = &block.body;
        let node = match block.type_name.as_str() {
            "object" => {
                let (_, blocks) = self.content(body, &[], Nested::Labelled);
                let mut props = BTreeMap::new();
                for b in &blocks {
                    let name = b.labels.first().cloned().unwrap_or_default();
                    let spec = self.spec(b, &name, scope);
                    if props.insert(name.clone(), spec).is_some() {
                        self.diags.push(error(
                            "Duplicate property",
                            format!("The property {name:?} is already defined in this object."),
                            b.def_range.clone(),
                        ));
                    }
                }
                Node::Object(props)
            }
            "array" => {
                let (_, blocks) = self.content(body, &[], Nested::Unlabelled);
                Node::Array(
                    blocks
                        .iter()
                        .map(|b| self.spec(b, &implied, scope))
                        .collect(),
                )
            }
            "attr" => {
                let (c, _) = self.content(
                    body,
                    &[
                        "name", "type", "required", "default", "computed", "not_null", "reason",
                    ],
                    Nested::None,
                );
                self.refuse(&c, "required");
                let name = self.string(&c, "name").unwrap_or_else(|| implied.clone());
                if name.is_empty() {
                    self.diags.push(error(
                        "Missing name in attribute spec",
                        "The name attribute is required, to specify the attribute name that is expected in a resource's body.",
                        body.missing_item_range(),
                    ));
                }
                let ty = self.type_arg(&c, "type");
                let node = Node::Attr {
                    name: name.clone(),
                    ty: ty.clone(),
                };
                let node = match self.expr(&c, "default") {
                    Some(default) => {
                        self.probes.push((default.clone(), scope));
                        Node::OrElse {
                            nested: Box::new(node),
                            default,
                            ty,
                        }
                    }
                    None => node,
                };
                self.computed(&c, node, &name)
            }
            "literal" => {
                let (c, _) = self.content(body, &["value"], Nested::None);
                match self.required_expr(&c, "value", block) {
                    Some(e) => {
                        self.probes.push((e.clone(), scope));
                        Node::Literal(e)
                    }
                    None => Node::Unknown {
                        reason: String::new(),
                        not_null: false,
                    },
                }
            }
            "block" => {
                let (c, blocks) = self.content(
                    body,
                    &[
                        "block_type",
                        "required",
                        "computed",
                        "not_null",
                        "reason",
                        "empty_if_absent",
                    ],
                    Nested::Unlabelled,
                );
                self.refuse(&c, "required");
                let type_name = self.block_type(&c, &implied, body);
                let nested = self.one(&blocks, &implied, scope, body);
                let node = Node::Block {
                    type_name: type_name.clone(),
                    nested: Box::new(nested),
                    empty_if_absent: self.bool(&c, "empty_if_absent").unwrap_or(false),
                };
                self.computed(&c, node, &type_name)
            }
            "block_list" | "block_set" => {
                let (c, blocks) = self.content(
                    body,
                    &[
                        "block_type",
                        "min_items",
                        "max_items",
                        "attributes_as_blocks",
                    ],
                    Nested::Unlabelled,
                );
                self.refuse(&c, "min_items");
                self.refuse(&c, "max_items");
                Node::BlockList {
                    type_name: self.block_type(&c, &implied, body),
                    nested: Box::new(self.one(&blocks, &implied, scope, body)),
                    set: block.type_name == "block_set",
                    attributes_as_blocks: self.bool(&c, "attributes_as_blocks").unwrap_or(false),
                }
            }
            "block_map" => {
                let (c, blocks) = self.content(body, &["block_type", "labels"], Nested::Unlabelled);
                let labels = self.strings(&c, "labels").unwrap_or_default();
                if labels.is_empty() {
                    self.diags.push(error(
                        "Invalid block label name list",
                        "A block_map must have at least one label specified.",
                        body.missing_item_range(),
                    ));
                }
                Node::BlockMap {
                    type_name: self.block_type(&c, &implied, body),
                    labels,
                    nested: Box::new(self.one(&blocks, &implied, scope, body)),
                }
            }
            "block_attrs" => {
                let (c, _) = self.content(
                    body,
                    &["block_type", "element_type", "required"],
                    Nested::None,
                );
                self.refuse(&c, "required");
                Node::BlockAttrs {
                    type_name: self.block_type(&c, &implied, body),
                    element_type: self.type_arg(&c, "element_type"),
                }
            }
            "default" => {
                let (_, blocks) = self.content(body, &[], Nested::Unlabelled);
                if blocks.is_empty() {
                    self.diags.push(error(
                        "Missing spec block",
                        "A default block must have at least one nested spec, each specifying a possible outcome.",
                        body.missing_item_range(),
                    ));
                }
                Node::Default(
                    blocks
                        .iter()
                        .map(|b| self.spec(b, &implied, scope))
                        .collect(),
                )
            }
            "transform" => {
                let (c, blocks) = self.content(body, &["result"], Nested::Unlabelled);
                let result = self.expr(&c, "result");
                let inner = match scope {
                    Scope::Spec { derived, .. } => Scope::Spec {
                        derived,
                        nested: true,
                    },
                    other => other,
                };
                if let Some(e) = &result {
                    self.probes.push((e.clone(), inner));
                }
                Node::Transform {
                    nested: Box::new(self.one(&blocks, &implied, scope, body)),
                    result,
                }
            }
            "ref" => {
                let (c, blocks) = self.content(
                    body,
                    &["attr", "type", "computed", "not_null", "reason"],
                    Nested::Unlabelled,
                );
                let target = self.required_string(&c, "type", block).unwrap_or_default();
                let attr = self.string(&c, "attr");
                let nested = match (attr, blocks.is_empty()) {
                    (Some(name), true) => Node::Attr {
                        name,
                        ty: Type::Dynamic,
                    },
                    (None, true) => Node::Attr {
                        name: implied.clone(),
                        ty: Type::Dynamic,
                    },
                    (None, false) => self.one(&blocks, &implied, scope, body),
                    (Some(_), false) => {
                        self.diags.push(error(
                            "Conflicting arguments",
                            "A ref reads either the attribute attr = \"...\" names or its nested spec, not both.",
                            body.missing_item_range(),
                        ));
                        Node::Literal(Expr::static_value(
                            Value::Null(Type::Dynamic),
                            Range::default(),
                        ))
                    }
                };
                let what = match &nested {
                    Node::Attr { name, .. } => name.clone(),
                    _ => implied.clone(),
                };
                let node = Node::Ref {
                    nested: Box::new(nested),
                    target,
                };
                self.computed(&c, node, &what)
            }
            "unknown" => {
                let (c, _) = self.content(body, &["reason", "not_null"], Nested::None);
                Node::Unknown {
                    reason: self
                        .string(&c, "reason")
                        .unwrap_or_else(|| "computed by AWS after apply".to_string()),
                    not_null: self.bool(&c, "not_null").unwrap_or(false),
                }
            }
            "parent" => {
                let (_, blocks) = self.content(body, &[], Nested::Unlabelled);
                if !matches!(scope, Scope::Spec { derived: true, .. }) {
                    self.diags.push(error(
                        "Parent outside derive",
                        "A parent spec reads the body of the resource a derive block derives from; it can only be used inside a derive block's object.",
                        block.def_range.clone(),
                    ));
                }
                Node::Parent(Box::new(self.one(&blocks, &implied, scope, body)))
            }
            _ => Node::Literal(Expr::static_value(
                Value::Null(Type::Dynamic),
                Range::default(),
            )),
        };
        node
    }

    /// `computed = true` (with `not_null` and `reason`) around `node`.
    fn computed(&mut self, c: &BodyContent, node: Node, name: &str) -> Node {
        let reason = self.string(c, "reason");
        let not_null = self.bool(c, "not_null").unwrap_or(false);
        if self.bool(c, "computed") == Some(true) {
            return Node::Computed {
                nested: Box::new(node),
                reason: reason.unwrap_or_else(|| format!("{name} is not set: AWS decides")),
                not_null,
            };
        }
        for arg in ["reason", "not_null"] {
            if let Some(a) = c.attributes.get(arg) {
                self.diags.push(error(
                    "Argument without computed",
                    format!("{arg} describes the unknown value of an unset argument: it needs computed = true."),
                    a.name_range.clone(),
                ));
            }
        }
        node
    }

    /// The single nested spec of a block spec.
    fn one(&mut self, blocks: &[Block], implied: &str, scope: Scope, body: &Body) -> Node {
        match blocks {
            [one] => self.spec(one, implied, scope),
            [] => {
                self.diags.push(error(
                    "Missing spec block",
                    "This block must have exactly one nested spec saying how to decode its contents.",
                    body.missing_item_range(),
                ));
                Node::Literal(Expr::static_value(
                    Value::Null(Type::Dynamic),
                    Range::default(),
                ))
            }
            [_, second, ..] => {
                self.diags.push(error(
                    "Extraneous spec block",
                    "This block must have exactly one nested spec saying how to decode its contents.",
                    second.def_range.clone(),
                ));
                Node::Literal(Expr::static_value(
                    Value::Null(Type::Dynamic),
                    Range::default(),
                ))
            }
        }
    }

    fn block_type(&mut self, c: &BodyContent, implied: &str, body: &Body) -> String {
        let name = self
            .string(c, "block_type")
            .unwrap_or_else(|| implied.to_string());
        if name.is_empty() {
            self.diags.push(error(
                "Missing block_type",
                "The block_type attribute is required, to specify the block type name that is expected in a resource's body.",
                body.missing_item_range(),
            ));
        }
        name
    }

    /// Validation arguments of hcldec that mappings refuse.
    fn refuse(&mut self, c: &BodyContent, arg: &str) {
        if let Some(a) = c.attributes.get(arg) {
            self.diags.push(error(
                "Validation in a mapping",
                format!("{arg} is hcldec validation; a mapping never rejects a configuration the provider accepts. Remove it."),
                a.name_range.clone(),
            ));
        }
    }

    fn expr(&mut self, c: &BodyContent, name: &str) -> Option<Expr> {
        c.attributes.get(name).map(|a| a.expr.clone())
    }

    fn required_expr(&mut self, c: &BodyContent, name: &str, block: &Block) -> Option<Expr> {
        let e = self.expr(c, name);
        if e.is_none() {
            self.missing(name, block);
        }
        e
    }

    fn missing(&mut self, name: &str, block: &Block) {
        self.diags.push(error(
            "Missing required argument",
            format!(
                "The argument {name:?} is required in a {} block.",
                block.type_name
            ),
            block.body.missing_item_range(),
        ));
    }

    /// A constant argument's value (no variables, no functions).
    fn constant(&mut self, c: &BodyContent, name: &str, want: &Type) -> Option<Value> {
        let attr = c.attributes.get(name)?;
        let (v, diags) = attr.expr.value(&EvalContext::empty());
        self.diags.extend(diags);
        match cloudspec_hcl::convert::convert(&v, want) {
            Ok(v) if v.is_wholly_known() && !v.is_null() => Some(v),
            Ok(_) => None,
            Err(e) => {
                self.diags.push(error(
                    "Unsuitable value type",
                    format!("Unsuitable value: {}", e.message),
                    attr.expr.range(),
                ));
                None
            }
        }
    }

    fn string(&mut self, c: &BodyContent, name: &str) -> Option<String> {
        match self.constant(c, name, &Type::String) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    fn required_string(&mut self, c: &BodyContent, name: &str, block: &Block) -> Option<String> {
        let s = self.string(c, name);
        if s.is_none() && !c.attributes.contains_key(name) {
            self.missing(name, block);
        }
        s
    }

    fn bool(&mut self, c: &BodyContent, name: &str) -> Option<bool> {
        self.constant(c, name, &Type::Bool)
            .and_then(|v| v.as_bool())
    }

    fn strings(&mut self, c: &BodyContent, name: &str) -> Option<Vec<String>> {
        match self.constant(c, name, &Type::list(Type::String)) {
            Some(Value::List(_, items)) => Some(
                items
                    .into_iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
            ),
            _ => None,
        }
    }

    fn type_arg(&mut self, c: &BodyContent, name: &str) -> Type {
        let Some(attr) = c.attributes.get(name) else {
            return Type::Dynamic;
        };
        match type_expr(&attr.expr, 0) {
            Ok(t) => t,
            Err(detail) => {
                self.diags.push(error(
                    "Invalid type specification",
                    detail,
                    attr.expr.range(),
                ));
                Type::Dynamic
            }
        }
    }

    /// Evaluates every kept expression with its per-resource variables unknown: unknown
    /// functions and variables, and calls with the wrong number of arguments, are errors.
    fn probe(&mut self, locals: &Value) {
        for (expr, scope) in std::mem::take(&mut self.probes) {
            let mut vars = BTreeMap::from([
                ("local".to_string(), locals.clone()),
                ("self".to_string(), Value::dynamic()),
            ]);
            let derived = match scope {
                Scope::Spec { derived, nested } => {
                    if nested {
                        vars.insert("nested".into(), Value::dynamic());
                    }
                    derived
                }
                Scope::Resource { derived } => {
                    vars.insert("resource".into(), Value::dynamic());
                    derived
                }
            };
            if derived {
                vars.insert("parent".into(), Value::dynamic());
            }
            let ctx = EvalContext::empty()
                .with_functions(functions())
                .with_variables(vars);
            let (_, diags) = expr.value(&ctx);
            self.diags.extend(diags);
        }
    }
}

/// A type expression (`string`, `list(string)`, `object({a = number})`...), read with the
/// static analyses of expressions.
fn type_expr(expr: &Expr, depth: usize) -> Result<Type, String> {
    const KEYWORDS: &str = "A type specification is either a primitive type keyword (bool, number, string), any, or a complex type constructor call, like list(string).";
    if depth > cloudspec_hcl::types::MAX_TYPE_DEPTH {
        return Err("The type specification is nested too deeply.".into());
    }
    if let Some(k) = expr.as_keyword() {
        return match k.as_str() {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "any" => Ok(Type::Dynamic),
            other => Err(format!(
                "The keyword {other:?} is not a valid type specification."
            )),
        };
    }
    let Some((name, args)) = expr.as_call() else {
        return Err(KEYWORDS.into());
    };
    let [arg] = args.as_slice() else {
        return Err(format!(
            "The {name} type constructor requires one argument."
        ));
    };
    match name.as_str() {
        "list" => Ok(Type::list(type_expr(arg, depth + 1)?)),
        "set" => Ok(Type::set(type_expr(arg, depth + 1)?)),
        "map" => Ok(Type::map(type_expr(arg, depth + 1)?)),
        "tuple" => {
            let items = arg
                .as_list()
                .ok_or("The tuple type constructor requires a list of element types.")?;
            Ok(Type::Tuple(
                items
                    .iter()
                    .map(|i| type_expr(i, depth + 1))
                    .collect::<Result<_, _>>()?,
            ))
        }
        "object" => {
            let pairs = arg
                .as_map()
                .ok_or("The object type constructor requires an object of attribute types.")?;
            let mut attrs = BTreeMap::new();
            for (k, v) in pairs {
                let key = k.as_keyword().or_else(|| {
                    let (v, _) = k.value(&EvalContext::empty());
                    v.as_str().map(str::to_string)
                });
                let key = key.ok_or("Object type attribute names must be names or strings.")?;
                attrs.insert(key, type_expr(&v, depth + 1)?);
            }
            Ok(Type::Object(attrs))
        }
        other => Err(format!(
            "Keyword {other:?} is not a valid type constructor."
        )),
    }
}

/// `own` on top of the mapping it extends (`base`, already resolved): the base's locals,
/// properties and blocks, then `own`'s (a local or property of the same name replaces the
/// base's; `contribute`, `derive`, `group`, `after_merge`, `reverse` and `replaces` blocks
/// add to the base's); the base's type unless `own` names one.
pub(crate) fn extend(base: &Mapping, own: &Mapping) -> Mapping {
    let mut out = base.clone();
    out.tf_type = own.tf_type.clone();
    out.file = own.file.clone();
    out.extends = own.extends.clone();
    if own.target.is_some() {
        out.target = own.target.clone();
    }
    if let (Value::Object(locals), Value::Object(own_locals)) = (&mut out.locals, &own.locals) {
        locals.extend(own_locals.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    out.properties
        .extend(own.properties.iter().map(|(k, v)| (k.clone(), v.clone())));
    out.contributions.extend(own.contributions.iter().cloned());
    out.derived.extend(own.derived.iter().cloned());
    out.groups.extend(own.groups.iter().cloned());
    out.after_merge.extend(own.after_merge.iter().cloned());
    out.reverse.extend(own.reverse.iter().cloned());
    out.replaces.extend(own.replaces.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        match load("aws_x", "aws_x.hcl", text) {
            Ok(_) => Vec::new(),
            Err(f) => f.diagnostics.iter().map(|d| d.to_string()).collect(),
        }
    }

    #[test]
    fn a_bad_mapping_file_gives_positioned_errors() {
        assert_eq!(
            errors("type = \"aws:x:y\"\nobject {\n  attr \"a\" {\n    required = true\n  }\n  bogus \"b\" {}\n}\n"),
            vec![
                "aws_x.hcl:6:3: error: Unsupported block type; Blocks of type \"bogus\" are not expected here.",
                "aws_x.hcl:4:5: error: Validation in a mapping; required is hcldec validation; a mapping never rejects a configuration the provider accepts. Remove it.",
            ]
        );
    }

    #[test]
    fn expressions_are_checked_when_loading() {
        let errs = errors(
            "type = \"aws:x:y\"\nobject {\n  literal \"a\" {\n    value = nope(self.address)\n  }\n  transform \"b\" {\n    attr {}\n    result = nested + sefl.x\n  }\n}\n",
        );
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs[0].starts_with("aws_x.hcl:4:13: error: Call to unknown function"),
            "{errs:?}"
        );
        assert!(
            errs[1].starts_with("aws_x.hcl:8:23: error: Unknown variable"),
            "{errs:?}"
        );
    }

    #[test]
    fn a_file_must_produce_something() {
        assert_eq!(
            errors("object {\n}\n"),
            vec!["aws_x.hcl:1:1: error: Mapping produces nothing; A mapping file needs type = \"...\" (the cloudspec type its resources become), or contribute or derive blocks."]
        );
    }

    #[test]
    fn type_expressions() {
        let m = load(
            "aws_x",
            "aws_x.hcl",
            "type = \"aws:x:y\"\nobject {\n  attr \"a\" {\n    type = list(object({b = number, c = set(string)}))\n  }\n}\n",
        );
        let Ok(m) = m else { panic!("{m:?}") };
        let Some(Node::Attr { ty, .. }) = m.properties.get("a") else {
            panic!("attr")
        };
        assert_eq!(ty.to_string(), "list(object({b=number,c=set(string)}))");
    }
}
