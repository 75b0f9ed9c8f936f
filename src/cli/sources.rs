//! The registry of sources of resources: every provider the CLI knows, with the `run` flags
//! that select it. Subcommands find resource schemas here (`check`, `validate --provider`,
//! `test`, `docs`, `permissions`, `schema`), and `run` loads every selected source through
//! the [`Provider`] seam and joins them ([`cloudspec_model::merge`]). Adding a source is one
//! [`Source`] in [`Registry::builtin`] plus its flags in `RunArgs`; `run.rs` does not change.

use std::io::IsTerminal;

use cloudspec_model::schema::SchemaSet;
use cloudspec_model::{Options, Provider, SavedInventory};

use super::RunArgs;

/// One source: its provider and how `run`'s command line selects it.
pub struct Source {
    pub provider: Box<dyn Provider>,
    /// Whether the command line asks for this source (`--inventory` is given).
    pub wanted: Box<dyn Fn(&RunArgs) -> bool + Send + Sync>,
    /// Its options from the command line.
    pub options: Box<dyn Fn(&RunArgs) -> Options + Send + Sync>,
    /// Loaded when the command line selects no source at all (the live account).
    pub default: bool,
}

/// Every source this build knows, in the order their resources join a run's inventory.
pub struct Registry {
    sources: Vec<Source>,
}

/// A source chosen for one run, with its options.
pub(crate) struct Selected<'a> {
    pub provider: &'a dyn Provider,
    pub options: Options,
}

impl Selected<'_> {
    /// How messages name this source's resources: `inventory inv.json`, `aws`.
    pub(crate) fn label(&self) -> String {
        let name = self.provider.name();
        match self.options.paths.as_slice() {
            [] => name.to_string(),
            paths => {
                let shown: Vec<String> = paths
                    .iter()
                    .map(|p| cloudspec_model::input::display_path(p))
                    .collect();
                format!("{name} {}", shown.join(", "))
            }
        }
    }
}

impl Default for Registry {
    fn default() -> Self {
        Self::builtin()
    }
}

impl Registry {
    /// The sources of this build: saved inventories (`--inventory`), a rendered crossplane
    /// composition (`--composition`), Terraform code (`--terraform`) and the live AWS
    /// account (the default when no other source is given).
    pub fn builtin() -> Self {
        Registry {
            sources: vec![
                Source {
                    provider: Box::new(SavedInventory),
                    wanted: Box::new(|args| args.inventory.is_some()),
                    options: Box::new(|args| Options {
                        paths: args.inventory.iter().cloned().collect(),
                        ..common(args)
                    }),
                    default: false,
                },
                Source {
                    provider: Box::new(cloudspec_composition::provider::CompositionSource),
                    wanted: Box::new(|args| args.composition.is_some()),
                    options: Box::new(composition_options),
                    default: false,
                },
                Source {
                    provider: Box::new(cloudspec_terraform::provider::TerraformSource),
                    wanted: Box::new(|args| args.terraform.path.is_some()),
                    options: Box::new(terraform_options),
                    default: false,
                },
                Source {
                    provider: Box::new(cloudspec_aws::LiveAws),
                    wanted: Box::new(|args| {
                        !args.regions.is_empty() || args.all_regions || args.profile.is_some()
                    }),
                    options: Box::new(aws_options),
                    default: true,
                },
            ],
        }
    }

    /// The registry with one more source (tests and embedding programs).
    pub fn with(mut self, source: Source) -> Self {
        self.sources.push(source);
        self
    }

    /// The names of the providers that declare resource schemas (`aws`), in order: what
    /// `validate --provider` accepts.
    pub fn providers_with_schemas(&self) -> Vec<String> {
        self.schemas().into_iter().map(|s| s.provider).collect()
    }

    /// The schemas every provider declares: what specs are checked against when no
    /// particular source is chosen (`validate`, `test`, `docs`, `permissions`, `schema`).
    /// A rule is checked only against the provider its type names (`aws:...`).
    pub fn schemas(&self) -> Vec<SchemaSet> {
        self.sources
            .iter()
            .filter_map(|s| s.provider.schemas())
            .collect()
    }

    /// The schemas of the provider named `name` (`aws`), when it declares any. A saved
    /// inventory names the provider that wrote it; its resources follow those schemas.
    pub fn schemas_of(&self, name: &str) -> Option<SchemaSet> {
        self.sources
            .iter()
            .filter_map(|s| s.provider.schemas())
            .find(|set| set.provider == name)
    }

    /// The sources `args` select, or the default ones when none is selected.
    pub(crate) fn select(&self, args: &RunArgs) -> Vec<Selected<'_>> {
        let any = self.sources.iter().any(|s| (s.wanted)(args));
        self.sources
            .iter()
            .filter(|s| if any { (s.wanted)(args) } else { s.default })
            .map(|s| Selected {
                provider: s.provider.as_ref(),
                options: (s.options)(args),
            })
            .collect()
    }
}

/// The options every source gets (a new source starts from these): progress on a terminal unless `--quiet`.
pub fn common(args: &RunArgs) -> Options {
    Options {
        progress: !args.quiet && std::io::stderr().is_terminal(),
        quiet: args.quiet,
        ..Options::default()
    }
}

/// The live account's settings: `--region`, `--all-regions`, `--profile`, `--concurrency`.
fn aws_options(args: &RunArgs) -> Options {
    let mut options = common(args);
    for region in &args.regions {
        options.set("region", region);
    }
    if args.all_regions {
        options.flag_on("all-regions");
    }
    if let Some(profile) = &args.profile {
        options.set("profile", profile);
    }
    options.set("concurrency", args.concurrency.to_string());
    options
}

/// A composition's options: its path, and `--xr`, `--observed`, `--extra-resources` and
/// `--context` as settings.
fn composition_options(args: &RunArgs) -> Options {
    use cloudspec_composition::provider::{CONTEXT, EXTRA_RESOURCES, OBSERVED, XR};
    let mut options = Options {
        paths: args.composition.iter().cloned().collect(),
        ..common(args)
    };
    for (name, path) in [
        (XR, &args.xr),
        (OBSERVED, &args.observed),
        (EXTRA_RESOURCES, &args.extra_resources),
        (CONTEXT, &args.context),
    ] {
        if let Some(path) = path {
            options.set(name, path.to_string_lossy());
        }
    }
    options
}

/// Terraform's options: the configuration's path, `--terraform-root`, `--var` and
/// `--var-file` in command order, `--terraform-mappings`, and the environment's `TF_VAR_*` variables (names or
/// values that are not Unicode are left out, as no variable can be declared with them).
fn terraform_options(args: &RunArgs) -> Options {
    use cloudspec_terraform::provider::{set_env, set_vars, MAPPINGS, TREE};
    let flags = &args.terraform;
    let mut options = Options {
        paths: flags.path.iter().cloned().collect(),
        ..common(args)
    };
    if let Some(dir) = &flags.tree {
        options.set(TREE, dir.to_string_lossy());
    }
    set_vars(&mut options, &flags.vars);
    if let Some(dir) = &flags.mappings {
        options.set(MAPPINGS, dir.to_string_lossy());
    }
    set_env(
        &mut options,
        std::env::vars_os().filter_map(|(name, value)| {
            Some((name.into_string().ok()?, value.into_string().ok()?))
        }),
    );
    options
}

/// A Terraform root module loaded as `run --terraform DIR` loads it, for a `terraform:`
/// case of `cloudspec test`: no variables from the command line or the environment (a test
/// gives the same verdicts on every machine), warnings not printed.
pub(crate) fn load_terraform(
    dir: &std::path::Path,
) -> Result<cloudspec_model::Inventory, cloudspec_model::ProviderError> {
    let options = Options {
        paths: vec![dir.to_path_buf()],
        quiet: true,
        ..Options::default()
    };
    cloudspec_terraform::provider::TerraformSource.load(&cloudspec_model::LoadRequest {
        plan: &cloudspec_model::CollectionPlan::new(),
        keep: None,
        options: &options,
    })
}
