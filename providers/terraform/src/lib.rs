//! cloudspec-terraform: Terraform configurations as a source of resources
//! (`design/terraform.md`).
//!
//! The parts and the contracts between them:
//!
//! - [`module`] reads a module directory (`*.tf`, `*.tf.json`, override files) into its
//!   declarations; [`vars`] gives the root module's input variables their values with
//!   Terraform's precedence.
//! - [`eval`] evaluates a root module and the modules it calls, order-free and lazily as
//!   Terraform does (variables, locals, `count`/`for_each`, `dynamic` blocks, modules, data
//!   sources unknown, provider configurations), and gives every managed resource instance
//!   as an [`Instance`]: its address, its body and the scope to decode the body in.
//! - [`identity`] is how a computed id or ARN keeps the instance it came from
//!   (`aws_subnet.main.id` is unknown, but known to be that subnet's id), so mappings turn
//!   it into an association.
//! - [`raw`] gives every instance as `terraform:<provider>:<rest>`; [`mapping`] gives the
//!   mapped ones as the live providers' types, from one data file per Terraform type
//!   (`mappings/*.hcl`).
//! - [`plan`] reads `terraform show -json` output given as the `--terraform` path into the
//!   same [`Instance`]s.
//! - [`provider`] is the `--terraform` source of `cloudspec run`.
//!
//! Nothing here executes anything: no provider, no network, no file outside the tree given.
#![forbid(unsafe_code)]

pub mod eval;
pub mod identity;
pub mod mapping;
pub mod module;
pub mod plan;
pub mod provider;
pub mod raw;
pub mod vars;

use cloudspec_hcl::body::Body;
use cloudspec_hcl::eval::EvalContext;
pub use cloudspec_hcl::Diagnostic;

/// One managed resource instance of the configuration, ready to be mapped.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Terraform's absolute address: `aws_instance.web`, `aws_instance.web[0]`,
    /// `aws_subnet.a["x"]`, `module.net.aws_subnet.a["x"]`, `module.vpc[1].aws_vpc.this`;
    /// `aws_instance.web[*]` for the one instance of an unknown `count`/`for_each`.
    pub address: String,
    /// The Terraform type: `aws_instance`.
    pub tf_type: String,
    /// The provider's local name: the type's prefix (`aws`), or the name in the resource's
    /// `provider` argument.
    pub provider: String,
    /// The resource block's body, `dynamic` blocks expanded. Meta-arguments (`count`,
    /// `for_each`, `provider`, `depends_on`, `lifecycle`, `provisioner`, `connection`) are
    /// still in it; mappings and [`raw`] leave them out.
    pub body: Body,
    /// The scope the body is decoded in: `var`, `local`, `count`/`each`, `path`,
    /// `terraform`, every resource, data source and module call of its module.
    pub ctx: EvalContext,
    /// The file (relative to the `--terraform` directory) and line of the block header.
    pub file: String,
    pub line: usize,
    /// The region of the resource's provider configuration, when statically known.
    pub region: Option<String>,
    /// The provider configuration's `default_tags { tags = ... }`, evaluated (an object of
    /// strings; empty when none).
    pub default_tags: cloudspec_hcl::Value,
    /// True for the single `ADDR[*]` instance of an unknown `count`/`for_each`: every
    /// member of the resource is unknown.
    pub unknown_expansion: bool,
    /// The body's arguments as the evaluator computed them (what [`raw`] would compute
    /// from `body` in `ctx`), when it did.
    pub args: Option<cloudspec_hcl::Value>,
}

/// A loaded configuration's resource instances and what the loader warns about.
#[derive(Clone, Debug, Default)]
pub struct Evaluated {
    pub instances: Vec<Instance>,
    /// Warnings for stderr (never the exit status): unset variables, remote modules not
    /// present, unknown `count`/`for_each`, file functions outside the tree...
    pub warnings: Vec<String>,
}

/// A configuration that cannot be loaded (exit 2): every syntax error, undeclared
/// reference and type error, as `file:line:col: error: SUMMARY; DETAIL`.
#[derive(Clone, Debug)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
}

impl Failure {
    pub fn message(message: impl Into<String>) -> Failure {
        Failure {
            diagnostics: vec![Diagnostic::error(message, "", None)],
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A resource as the inventory will hold it, before references are resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct MappedResource {
    /// `aws:ec2:volume`, `terraform:aws:s3_bucket`.
    pub type_name: String,
    /// The Terraform address (derived resources: `ADDR.root_block_device[0]`).
    pub id: String,
    pub region: Option<String>,
    pub file: String,
    pub line: Option<u64>,
    /// Properties in the inventory's JSON form: `{"$ref": "type/id"}` for associations,
    /// `{"$unknown": "why", "not_null": true}` for values known only after apply.
    pub properties: serde_json::Map<String, serde_json::Value>,
}
