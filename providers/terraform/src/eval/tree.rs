//! Loading the configuration tree: the root module and every module it calls, once per
//! path of calls.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cloudspec_hcl::diag::has_errors;
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::{Diagnostic, Value};
use cloudspec_model::input;

use super::{error, failure, MAX_MODULE_CALLS, MAX_MODULE_DEPTH};
use crate::module::{self, Module};
use crate::vars;
use crate::Failure;

/// A module of the configuration tree, once per call path.
pub(super) struct Config {
    pub(super) module: Arc<Module>,
    /// Call names from the root.
    pub(super) path: Vec<String>,
    /// The calling configuration and the index of the call in its module.
    pub(super) parent: Option<(usize, usize)>,
    /// `path.module`.
    pub(super) path_module: String,
    /// The configurations the module's calls load, by call index (`None`: not installed).
    pub(super) children: BTreeMap<usize, Option<usize>>,
}

impl Config {
    /// `the root module`, `module.a.module.b`, as Terraform's messages name it.
    pub(super) fn display(&self) -> String {
        if self.path.is_empty() {
            "the root module".to_string()
        } else {
            self.prefix().trim_end_matches('.').to_string()
        }
    }

    /// `module.a.module.b.` (empty for the root): how objects of this module are named.
    pub(super) fn prefix(&self) -> String {
        self.path.iter().map(|p| format!("module.{p}.")).collect()
    }
}

pub(super) struct Tree {
    /// The root module's directory, canonical: where `.terraform/modules` is read and what
    /// module directories are shown relative to.
    pub(super) root: PathBuf,
    /// The tree module sources must stay in (`--terraform-root`; the root module's
    /// directory by default), canonical.
    pub(super) tree: PathBuf,
    pub(super) configs: Vec<Config>,
    pub(super) warnings: Vec<Diagnostic>,
}

/// An installed remote module: `.terraform/modules/modules.json`'s `Key` and `Dir`.
pub(super) type Installed = BTreeMap<String, String>;

impl Tree {
    /// Loads the root module at `root` and every module it calls; `bound` is the tree
    /// (containing `root`) no module may come from outside of.
    pub(super) fn load(root: &Path, bound: &Path) -> Result<Tree, Failure> {
        let module = module::load_in(bound, root, "")?;
        let mut tree = Tree {
            root: root.to_path_buf(),
            tree: bound.to_path_buf(),
            configs: vec![Config {
                module: Arc::new(module),
                path: Vec::new(),
                parent: None,
                path_module: ".".into(),
                children: BTreeMap::new(),
            }],
            warnings: Vec::new(),
        };
        let mut cache: BTreeMap<PathBuf, Arc<Module>> = BTreeMap::new();
        cache.insert(root.to_path_buf(), tree.configs[0].module.clone());
        let mut installed: Option<Installed> = None;
        let mut errors: Vec<Diagnostic> = Vec::new();
        // Directories of each configuration, for cycles.
        let mut dirs: Vec<PathBuf> = vec![root.to_path_buf()];
        let mut next = 0;
        while next < tree.configs.len() {
            let c = next;
            next += 1;
            let module = tree.configs[c].module.clone();
            for (ci, call) in module.modules.iter().enumerate() {
                let child =
                    tree.load_call(c, ci, call, &dirs, &mut cache, &mut installed, &mut errors);
                if let Some((dir, config)) = child {
                    tree.configs.push(config);
                    dirs.push(dir);
                    let idx = tree.configs.len() - 1;
                    tree.configs[c].children.insert(ci, Some(idx));
                    if tree.configs.len() > MAX_MODULE_CALLS {
                        return Err(Failure::message(format!(
                            "the configuration calls more than {MAX_MODULE_CALLS} modules (counting each module once per path of calls to it)"
                        )));
                    }
                } else {
                    tree.configs[c].children.insert(ci, None);
                }
            }
        }
        if has_errors(&errors) {
            return Err(failure(errors));
        }
        Ok(tree)
    }

    /// Loads the module of call `ci` of configuration `c`: `(its directory, config)`, or
    /// `None` when it is not loaded (an error or a warning says why).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_call(
        &mut self,
        c: usize,
        ci: usize,
        call: &module::ModuleCall,
        dirs: &[PathBuf],
        cache: &mut BTreeMap<PathBuf, Arc<Module>>,
        installed: &mut Option<Installed>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<(PathBuf, Config)> {
        let parent = &self.configs[c];
        let mut path = parent.path.clone();
        path.push(call.name.clone());
        let call_addr: String = path
            .iter()
            .map(|p| format!("module.{p}"))
            .collect::<Vec<_>>()
            .join(".");
        let (attrs, _) = module::merged_items(&call.bodies());
        let Some(source_attr) = attrs.get("source") else {
            errors.push(error(
                "Missing required argument",
                "The argument \"source\" is required, but no definition was found.",
                &call.block.body.missing_item_range(),
            ));
            return None;
        };
        let (source, d) = source_attr.expr.value(&EvalContext::empty());
        if has_errors(&d) {
            errors.extend(d);
            return None;
        }
        let Value::String(source) = source else {
            errors.push(error(
                "Invalid module source",
                "The module source must be a literal string.",
                &source_attr.expr.range(),
            ));
            return None;
        };
        if path.len() > MAX_MODULE_DEPTH {
            errors.push(error(
                "Modules nested too deeply",
                format!(
                    "{call_addr} is nested {} modules deep; cloudspec loads modules at most \
                     {MAX_MODULE_DEPTH} deep.",
                    path.len()
                ),
                &call.block.def_range,
            ));
            return None;
        }
        let local = ["./", "../", ".\\", "..\\"]
            .iter()
            .any(|p| source.starts_with(p))
            || source == "."
            || source == "..";
        let parent_dir = dirs.get(c).cloned().unwrap_or_else(|| self.root.clone());
        let dir = if local {
            let joined = parent_dir.join(&source);
            match std::fs::canonicalize(&joined) {
                Ok(d) if d.is_dir() => d,
                _ => {
                    errors.push(error(
                        "Unreadable module directory",
                        format!(
                            "The directory {} of module \"{}\" (source {}) does not exist or \
                             cannot be read.",
                            self.shown_dir(&clean(&joined)),
                            call.name,
                            cloudspec_hcl::types::go_quote(&source)
                        ),
                        &source_attr.expr.range(),
                    ));
                    return None;
                }
            }
        } else {
            let key = path.join(".");
            let table = installed.get_or_insert_with(|| read_installed(&self.root));
            let found = table.get(&key).and_then(|dir| {
                std::fs::canonicalize(self.root.join(dir))
                    .ok()
                    .filter(|d| d.is_dir())
            });
            match found {
                Some(d) => d,
                None => {
                    self.warnings.push(vars::warning(
                        "Module not installed",
                        format!(
                            "{call_addr} has the remote source {}, which is not installed in \
                             .terraform/modules (terraform init downloads it): its outputs are \
                             unknown and its resources are not evaluated.",
                            cloudspec_hcl::types::go_quote(&source)
                        ),
                        Some(call.block.def_range.clone()),
                    ));
                    return None;
                }
            }
        };
        if !dir.starts_with(&self.tree) {
            let source = cloudspec_hcl::types::go_quote(&source);
            let (summary, detail) = if self.tree == self.root {
                (
                    "Module outside the Terraform directory",
                    format!(
                        "The source {source} of module \"{}\" is outside the Terraform \
                         directory: cloudspec reads no file outside the directory it was given \
                         (--terraform-root DIR gives a wider tree that contains it).",
                        call.name
                    ),
                )
            } else {
                (
                    "Module outside the Terraform tree",
                    format!(
                        "The source {source} of module \"{}\" is outside the tree given by \
                         --terraform-root: cloudspec reads no file outside it.",
                        call.name
                    ),
                )
            };
            errors.push(error(summary, detail, &source_attr.expr.range()));
            return None;
        }
        // A module that includes itself: its directory is one of its callers'.
        let mut chain = Vec::new();
        let mut at = Some(c);
        while let Some(i) = at {
            chain.push(i);
            at = self.configs[i].parent.map(|(p, _)| p);
        }
        if let Some(&again) = chain.iter().find(|&&i| dirs.get(i) == Some(&dir)) {
            let again_name = if self.configs[again].path.is_empty() {
                "the root module".to_string()
            } else {
                self.configs[again].display()
            };
            errors.push(error(
                "Module cycle",
                format!(
                    "{call_addr} (source {}) loads the module of {again_name} again: a module \
                     cannot include itself.",
                    cloudspec_hcl::types::go_quote(&source)
                ),
                &source_attr.expr.range(),
            ));
            return None;
        }
        let prefix = self.shown_dir(&dir);
        let module = match cache.get(&dir) {
            Some(m) => m.clone(),
            None => {
                let prefix_files = if prefix == "." { "" } else { prefix.as_str() };
                match module::load_in(&self.tree, &dir, prefix_files) {
                    Ok(m) => {
                        let m = Arc::new(m);
                        cache.insert(dir.clone(), m.clone());
                        m
                    }
                    Err(f) => {
                        errors.extend(f.diagnostics);
                        return None;
                    }
                }
            }
        };
        Some((
            dir,
            Config {
                module,
                path,
                parent: Some((c, ci)),
                path_module: prefix,
                children: BTreeMap::new(),
            },
        ))
    }

    /// A directory as Terraform run in the root module's directory shows it: relative to
    /// it (`../..` for a module above it in the tree), `/`-separated.
    fn shown_dir(&self, dir: &Path) -> String {
        if dir.starts_with(&self.root) || !dir.starts_with(&self.tree) {
            return shown_dir(&self.root, dir);
        }
        let up = self.root.components().count();
        let common = self
            .root
            .components()
            .zip(dir.components())
            .take_while(|(a, b)| a == b)
            .count();
        let mut parts: Vec<String> = vec!["..".to_string(); up - common];
        parts.extend(
            dir.components()
                .skip(common)
                .map(|c| c.as_os_str().to_string_lossy().replace('\\', "/")),
        );
        input::escape_control(&parts.join("/")).into_owned()
    }
}

/// Lexically cleaned path.
pub(super) fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A directory relative to the root, `/`-separated (`.` for the root itself).
pub(super) fn shown_dir(root: &Path, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => input::escape_control(&dir.to_string_lossy()).into_owned(),
    }
}

/// `.terraform/modules/modules.json`: installed modules by key (`vpc`, `vpc.subnets`).
pub(super) fn read_installed(root: &Path) -> Installed {
    let path = root.join(".terraform").join("modules").join("modules.json");
    let Ok(text) = module::read_text(
        &path,
        ".terraform/modules/modules.json",
        "Terraform's module manifest",
    ) else {
        return Installed::new();
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Installed::new();
    };
    let mut out = Installed::new();
    for m in doc
        .get("Modules")
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
    {
        if let (Some(key), Some(dir)) = (
            m.get("Key").and_then(|k| k.as_str()),
            m.get("Dir").and_then(|d| d.as_str()),
        ) {
            out.insert(key.to_string(), dir.to_string());
        }
    }
    out
}
