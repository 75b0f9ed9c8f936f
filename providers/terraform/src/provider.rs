//! The `--terraform` source of `cloudspec run` (`design/terraform.md` sections 1, 3, 6, 10).
//!
//! - PATH is a root module's directory: [`crate::eval`] evaluates it; every managed
//!   resource instance is loaded raw ([`crate::raw`], `terraform:<provider>:<rest>`) and,
//!   where a mapping exists, as the live providers' types ([`crate::mapping`]). PATH is a
//!   file: `terraform show -json` output ([`crate::plan`]), whose instances go the same way.
//! - The inventory's header says `"provider": "aws"`: the AWS schemas apply to the static
//!   checks of rules on mapped types, as for a live run (raw `terraform:` types have no
//!   schema and are not checked). It says `"dangling": "unknown"`: a reference to a
//!   resource the configuration does not hold (`subnet_id = "subnet-0abc"`) is to one that
//!   exists outside it, whose members are unknown.
//! - A resource's `source` is its block's file and line, the file relative to the
//!   `--terraform` directory (`modules/net/main.tf`) as the contract says; the inventory's
//!   `origin` is `{"kind": "terraform", "path": <the --terraform path>}`. Reports that point
//!   at the file (console, JUnit, SARIF) join the two ([`Source::located`]:
//!   `infra/modules/net/main.tf`), so a SARIF report annotates the line of the `.tf` file in
//!   a pull request; a saved inventory read back locates them through its `origin`.
//! - A configuration that cannot be loaded is a [`ProviderError`] (exit 2) with one line
//!   per diagnostic: `terraform infra: main.tf:3:5: error: SUMMARY; DETAIL`.
//! - Warnings (the evaluator's, then the mapping's) go to `tracing::warn!` on stderr,
//!   `terraform infra: ...`, unless `--quiet`; they never change the exit status.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudspec_model::from_json::object_from_json;
use cloudspec_model::input::{display_path, escape_control, truncate_chars};
use cloudspec_model::{
    Dangling, Inventory, InventoryBuilder, LoadRequest, Options, Origin, Provider, ProviderError,
    Resource, Source,
};

use crate::mapping::{self, Mapped, Mappings};
use crate::vars::VarArg;
use crate::{eval, plan, raw, Evaluated, Failure, Instance, MappedResource};

/// The settings of the source, by flag name (the configuration is the one path of its
/// [`Options`]): `--var NAME=VALUE` values, `--var-file FILE` values, and the order they
/// were given in (one entry per flag, [`VAR`] or [`VAR_FILE`]; [`set_vars`] writes all
/// three, [`vars`] reads them back).
pub const VAR: &str = "var";
pub const VAR_FILE: &str = "var-file";
pub const VAR_ORDER: &str = "var-order";
/// The environment's `TF_VAR_NAME=VALUE` variables, as `NAME=VALUE` ([`set_env`]).
pub const ENV: &str = "tf-var-env";
/// `--terraform-mappings DIR`: mapping files added to (or replacing) the shipped ones.
pub const MAPPINGS: &str = "terraform-mappings";

/// `--terraform-root DIR`: the tree module sources and file functions are confined to
/// (the `--terraform` directory when not given).
pub const TREE: &str = "terraform-root";

/// The prefix of the environment variables that set input variables.
const TF_VAR: &str = "TF_VAR_";

/// Evaluates a Terraform configuration and loads its resources (`terraform`).
#[derive(Debug, Clone, Copy, Default)]
pub struct TerraformSource;

impl Provider for TerraformSource {
    fn name(&self) -> &str {
        "terraform"
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        let options = request.options;
        let path = match options.paths.as_slice() {
            [path] => path,
            _ => {
                return Err(ProviderError::new(
                    "no configuration given: pass --terraform PATH",
                ))
            }
        };
        let shown = display_path(path);
        let meta = std::fs::metadata(path)
            .map_err(|e| ProviderError::new(format!("terraform {shown}: cannot read: {e}")))?;
        let tree = options.get(TREE).map(PathBuf::from);
        if let (Some(tree), false) = (&tree, meta.is_dir()) {
            return Err(ProviderError::new(format!(
                "--terraform-root {}: --terraform {shown} is a plan, not a directory; \
                 --terraform-root bounds the modules and files of a root module's directory",
                display_path(tree)
            )));
        }
        if !meta.is_dir() && !vars(options)?.is_empty() {
            return Err(ProviderError::new(format!(
                "--var/--var-file: --terraform {shown} is a plan, not a directory; a plan's \
                 variables were set when Terraform made it (terraform plan -var ...)"
            )));
        }
        let evaluated = if meta.is_dir() {
            eval::evaluate(&eval::Options {
                root: path.clone(),
                tree,
                vars: vars(options)?,
                env: env(options),
            })
        } else {
            plan::read(path)
        }
        .map_err(|failure| failed(&format!("terraform {shown}"), &failure))?;
        let mut mappings =
            Mappings::shipped().map_err(|f| failed("terraform: the shipped mappings", &f))?;
        if let Some(dir) = options.get(MAPPINGS) {
            mappings
                .add_dir(Path::new(dir))
                .map_err(|f| failed(&format!("--terraform-mappings {}", shown_str(dir)), &f))?;
        }
        let Loaded {
            inventory,
            warnings,
        } = load_instances(path, meta.is_dir(), &evaluated, &mappings)?;
        drop_later(evaluated);
        if !options.quiet {
            for warning in &warnings {
                for line in warning.lines() {
                    tracing::warn!("terraform {shown}: {line}");
                }
            }
        }
        Ok(inventory)
    }
}

/// What loading a configuration gives `run`: the inventory and the warnings to show.
#[derive(Debug)]
pub struct Loaded {
    pub inventory: Inventory,
    /// The evaluator's warnings, then the mapping's.
    pub warnings: Vec<String>,
}

/// The inventory of an evaluated configuration: every instance raw, plus what the mappings
/// make of them. `root` is the `--terraform` path (`is_dir`: a root module's directory).
pub fn load_instances(
    root: &Path,
    is_dir: bool,
    evaluated: &Evaluated,
    mappings: &Mappings,
) -> Result<Loaded, ProviderError> {
    let (mapped, raw) = map_and_raw(mappings, &evaluated.instances);
    let mut resources = mapped.resources;
    resources.extend(raw);
    if !is_dir {
        // A plan's resources are in the plan file, on no line of their own.
        for r in &mut resources {
            r.line = None;
        }
    }
    let inventory = inventory(root, is_dir, resources)?;
    let mut warnings = evaluated.warnings.clone();
    warnings.extend(mapped.warnings);
    Ok(Loaded {
        inventory,
        warnings,
    })
}

/// The stack of the thread loading the raw resources (reserved, not committed): as much as
/// the main thread's, where the mappings are evaluated.
const RAW_STACK: usize = 8 << 20;

/// What the mappings make of the instances, and every instance raw: the two independent
/// halves of loading, the raw one on a thread of its own (in the calling thread when none
/// can be started).
fn map_and_raw(mappings: &Mappings, instances: &[Instance]) -> (Mapped, Vec<MappedResource>) {
    let all_raw = || instances.iter().map(raw::raw).collect::<Vec<_>>();
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("terraform-raw".into())
            .stack_size(RAW_STACK)
            .spawn_scoped(s, all_raw);
        let mapped = mapping::map(mappings, instances);
        let raw = match worker {
            Ok(handle) => match handle.join() {
                Ok(raw) => raw,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => all_raw(),
        };
        (mapped, raw)
    })
}

/// The inventory of a configuration's resources (raw and mapped): sorted by type and id,
/// sources relative to `root`, `"provider": "aws"`, `"dangling": "unknown"`, the origin.
/// Two resources with one type and id (two mappings deriving the same address) are an
/// error.
pub fn inventory(
    root: &Path,
    is_dir: bool,
    mut resources: Vec<MappedResource>,
) -> Result<Inventory, ProviderError> {
    resources.sort_by(|a, b| (&a.type_name, &a.id).cmp(&(&b.type_name, &b.id)));
    let mut builder = InventoryBuilder::new();
    builder.set_provider(Some("aws".into()));
    builder.set_dangling(Dangling::Unknown);
    builder.set_origin(Some(Origin {
        kind: "terraform".into(),
        path: display_path(root).replace('\\', "/"),
    }));
    builder.reserve(resources.len());
    for resource in &resources {
        let converted = Resource {
            type_name: resource.type_name.as_str().into(),
            id: resource.id.as_str().into(),
            region: resource.region.as_deref().map(Into::into),
            account: None,
            source: Some(Box::new(Source {
                line: resource.line,
                ..source(root, is_dir, &resource.file)
            })),
            properties: object_from_json(&resource.properties, builder.interner()),
        };
        if builder.push(converted).is_err() {
            return Err(ProviderError::new(format!(
                "terraform {}: two resources are both {}/{}: a (type, id) must be unique \
                 (check the mappings that derive them)",
                display_path(root),
                short(&resource.type_name),
                short(&resource.id)
            )));
        }
    }
    drop_later(resources);
    Ok(builder.finish())
}

/// Frees `value` on a thread of its own (not waited for), so that the run goes on
/// meanwhile: a large configuration's instances and resources take a while to free. When
/// no thread can be started, the value is freed here, with the closure that held it.
fn drop_later<T: Send + 'static>(value: T) {
    let _detached = std::thread::Builder::new()
        .name("terraform-free".into())
        .spawn(move || drop(value));
}

/// A resource's source as the contract names it (section 3): `file` relative to the
/// `--terraform` directory (`modules/net/main.tf`), a plan's resources in the plan file
/// (its name); `root` the directory as given on the command line (`infra`, none for the
/// working directory), so console, JUnit and SARIF reports name `infra/modules/net/main.tf`
/// and a pull request is annotated on that file.
pub fn source(root: &Path, is_dir: bool, file: &str) -> Source {
    let (dir, file) = if is_dir {
        (Some(root), file.to_string())
    } else {
        let name = root
            .file_name()
            .map(|n| display_path(Path::new(n)))
            .unwrap_or_else(|| display_path(root));
        (root.parent(), name)
    };
    let root = dir.and_then(|dir| {
        let shown = display_path(dir).replace('\\', "/");
        let mut rest = shown.as_str();
        while let Some(after) = rest.strip_prefix("./") {
            rest = after.trim_start_matches('/');
        }
        let rest = if rest.len() > 1 {
            rest.trim_end_matches('/')
        } else {
            rest
        };
        (!rest.is_empty() && rest != ".").then(|| std::sync::Arc::from(rest))
    });
    Source {
        file,
        line: None,
        root,
    }
}

/// The [`ProviderError`] of a failure: one line per diagnostic, each after `what`
/// (`terraform infra: main.tf:3:5: error: ...`); a diagnostic without a position reads
/// `terraform infra: SUMMARY; DETAIL`.
pub fn failed(what: &str, failure: &Failure) -> ProviderError {
    let lines: Vec<String> = failure
        .diagnostics
        .iter()
        .map(|d| match &d.subject {
            Some(_) => format!("{what}: {d}"),
            None if d.detail.is_empty() => format!("{what}: {}", d.summary),
            None => format!("{what}: {}; {}", d.summary, d.detail),
        })
        .collect();
    ProviderError::new(if lines.is_empty() {
        format!("{what}: the configuration could not be loaded")
    } else {
        lines.join("\n")
    })
}

/// Writes `--var` and `--var-file` values into `options`, in command order.
pub fn set_vars(options: &mut Options, vars: &[VarArg]) {
    for var in vars {
        match var {
            VarArg::Value { name, value } => {
                options.set(VAR, format!("{name}={value}"));
                options.set(VAR_ORDER, VAR);
            }
            VarArg::File(path) => {
                options.set(VAR_FILE, path.to_string_lossy());
                options.set(VAR_ORDER, VAR_FILE);
            }
        }
    }
}

/// The `--var` and `--var-file` values of `options`, in command order (without a recorded
/// order: the files, then the values, so a value given on the command line wins).
pub fn vars(options: &Options) -> Result<Vec<VarArg>, ProviderError> {
    let mut values = options.all(VAR).iter();
    let mut files = options.all(VAR_FILE).iter();
    let order: Vec<&str> = if options.flag(VAR_ORDER) {
        options.all(VAR_ORDER).iter().map(String::as_str).collect()
    } else {
        std::iter::repeat_n(VAR_FILE, files.len())
            .chain(std::iter::repeat_n(VAR, values.len()))
            .collect()
    };
    let mut out = Vec::with_capacity(order.len());
    for kind in order {
        let next = match kind {
            VAR => values.next().map(|v| {
                parse_var(v).map_err(|why| ProviderError::new(format!("--var {}: {why}", short(v))))
            }),
            VAR_FILE => files.next().map(|f| Ok(VarArg::File(PathBuf::from(f)))),
            _ => None,
        };
        match next {
            Some(var) => out.push(var?),
            None => {
                return Err(ProviderError::new(format!(
                    "terraform: the order of --var and --var-file does not match their values \
                     (at {kind:?})"
                )))
            }
        }
    }
    Ok(out)
}

/// One `--var NAME=VALUE`, split at the first `=` as Terraform does; `Err` says what is
/// wrong (no `=`, no name, a name ending in a space).
pub fn parse_var(text: &str) -> Result<VarArg, String> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(
            "expected NAME=VALUE, a variable name and its value separated by \"=\" \
             (--var 'region=eu-west-1')"
                .into(),
        );
    };
    if name.trim().is_empty() {
        return Err("the variable name before \"=\" is empty (--var 'region=eu-west-1')".into());
    }
    if name.ends_with(char::is_whitespace) {
        return Err(format!(
            "the variable name \"{}\" ends with a space; did you mean --var '{}={}'?",
            short(name),
            short(name.trim_end()),
            short(value.trim_start())
        ));
    }
    Ok(VarArg::Value {
        name: name.to_string(),
        value: value.to_string(),
    })
}

/// Writes the environment's `TF_VAR_NAME` variables into `options` (others are left out).
pub fn set_env(options: &mut Options, env: impl IntoIterator<Item = (String, String)>) {
    for (key, value) in env {
        if let Some(name) = key.strip_prefix(TF_VAR) {
            if !name.is_empty() {
                options.set(ENV, format!("{name}={value}"));
            }
        }
    }
}

/// The `TF_VAR_` variables of `options`, by name without the prefix.
fn env(options: &Options) -> BTreeMap<String, String> {
    options
        .all(ENV)
        .iter()
        .filter_map(|entry| entry.split_once('='))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// A path from the settings as messages show it.
fn shown_str(path: &str) -> String {
    display_path(Path::new(path))
}

/// A name quoted in a message: at most 80 characters, control characters escaped.
fn short(text: &str) -> String {
    escape_control(&truncate_chars(text, 80)).into_owned()
}

#[cfg(test)]
mod tests;
