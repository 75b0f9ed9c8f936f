//! One module directory read into its declarations: `*.tf` and `*.tf.json` in name order,
//! then the override files (`override.tf[.json]`, `*_override.tf[.json]`) merged into the
//! blocks they override, as Terraform does (`configs/module_merge.go`). Nothing is
//! evaluated here.
//!
//! Every file is read through [`cloudspec_model::input`] (a size limit, text only); a
//! symbolic link is followed only to a file inside the `--terraform` tree. Every syntax and
//! structure error of every file is reported together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudspec_hcl::body::{
    parse_file, Attribute, AttributeSchema, Block, BlockHeaderSchema, Body, BodySchema, Expr,
};
use cloudspec_hcl::diag::{has_errors, range_string};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Range, Value};
use cloudspec_model::input;

use crate::Failure;

/// At most this many configuration files in one module directory.
pub const MAX_FILES: usize = 1000;

/// A `variable` block.
#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    /// The `type` constraint's expression, when given.
    pub type_expr: Option<Expr>,
    pub default: Option<Expr>,
    /// `nullable` (true unless `nullable = false`).
    pub nullable: bool,
    pub block: Block,
}

/// A `resource` or `data` block, with the blocks of override files that override it (in
/// the order they apply).
#[derive(Clone, Debug)]
pub struct ResourceBlock {
    pub managed: bool,
    pub tf_type: String,
    pub name: String,
    pub block: Block,
    pub overrides: Vec<Block>,
}

impl ResourceBlock {
    /// `aws_instance.web`, `data.aws_ami.ubuntu`.
    pub fn address(&self) -> String {
        if self.managed {
            format!("{}.{}", self.tf_type, self.name)
        } else {
            format!("data.{}.{}", self.tf_type, self.name)
        }
    }

    /// The block's body and the override bodies, in the order they apply.
    pub fn bodies(&self) -> Vec<&Body> {
        std::iter::once(&self.block.body)
            .chain(self.overrides.iter().map(|b| &b.body))
            .collect()
    }
}

/// A `module` block, with its overrides.
#[derive(Clone, Debug)]
pub struct ModuleCall {
    pub name: String,
    pub block: Block,
    pub overrides: Vec<Block>,
}

impl ModuleCall {
    pub fn bodies(&self) -> Vec<&Body> {
        std::iter::once(&self.block.body)
            .chain(self.overrides.iter().map(|b| &b.body))
            .collect()
    }
}

/// A `provider` block, with its overrides.
#[derive(Clone, Debug)]
pub struct ProviderBlock {
    /// The provider's local name (`aws`).
    pub name: String,
    /// `alias`, when given.
    pub alias: Option<String>,
    pub block: Block,
    pub overrides: Vec<Block>,
}

impl ProviderBlock {
    /// `aws`, `aws.west`.
    pub fn key(&self) -> String {
        match &self.alias {
            Some(a) => format!("{}.{a}", self.name),
            None => self.name.clone(),
        }
    }

    pub fn bodies(&self) -> Vec<&Body> {
        std::iter::once(&self.block.body)
            .chain(self.overrides.iter().map(|b| &b.body))
            .collect()
    }
}

/// An `output` block (its `value` after overrides).
#[derive(Clone, Debug)]
pub struct Output {
    pub name: String,
    pub value: Option<Expr>,
    pub block: Block,
    /// `depends_on` and pre/postconditions are not evaluated; the blocks that set the
    /// value are kept for references.
    pub overrides: Vec<Block>,
}

/// A module's declarations.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The directory, as given.
    pub dir: PathBuf,
    /// The directory relative to the `--terraform` directory (`""` for the root module,
    /// `modules/net`), with `/` separators.
    pub prefix: String,
    /// File names relative to the `--terraform` directory (`main.tf`, `modules/net/main.tf`).
    pub files: Vec<String>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Attribute>,
    pub resources: Vec<ResourceBlock>,
    pub modules: Vec<ModuleCall>,
    pub providers: Vec<ProviderBlock>,
    pub outputs: Vec<Output>,
}

impl Module {
    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.variables.iter().find(|v| v.name == name)
    }
    pub fn local(&self, name: &str) -> Option<&Attribute> {
        self.locals.iter().find(|l| l.name == name)
    }
    pub fn resource(&self, managed: bool, tf_type: &str, name: &str) -> Option<&ResourceBlock> {
        self.resources
            .iter()
            .find(|r| r.managed == managed && r.tf_type == tf_type && r.name == name)
    }
    pub fn module_call(&self, name: &str) -> Option<&ModuleCall> {
        self.modules.iter().find(|m| m.name == name)
    }
}

/// The name a file of a module has in messages.
pub fn display_name(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

/// Terraform's `IsIgnoredFile`: editor backups and hidden files.
fn ignored(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

fn is_override(name: &str) -> bool {
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tf"))
        .unwrap_or(name);
    stem == "override" || stem.ends_with("_override")
}

/// Reads the module in `dir`; `prefix` is how its files are named in messages (relative
/// to the `--terraform` directory; empty for the root module). Symbolic links are followed
/// only to files inside `dir` (see [`load_in`] for a module inside a larger tree).
pub fn load(dir: &Path, prefix: &str) -> Result<Module, Failure> {
    load_in(dir, dir, prefix)
}

/// Reads the module in `dir`, a directory inside the `--terraform` directory `root`:
/// symbolic links are followed only to files inside `root`.
pub fn load_in(root: &Path, dir: &Path, prefix: &str) -> Result<Module, Failure> {
    let shown = if prefix.is_empty() {
        ".".to_string()
    } else {
        prefix.to_string()
    };
    let unreadable = |e: std::io::Error| {
        Failure::message(format!(
            "{}: cannot read the module directory: {e}",
            input::escape_control(&shown)
        ))
    };
    let root = std::fs::canonicalize(root).map_err(unreadable)?;
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if !(name.ends_with(".tf") || name.ends_with(".tf.json")) || ignored(&name) {
            continue;
        }
        let path = entry.path();
        let shown_file = display_name(prefix, &name);
        let kind = entry.file_type().map_err(|e| {
            Failure::message(format!(
                "{}: cannot read: {e}",
                input::escape_control(&shown_file)
            ))
        })?;
        if kind.is_symlink() {
            let target = std::fs::canonicalize(&path).map_err(|e| {
                Failure::message(format!(
                    "{}: symbolic link that cannot be followed: {e}",
                    input::escape_control(&shown_file)
                ))
            })?;
            if !target.starts_with(&root) {
                return Err(Failure::message(format!(
                    "{}: symbolic link to a file outside the Terraform directory; cloudspec \
                     does not follow links out of the directory it was given",
                    input::escape_control(&shown_file)
                )));
            }
            if !target.is_file() {
                continue;
            }
        } else if !kind.is_file() {
            continue;
        }
        found.push((name, path));
        if found.len() > MAX_FILES {
            return Err(Failure::message(format!(
                "{}: more than {MAX_FILES} configuration files in one module",
                input::escape_control(&shown)
            )));
        }
    }
    found.sort();
    let mut files = Vec::new();
    for (name, path) in &found {
        let shown_file = display_name(prefix, name);
        let text = read_text(path, &shown_file, "a Terraform configuration file")?;
        files.push((shown_file, is_override(name), text));
    }
    if files.is_empty() {
        return Err(Failure::message(if prefix.is_empty() {
            "no Terraform configuration files (*.tf, *.tf.json) in the Terraform directory"
                .to_string()
        } else {
            format!(
                "{}: no Terraform configuration files (*.tf, *.tf.json) in this module \
                 directory",
                input::escape_control(&shown)
            )
        }));
    }
    let mut module = parse_module(&files)?;
    module.dir = dir.to_path_buf();
    module.prefix = prefix.to_string();
    Ok(module)
}

/// Reads a text file within the HCL size limit, naming it `shown` in messages.
pub fn read_text(path: &Path, shown: &str, what: &'static str) -> Result<String, Failure> {
    let file = std::fs::File::open(path).map_err(|e| {
        Failure::message(format!(
            "{}: cannot read: {e}",
            input::escape_control(shown)
        ))
    })?;
    let bytes = input::read_limited(file, shown, input::MAX_HCL_BYTES, what)
        .map_err(|e| Failure::message(e.to_string()))?;
    input::into_text(bytes, shown, what).map_err(|e| {
        // Positioned like every other error: `FILE:LINE:COL: error: ...`.
        let (line, column, summary) = match &e {
            input::InputError::Binary { line, column, .. } => {
                (*line, *column, "not a text file (a NUL byte)")
            }
            input::InputError::NotUtf8 { line, column, .. } => (*line, *column, "invalid UTF-8"),
            _ => return Failure::message(e.to_string()),
        };
        let at = cloudspec_hcl::Pos {
            line,
            column,
            byte: 0,
        };
        let range = Range {
            filename: shown.to_string(),
            start: at,
            end: at,
        };
        Failure {
            diagnostics: vec![Diagnostic::error(
                summary,
                format!("{what} must be UTF-8 text"),
                Some(range),
            )],
        }
    })
}

/// Parses the files of one module (`(name, is_override, text)`, in name order) into its
/// declarations: every syntax and structure error of every file together.
pub fn parse_module(files: &[(String, bool, String)]) -> Result<Module, Failure> {
    let mut diags = Vec::new();
    let mut module = Module::default();
    let mut overrides: Vec<(String, Body)> = Vec::new();
    for (name, is_override, text) in files {
        module.files.push(name.clone());
        let (body, d) = parse_file(name, text);
        diags.extend(d);
        let Some(body) = body else { continue };
        if *is_override {
            overrides.push((name.clone(), body));
        } else {
            add_file(&mut module, &body, &mut diags);
        }
    }
    for (_, body) in &overrides {
        merge_file(&mut module, body, &mut diags);
    }
    if has_errors(&diags) {
        diags.retain(|d| d.severity == cloudspec_hcl::Severity::Error);
        // In the order of files and positions.
        diags.sort_by(|a, b| {
            let key = |d: &Diagnostic| {
                d.subject
                    .as_ref()
                    .map(|r| (r.filename.clone(), r.start.byte))
            };
            key(a).cmp(&key(b))
        });
        return Err(Failure { diagnostics: diags });
    }
    Ok(module)
}

/// The top-level blocks of a configuration file (`configFileSchema`).
fn file_schema() -> BodySchema {
    let block = |t: &str, labels: &[&str]| BlockHeaderSchema::new(t, labels.iter().copied());
    BodySchema {
        attributes: Vec::new(),
        blocks: vec![
            block("terraform", &[]),
            block("required_providers", &[]),
            block("provider", &["name"]),
            block("variable", &["name"]),
            block("locals", &[]),
            block("output", &["name"]),
            block("module", &["name"]),
            block("resource", &["type", "name"]),
            block("data", &["type", "name"]),
            block("ephemeral", &["type", "name"]),
            block("moved", &[]),
            block("import", &[]),
            block("check", &["name"]),
            block("removed", &[]),
        ],
    }
}

fn schema(attrs: &[&str], blocks: &[(&str, &[&str])]) -> BodySchema {
    BodySchema {
        attributes: attrs
            .iter()
            .map(|a| AttributeSchema::new(*a, false))
            .collect(),
        blocks: blocks
            .iter()
            .map(|(t, l)| BlockHeaderSchema::new(*t, l.iter().copied()))
            .collect(),
    }
}

fn variable_schema() -> BodySchema {
    schema(
        &[
            "description",
            "default",
            "type",
            "sensitive",
            "nullable",
            "ephemeral",
        ],
        &[("validation", &[])],
    )
}

/// A variable block decoded (diagnostics added to `diags`).
fn decode_variable(block: &Block, diags: &mut Vec<Diagnostic>) -> Variable {
    let (content, d) = block.body.content(&variable_schema());
    diags.extend(d);
    let name = block.labels.first().cloned().unwrap_or_default();
    let mut v = Variable {
        name,
        type_expr: None,
        default: None,
        nullable: true,
        block: block.clone(),
    };
    apply_variable_attrs(&mut v, &content.attributes, diags);
    v
}

fn apply_variable_attrs(
    v: &mut Variable,
    attrs: &BTreeMap<String, Attribute>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(t) = attrs.get("type") {
        v.type_expr = Some(t.expr.clone());
    }
    if let Some(d) = attrs.get("default") {
        v.default = Some(d.expr.clone());
    }
    if let Some(n) = attrs.get("nullable") {
        let (value, d) = n.expr.value(&EvalContext::empty());
        diags.extend(d);
        match value {
            Value::Bool(b) => v.nullable = b,
            Value::Null(_) => v.nullable = true,
            _ => diags.push(Diagnostic::error(
                "Invalid nullable value",
                "The nullable argument must be true or false.",
                Some(n.expr.range()),
            )),
        }
    }
}

fn label(block: &Block, i: usize) -> String {
    block.labels.get(i).cloned().unwrap_or_default()
}

/// The `alias` of a provider block, when given as a literal.
fn provider_alias(block: &Block, diags: &mut Vec<Diagnostic>) -> Option<String> {
    let (content, _, d) = block.body.partial_content(&schema(&["alias"], &[]));
    diags.extend(d);
    let attr = content.attributes.get("alias")?;
    match attr.expr.value(&EvalContext::empty()) {
        (Value::String(s), _) => Some(s),
        _ => {
            diags.push(Diagnostic::error(
                "Invalid provider configuration alias",
                "The alias argument must be a literal string.",
                Some(attr.expr.range()),
            ));
            None
        }
    }
}

fn already(what: &str, name: &str, at: &Range, rule: &str) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "An"
    } else {
        "A"
    };
    let verb = if what == "variable" {
        "declared"
    } else {
        "defined"
    };
    format!(
        "{article} {what} named \"{name}\" was already {verb} at {}. {rule}",
        range_string(at)
    )
}

/// Adds the declarations of one primary file.
fn add_file(module: &mut Module, body: &Body, diags: &mut Vec<Diagnostic>) {
    let (content, d) = body.content(&file_schema());
    diags.extend(d);
    for block in content.blocks {
        match block.type_name.as_str() {
            "variable" => {
                let v = decode_variable(&block, diags);
                if let Some(existing) = module.variable(&v.name) {
                    diags.push(Diagnostic::error(
                        "Duplicate variable declaration",
                        already(
                            "variable",
                            &v.name,
                            &existing.block.def_range,
                            "Variable names must be unique within a module.",
                        ),
                        Some(block.def_range.clone()),
                    ));
                    continue;
                }
                module.variables.push(v);
            }
            "locals" => {
                let (attrs, d) = block.body.just_attributes();
                diags.extend(d);
                let mut attrs: Vec<Attribute> = attrs.into_values().collect();
                attrs.sort_by_key(|a| a.range.start.byte);
                for attr in attrs {
                    if let Some(existing) = module.local(&attr.name) {
                        diags.push(Diagnostic::error(
                            "Duplicate local value definition",
                            already(
                                "local value",
                                &attr.name,
                                &existing.range,
                                "Local value names must be unique within a module.",
                            ),
                            Some(attr.range.clone()),
                        ));
                        continue;
                    }
                    module.locals.push(attr);
                }
            }
            "output" => {
                let name = label(&block, 0);
                if let Some(existing) = module.outputs.iter().find(|o| o.name == name) {
                    diags.push(Diagnostic::error(
                        "Duplicate output definition",
                        already(
                            "output",
                            &name,
                            &existing.block.def_range,
                            "Output names must be unique within a module.",
                        ),
                        Some(block.def_range.clone()),
                    ));
                    continue;
                }
                let value = output_value(&block, diags);
                module.outputs.push(Output {
                    name,
                    value,
                    block,
                    overrides: Vec::new(),
                });
            }
            "module" => {
                let name = label(&block, 0);
                if let Some(existing) = module.module_call(&name) {
                    diags.push(Diagnostic::error(
                        "Duplicate module call",
                        format!(
                            "A module call named \"{name}\" was already defined at {}. Module \
                             calls must have unique names within a module.",
                            range_string(&existing.block.def_range)
                        ),
                        Some(block.def_range.clone()),
                    ));
                    continue;
                }
                module.modules.push(ModuleCall {
                    name,
                    block,
                    overrides: Vec::new(),
                });
            }
            "provider" => {
                let name = label(&block, 0);
                let alias = provider_alias(&block, diags);
                let p = ProviderBlock {
                    name,
                    alias,
                    block,
                    overrides: Vec::new(),
                };
                if let Some(existing) = module.providers.iter().find(|e| e.key() == p.key()) {
                    let detail = match &p.alias {
                        None => format!(
                            "A default (non-aliased) provider configuration for \"{}\" was \
                             already given at {}. If multiple configurations are required, \
                             set the \"alias\" argument for alternative configurations.",
                            p.name,
                            range_string(&existing.block.def_range)
                        ),
                        Some(alias) => format!(
                            "A provider configuration for \"{}\" with alias \"{alias}\" was \
                             already given at {}. Each configuration for the same provider \
                             must have a distinct alias.",
                            p.name,
                            range_string(&existing.block.def_range)
                        ),
                    };
                    diags.push(Diagnostic::error(
                        "Duplicate provider configuration",
                        detail,
                        Some(p.block.def_range.clone()),
                    ));
                    continue;
                }
                module.providers.push(p);
            }
            "resource" | "data" => {
                let managed = block.type_name == "resource";
                let (tf_type, name) = (label(&block, 0), label(&block, 1));
                if let Some(existing) = module.resource(managed, &tf_type, &name) {
                    let (summary, detail) = if managed {
                        (
                            format!("Duplicate resource \"{tf_type}\" configuration"),
                            format!(
                                "A {tf_type} resource named \"{name}\" was already declared at \
                                 {}. Resource names must be unique per type in each module.",
                                range_string(&existing.block.def_range)
                            ),
                        )
                    } else {
                        (
                            format!("Duplicate data \"{tf_type}\" configuration"),
                            format!(
                                "A {tf_type} data resource named \"{name}\" was already \
                                 declared at {}. Resource names must be unique per type in each \
                                 module.",
                                range_string(&existing.block.def_range)
                            ),
                        )
                    };
                    diags.push(Diagnostic::error(
                        summary,
                        detail,
                        Some(block.def_range.clone()),
                    ));
                    continue;
                }
                module.resources.push(ResourceBlock {
                    managed,
                    tf_type,
                    name,
                    block,
                    overrides: Vec::new(),
                });
            }
            "required_providers" => diags.push(Diagnostic::error(
                "Invalid required_providers block",
                "A \"required_providers\" block must be nested inside a \"terraform\" block.",
                Some(block.type_range.clone()),
            )),
            // terraform, ephemeral, moved, import, check, removed: nothing cloudspec reads.
            _ => {}
        }
    }
}

fn output_value(block: &Block, diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let (content, _, d) = block.body.partial_content(&schema(&["value"], &[]));
    diags.extend(d);
    content.attributes.get("value").map(|a| a.expr.clone())
}

/// Merges the blocks of one override file into the module.
fn merge_file(module: &mut Module, body: &Body, diags: &mut Vec<Diagnostic>) {
    let (content, d) = body.content(&file_schema());
    diags.extend(d);
    for block in content.blocks {
        match block.type_name.as_str() {
            "variable" => {
                let name = label(&block, 0);
                let (attrs, d) = block.body.content(&variable_schema());
                diags.extend(d);
                match module.variables.iter_mut().find(|v| v.name == name) {
                    Some(v) => apply_variable_attrs(v, &attrs.attributes, diags),
                    None => diags.push(Diagnostic::error(
                        "Missing base variable declaration to override",
                        format!(
                            "There is no variable named \"{name}\". An override file can only \
                             override a variable that was already declared in a primary \
                             configuration file."
                        ),
                        Some(block.def_range.clone()),
                    )),
                }
            }
            "locals" => {
                let (attrs, d) = block.body.just_attributes();
                diags.extend(d);
                let mut attrs: Vec<Attribute> = attrs.into_values().collect();
                attrs.sort_by_key(|a| a.range.start.byte);
                for attr in attrs {
                    match module.locals.iter_mut().find(|l| l.name == attr.name) {
                        Some(l) => *l = attr,
                        None => diags.push(Diagnostic::error(
                            "Missing base local value definition to override",
                            format!(
                                "There is no local value named \"{}\". An override file can \
                                 only override a local value that was already defined in a \
                                 primary configuration file.",
                                attr.name
                            ),
                            Some(attr.range.clone()),
                        )),
                    }
                }
            }
            "output" => {
                let name = label(&block, 0);
                let value = output_value(&block, diags);
                match module.outputs.iter_mut().find(|o| o.name == name) {
                    Some(o) => {
                        if value.is_some() {
                            o.value = value;
                        }
                        o.overrides.push(block);
                    }
                    None => diags.push(Diagnostic::error(
                        "Missing base output definition to override",
                        format!(
                            "There is no output named \"{name}\". An override file can only \
                             override an output that was already defined in a primary \
                             configuration file."
                        ),
                        Some(block.def_range.clone()),
                    )),
                }
            }
            "module" => {
                let name = label(&block, 0);
                match module.modules.iter_mut().find(|m| m.name == name) {
                    Some(m) => m.overrides.push(block),
                    None => diags.push(Diagnostic::error(
                        "Missing module call to override",
                        format!(
                            "There is no module call named \"{name}\". An override file can \
                             only override a module call that was defined in a primary \
                             configuration file."
                        ),
                        Some(block.def_range.clone()),
                    )),
                }
            }
            "provider" => {
                let name = label(&block, 0);
                let alias = provider_alias(&block, diags);
                let key = match &alias {
                    Some(a) => format!("{name}.{a}"),
                    None => name.clone(),
                };
                match module.providers.iter_mut().find(|p| p.key() == key) {
                    Some(p) => p.overrides.push(block),
                    // An absent default configuration is an empty one: the override is it.
                    None if alias.is_none() => module.providers.push(ProviderBlock {
                        name,
                        alias,
                        block,
                        overrides: Vec::new(),
                    }),
                    None => diags.push(Diagnostic::error(
                        "Missing base provider configuration for override",
                        format!(
                            "There is no {name} provider configuration with the alias \"{}\". \
                             An override file can only override an aliased provider \
                             configuration that was already defined in a primary configuration \
                             file.",
                            alias.unwrap_or_default()
                        ),
                        Some(block.def_range.clone()),
                    )),
                }
            }
            "resource" | "data" => {
                let managed = block.type_name == "resource";
                let (tf_type, name) = (label(&block, 0), label(&block, 1));
                match module
                    .resources
                    .iter_mut()
                    .find(|r| r.managed == managed && r.tf_type == tf_type && r.name == name)
                {
                    Some(r) => r.overrides.push(block),
                    None if managed => diags.push(Diagnostic::error(
                        "Missing resource to override",
                        format!(
                            "There is no {tf_type} resource named \"{name}\". An override file \
                             can only override a resource block defined in a primary \
                             configuration file."
                        ),
                        Some(block.def_range.clone()),
                    )),
                    None => diags.push(Diagnostic::error(
                        "Missing data resource to override",
                        format!(
                            "There is no {tf_type} data resource named \"{name}\". An override \
                             file can only override a data block defined in a primary \
                             configuration file."
                        ),
                        Some(block.def_range.clone()),
                    )),
                }
            }
            _ => {}
        }
    }
}

/// The attributes and blocks of bodies merged as override files merge them (no `dynamic`
/// expansion): a later body's attribute replaces an earlier one of the same name, and a
/// later body's blocks of a type replace every earlier block of that type.
pub fn merged_items(bodies: &[&Body]) -> (BTreeMap<String, Attribute>, Vec<Block>) {
    let mut attrs: BTreeMap<String, Attribute> = BTreeMap::new();
    let mut blocks: Vec<Block> = Vec::new();
    for body in bodies {
        let names = body.item_names();
        let (content, _) = body.content(&names.schema());
        // A name set again replaces the earlier argument or blocks of that name.
        for n in &names.blocks {
            attrs.remove(&n.type_name);
        }
        blocks.retain(|b| {
            !names.blocks.iter().any(|n| n.type_name == b.type_name)
                && !names.attributes.contains(&b.type_name)
        });
        attrs.extend(content.attributes);
        blocks.extend(content.blocks);
    }
    (attrs, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, bool, String)> {
        list.iter()
            .map(|(n, t)| (n.to_string(), is_override(n), t.to_string()))
            .collect()
    }

    #[test]
    fn override_names_follow_terraform() {
        assert!(is_override("override.tf"));
        assert!(is_override("override.tf.json"));
        assert!(is_override("a_override.tf"));
        assert!(is_override("a_override.tf.json"));
        assert!(!is_override("overrides.tf"));
        assert!(!is_override("a-override.tf"));
        assert!(ignored(".x.tf") && ignored("x.tf~") && ignored("#x.tf#"));
    }

    #[test]
    fn every_file_reports_its_syntax_errors() {
        let err = parse_module(&files(&[
            ("a.tf", "locals {\n  a = \n}\n"),
            ("b.tf.json", "{\"locals\": [}"),
        ]))
        .unwrap_err();
        let files: Vec<String> = err
            .diagnostics
            .iter()
            .filter_map(|d| d.subject.as_ref().map(|r| r.filename.clone()))
            .collect();
        assert!(files.contains(&"a.tf".to_string()), "{err}");
        assert!(files.contains(&"b.tf.json".to_string()), "{err}");
    }

    #[test]
    fn overrides_replace_locals_and_variable_defaults() {
        let m = parse_module(&files(&[
            (
                "main.tf",
                "variable \"v\" {\n  type = string\n  default = \"a\"\n}\nlocals {\n  x = 1\n  y = 2\n}\n",
            ),
            (
                "override.tf",
                "variable \"v\" {\n  default = \"b\"\n}\nlocals {\n  y = 3\n}\n",
            ),
        ]))
        .unwrap();
        let v = m.variable("v").unwrap();
        assert!(v.type_expr.is_some());
        let (d, _) = v.default.as_ref().unwrap().value(&EvalContext::empty());
        assert_eq!(d, Value::string("b"));
        let (y, _) = m.local("y").unwrap().expr.value(&EvalContext::empty());
        assert_eq!(y, Value::number(3));
    }
}
