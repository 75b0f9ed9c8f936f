//! One call of the function (contract section 3): blocks in source order, scopes with
//! their locals and `self`/`each`, incomplete values and what each block does with them,
//! merging, duplicate names. Mirrors upstream's `internal/evaluator` (eval.go,
//! resources.go, composite.go, context.go, requirements.go) with the contract's
//! deviations (section 7). The first error ends the call.

use std::collections::BTreeMap;

use base64::Engine as _;
use cloudspec_hcl::body::{parse_native, Attribute, Block, BodyContent, Expr};
use cloudspec_hcl::budget::Budget;
use cloudspec_hcl::diag::{has_errors, range_string};
use cloudspec_hcl::eval::{traverse_abs, EvalContext};
use cloudspec_hcl::{Diagnostic, Severity, Type, Value};

use crate::analyze::{content, Program};
use crate::locals::{self, error};
use crate::request::{to_json, Request, ANNOTATION_BASE_NAME, ANNOTATION_INDEX};
use crate::response::{json_kind, Discard, Resource, Selector, State};
use crate::{Dropped, Failure};

type Json = serde_json::Value;
type Step = Result<(), Vec<Diagnostic>>;

/// Errors become warnings (upstream's `DowngradeDiags`): an incomplete value is not an
/// error where the block holding it is dropped instead.
pub(crate) fn downgrade(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|mut d| {
            d.severity = Severity::Warning;
            d
        })
        .collect()
}

/// hcl's `Diagnostic.Error()`: `FILE:RANGE: SUMMARY; DETAIL` (without the range when
/// there is none), how upstream quotes a diagnostic inside its messages.
pub(crate) fn go_error(d: &Diagnostic) -> String {
    match &d.subject {
        Some(r) => format!("{}: {}; {}", range_string(r), d.summary, d.detail),
        None => format!("{}; {}", d.summary, d.detail),
    }
}

/// Runs the program once over `req`.
pub(crate) fn run(program: &Program, req: &Request) -> Result<State, Failure> {
    let mut vars = BTreeMap::new();
    vars.insert("req".to_string(), req.value());
    let ctx = EvalContext::empty()
        .with_variables(vars)
        .with_functions(program.table.clone());
    let mut e = Evaluator {
        p: program,
        req,
        state: State::new(req.context.clone()),
    };
    let top = BodyContent {
        blocks: program.blocks.clone(),
        ..BodyContent::default()
    };
    // One budget per call: no composition, however it combines expressions that are each
    // within their limits, runs away with time or memory.
    let budget = Budget::new();
    let outcome = budget
        .enter(|| e.group(&ctx, &BTreeMap::new(), &top))
        .and_then(|()| match budget.exceeded() {
            // Where the budget ran out, if a dropped block's warning kept it.
            Some(exceeded) => Err(vec![Diagnostic::error(
                "Evaluation too expensive",
                exceeded.detail(),
                e.state
                    .warnings
                    .iter()
                    .find(|d| d.summary == "Evaluation too expensive" && d.subject.is_some())
                    .and_then(|d| d.subject.clone()),
            )]),
            None => Ok(()),
        })
        .and_then(|()| e.state.unify());
    match outcome {
        Ok(()) => Ok(e.state),
        Err(diags) => {
            let errors: Vec<Diagnostic> = diags
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            Err(Failure {
                diagnostics: errors,
            })
        }
    }
}

/// One resource to produce: its name, the content of its block (a `resource` block's,
/// or a collection's `template`), the annotations of a collection member, the block a
/// duplicate name is reported at and the block it is written in.
struct One<'a> {
    name: &'a str,
    content: &'a BodyContent,
    annotations: Option<&'a [(String, String); 2]>,
    block: &'a Block,
    source: &'a Block,
}

/// The `self` variable's members in the current scope.
type SelfVars = BTreeMap<String, Value>;

struct Evaluator<'a> {
    p: &'a Program,
    req: &'a Request,
    state: State,
}

fn child_with_self(ctx: &EvalContext, self_vars: &SelfVars) -> EvalContext {
    let mut vars = BTreeMap::new();
    vars.insert("self".to_string(), Value::Object(self_vars.clone()));
    ctx.child(vars)
}

fn incomplete(v: &Value, diags: &[Diagnostic]) -> bool {
    has_errors(diags) || !v.is_wholly_known()
}

impl Evaluator<'_> {
    /// Upstream's `messagesFromDiags`: per diagnostic, the source of the expression that
    /// raised it, then `FILE:RANGE: SUMMARY; DETAIL`.
    fn messages(&self, diags: &[Diagnostic]) -> Vec<String> {
        diags
            .iter()
            .map(|d| {
                let mut parts = Vec::new();
                if let Some(r) = &d.expression {
                    parts.push(self.p.source(r));
                }
                parts.push(go_error(d));
                parts.join(", ")
            })
            .collect()
    }

    fn discard(
        &mut self,
        kind: &'static str,
        reason: &'static str,
        name: &str,
        range: String,
        context: Vec<String>,
    ) {
        self.state.discards.push(Discard {
            kind,
            reason,
            name: name.to_string(),
            range,
            context,
        });
    }

    fn warn(&mut self, diags: Vec<Diagnostic>) {
        self.state.warnings.extend(diags);
    }

    /// A scope's locals, evaluated in a child of `ctx`.
    fn locals(&mut self, ctx: &EvalContext, blocks: &[Block]) -> EvalContext {
        let declared = locals::declared(blocks).unwrap_or_default();
        let (ctx, diags) = locals::evaluate(ctx, &declared);
        self.warn(diags);
        ctx
    }

    /// Upstream's `evaluateCondition`: `Ok(false)` skips the block (an incomplete
    /// condition also counts as an incomplete item); a non-bool is an error.
    fn condition(
        &mut self,
        ctx: &EvalContext,
        c: &BodyContent,
        kind: &'static str,
        name: &str,
        what: &str,
    ) -> Result<bool, Vec<Diagnostic>> {
        let Some(attr) = c.attributes.get("condition") else {
            return Ok(true);
        };
        let (v, ds) = attr.expr.value(ctx);
        if incomplete(&v, &ds) {
            let context = self.messages(&ds);
            self.discard(kind, "incomplete", name, range_string(&attr.range), context);
            self.warn(downgrade(ds));
            return Ok(false);
        }
        self.warn(ds);
        match v {
            Value::Bool(b) => Ok(b),
            other => {
                let got = match other {
                    Value::Null(_) => "null".to_string(),
                    v => format!("type {}", v.ty().friendly_name()),
                };
                Err(vec![error(
                    format!("unable to evaluate condition{what}"),
                    &format!("got {got}, expected bool"),
                    &attr.expr.range(),
                )])
            }
        }
    }

    /// The blocks of the top level or of one group.
    fn group(&mut self, ctx: &EvalContext, self_vars: &SelfVars, c: &BodyContent) -> Step {
        let ctx = self.locals(ctx, &c.blocks);
        if !self.condition(&ctx, c, "group", "", "")? {
            return Ok(());
        }
        for b in &c.blocks {
            match b.type_name.as_str() {
                "group" => self.group(&ctx, self_vars, &content(b))?,
                "resource" => {
                    let bc = content(b);
                    let one = One {
                        name: &b.labels[0],
                        content: &bc,
                        annotations: None,
                        block: b,
                        source: b,
                    };
                    self.resource(&ctx, self_vars, one)?
                }
                "resources" => self.resources(&ctx, self_vars, b)?,
                "context" => self.context(&ctx, b)?,
                "composite" => self.composite(&ctx, b)?,
                "requirement" => self.requirement(&ctx, b)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn resources(&mut self, ctx: &EvalContext, self_vars: &SelfVars, b: &Block) -> Step {
        let base = &b.labels[0];
        let c = content(b);
        let Some(template) = c.blocks.iter().find(|t| t.type_name == "template") else {
            return Err(vec![error(
                format!("no template block for resource collection {base}"),
                "",
                &b.def_range,
            )]);
        };
        let tc = content(template);
        let mut self_vars = self_vars.clone();
        self_vars.insert("basename".into(), Value::string(base.clone()));
        self_vars.insert("resources".into(), self.req.members(base));
        self_vars.insert("connections".into(), self.req.member_connections(base));
        let ctx = child_with_self(ctx, &self_vars);
        let ctx = self.locals(&ctx, &c.blocks);
        let what = format!(" for resource collection {base}");
        if !self.condition(&ctx, &c, "resources", base, &what)? {
            return Ok(());
        }
        let Some(for_each) = c.attributes.get("for_each") else {
            return Ok(());
        };
        let (v, ds) = for_each.expr.value(&ctx);
        if incomplete(&v, &ds) {
            let mut diags = ds;
            diags.push(error(
                format!("unable to evaluate for_each for resource collection {base}"),
                "",
                &for_each.expr.range(),
            ));
            return Err(diags);
        }
        self.warn(ds);
        let iterations = match v.elements() {
            Some(items) => items,
            None => {
                return Err(vec![error(
                    format!("unable to extract iterations for resource collection {base}"),
                    "",
                    &for_each.expr.range(),
                )])
            }
        };
        let default_name;
        let name_expr = match c.attributes.get("name") {
            Some(a) => &a.expr,
            None => {
                default_name = default_name_expr();
                &default_name
            }
        };
        for (i, (key, value)) in iterations.into_iter().enumerate() {
            let mut each = BTreeMap::new();
            each.insert(
                "each".to_string(),
                Value::object_from([("key", key), ("value", value)]),
            );
            let iter_ctx = ctx.child(each);
            let (n, ds) = name_expr.value(&iter_ctx);
            if has_errors(&ds) {
                let mut diags = ds;
                diags.push(error(
                    format!("unable to evaluate name expression for resource collection {base}"),
                    "",
                    &name_expr.range(),
                ));
                return Err(diags);
            }
            let Value::String(name) = n else {
                return Err(vec![error(
                    format!(
                        "name produced from evaluating the name expression for collection {base} was not a string"
                    ),
                    "",
                    &name_expr.range(),
                )]);
            };
            let annotations = [
                (ANNOTATION_BASE_NAME.to_string(), base.clone()),
                (ANNOTATION_INDEX.to_string(), format!("s{i:06}")),
            ];
            let one = One {
                name: &name,
                content: &tc,
                annotations: Some(&annotations),
                block: b,
                source: template,
            };
            self.resource(&iter_ctx, &self_vars, one)?;
        }
        for nested in &c.blocks {
            match nested.type_name.as_str() {
                "composite" => self.composite(&ctx, nested)?,
                "context" => self.context(&ctx, nested)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Upstream's `addResource`: one resource (a `resource` block, or one member of a
    /// collection with the template's content). `block` is where a duplicate name is
    /// reported (the `resources` block for a member), `source` where the resource is
    /// written (its `template` block).
    fn resource(&mut self, ctx: &EvalContext, self_vars: &SelfVars, one: One<'_>) -> Step {
        let One {
            name,
            content: c,
            annotations,
            block,
            source,
        } = one;
        let mut self_vars = self_vars.clone();
        self_vars.insert("name".into(), Value::string(name));
        self_vars.insert(
            "resource".into(),
            self.req
                .observed
                .get(name)
                .cloned()
                .unwrap_or(Value::Null(Type::Dynamic)),
        );
        self_vars.insert("connection".into(), Value::Null(Type::Dynamic));
        let ctx = child_with_self(ctx, &self_vars);
        let ctx = self.locals(&ctx, &c.blocks);
        let what = format!(" for resource {name}");
        if !self.condition(&ctx, c, "resource", name, &what)? {
            return Ok(());
        }
        let Some(body) = c.attributes.get("body") else {
            return Ok(());
        };
        let (v, ds) = body.expr.value(&ctx);
        if incomplete(&v, &ds) {
            let mut context = self.messages(&ds);
            let unknown = self.unknown_values(&ctx, &body.expr).join(", ");
            if self.req.is_observed(name) {
                let mut diags: Vec<Diagnostic> = ds;
                diags.push(error(
                    format!(
                        "existing resource {name} could not be evaluated, abort (unknown values: {unknown})"
                    ),
                    "",
                    &body.expr.range(),
                ));
                return Err(diags);
            }
            if !unknown.is_empty() {
                context.push(format!("unknown values: {unknown}"));
            }
            let range = range_string(&body.expr.range());
            let (api_version, kind) = self.type_of(&ctx, &body.expr);
            let base = Discard {
                kind: "resource",
                reason: "incomplete",
                name: name.to_string(),
                range,
                context,
            };
            self.state.dropped.push(Dropped {
                name: name.to_string(),
                api_version,
                kind,
                message: base.message(),
                file: source.def_range.filename.clone(),
                line: source.def_range.start.line,
            });
            self.state.discards.push(base);
            self.warn(downgrade(ds));
            return Ok(());
        }
        self.warn(ds);
        let mut json = to_json(&v).unwrap_or(Json::Null);
        let converted = match (&mut json, annotations) {
            (Json::Object(_), None) => true,
            (Json::Object(obj), Some(extra)) => annotate(obj, extra),
            _ => false,
        };
        if !converted {
            return Err(vec![error(
                format!("unable to convert resource body to struct: {name}"),
                "",
                &body.expr.range(),
            )]);
        }
        // Only produced resources clash: two blocks of one name with complementary
        // conditions are the usual either/or.
        if self.state.desired.contains_key(name) {
            return Err(vec![error(
                format!("duplicate resource {name:?}"),
                "",
                &block.def_range,
            )]);
        }
        self.state.desired.insert(
            name.to_string(),
            Resource {
                body: json,
                ready: None,
                file: source.def_range.filename.clone(),
                line: source.def_range.start.line,
            },
        );
        for nested in &c.blocks {
            match nested.type_name.as_str() {
                "composite" => self.composite(&ctx, nested)?,
                "ready" => self.ready(&ctx, name, nested)?,
                "context" => self.context(&ctx, nested)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The `apiVersion` and `kind` of a dropped resource's body, when its body is an
    /// object constructor whose two members evaluate to strings.
    fn type_of(&self, ctx: &EvalContext, body: &Expr) -> (Option<String>, Option<String>) {
        let mut api_version = None;
        let mut kind = None;
        for (k, v) in body.as_map().unwrap_or_default() {
            let (key, _) = k.value(&EvalContext::empty());
            let slot = match key.as_str() {
                Some("apiVersion") => &mut api_version,
                Some("kind") => &mut kind,
                _ => continue,
            };
            if let (Value::String(s), ds) = v.value(ctx) {
                if !has_errors(&ds) {
                    *slot = Some(s);
                }
            }
        }
        (api_version, kind)
    }

    /// The variables of `expr` whose values are (partly) unknown, as source text and path
    /// (`self.resource.status.atProvider.arn`, `req.composite.spec[0].x`).
    fn unknown_values(&self, ctx: &EvalContext, expr: &Expr) -> Vec<String> {
        let mut out = Vec::new();
        for (steps, range) in expr.variables() {
            let (v, _) = traverse_abs(&steps, ctx, Some(range.clone()));
            let source = self.p.source(&range);
            let mut paths = Vec::new();
            unknown_paths(&v, &mut String::new(), &mut paths);
            if paths.is_empty() && !v.is_wholly_known() {
                out.push(source);
            } else {
                out.extend(paths.into_iter().map(|p| format!("{source}{p}")));
            }
        }
        out
    }

    /// Evaluates a value-producing block body attribute (`body` of `composite`, `value` of
    /// `context`): `None` when it was incomplete and the block is dropped.
    fn complete(
        &mut self,
        ctx: &EvalContext,
        expr: &Expr,
        kind: &'static str,
        name: &str,
    ) -> Option<Value> {
        let (v, ds) = expr.value(ctx);
        if incomplete(&v, &ds) {
            let context = self.messages(&ds);
            self.discard(
                kind,
                "incomplete",
                name,
                range_string(&expr.range()),
                context,
            );
            self.warn(downgrade(ds));
            return None;
        }
        self.warn(ds);
        Some(v)
    }

    fn composite(&mut self, ctx: &EvalContext, b: &Block) -> Step {
        let c = content(b);
        let ctx = self.locals(ctx, &c.blocks);
        let Some(body) = c.attributes.get("body") else {
            return Ok(());
        };
        match b.labels[0].as_str() {
            "status" => {
                let Some(v) = self.complete(&ctx, &body.expr, "composite-status", "") else {
                    return Ok(());
                };
                match to_json(&v) {
                    Some(Json::Object(m)) => self.state.statuses.push(m),
                    Some(other) => {
                        return Err(vec![error(
                            format!(
                                "composite status body must be an object, got {}",
                                json_kind(&other)
                            ),
                            "",
                            &body.expr.range(),
                        )])
                    }
                    None => {}
                }
            }
            _ => {
                let Some(v) = self.complete(&ctx, &body.expr, "composite-connection", "") else {
                    return Ok(());
                };
                let Some(Json::Object(m)) = to_json(&v) else {
                    return Err(vec![error(
                        "composite connection body must be an object",
                        "",
                        &body.expr.range(),
                    )]);
                };
                let mut errors = Vec::new();
                let mut values = BTreeMap::new();
                let mut dropped = false;
                for (k, v) in &m {
                    let Json::String(s) = v else {
                        errors.push(Diagnostic::error(
                            format!(
                                "connection key {k:?} was not a string, got {}",
                                json_kind(v)
                            ),
                            "",
                            Some(body.expr.range()),
                        ));
                        continue;
                    };
                    match base64::engine::general_purpose::STANDARD.decode(s) {
                        Ok(bytes) => {
                            values.insert(k.clone(), bytes);
                        }
                        Err(_) => {
                            // The value is never printed: it may be a secret in plain text.
                            let msg = format!("connection secret key {k:?} not in base64 format");
                            self.discard(
                                "composite-connection",
                                "bad-secret",
                                k,
                                range_string(&body.expr.range()),
                                vec![msg.clone()],
                            );
                            self.warn(vec![Diagnostic {
                                severity: Severity::Warning,
                                summary: msg,
                                detail: String::new(),
                                subject: None,
                                expression: None,
                            }]);
                            dropped = true;
                        }
                    }
                }
                if !errors.is_empty() {
                    return Err(errors);
                }
                if !dropped {
                    self.state.connections.push(values);
                }
            }
        }
        Ok(())
    }

    fn ready(&mut self, ctx: &EvalContext, name: &str, b: &Block) -> Step {
        let c = content(b);
        let ctx = self.locals(ctx, &c.blocks);
        let Some(attr) = c.attributes.get("value") else {
            return Ok(());
        };
        let Some(v) = self.complete(&ctx, &attr.expr, "resource-ready", name) else {
            return Ok(());
        };
        let Value::String(s) = v else {
            return Err(vec![error(
                format!("attribute \"value\" not a string in ready block for {name}"),
                "",
                &attr.expr.range(),
            )]);
        };
        if !matches!(
            s.as_str(),
            "READY_UNSPECIFIED" | "READY_TRUE" | "READY_FALSE"
        ) {
            return Err(vec![error(
                format!(
                    "attribute \"value\" does not have a valid value in ready block for {name}, must be one of \"READY_FALSE, READY_TRUE, READY_UNSPECIFIED\""
                ),
                "",
                &attr.expr.range(),
            )]);
        }
        if let Some(r) = self.state.desired.get_mut(name) {
            r.ready = Some(s);
        }
        Ok(())
    }

    fn context(&mut self, ctx: &EvalContext, b: &Block) -> Step {
        let c = content(b);
        let ctx = self.locals(ctx, &c.blocks);
        let (Some(key), Some(value)) = (c.attributes.get("key"), c.attributes.get("value")) else {
            return Ok(());
        };
        let (k, ds) = key.expr.value(&ctx);
        if has_errors(&ds) {
            let detail = self.messages(&ds).join(", ");
            let mut diags = ds;
            diags.push(error(
                "unable to evaluate context key",
                &detail,
                &key.expr.range(),
            ));
            return Err(diags);
        }
        if !k.is_wholly_known() {
            return Err(vec![error("context key is unknown", "", &key.expr.range())]);
        }
        let Value::String(k) = k else {
            return Err(vec![error(
                format!(
                    "context key was not a string, got {}",
                    k.ty().friendly_name()
                ),
                "",
                &key.expr.range(),
            )]);
        };
        let Some(v) = self.complete(&ctx, &value.expr, "context", "") else {
            return Ok(());
        };
        if let Some(json) = to_json(&v) {
            self.state.contexts.push((k, json));
        }
        Ok(())
    }

    fn requirement(&mut self, ctx: &EvalContext, b: &Block) -> Step {
        let name = &b.labels[0];
        if self.state.requirements.contains_key(name) {
            return Err(vec![error(
                "multiple requirements with name",
                name,
                &b.def_range,
            )]);
        }
        let checks = crate::analyze::requirement_checks(b);
        if !checks.is_empty() {
            return Err(checks);
        }
        let c = content(b);
        let ctx = self.locals(ctx, &c.blocks);
        let what = format!(" for requirement {name}");
        if !self.condition(&ctx, &c, "requirement", name, &what)? {
            return Ok(());
        }
        let Some(select) = c.blocks.iter().find(|s| s.type_name == "select") else {
            return Ok(());
        };
        let sc = content(select);
        match self.selector(&ctx, name, &sc)? {
            Ok(selector) => {
                self.state.requirements.insert(name.clone(), selector);
            }
            Err(ds) => {
                let context = self.messages(&ds);
                self.discard(
                    "requirement",
                    "incomplete",
                    name,
                    range_string(&select.def_range),
                    context,
                );
                self.warn(downgrade(ds));
            }
        }
        Ok(())
    }

    /// The selector of a `select` block; `Ok(Err(diagnostics))` when a value is not yet
    /// known (the requirement is omitted).
    fn selector(
        &mut self,
        ctx: &EvalContext,
        name: &str,
        sc: &BodyContent,
    ) -> Result<Result<Selector, Vec<Diagnostic>>, Vec<Diagnostic>> {
        let mut strings = BTreeMap::new();
        for (attr, what) in [
            ("apiVersion", "api version"),
            ("kind", "kind"),
            ("matchName", "matchName"),
        ] {
            let Some(a) = sc.attributes.get(attr) else {
                continue;
            };
            let (v, ds) = a.expr.value(ctx);
            if incomplete(&v, &ds) {
                return Ok(Err(ds));
            }
            let Value::String(s) = v else {
                return Err(vec![error(
                    format!("{what} in requirement selector was not a string"),
                    name,
                    &a.expr.range(),
                )]);
            };
            strings.insert(attr, s);
        }
        let mut labels = BTreeMap::new();
        if let Some(a) = sc.attributes.get("matchLabels") {
            let (v, ds) = a.expr.value(ctx);
            if incomplete(&v, &ds) {
                return Ok(Err(ds));
            }
            let (Value::Object(m) | Value::Map(_, m)) = v else {
                return Err(vec![error(
                    "matchLabels in requirement selector was not an object",
                    name,
                    &a.expr.range(),
                )]);
            };
            for (k, v) in m {
                let Value::String(s) = v else {
                    return Err(vec![error(
                        format!("match label {k:?} in requirement selector was not a string"),
                        name,
                        &a.expr.range(),
                    )]);
                };
                labels.insert(k, s);
            }
        }
        Ok(Ok(Selector {
            api_version: strings.remove("apiVersion").unwrap_or_default(),
            kind: strings.remove("kind").unwrap_or_default(),
            name: strings.remove("matchName"),
            labels,
        }))
    }
}

/// Adds the collection annotations to a member's `metadata.annotations`; `false` when
/// `metadata` or its annotations are not objects.
fn annotate(obj: &mut serde_json::Map<String, Json>, extra: &[(String, String); 2]) -> bool {
    let meta = obj
        .entry("metadata")
        .or_insert_with(|| Json::Object(Default::default()));
    let Json::Object(meta) = meta else {
        return false;
    };
    let annotations = meta
        .entry("annotations")
        .or_insert_with(|| Json::Object(Default::default()));
    let Json::Object(annotations) = annotations else {
        return false;
    };
    for (k, v) in extra {
        annotations.insert(k.clone(), Json::String(v.clone()));
    }
    true
}

/// `"${self.basename}-${each.key}"`, the default name of a collection member.
fn default_name_expr() -> Expr {
    let (body, _) = parse_native(
        "default-name.hcl",
        "name = \"${self.basename}-${each.key}\"\n",
    );
    body.and_then(|b| b.just_attributes().0.remove("name"))
        .map(|a: Attribute| a.expr)
        .unwrap_or_else(|| Expr::static_value(Value::Unknown(Type::String), Default::default()))
}

/// cty's `Walk` to every unknown value, with upstream's `path2String`.
fn unknown_paths(v: &Value, path: &mut String, out: &mut Vec<String>) {
    if v.is_unknown() {
        out.push(path.clone());
        return;
    }
    let len = path.len();
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push('.');
                path.push_str(k);
                unknown_paths(x, path, out);
                path.truncate(len);
            }
        }
        Value::Map(_, m) => {
            for (k, x) in m {
                path.push_str(&format!("[{k}]"));
                unknown_paths(x, path, out);
                path.truncate(len);
            }
        }
        Value::List(_, xs) | Value::Tuple(xs) => {
            for (i, x) in xs.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                unknown_paths(x, path, out);
                path.truncate(len);
            }
        }
        Value::Set(_, xs) => {
            for x in xs {
                let key = match x {
                    Value::String(s) => format!("[{s}]"),
                    Value::Number(n) => format!("[{n}]"),
                    _ => "<?>".to_string(),
                };
                path.push_str(&key);
                unknown_paths(x, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}
