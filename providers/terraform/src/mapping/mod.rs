//! Mappings as data (`design/terraform.md` section 11): one file per Terraform type in
//! hcldec's spec format plus a few blocks of our own, shipped in `mappings/` and added to
//! or overridden by `--terraform-mappings DIR`. The format is documented for users in
//! `docs/terraform.md` ("Mapping a new type").
//!
//! - `load` reads a file into a [`Mapping`]; `spec` is its value language (hcldec's
//!   spec blocks plus `ref`, `unknown`, `parent`) and the decoder; `values` holds the
//!   markers (associations, unknowns with their reasons) and the mapping functions.
//! - [`map`] runs the stages in order: every instance's own resource and derived resources
//!   (`derive`), then contributions of other resources (`contribute`: split S3 settings,
//!   standalone rules, attachments; derived resources' first), then per resource `group`
//!   and `after_merge`, then reverse links (`reverse`), and writes each resource's
//!   properties in the inventory's JSON form.
//!
//! Reverse links are declared in the mapping files rather than taken from the live
//! provider's `cloudspec_aws::types` rows: those read owner ids with Rust functions, and
//! the flow log one by the id's prefix (`vpc-`), which an address never has. Here a link
//! matches the source's raw id member with the owner's id, which works for addresses and
//! literal ids alike. A provider loading a Terraform inventory must not apply the live
//! links as well.

mod load;
mod spec;
mod values;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Type, Value};
use cloudspec_model::schema::SchemaSet;

pub use load::Mapping;
use load::{Contribution, Op};
use spec::{Decoder, Items, Src};
pub(crate) use values::unknown as unknown_marker;
use values::{for_expression, functions, marker, Marker};

use crate::{identity, Failure, Instance, MappedResource};

macro_rules! shipped {
    ($tf_type:literal) => {
        (
            $tf_type,
            include_str!(concat!("../../mappings/", $tf_type, ".hcl")),
        )
    };
}

/// The mapping files shipped with cloudspec: `(Terraform type, text)`.
const SHIPPED: &[(&str, &str)] = &[
    shipped!("aws_default_network_acl"),
    shipped!("aws_default_security_group"),
    shipped!("aws_default_vpc"),
    shipped!("aws_ebs_encryption_by_default"),
    shipped!("aws_ebs_volume"),
    shipped!("aws_ec2_instance_state"),
    shipped!("aws_flow_log"),
    shipped!("aws_instance"),
    shipped!("aws_network_acl"),
    shipped!("aws_network_acl_association"),
    shipped!("aws_network_acl_rule"),
    shipped!("aws_s3_bucket"),
    shipped!("aws_s3_bucket_acl"),
    shipped!("aws_s3_bucket_logging"),
    shipped!("aws_s3_bucket_ownership_controls"),
    shipped!("aws_s3_bucket_policy"),
    shipped!("aws_s3_bucket_public_access_block"),
    shipped!("aws_s3_bucket_server_side_encryption_configuration"),
    shipped!("aws_s3_bucket_versioning"),
    shipped!("aws_security_group"),
    shipped!("aws_security_group_rule"),
    shipped!("aws_subnet"),
    shipped!("aws_volume_attachment"),
    shipped!("aws_vpc"),
    shipped!("aws_vpc_security_group_egress_rule"),
    shipped!("aws_vpc_security_group_ingress_rule"),
];

/// Every mapping known to a run, by Terraform type.
#[derive(Clone, Debug, Default)]
pub struct Mappings {
    /// Each file as written.
    own: BTreeMap<String, Mapping>,
    /// Each file on top of the one it `extends` (the mappings a run uses).
    by_type: BTreeMap<String, Mapping>,
}

impl Mappings {
    /// The mappings shipped in `mappings/`.
    pub fn shipped() -> Result<Mappings, Failure> {
        let mut m = Mappings::default();
        let mut failures = Vec::new();
        for (tf_type, text) in SHIPPED {
            let file = format!("mappings/{tf_type}.hcl");
            if let Err(f) = m.add_one(tf_type, &file, text) {
                failures.extend(f.diagnostics);
            }
        }
        failures.extend(m.resolve());
        if failures.is_empty() {
            Ok(m)
        } else {
            Err(Failure {
                diagnostics: failures,
            })
        }
    }

    /// Adds (or replaces) the mappings of the `*.hcl` files in `dir` (each named after the
    /// Terraform type it maps). Every file is read; all their errors are reported together.
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), Failure> {
        let shown = cloudspec_model::input::display_path(dir);
        let entries = std::fs::read_dir(dir).map_err(|e| {
            Failure::message(format!("{shown}: cannot read the mappings directory: {e}"))
        })?;
        let mut files: Vec<std::path::PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "hcl") && p.is_file())
            .collect();
        files.sort();
        let mut failures = Vec::new();
        for path in files {
            let name = cloudspec_model::input::display_path(&path);
            let Some(tf_type) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let text = match cloudspec_model::input::read_text(
                &path,
                cloudspec_model::input::MAX_HCL_BYTES,
                "a Terraform mapping file",
            ) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(Diagnostic::error(format!("{name}: {e}"), "", None));
                    continue;
                }
            };
            if let Err(f) = self.add_one(tf_type, &name, &text) {
                failures.extend(f.diagnostics);
            }
        }
        failures.extend(self.resolve());
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Failure {
                diagnostics: failures,
            })
        }
    }

    /// Adds (or replaces) the mapping of `tf_type` read from `text` (named `file` in
    /// messages).
    pub fn add(&mut self, tf_type: &str, file: &str, text: &str) -> Result<(), Failure> {
        self.add_one(tf_type, file, text)?;
        let diagnostics = self.resolve();
        if diagnostics.is_empty() {
            Ok(())
        } else {
            Err(Failure { diagnostics })
        }
    }

    /// Adds (or replaces) one file as written, without resolving `extends`.
    fn add_one(&mut self, tf_type: &str, file: &str, text: &str) -> Result<(), Failure> {
        let mapping = load::load(tf_type, file, text)?;
        self.own.insert(tf_type.to_string(), mapping);
        Ok(())
    }

    /// Builds every mapping on top of the one it `extends` (a chain at any depth, so a
    /// file added later over the base changes what extends it); a base that is not known,
    /// or a cycle, is an error at the `extends` attribute.
    fn resolve(&mut self) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        let mut resolved = BTreeMap::new();
        for tf_type in self.own.keys() {
            let mut chain = vec![tf_type.as_str()];
            let mut current = &self.own[tf_type];
            let mut broken = false;
            while let Some((base, range)) = &current.extends {
                let Some(next) = self.own.get(base) else {
                    diagnostics.push(Diagnostic::error(
                        "Unknown mapping to extend",
                        format!(
                            "{} extends {base}, which no mapping file maps (a file named \
                             {base}.hcl among the shipped ones or those of --terraform-mappings).",
                            current.tf_type
                        ),
                        Some(range.clone()),
                    ));
                    broken = true;
                    break;
                };
                if chain.contains(&base.as_str()) {
                    // Reported at this file's own `extends`, once per file of the cycle.
                    let own = self.own[tf_type].extends.as_ref().map(|(_, r)| r.clone());
                    diagnostics.push(Diagnostic::error(
                        "Mappings extend each other",
                        format!(
                            "{tf_type} extends itself through {} -> {base}.",
                            chain.join(" -> ")
                        ),
                        own.or_else(|| Some(range.clone())),
                    ));
                    broken = true;
                    break;
                }
                chain.push(base.as_str());
                current = next;
            }
            if broken {
                continue;
            }
            // From the root of the chain down to this file.
            let mut mapping = self.own[*chain.last().unwrap_or(&tf_type.as_str())].clone();
            for name in chain.iter().rev().skip(1) {
                mapping = load::extend(&mapping, &self.own[*name]);
            }
            resolved.insert(tf_type.clone(), mapping);
        }
        self.by_type = resolved;
        diagnostics
    }

    /// The cloudspec type a Terraform type maps to.
    pub fn target(&self, tf_type: &str) -> Option<&str> {
        self.by_type.get(tf_type).and_then(Mapping::target)
    }

    /// The mapping of a Terraform type.
    pub fn get(&self, tf_type: &str) -> Option<&Mapping> {
        self.by_type.get(tf_type)
    }

    /// Every mapping, by Terraform type.
    pub fn iter(&self) -> impl Iterator<Item = &Mapping> {
        self.by_type.values()
    }

    /// Where the mappings' resources (and derived resources) differ from the schemas of
    /// their types: a member the type does not have, a member of the type the mapping
    /// gives no value (decision 3 of `design/terraform.md`: every member is classified as
    /// a value, an unknown or null), a type without a schema in `schemas` (of the same
    /// provider: `aws:...` types when `schemas` is AWS's).
    pub fn check(&self, schemas: &SchemaSet) -> Vec<String> {
        let mut problems = Vec::new();
        let mut check = |file: &str, target: &str, members: Vec<&str>| {
            if target.split(':').next() != Some(schemas.provider.as_str()) {
                return;
            }
            let Some(schema) = schemas.get(target) else {
                problems.push(format!(
                    "{file}: {target} is not a type of {}",
                    schemas.provider
                ));
                return;
            };
            let want: BTreeSet<&str> = schema.members.iter().map(|m| m.name.as_str()).collect();
            let have: BTreeSet<&str> = members.into_iter().collect();
            for extra in have.difference(&want) {
                problems.push(format!("{file}: {extra} is not a member of {target}"));
            }
            for missing in want.difference(&have) {
                problems.push(format!(
                    "{file}: {target} has a member {missing} this mapping gives no value"
                ));
            }
        };
        for m in self.iter() {
            if let Some(target) = m.target() {
                check(m.file(), target, m.members());
            }
            for (block, target, members) in m.derived() {
                check(
                    &format!("{} (derive \"{block}\")", m.file()),
                    target,
                    members,
                );
            }
        }
        problems
    }
}

/// The mapped resources of a configuration, and the warnings of mapping it (unmapped types
/// once each, dropped split resources...).
#[derive(Clone, Debug, Default)]
pub struct Mapped {
    pub resources: Vec<MappedResource>,
    pub warnings: Vec<String>,
}

/// The stack of the thread mapping half of the instances (reserved, not committed): as much
/// as the main thread's, where the other half is mapped.
const STACK: usize = 8 << 20;

/// Maps every instance whose type has a mapping (with derived resources, contributions of
/// split resources and reverse associations).
pub fn map(mappings: &Mappings, instances: &[Instance]) -> Mapped {
    let mut run = Run::default();
    let mut unmapped = BTreeSet::new();
    for inst in instances {
        if mappings.get(&inst.tf_type).is_none() && unmapped.insert(inst.tf_type.as_str()) {
            run.warnings.push(format!(
                "Terraform type {} is not mapped: its resources are loaded raw only, as {}",
                inst.tf_type,
                crate::raw::raw_type(&inst.tf_type)
            ));
        }
    }
    // Each instance is mapped on its own (its resources, contributions and warnings only
    // appended): the second half on a thread of its own, appended after the first.
    let mapped: Vec<(usize, &Instance, &Mapping)> = instances
        .iter()
        .enumerate()
        .filter_map(|(index, inst)| mappings.get(&inst.tf_type).map(|m| (index, inst, m)))
        .collect();
    let (first, second) = mapped.split_at(mapped.len() / 2);
    fn map_all<'m>(run: &mut Run<'m>, part: &[(usize, &Instance, &'m Mapping)]) {
        for &(index, inst, m) in part {
            run.instance(index, inst, m);
        }
    }
    let later = std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("terraform-map".into())
            .stack_size(STACK)
            .spawn_scoped(s, || {
                let mut later = Run::default();
                map_all(&mut later, second);
                later
            });
        map_all(&mut run, first);
        match worker {
            Ok(handle) => match handle.join() {
                Ok(later) => Some(later),
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match later {
        Some(later) => {
            run.resources.extend(later.resources);
            run.derived_pending.extend(later.derived_pending);
            run.pending.extend(later.pending);
            run.replacing.extend(later.replacing);
            run.warnings.extend(later.warnings);
        }
        None => map_all(&mut run, second),
    }
    run.replace();
    run.contributions(instances);
    run.finish();
    run.reverse_links();
    Mapped {
        resources: run
            .resources
            .into_iter()
            .map(|w| MappedResource {
                type_name: w.type_name,
                id: w.id,
                region: w.region,
                file: w.file,
                line: Some(w.line as u64),
                properties: w
                    .props
                    .iter()
                    .map(|(k, v)| (k.clone(), values::to_json(v)))
                    .collect(),
            })
            .collect(),
        warnings: run.warnings,
    }
}

/// A resource being built.
struct Working<'m> {
    type_name: String,
    id: String,
    region: Option<String>,
    file: String,
    line: usize,
    props: BTreeMap<String, Value>,
    /// The mapping whose `group`, `after_merge` and `reverse` apply (none for derived
    /// resources).
    mapping: Option<&'m Mapping>,
    /// Its instance (for the inline settings a contribution overrides).
    instance: usize,
    /// `self` in its expressions.
    this: Value,
    /// The members set by contributions so far, and by whom.
    set_by: BTreeMap<String, String>,
}

/// For contributions that name their target by a member (`match`), by type and member:
/// the first resource with each value of the member.
type Matches = HashMap<(String, String), HashMap<String, usize>>;

/// A contribution evaluated, waiting for its target.
struct Pending {
    contributor: String,
    file: String,
    line: usize,
    to: String,
    target: Value,
    match_member: Option<String>,
    path: Value,
    set: bool,
    value: Value,
    inline: Vec<String>,
}

#[derive(Default)]
struct Run<'m> {
    resources: Vec<Working<'m>>,
    /// Contributions of derived resources (applied first), then of the others.
    derived_pending: Vec<Pending>,
    pending: Vec<Pending>,
    /// `replaces` blocks evaluated: (target, derived label).
    replacing: Vec<(Value, String)>,
    warnings: Vec<String>,
}

/// The resource a `derive` block derives from.
struct Parent<'a, 'm> {
    index: usize,
    inst: &'a Instance,
    mapping: &'m Mapping,
    src: &'a Src,
    this: &'a Value,
}

/// The block a derived resource comes from.
enum Written<'a> {
    Block(&'a spec::Item),
    /// None: an `always` resource.
    Absent,
    /// A `dynamic` block over an unknown collection.
    Unknown,
}

/// `self` (or `parent`) in a mapping's expressions.
fn self_value(address: &str, inst: &Instance, declared: bool) -> Value {
    Value::object_from([
        ("address", Value::from(address)),
        ("id", Value::String(identity::identity(address, "id"))),
        ("type", Value::from(inst.tf_type.as_str())),
        (
            "region",
            inst.region
                .as_deref()
                .map_or(Value::Null(Type::String), Value::from),
        ),
        ("default_tags", inst.default_tags.clone()),
        ("declared", Value::Bool(declared)),
    ])
}

/// The scope of a mapping's expressions.
fn scope(m: &Mapping, this: &Value, parent: Option<&Value>) -> EvalContext {
    let mut vars = BTreeMap::from([
        ("local".to_string(), m.locals.clone()),
        ("self".to_string(), this.clone()),
    ]);
    if let Some(p) = parent {
        vars.insert("parent".to_string(), p.clone());
    }
    EvalContext::empty()
        .with_functions(functions())
        .with_variables(vars)
}

fn unknown_expansion(address: &str) -> Value {
    let resource = address.strip_suffix("[*]").unwrap_or(address);
    values::unknown(
        &format!("the count or for_each of {resource} is not known before apply"),
        false,
    )
}

impl<'m> Run<'m> {
    fn diagnostics(&mut self, file: &str, line: usize, address: &str, diags: Vec<Diagnostic>) {
        for d in diags {
            self.warnings
                .push(format!("{}: {address}: {d}", place(file, line)));
        }
    }

    /// The instance's own resource, its derived resources and its contributions.
    fn instance(&mut self, index: usize, inst: &Instance, m: &'m Mapping) {
        let this = self_value(&inst.address, inst, true);
        let ctx = scope(m, &this, None);
        let decoder = Decoder::new(&inst.ctx, &ctx);
        let src = Src::body(inst.body.clone());
        let value: BTreeMap<String, Value> = m
            .properties
            .iter()
            .map(|(k, n)| (k.clone(), decoder.decode(n, &src)))
            .collect();
        let diags = decoder.diags.take();
        self.diagnostics(&inst.file, inst.line, &inst.address, diags);
        let props = if inst.unknown_expansion {
            value
                .keys()
                .map(|k| (k.clone(), unknown_expansion(&inst.address)))
                .collect()
        } else {
            value.clone()
        };
        if let Some(target) = &m.target {
            self.resources.push(Working {
                type_name: target.clone(),
                id: inst.address.clone(),
                region: inst.region.clone(),
                file: inst.file.clone(),
                line: inst.line,
                props,
                mapping: Some(m),
                instance: index,
                this: this.clone(),
                set_by: BTreeMap::new(),
            });
        }
        let resource = for_expression(&Value::Object(value));
        for c in &m.contributions {
            let p = self.contribution(c, inst, &inst.address, inst.line, &ctx, &resource);
            self.pending.extend(p);
        }
        let parent = Parent {
            index,
            inst,
            mapping: m,
            src: &src,
            this: &this,
        };
        for r in &m.replaces {
            let ctx = ctx.child(BTreeMap::from([("resource".to_string(), resource.clone())]));
            let (target, diags) = r.target.value(&ctx);
            self.diagnostics(&inst.file, inst.line, &inst.address, diags);
            self.replacing.push((target, r.derived.clone()));
        }
        for d in &m.derived {
            if d.single {
                let id = format!("{}.{}", inst.address, d.block);
                self.derived(&parent, d, &id, Written::Absent);
                continue;
            }
            let items = match decoder.items(&src, &d.block, 0, false) {
                Items::Unknown => {
                    let id = format!("{}.{}[*]", inst.address, d.block);
                    self.derived(&parent, d, &id, Written::Unknown);
                    continue;
                }
                Items::Known(items) => items,
            };
            if items.is_empty() && d.always {
                let id = format!("{}.{}[0]", inst.address, d.block);
                self.derived(&parent, d, &id, Written::Absent);
            }
            for (i, item) in items.iter().enumerate() {
                let key = d.key.as_ref().and_then(|k| {
                    let v = decoder.decode(
                        &spec::Node::Attr {
                            name: k.clone(),
                            ty: Type::String,
                        },
                        &item.src,
                    );
                    v.as_str()
                        .filter(|s| !s.contains('\u{1}'))
                        .map(values::address_key)
                });
                let id = format!(
                    "{}.{}[{}]",
                    inst.address,
                    d.block,
                    key.unwrap_or_else(|| i.to_string())
                );
                self.derived(&parent, d, &id, Written::Block(item));
            }
        }
    }

    /// One derived resource.
    fn derived(&mut self, parent: &Parent<'_, 'm>, d: &load::Derive, id: &str, block: Written<'_>) {
        let inst = parent.inst;
        let this = self_value(id, inst, matches!(block, Written::Block(_)));
        let ctx = scope(parent.mapping, &this, Some(parent.this));
        let mut decoder = Decoder::new(&inst.ctx, &ctx);
        decoder.parent = Some(parent.src);
        let (src, line) = match block {
            Written::Block(item) => (
                item.src.clone(),
                item.range.as_ref().map_or(inst.line, |r| r.start.line),
            ),
            Written::Absent | Written::Unknown => (Src::Empty, inst.line),
        };
        let value: BTreeMap<String, Value> = d
            .properties
            .iter()
            .map(|(k, n)| (k.clone(), decoder.decode(n, &src)))
            .collect();
        let diags = decoder.diags.take();
        self.diagnostics(&inst.file, line, id, diags);
        // Everything is unknown when how many there are is.
        let unknown = if inst.unknown_expansion {
            Some(unknown_expansion(&inst.address))
        } else if matches!(block, Written::Unknown) {
            Some(values::unknown(
                &format!(
                    "the for_each of the dynamic {} blocks of {} is not known before apply",
                    d.block, inst.address
                ),
                false,
            ))
        } else {
            None
        };
        let props = match &unknown {
            Some(u) => value.keys().map(|k| (k.clone(), u.clone())).collect(),
            None => value.clone(),
        };
        let resource = for_expression(&Value::Object(value));
        for c in &d.contributions {
            let mut p = self.contribution(c, inst, id, line, &ctx, &resource);
            if let (Some(p), Some(u)) = (p.as_mut(), &unknown) {
                p.value = u.clone();
            }
            self.derived_pending.extend(p);
        }
        self.resources.push(Working {
            type_name: d.target.clone(),
            id: id.to_string(),
            region: inst.region.clone(),
            file: inst.file.clone(),
            line,
            props,
            mapping: None,
            instance: parent.index,
            this,
            set_by: BTreeMap::new(),
        });
    }

    /// A `contribute` block evaluated for one resource (`resource`: its decoded value).
    fn contribution(
        &mut self,
        c: &Contribution,
        inst: &Instance,
        address: &str,
        line: usize,
        ctx: &EvalContext,
        resource: &Value,
    ) -> Option<Pending> {
        let ctx = ctx.child(BTreeMap::from([("resource".to_string(), resource.clone())]));
        let mut diags = Vec::new();
        let mut eval = |e: &cloudspec_hcl::body::Expr| {
            let (v, d) = e.value(&ctx);
            diags.extend(d);
            v
        };
        let target = eval(&c.target);
        let path = eval(&c.path);
        let (set, value) = match &c.op {
            Op::Set(e) => (true, eval(e)),
            Op::Append(e) => (false, eval(e)),
        };
        self.diagnostics(&inst.file, line, address, diags);
        let value = if inst.unknown_expansion {
            unknown_expansion(&inst.address)
        } else {
            value
        };
        Some(Pending {
            contributor: address.to_string(),
            file: inst.file.clone(),
            line,
            to: c.to.clone(),
            target,
            match_member: c.match_member.clone(),
            path,
            set,
            value,
            inline: c.inline.clone(),
        })
    }

    /// Leaves out the `single` derived resources a declared resource stands for (its
    /// `replaces` target, an identity or the raw id of a reference, is the resource that
    /// derives them), with their contributions. A target outside the configuration (a
    /// literal id) or not known replaces nothing.
    fn replace(&mut self) {
        let mut gone = BTreeSet::new();
        for (target, label) in std::mem::take(&mut self.replacing) {
            let address = match &target {
                Value::String(s) => match marker(s) {
                    Some(Marker::Identity { address, .. }) => address.to_string(),
                    Some(_) => continue,
                    None if s.contains('\u{1}') => continue,
                    None => s.clone(),
                },
                _ => continue,
            };
            gone.insert(format!("{address}.{label}"));
        }
        if gone.is_empty() {
            return;
        }
        self.resources
            .retain(|w| w.mapping.is_some() || !gone.contains(&w.id));
        self.derived_pending
            .retain(|p| !gone.contains(&p.contributor));
    }

    /// The resource a contribution goes to, or why it has none. A target that names
    /// another contributor to the same type goes where that one goes: the S3 split
    /// resources' ids are their bucket's name, and the modules write
    /// `bucket = aws_s3_bucket_policy.this[0].id` to order their calls.
    fn resolve(
        &self,
        p: &Pending,
        index: &HashMap<(String, String), usize>,
        through: &HashMap<(String, String), Value>,
        matches: &mut Matches,
    ) -> Result<usize, String> {
        let to = p.to.as_str();
        let mut target = &p.target;
        // Each step follows one contributor; a chain longer than all of them is a cycle.
        for _ in 0..=through.len() {
            let s = match target {
                Value::String(s) => s.as_str(),
                _ => return Err(format!("its {to} is not known before apply")),
            };
            return match marker(s) {
                Some(Marker::Identity { address, .. }) => {
                    if let Some(&at) = index.get(&(to.to_string(), address.to_string())) {
                        Ok(at)
                    } else if let Some(next) = through.get(&(to.to_string(), address.to_string())) {
                        target = next;
                        continue;
                    } else {
                        Err(format!("{address} is not a {to} of the configuration"))
                    }
                }
                Some(_) => Err(format!("its {to} is not known before apply")),
                None if s.contains('\u{1}') => Err(format!("its {to} is not known before apply")),
                None => match &p.match_member {
                    Some(member) => matches
                        .entry((to.to_string(), member.clone()))
                        .or_insert_with(|| {
                            // The first resource of the type with each value of the member.
                            let mut first = HashMap::new();
                            for (i, w) in self.resources.iter().enumerate() {
                                if w.type_name != to {
                                    continue;
                                }
                                if let Some(v) = w.props.get(member).and_then(Value::as_str) {
                                    first.entry(v.to_string()).or_insert(i);
                                }
                            }
                            first
                        })
                        .get(s)
                        .copied()
                        .ok_or_else(|| format!("no {to} with {member} {s:?} in the configuration")),
                    None => index
                        .get(&(to.to_string(), s.to_string()))
                        .copied()
                        .ok_or_else(|| format!("no {to} {s:?} in the configuration")),
                },
            };
        }
        Err(format!(
            "its {to} is named through a cycle of contributions"
        ))
    }

    /// Applies every contribution to its target: derived resources' first, then the others
    /// in the order of the instances.
    fn contributions(&mut self, instances: &[Instance]) {
        let pending: Vec<Pending> = std::mem::take(&mut self.derived_pending)
            .into_iter()
            .chain(std::mem::take(&mut self.pending))
            .collect();
        // Contributions change properties, never which resources there are.
        let index: HashMap<(String, String), usize> = self
            .resources
            .iter()
            .enumerate()
            .map(|(i, w)| ((w.type_name.clone(), w.id.clone()), i))
            .collect();
        // Where each contributor's own contribution to a type goes, for targets that name
        // a contributor (the first contribution of each to each type).
        let mut through: HashMap<(String, String), Value> = HashMap::new();
        for p in &pending {
            through
                .entry((p.to.clone(), p.contributor.clone()))
                .or_insert_with(|| p.target.clone());
        }
        let mut matches = Matches::new();
        for p in pending {
            let at = match self.resolve(&p, &index, &through, &mut matches) {
                Ok(at) => at,
                Err(why) => {
                    self.warnings.push(format!(
                        "{}: {} is dropped: {why}",
                        place(&p.file, p.line),
                        p.contributor
                    ));
                    continue;
                }
            };
            let Some(path) = p.path.as_str().filter(|s| !s.contains('\u{1}')) else {
                self.warnings.push(format!(
                    "{}: {} is dropped: the member it contributes to is not known",
                    place(&p.file, p.line),
                    p.contributor
                ));
                continue;
            };
            let path = path.to_string();
            let mut notes = Vec::new();
            let Some(w) = self.resources.get_mut(at) else {
                continue;
            };
            // The member changes: an index of its values is stale.
            matches.retain(|(t, member), _| !(*t == w.type_name && *member == path));
            if p.set {
                if let Some(before) = w.set_by.insert(path.clone(), p.contributor.clone()) {
                    notes.push(format!(
                        "{}: {} sets {path} of {}, as {before} does; the last one wins",
                        place(&p.file, p.line),
                        p.contributor,
                        w.id
                    ));
                }
                if let Some(target) = instances.get(w.instance) {
                    for name in &p.inline {
                        if spec::body_declares(&target.body, &target.ctx, name) {
                            notes.push(format!(
                                "{}: {} overrides the inline {name} of {} ({}); the separate resource wins",
                                place(&p.file, p.line),
                                p.contributor,
                                w.id,
                                place(&w.file, w.line)
                            ));
                        }
                    }
                }
                w.props.insert(path, p.value);
            } else {
                let current = w.props.remove(&path).unwrap_or(Value::Null(Type::Dynamic));
                let merged = append(current, p.value);
                w.props.insert(path, merged);
            }
            self.warnings.extend(notes);
        }
    }

    /// `group` and `after_merge` of every resource.
    fn finish(&mut self) {
        let mut warnings = Vec::new();
        for w in &mut self.resources {
            let Some(m) = w.mapping else { continue };
            for g in &m.groups {
                if let Some(v) = w.props.get(&g.member) {
                    let grouped = values::regroup(v, &g.by, &g.concat);
                    w.props.insert(g.member.clone(), grouped);
                }
            }
            for (member, expr) in &m.after_merge {
                let resource = for_expression(&Value::Object(w.props.clone()));
                let ctx = scope(m, &w.this, None)
                    .child(BTreeMap::from([("resource".to_string(), resource)]));
                let (v, diags) = expr.value(&ctx);
                for d in diags {
                    warnings.push(format!("{}: {}: {d}", place(&w.file, w.line), w.id));
                }
                w.props.insert(member.clone(), v);
            }
        }
        self.warnings.extend(warnings);
    }

    /// Every `reverse` link: the resources of `from` whose member `via` holds the id.
    fn reverse_links(&mut self) {
        /// What the resources of one type hold at one member path: the first whose ids are
        /// not known, and for each known id the resources holding it.
        #[derive(Default)]
        struct Held<'a> {
            unknown: Option<&'a str>,
            by_id: HashMap<String, BTreeSet<&'a str>>,
        }
        let mut by_type: HashMap<&str, Vec<&Working<'m>>> = HashMap::new();
        for s in &self.resources {
            by_type.entry(s.type_name.as_str()).or_default().push(s);
        }
        let mut held: HashMap<(&str, &[String]), Held<'_>> = HashMap::new();
        let mut updates: Vec<(usize, String, Value)> = Vec::new();
        for (i, w) in self.resources.iter().enumerate() {
            let Some(m) = w.mapping else { continue };
            for r in &m.reverse {
                let links = held
                    .entry((r.from.as_str(), r.via.as_slice()))
                    .or_insert_with(|| {
                        let mut links = Held::default();
                        for s in by_type.get(r.from.as_str()).into_iter().flatten() {
                            let ids = match r.via.split_first() {
                                Some((first, rest)) => s
                                    .props
                                    .get(first)
                                    .map_or(Some(Vec::new()), |v| ids_at(v, rest)),
                                None => Some(Vec::new()),
                            };
                            match ids {
                                Some(ids) => {
                                    for id in ids {
                                        links.by_id.entry(id).or_default().insert(&s.id);
                                    }
                                }
                                None => links.unknown = links.unknown.or(Some(&s.id)),
                            }
                        }
                        links
                    });
                let v = if let Some(source) = links.unknown {
                    values::unknown(
                        &format!(
                            "the {} of {source} is not known before apply",
                            r.via.join(".")
                        ),
                        true,
                    )
                } else {
                    Value::Tuple(
                        links
                            .by_id
                            .get(w.id.as_str())
                            .into_iter()
                            .flatten()
                            .map(|id| values::ref_value(&r.from, id))
                            .collect(),
                    )
                };
                updates.push((i, r.member.clone(), v));
            }
        }
        for (i, member, v) in updates {
            if let Some(w) = self.resources.get_mut(i) {
                w.props.insert(member, v);
            }
        }
    }
}

/// `elements` appended to the list `current`. An unknown list stays unknown; unknown
/// elements make the list unknown.
fn append(current: Value, elements: Value) -> Value {
    let is_unknown = |v: &Value| match v {
        Value::Unknown(_) => true,
        Value::String(s) => matches!(marker(s), Some(Marker::Unknown { .. })),
        _ => false,
    };
    if is_unknown(&current) {
        return current;
    }
    if is_unknown(&elements) {
        return elements;
    }
    let more = match elements {
        Value::Tuple(items) | Value::List(_, items) | Value::Set(_, items) => items,
        Value::Null(_) => Vec::new(),
        other => vec![other],
    };
    match current {
        Value::Tuple(mut items) | Value::List(_, mut items) | Value::Set(_, mut items) => {
            items.extend(more);
            Value::Tuple(items)
        }
        _ => Value::Tuple(more),
    }
}

/// The known strings at `path` in `v` (through lists), `None` when anything on the way is
/// unknown.
fn ids_at(v: &Value, path: &[String]) -> Option<Vec<String>> {
    match v {
        Value::Unknown(_) => None,
        Value::String(s) => match (path.is_empty(), marker(s)) {
            (_, Some(Marker::Unknown { .. } | Marker::Identity { .. })) => None,
            (true, _) => Some(vec![s.clone()]),
            (false, _) => Some(Vec::new()),
        },
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            let mut out = Vec::new();
            for i in items {
                out.extend(ids_at(i, path)?);
            }
            Some(out)
        }
        Value::Object(m) | Value::Map(_, m) => match path.split_first() {
            Some((first, rest)) => match m.get(first) {
                Some(inner) => ids_at(inner, rest),
                None => Some(Vec::new()),
            },
            None => Some(Vec::new()),
        },
        _ => Some(Vec::new()),
    }
}

/// `file:line` of a warning; a plan's resources have no line (0): `plan.json`.
fn place(file: &str, line: usize) -> String {
    match line {
        0 => file.to_string(),
        line => format!("{file}:{line}"),
    }
}
