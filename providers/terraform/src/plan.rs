//! `terraform show -json` output as the `--terraform` PATH (`design/terraform.md` section
//! 9). Recognised: a JSON object whose `format_version` has major version 1 and that has
//! `planned_values`. Read into the same [`Instance`]s the `.tf` path gives, so the mappings
//! and the raw types treat both alike:
//!
//! - Every `mode: "managed"` resource of `planned_values.root_module` and its
//!   `child_modules` (recursively) is an instance, except those whose `resource_changes`
//!   actions are only `delete`. Its body is its `values` object as an HCL-JSON body read in
//!   *literal* mode (the nil context: a `${` in a policy is text).
//! - Only what the configuration sets is in the body: an argument or block the resource's
//!   `configuration` `expressions` do not name is left out, so the mappings' unset policies
//!   (computed → unknown, provider defaults, no extra volumes, no security-group egress, no
//!   deprecated inline S3 settings) give what they give for the `.tf` file. Blocks written
//!   with `dynamic` are not in `expressions` (Terraform does not show them): a block the
//!   configuration does not name but whose planned value is a known, non-empty list of
//!   objects is kept whole.
//! - What `after_unknown` marks is unknown. An unknown argument whose configuration
//!   expression refers only to computed attributes of other planned resources
//!   (`aws_subnet.public.id`, through `var.` inside a module call and module outputs of a
//!   call without `count`/`for_each`) is that resource's [`identity`], so associations
//!   find their target; any other unknown is unknown (`aws_subnet.x[count.index].id`
//!   does not say which instance). A known string equal to another planned resource's
//!   known `values.id` is that resource's identity (a known id wins).
//! - `values` already holds sensitive values: they are used as values (`sensitive_values`
//!   only says which; reports never print a property unless a rule names it).
//! - Region: the resource's provider configuration's `region` when it is a constant, or a
//!   root variable alone (`region = var.region`, its value from the plan's `variables`).
//!   Default tags: the planned `tags_all` when known (what the provider merged), else the
//!   provider's constant `default_tags`.
//! - Every resource's source is the plan file itself, without a line.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::Value;
use cloudspec_model::input::{self, display_path};
use serde_json::{Map, Value as Json};

use crate::{identity, Evaluated, Failure, Instance};

/// The most a plan file may hold: plans of large configurations run to hundreds of MB.
pub const MAX_PLAN_BYTES: u64 = 4 << 30;

/// The major version of `format_version` this reader knows.
const FORMAT_MAJOR: &str = "1";

/// How deep module outputs and variables are followed to find what a reference names.
const MAX_REF_DEPTH: usize = 32;

/// The reason of a value `after_unknown` marks.
const UNKNOWN_IN_PLAN: &str = "known after apply (unknown in the plan)";

/// Whether a JSON document is `terraform show -json` output of a format this reader knows:
/// `format_version` `1.x` and `planned_values`.
pub fn is_plan(doc: &Json) -> bool {
    format_major(doc) == Some(FORMAT_MAJOR)
        && doc.get("planned_values").is_some_and(Json::is_object)
}

/// The major version of a document's `format_version` string.
fn format_major(doc: &Json) -> Option<&str> {
    doc.get("format_version")
        .and_then(Json::as_str)
        .map(|v| v.split('.').next().unwrap_or_default())
}

/// Reads the plan in the file at `path` ([`from_document`]); any other file is a failure
/// saying what `--terraform` takes. Messages do not name the file (the provider's do).
pub fn read(path: &Path) -> Result<Evaluated, Failure> {
    let shown = display_path(path);
    let text =
        input::read_text(path, MAX_PLAN_BYTES, "terraform show -json output").map_err(|e| {
            let text = e.to_string();
            let own = text
                .strip_prefix(shown.as_str())
                .and_then(|rest| rest.strip_prefix(": "))
                .unwrap_or(&text);
            Failure::message(own)
        })?;
    let not_a_plan = |why: String| {
        Failure::message(format!(
            "{why}; --terraform takes a root module's directory or the output of \
             `terraform show -json PLANFILE`"
        ))
    };
    let doc: Json = serde_json::from_str(&text).map_err(|e| {
        not_a_plan(format!(
            "not JSON at line {}, column {} ({})",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ))
    })?;
    if let Some(major) = format_major(&doc) {
        if major != FORMAT_MAJOR && doc.get("planned_values").is_some() {
            let version = doc
                .get("format_version")
                .and_then(Json::as_str)
                .unwrap_or_default();
            return Err(Failure::message(format!(
                "`terraform show -json` output of format_version {} is not supported: \
                 cloudspec reads format 1.x (Terraform 1.x); pass the root module's directory \
                 instead",
                input::escape_control(&input::truncate_chars(version, 40))
            )));
        }
    }
    if !is_plan(&doc) {
        return Err(not_a_plan(
            "not `terraform show -json` output (a JSON object with \"format_version\" 1.x and \
             \"planned_values\")"
                .into(),
        ));
    }
    let file = path
        .file_name()
        .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
    Ok(from_document(&doc, &file))
}

/// serde_json's message without its ` at line L column C` (given before it).
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .and_then(|at| message.get(..at))
        .unwrap_or(message)
}

/// The instances of a plan document (one [`is_plan`] accepts). `file` names the plan in
/// the instances' `file` (bodies' ranges, the mapping's warnings).
pub fn from_document(doc: &Json, file: &str) -> Evaluated {
    let plan = Plan::new(doc);
    let mut warnings = Vec::new();
    if doc.get("errored").and_then(Json::as_bool) == Some(true) {
        warnings.push(
            "the plan says Terraform failed while planning (\"errored\": true): resources it \
             did not reach are missing"
                .to_string(),
        );
    }
    let instances = plan
        .planned
        .iter()
        .filter(|p| !plan.deleted.contains(p.address))
        .map(|p| plan.instance(p, file))
        .collect();
    Evaluated {
        instances,
        warnings,
    }
}

/// One planned managed resource instance.
struct Planned<'a> {
    address: &'a str,
    /// `module.a[0].module.b` or empty.
    module: &'a str,
    tf_type: &'a str,
    name: &'a str,
    resource: &'a Json,
}

/// What the plan says, indexed.
struct Plan<'a> {
    doc: &'a Json,
    planned: Vec<Planned<'a>>,
    /// Every planned instance's address.
    addresses: HashSet<&'a str>,
    /// Instances only deleted.
    deleted: HashSet<&'a str>,
    /// `change.after_unknown` by address.
    unknown: HashMap<&'a str, &'a Json>,
    /// Known ids of planned instances: id → address.
    ids: HashMap<&'a str, &'a str>,
}

/// A module of the configuration as one instance of it is seen: its address prefix
/// (`module.net[0].`), its `module` object in `configuration`, and how it was called.
#[derive(Clone)]
struct Frame<'a> {
    prefix: String,
    module: Option<&'a Json>,
    /// The calling module's frame and the `module_calls` entry, for the root: none.
    call: Option<(Box<Frame<'a>>, &'a Json)>,
}

impl<'a> Plan<'a> {
    fn new(doc: &'a Json) -> Plan<'a> {
        let mut planned = Vec::new();
        if let Some(root) = doc.pointer("/planned_values/root_module") {
            collect(root, &mut planned, 0);
        }
        let addresses = planned.iter().map(|p| p.address).collect();
        let mut deleted = HashSet::new();
        let mut unknown = HashMap::new();
        for rc in array(doc.get("resource_changes")) {
            let Some(address) = rc.get("address").and_then(Json::as_str) else {
                continue;
            };
            let actions: Vec<&str> = array(rc.pointer("/change/actions"))
                .iter()
                .filter_map(Json::as_str)
                .collect();
            if !actions.is_empty() && actions.iter().all(|a| *a == "delete") {
                deleted.insert(address);
            }
            if let Some(u) = rc.pointer("/change/after_unknown") {
                if rc.get("mode").and_then(Json::as_str) != Some("data") {
                    unknown.insert(address, u);
                }
            }
        }
        let ids = planned
            .iter()
            .filter_map(|p| {
                let id = p.resource.pointer("/values/id").and_then(Json::as_str)?;
                (!id.is_empty()).then_some((id, p.address))
            })
            .collect();
        Plan {
            doc,
            planned,
            addresses,
            deleted,
            unknown,
            ids,
        }
    }

    fn instance(&self, p: &Planned<'a>, file: &str) -> Instance {
        let frame = self.frame(p.module);
        let config = frame.module.and_then(|m| {
            array(m.get("resources")).iter().find(|r| {
                r.get("mode").and_then(Json::as_str) == Some("managed")
                    && r.get("type").and_then(Json::as_str) == Some(p.tf_type)
                    && r.get("name").and_then(Json::as_str) == Some(p.name)
            })
        });
        let expressions = config
            .and_then(|c| c.get("expressions"))
            .and_then(Json::as_object);
        let empty = Map::new();
        let values = p.resource.get("values").and_then(Json::as_object);
        let unknown = self.unknown.get(p.address).copied();
        let sensitive = p.resource.get("sensitive_values");
        let body = self.object(
            values,
            unknown,
            sensitive,
            // A resource the configuration does not show (it should): only what is known.
            Some(expressions.unwrap_or(&empty)),
            &frame,
        );
        let text = serde_json::to_string(&Json::Object(body)).unwrap_or_else(|_| "{}".into());
        let (parsed, _) = cloudspec_hcl::body::parse_json(file, &text);
        let provider_key = config
            .and_then(|c| c.get("provider_config_key"))
            .and_then(Json::as_str);
        let provider_config = provider_key.and_then(|key| self.provider_config(key));
        Instance {
            address: p.address.to_string(),
            tf_type: p.tf_type.to_string(),
            provider: provider_name(provider_key, p.tf_type),
            body: parsed.unwrap_or_else(cloudspec_hcl::body::Body::empty),
            ctx: EvalContext::empty(),
            file: file.to_string(),
            line: 0,
            region: values
                .and_then(|v| v.get("region"))
                .and_then(Json::as_str)
                .map(str::to_string)
                .or_else(|| provider_config.and_then(|c| self.region(c))),
            default_tags: default_tags(values, unknown, provider_config),
            unknown_expansion: false,
            args: None,
        }
    }

    /// The frame of the module instance at `module` (`module.a[0].module.b`).
    fn frame(&self, module: &str) -> Frame<'a> {
        let mut frame = Frame {
            prefix: String::new(),
            module: self.doc.pointer("/configuration/root_module"),
            call: None,
        };
        for step in module_steps(module) {
            let call = frame
                .module
                .and_then(|m| m.get("module_calls"))
                .and_then(|c| c.get(step.name));
            let prefix = format!("{}module.{}{}.", frame.prefix, step.name, step.key);
            frame = Frame {
                prefix,
                module: call.and_then(|c| c.get("module")),
                call: call.map(|c| (Box::new(frame), c)),
            };
        }
        frame
    }

    /// The `provider_config` entry of `key` (`aws`, `aws.west`, `net:aws`).
    fn provider_config(&self, key: &str) -> Option<&'a Json> {
        let configs = self.doc.pointer("/configuration/provider_config")?;
        configs.get(key).or_else(|| {
            key.rsplit_once(':')
                .and_then(|(_, local)| configs.get(local))
        })
    }

    /// A provider configuration's region: a constant, or a root variable alone.
    fn region(&self, config: &Json) -> Option<String> {
        let expr = config.pointer("/expressions/region")?;
        if let Some(v) = expr.get("constant_value") {
            return v.as_str().map(str::to_string);
        }
        if config.get("module_address").is_some() {
            return None;
        }
        match array(expr.get("references")) {
            [only] => {
                let name = only.as_str()?.strip_prefix("var.")?;
                self.doc
                    .get("variables")?
                    .get(name)?
                    .get("value")?
                    .as_str()
                    .map(str::to_string)
            }
            _ => None,
        }
    }

    /// The body of one object of values: the arguments and blocks `config` names
    /// (`None`: everything, inside a block written with `dynamic`).
    fn object(
        &self,
        values: Option<&'a Map<String, Json>>,
        unknown: Option<&'a Json>,
        sensitive: Option<&'a Json>,
        config: Option<&Map<String, Json>>,
        frame: &Frame<'a>,
    ) -> Map<String, Json> {
        let mut keys: Vec<&str> = values
            .map(|v| v.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if let Some(Json::Object(u)) = unknown {
            keys.extend(
                u.iter()
                    .filter(|(k, v)| {
                        **v == Json::Bool(true) && !values.is_some_and(|v| v.contains_key(*k))
                    })
                    .map(|(k, _)| k.as_str()),
            );
        }
        let mut out = Map::new();
        for key in keys {
            let v = values.and_then(|v| v.get(key));
            let u = unknown.and_then(|u| u.get(key));
            let s = sensitive.and_then(|s| s.get(key));
            let wholly_unknown = u == Some(&Json::Bool(true));
            let Some(config) = config else {
                out.insert(key.to_string(), self.attribute(v, u, s, None));
                continue;
            };
            match config.get(key) {
                None => {
                    // Not configured, unless written with `dynamic`.
                    let blocks = v
                        .and_then(Json::as_array)
                        .is_some_and(|a| !a.is_empty() && a.iter().all(Json::is_object));
                    if blocks && !wholly_unknown {
                        out.insert(key.to_string(), self.attribute(v, u, s, None));
                    }
                }
                Some(expr) if is_expression(expr) => {
                    let refs = self.targets(expr, frame, 0);
                    out.insert(key.to_string(), self.attribute(v, u, s, refs));
                }
                Some(Json::Array(configs)) => {
                    let merged = union(configs);
                    out.insert(key.to_string(), self.blocks(v, u, s, &merged, frame));
                }
                Some(Json::Object(single)) => {
                    let value = match v {
                        Some(Json::Object(o)) => {
                            Json::Object(self.object(Some(o), u, s, Some(single), frame))
                        }
                        Some(Json::Array(_)) => self.blocks(v, u, s, single, frame),
                        _ => self.attribute(v, u, s, None),
                    };
                    out.insert(key.to_string(), value);
                }
                Some(_) => {
                    out.insert(key.to_string(), self.attribute(v, u, s, None));
                }
            }
        }
        out
    }

    /// Configured blocks: each element with the arguments some block of the type sets.
    fn blocks(
        &self,
        v: Option<&'a Json>,
        u: Option<&'a Json>,
        s: Option<&'a Json>,
        config: &Map<String, Json>,
        frame: &Frame<'a>,
    ) -> Json {
        let Some(Json::Array(elems)) = v else {
            return self.attribute(v, u, s, None);
        };
        Json::Array(
            elems
                .iter()
                .enumerate()
                .map(|(i, e)| match e {
                    Json::Object(o) => Json::Object(self.object(
                        Some(o),
                        u.and_then(|u| u.get(i)),
                        s.and_then(|s| s.get(i)),
                        Some(config),
                        frame,
                    )),
                    other => other.clone(),
                })
                .collect(),
        )
    }

    /// An argument's value with what `after_unknown` marks made unknown: the identities of
    /// `targets` (the computed attributes the configuration expression refers to) when
    /// they fill the unknown places one for one, else unknowns.
    fn attribute(
        &self,
        v: Option<&Json>,
        u: Option<&Json>,
        s: Option<&Json>,
        targets: Option<Vec<String>>,
    ) -> Json {
        let targets = targets.unwrap_or_default();
        if u == Some(&Json::Bool(true)) {
            return match (s, targets.as_slice()) {
                (Some(Json::Array(_)), [_, ..]) => {
                    Json::Array(targets.into_iter().map(Json::String).collect())
                }
                (_, [one]) => Json::String(one.clone()),
                _ => unknown_marker(),
            };
        }
        let mut places = 0;
        count_unknown(v, u, &mut places);
        let mut fill = if places > 0 && places == targets.len() {
            targets.into_iter()
        } else {
            Vec::new().into_iter()
        };
        self.overlay(v, u, s, &mut fill)
    }

    /// `v` with every place `u` marks unknown replaced by the next of `fill` (in a list
    /// when `s`, the sensitivity, says the place holds one), or an unknown; known ids of
    /// planned instances by their identities.
    fn overlay(
        &self,
        v: Option<&Json>,
        u: Option<&Json>,
        s: Option<&Json>,
        fill: &mut std::vec::IntoIter<String>,
    ) -> Json {
        match (v, u) {
            (_, Some(Json::Bool(true))) => match (fill.next(), s) {
                (Some(id), Some(Json::Array(_))) => Json::Array(vec![Json::String(id)]),
                (Some(id), _) => Json::String(id),
                (None, _) => unknown_marker(),
            },
            (Some(Json::Array(items)), Some(Json::Array(us))) => Json::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        self.overlay(Some(item), us.get(i), s.and_then(|s| s.get(i)), fill)
                    })
                    .collect(),
            ),
            (Some(Json::Object(m)), Some(Json::Object(us))) => {
                let mut out = Map::new();
                for (k, item) in m {
                    let s = s.and_then(|s| s.get(k));
                    out.insert(k.clone(), self.overlay(Some(item), us.get(k), s, fill));
                }
                for (k, flag) in us {
                    if *flag == Json::Bool(true) && !m.contains_key(k) {
                        let s = s.and_then(|s| s.get(k));
                        out.insert(k.clone(), self.overlay(None, Some(flag), s, fill));
                    }
                }
                Json::Object(out)
            }
            (Some(v), _) => self.known(v),
            (None, _) => Json::Null,
        }
    }

    /// A known value, its strings that are ids of planned instances as their identities.
    fn known(&self, v: &Json) -> Json {
        match v {
            Json::String(s) => match self.ids.get(s.as_str()) {
                Some(address) => Json::String(identity::identity(address, "id")),
                None => v.clone(),
            },
            Json::Array(items) => Json::Array(items.iter().map(|i| self.known(i)).collect()),
            Json::Object(m) => {
                Json::Object(m.iter().map(|(k, i)| (k.clone(), self.known(i))).collect())
            }
            other => other.clone(),
        }
    }

    /// The identities an expression's `references` name, when every one of them is a
    /// computed attribute of a planned instance (followed through module outputs and the
    /// variables of module calls); `None` when any is something else.
    fn targets(&self, expr: &Json, frame: &Frame<'a>, depth: usize) -> Option<Vec<String>> {
        if depth > MAX_REF_DEPTH {
            return None;
        }
        let refs: Vec<&str> = array(expr.get("references"))
            .iter()
            .filter_map(Json::as_str)
            .collect();
        if refs.is_empty() {
            return None;
        }
        let mut out: Vec<String> = Vec::new();
        for r in &refs {
            // `aws_subnet.a` comes with `aws_subnet.a.id`: the longer one says it.
            let covered = refs.iter().any(|other| {
                other.len() > r.len()
                    && other.starts_with(r)
                    && matches!(other.as_bytes().get(r.len()), Some(b'.' | b'['))
            });
            if covered {
                continue;
            }
            for t in self.reference(r, frame, depth)? {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The identities one reference names (see [`Plan::targets`]).
    fn reference(&self, r: &str, frame: &Frame<'a>, depth: usize) -> Option<Vec<String>> {
        let steps = split_reference(r);
        let (root, rest) = steps.split_first()?;
        match root.name {
            "var" => {
                let (parent, call) = frame.call.as_ref()?;
                let name = rest.first()?;
                let expr = call.get("expressions")?.get(name.name)?;
                is_expression(expr).then_some(())?;
                self.targets(expr, parent, depth + 1)
            }
            "module" => {
                let (call_step, rest) = rest.split_first()?;
                let output = rest.first()?;
                let call = frame.module?.get("module_calls")?.get(call_step.name)?;
                let expanded = call.get("count_expression").is_some()
                    || call.get("for_each_expression").is_some();
                if expanded == call_step.key.is_empty() {
                    return None;
                }
                let inner = Frame {
                    prefix: format!(
                        "{}module.{}{}.",
                        frame.prefix, call_step.name, call_step.key
                    ),
                    module: call.get("module"),
                    call: Some((Box::new(frame.clone()), call)),
                };
                let expr = inner
                    .module?
                    .get("outputs")?
                    .get(output.name)?
                    .get("expression")?;
                self.targets(expr, &inner, depth + 1)
            }
            "local" | "data" | "count" | "each" | "path" | "terraform" | "self" => None,
            tf_type => {
                let (name, rest) = rest.split_first()?;
                let attr = rest.first()?;
                if !root.key.is_empty() {
                    return None;
                }
                let address = format!("{}{tf_type}.{}{}", frame.prefix, name.name, name.key);
                self.addresses.contains(address.as_str()).then_some(())?;
                Some(vec![identity::identity(&address, attr.name)])
            }
        }
    }
}

/// `{"$unknown"}` as a mapping reads it in a body.
fn unknown_marker() -> Json {
    match crate::mapping::unknown_marker(UNKNOWN_IN_PLAN, false) {
        Value::String(s) => Json::String(s),
        _ => Json::Null,
    }
}

/// How many places of `v` `u` marks unknown.
fn count_unknown(v: Option<&Json>, u: Option<&Json>, n: &mut usize) {
    match (v, u) {
        (_, Some(Json::Bool(true))) => *n += 1,
        (Some(Json::Array(items)), Some(Json::Array(us))) => {
            for (i, item) in items.iter().enumerate() {
                count_unknown(Some(item), us.get(i), n);
            }
        }
        (Some(Json::Object(m)), Some(Json::Object(us))) => {
            for (k, flag) in us {
                count_unknown(m.get(k), Some(flag), n);
            }
        }
        _ => {}
    }
}

/// True for one argument's expression (`constant_value`, `references`, or neither when
/// Terraform could not say), as opposed to a nested block's expressions.
fn is_expression(expr: &Json) -> bool {
    expr.as_object()
        .is_some_and(|m| m.keys().all(|k| k == "constant_value" || k == "references"))
}

/// The expressions of every block of one type, merged: an argument is configured when
/// one block sets it (set blocks are planned in another order than written).
fn union(configs: &[Json]) -> Map<String, Json> {
    let mut out = Map::new();
    for c in configs.iter().filter_map(Json::as_object) {
        for (k, v) in c {
            match (out.get_mut(k), v) {
                (Some(Json::Array(have)), Json::Array(more)) => have.extend(more.iter().cloned()),
                (Some(_), _) => {}
                (None, _) => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
    }
    out
}

/// The provider configuration's default tags: its constant `default_tags`, else what the
/// provider merged into the planned `tags_all` (when known) less the keys of the
/// resource's own `tags`, else none. (A default tag the resource's `tags` override is then
/// missing; it only matters for what the mappings tag from the provider alone, such as an
/// instance's root volume.)
fn default_tags(
    values: Option<&Map<String, Json>>,
    unknown: Option<&Json>,
    provider: Option<&Json>,
) -> Value {
    let strings = |v: &Json, leave_out: Option<&Map<String, Json>>| -> Option<Value> {
        let m = v.as_object()?;
        let mut out = BTreeMap::new();
        for (k, v) in m {
            if leave_out.is_some_and(|l| l.contains_key(k)) {
                continue;
            }
            out.insert(k.clone(), Value::String(v.as_str()?.to_string()));
        }
        Some(Value::Object(out))
    };
    if let Some(v) = provider
        .and_then(|p| p.pointer("/expressions/default_tags/0/tags/constant_value"))
        .and_then(|v| strings(v, None))
    {
        return v;
    }
    let unknown_tags = ["tags_all", "tags"]
        .iter()
        .any(|k| unknown.and_then(|u| u.get(*k)).is_some_and(any_true));
    if !unknown_tags {
        let own = values.and_then(|v| v.get("tags")).and_then(Json::as_object);
        if let Some(v) = values
            .and_then(|v| v.get("tags_all"))
            .and_then(|v| strings(v, own))
        {
            return v;
        }
    }
    Value::empty_object()
}

/// The provider's local name: of its configuration key (`aws.west`, `net:aws`), else the
/// type's prefix.
fn provider_name(key: Option<&str>, tf_type: &str) -> String {
    let from_key = key.map(|k| {
        let local = k.rsplit_once(':').map_or(k, |(_, l)| l);
        local.split('.').next().unwrap_or(local)
    });
    from_key
        .filter(|k| !k.is_empty())
        .unwrap_or_else(|| tf_type.split('_').next().unwrap_or(tf_type))
        .to_string()
}

/// True when `after_unknown` marks anything in `u` unknown.
fn any_true(u: &Json) -> bool {
    match u {
        Json::Bool(b) => *b,
        Json::Array(items) => items.iter().any(any_true),
        Json::Object(m) => m.values().any(any_true),
        _ => false,
    }
}

/// The elements of a JSON array (none for anything else).
fn array(v: Option<&Json>) -> &[Json] {
    v.and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

/// Every managed instance of a module of `planned_values` and its child modules.
fn collect<'a>(module: &'a Json, out: &mut Vec<Planned<'a>>, depth: usize) {
    if depth > MAX_REF_DEPTH * 4 {
        return;
    }
    let module_address = module.get("address").and_then(Json::as_str).unwrap_or("");
    for r in array(module.get("resources")) {
        if r.get("mode").and_then(Json::as_str) != Some("managed") {
            continue;
        }
        let (Some(address), Some(tf_type), Some(name)) = (
            r.get("address").and_then(Json::as_str),
            r.get("type").and_then(Json::as_str),
            r.get("name").and_then(Json::as_str),
        ) else {
            continue;
        };
        out.push(Planned {
            address,
            module: module_address,
            tf_type,
            name,
            resource: r,
        });
    }
    for child in array(module.get("child_modules")) {
        collect(child, out, depth + 1);
    }
}

/// One step of an address or reference: a name and its key as written (`[0]`,
/// `["a.b"]`, or empty).
struct Step<'a> {
    name: &'a str,
    key: &'a str,
}

/// `module.a[0].module.b["x"]` as its calls: `a` `[0]`, `b` `["x"]`.
fn module_steps(module: &str) -> Vec<Step<'_>> {
    let steps = split_reference(module);
    steps
        .chunks(2)
        .filter_map(|pair| match pair {
            [m, call] if m.name == "module" => Some(Step {
                name: call.name,
                key: call.key,
            }),
            _ => None,
        })
        .collect()
}

/// A reference (`aws_subnet.a["x.y"].id`, `module.net[0].out`) split at the dots outside
/// keys, each step's key kept as written.
fn split_reference(r: &str) -> Vec<Step<'_>> {
    let mut steps = Vec::new();
    let bytes = r.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut key_at: Option<usize> = None;
    let mut in_string = false;
    while i <= bytes.len() {
        let b = bytes.get(i).copied();
        if in_string {
            match b {
                Some(b'\\') => i += 1,
                Some(b'"') => in_string = false,
                None => break,
                _ => {}
            }
        } else {
            match b {
                Some(b'"') => in_string = true,
                Some(b'[') if key_at.is_none() => key_at = Some(i),
                Some(b'.') | None => {
                    let end = i;
                    let (name, key) = match key_at {
                        Some(k) => (r.get(start..k), r.get(k..end)),
                        None => (r.get(start..end), Some("")),
                    };
                    let (name, key) = (name.unwrap_or_default(), key.unwrap_or_default());
                    steps.push(Step { name, key });
                    start = i + 1;
                    key_at = None;
                }
                _ => {}
            }
        }
        i += 1;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_plan_is_format_one_with_planned_values() {
        assert!(is_plan(
            &json!({"format_version": "1.2", "planned_values": {"root_module": {}}})
        ));
        assert!(is_plan(
            &json!({"format_version": "1", "planned_values": {}})
        ));
        assert!(!is_plan(
            &json!({"format_version": "2.0", "planned_values": {}})
        ));
        assert!(!is_plan(&json!({"format_version": "1.0", "values": {}})));
        assert!(!is_plan(
            &json!({"format_version": 1, "planned_values": {}})
        ));
        assert!(!is_plan(&json!([1, 2])));
    }

    #[test]
    fn other_files_and_other_formats_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let later = dir.path().join("plan2.json");
        std::fs::write(&later, r#"{"format_version": "2.0", "planned_values": {}}"#).unwrap();
        assert_eq!(
            read(&later).unwrap_err().diagnostics[0].summary,
            "`terraform show -json` output of format_version 2.0 is not supported: cloudspec \
             reads format 1.x (Terraform 1.x); pass the root module's directory instead"
        );
        let state = dir.path().join("state.json");
        std::fs::write(&state, r#"{"format_version": "1.0", "values": {}}"#).unwrap();
        assert_eq!(
            read(&state).unwrap_err().diagnostics[0].summary,
            "not `terraform show -json` output (a JSON object with \"format_version\" 1.x \
             and \"planned_values\"); --terraform takes a root module's directory or the \
             output of `terraform show -json PLANFILE`"
        );
        let tf = dir.path().join("main.tf");
        std::fs::write(&tf, "resource \"aws_vpc\" \"a\" {}\n").unwrap();
        assert_eq!(
            read(&tf).unwrap_err().diagnostics[0].summary,
            "not JSON at line 1, column 1 (expected value); --terraform takes a root module's \
             directory or the output of `terraform show -json PLANFILE`"
        );
    }

    /// The body of an instance as JSON, markers and identities as they are.
    fn body(inst: &Instance) -> Json {
        let names = inst.body.item_names();
        let (attrs, _) = inst.body.just_attributes();
        let mut out = Map::new();
        for name in names.attributes {
            if let Some(a) = attrs.get(&name) {
                let (v, _) = a.expr.value(&inst.ctx);
                out.insert(name, to_json(&v));
            }
        }
        Json::Object(out)
    }

    fn to_json(v: &Value) -> Json {
        match v {
            Value::String(s) => Json::String(s.clone()),
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => json!(n.to_string()),
            Value::Null(_) => Json::Null,
            Value::Unknown(_) => json!("<unknown>"),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                Json::Array(items.iter().map(to_json).collect())
            }
            Value::Map(_, m) | Value::Object(m) => {
                Json::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
            }
        }
    }

    fn plan_doc() -> Json {
        json!({
            "format_version": "1.2",
            "variables": {"region": {"value": "eu-west-1"}},
            "planned_values": {"root_module": {
                "resources": [
                    {"address": "aws_vpc.main", "mode": "managed", "type": "aws_vpc", "name": "main",
                     "values": {"cidr_block": "10.0.0.0/16", "enable_dns_support": true,
                                "tags": {"Name": "main"}, "tags_all": {"Name": "main", "team": "x"}},
                     "sensitive_values": {}},
                    {"address": "aws_vpc.old", "mode": "managed", "type": "aws_vpc", "name": "old",
                     "values": {"id": "vpc-0abc", "cidr_block": "10.1.0.0/16"}},
                    {"address": "data.aws_ami.x", "mode": "data", "type": "aws_ami", "name": "x",
                     "values": {}}
                ],
                "child_modules": [{"address": "module.net", "resources": [
                    {"address": "module.net.aws_subnet.a", "mode": "managed", "type": "aws_subnet",
                     "name": "a",
                     "values": {"cidr_block": "10.0.1.0/24", "map_public_ip_on_launch": false,
                                "policy": "${not a template}"},
                     "sensitive_values": {}},
                    {"address": "module.net.aws_subnet.b", "mode": "managed", "type": "aws_subnet",
                     "name": "b",
                     "values": {"cidr_block": "10.1.1.0/24", "vpc_id": "vpc-0abc"},
                     "sensitive_values": {}}
                ]}]
            }},
            "resource_changes": [
                {"address": "aws_vpc.main", "mode": "managed", "change": {"actions": ["create"],
                 "after_unknown": {"id": true, "arn": true, "default_network_acl_id": true}}},
                {"address": "aws_vpc.old", "mode": "managed", "change": {"actions": ["delete"]}},
                {"address": "module.net.aws_subnet.a", "mode": "managed", "change": {
                 "actions": ["create"], "after_unknown": {"id": true, "vpc_id": true}}},
                {"address": "module.net.aws_subnet.b", "mode": "managed", "change": {
                 "actions": ["create"], "after_unknown": {"id": true}}}
            ],
            "configuration": {
                "provider_config": {"aws": {"name": "aws", "expressions": {
                    "region": {"references": ["var.region"]}}}},
                "root_module": {
                    "resources": [
                        {"address": "aws_vpc.main", "mode": "managed", "type": "aws_vpc",
                         "name": "main", "provider_config_key": "aws", "expressions": {
                            "cidr_block": {"constant_value": "10.0.0.0/16"},
                            "tags": {"constant_value": {"Name": "main"}}}},
                        {"address": "aws_vpc.old", "mode": "managed", "type": "aws_vpc",
                         "name": "old", "provider_config_key": "aws", "expressions": {}}
                    ],
                    "module_calls": {"net": {
                        "expressions": {"vpc_id": {"references": ["aws_vpc.main.id", "aws_vpc.main"]}},
                        "module": {
                            "resources": [
                                {"address": "aws_subnet.a", "mode": "managed", "type": "aws_subnet",
                                 "name": "a", "provider_config_key": "aws", "expressions": {
                                    "vpc_id": {"references": ["var.vpc_id"]},
                                    "cidr_block": {"constant_value": "10.0.1.0/24"},
                                    "policy": {"constant_value": "${not a template}"}}},
                                {"address": "aws_subnet.b", "mode": "managed", "type": "aws_subnet",
                                 "name": "b", "provider_config_key": "aws", "expressions": {
                                    "vpc_id": {"constant_value": "vpc-0abc"},
                                    "cidr_block": {"constant_value": "10.1.1.0/24"}}}
                            ]
                        }
                    }}
                }
            }
        })
    }

    #[test]
    fn planned_values_become_instances_with_what_the_configuration_sets() {
        let evaluated = from_document(&plan_doc(), "plan.json");
        let addresses: Vec<&str> = evaluated
            .instances
            .iter()
            .map(|i| i.address.as_str())
            .collect();
        // Data sources and resources only deleted are left out.
        assert_eq!(
            addresses,
            [
                "aws_vpc.main",
                "module.net.aws_subnet.a",
                "module.net.aws_subnet.b"
            ]
        );
        let vpc = &evaluated.instances[0];
        // enable_dns_support is not configured: the mapping's default applies, as for .tf.
        assert_eq!(
            body(vpc),
            json!({"cidr_block": "10.0.0.0/16", "tags": {"Name": "main"}})
        );
        assert_eq!(vpc.region.as_deref(), Some("eu-west-1"));
        assert_eq!(vpc.file, "plan.json");
        // tags_all less the resource's own tags.
        assert_eq!(
            vpc.default_tags,
            Value::object_from([("team", Value::string("x"))])
        );
        let a = &evaluated.instances[1];
        // An unknown vpc_id set from var.vpc_id, which the module call sets to
        // aws_vpc.main.id: that VPC's identity. Strings are literal.
        assert_eq!(
            body(a),
            json!({
                "cidr_block": "10.0.1.0/24",
                "policy": "${not a template}",
                "vpc_id": identity::identity("aws_vpc.main", "id"),
            })
        );
        // A known id of another planned resource is that resource's identity.
        let b = &evaluated.instances[2];
        assert_eq!(
            body(b)["vpc_id"],
            json!(identity::identity("aws_vpc.old", "id"))
        );
    }

    /// A plan's resources have no line: mapping warnings name the plan file alone.
    #[test]
    fn mapping_warnings_of_a_plan_name_the_file_without_a_line() {
        let doc = json!({
            "format_version": "1.2",
            "planned_values": {"root_module": {"resources": [
                {"address": "aws_s3_bucket_versioning.v", "mode": "managed",
                 "type": "aws_s3_bucket_versioning", "name": "v",
                 "values": {"bucket": "elsewhere",
                            "versioning_configuration": [{"status": "Enabled"}]}}
            ]}},
            "configuration": {"root_module": {"resources": [
                {"address": "aws_s3_bucket_versioning.v", "mode": "managed",
                 "type": "aws_s3_bucket_versioning", "name": "v", "expressions": {
                    "bucket": {"constant_value": "elsewhere"},
                    "versioning_configuration": [{"status": {"constant_value": "Enabled"}}]}}
            ]}}
        });
        let evaluated = from_document(&doc, "plan.json");
        let mappings = crate::mapping::Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
        let mapped = crate::mapping::map(&mappings, &evaluated.instances);
        assert_eq!(
            mapped.warnings,
            ["plan.json: aws_s3_bucket_versioning.v is dropped: no aws:s3:bucket with name \"elsewhere\" \
              in the configuration"]
        );
    }

    #[test]
    fn unknowns_without_a_known_target_are_unknown_and_lists_keep_their_shape() {
        let doc = json!({
            "format_version": "1.2",
            "planned_values": {"root_module": {"resources": [
                {"address": "aws_security_group.a", "mode": "managed",
                 "type": "aws_security_group", "name": "a", "values": {}},
                {"address": "aws_instance.web", "mode": "managed", "type": "aws_instance",
                 "name": "web", "values": {"ami": "ami-1", "ebs_block_device": []},
                 "sensitive_values": {"vpc_security_group_ids": [], "ebs_block_device": []}}
            ]}},
            "resource_changes": [{"address": "aws_instance.web", "mode": "managed",
                "change": {"actions": ["create"], "after_unknown": {
                    "vpc_security_group_ids": true, "subnet_id": true, "key_name": true,
                    "ebs_block_device": true}}}],
            "configuration": {"root_module": {"resources": [
                {"address": "aws_instance.web", "mode": "managed", "type": "aws_instance",
                 "name": "web", "expressions": {
                    "ami": {"constant_value": "ami-1"},
                    "vpc_security_group_ids": {"references": [
                        "aws_security_group.a.id", "aws_security_group.a"]},
                    "subnet_id": {"references": ["aws_subnet.x", "count.index"]},
                    "key_name": {"references": ["var.key"]}}}
            ]}}
        });
        let evaluated = from_document(&doc, "plan.json");
        let web = evaluated
            .instances
            .iter()
            .find(|i| i.address == "aws_instance.web")
            .unwrap();
        let unknown = match unknown_marker() {
            Json::String(s) => s,
            other => panic!("{other}"),
        };
        // ebs_block_device is not configured: left out (no extra volumes), not unknown.
        assert_eq!(
            body(web),
            json!({
                "ami": "ami-1",
                "key_name": unknown,
                "subnet_id": unknown,
                "vpc_security_group_ids": [identity::identity("aws_security_group.a", "id")],
            })
        );
        assert_eq!(web.region, None);
        assert_eq!(web.default_tags, Value::empty_object());
    }

    #[test]
    fn references_split_at_dots_outside_keys() {
        let steps: Vec<(&str, &str)> = split_reference(r#"module.a["x.y"].aws_subnet.b[0].id"#)
            .iter()
            .map(|s| (s.name, s.key))
            .collect();
        assert_eq!(
            steps,
            [
                ("module", ""),
                ("a", r#"["x.y"]"#),
                ("aws_subnet", ""),
                ("b", "[0]"),
                ("id", "")
            ]
        );
    }
}
