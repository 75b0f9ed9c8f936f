//! The `run` flags of the Terraform source (`docs/terraform.md`): `--terraform PATH`,
//! `--terraform-root DIR`, `--var NAME=VALUE` and `--var-file FILE` (repeatable),
//! `--terraform-mappings DIR`.
//!
//! Terraform applies `-var` and `-var-file` in the order they are given, a later one
//! winning, so the two flags are one list in command order. clap's derive gives each flag a
//! list of its own; [`TerraformArgs`] implements [`FromArgMatches`] by hand to interleave
//! them by the indices clap records for every value.

use std::path::PathBuf;

use clap::{ArgMatches, Args, Command, FromArgMatches};
use cloudspec_terraform::vars::VarArg;

/// The Terraform source's flags, `--var` and `--var-file` in command order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TerraformArgs {
    /// `--terraform PATH`.
    pub path: Option<PathBuf>,
    /// `--terraform-root DIR`.
    pub tree: Option<PathBuf>,
    /// `--var` and `--var-file`, in the order given.
    pub vars: Vec<VarArg>,
    /// `--terraform-mappings DIR`.
    pub mappings: Option<PathBuf>,
}

/// The flags as clap's derive reads them (doc comments are the help text).
#[derive(Debug, Args)]
struct Flags {
    /// Judge Terraform code: a root module's directory (its *.tf and *.tf.json files and the
    /// local modules it calls), evaluated offline: no provider, no network, no state.
    /// Resources get the live types (aws:ec2:instance, aws:s3:bucket...) where a mapping
    /// exists; every resource is also terraform:<provider>:<type> (terraform:aws:s3_bucket)
    /// with its arguments as written. Values known only after apply are unknown.
    #[arg(long, value_name = "PATH")]
    terraform: Option<PathBuf>,

    /// With --terraform DIR: the directory tree local module sources (source = "../..") and
    /// file functions (file, templatefile, fileset...) may read, which must contain the
    /// --terraform directory; by default, the --terraform directory itself. Nothing outside
    /// it is read: the code may come from a pull request. To judge a module repository's
    /// example that calls the module above it:
    /// `cloudspec run s3.cloudspec --terraform repo/examples/complete --terraform-root repo`
    #[arg(long, value_name = "DIR", requires = "terraform")]
    terraform_root: Option<PathBuf>,

    /// With --terraform: set an input variable, as `terraform plan -var` does; repeatable.
    /// --var and --var-file apply in the order given, a later one winning, after
    /// TF_VAR_NAME variables, terraform.tfvars and *.auto.tfvars.
    #[arg(long = "var", value_name = "NAME=VALUE", requires = "terraform", value_parser = parse_var)]
    var: Vec<VarArg>,

    /// With --terraform: read input variables from a .tfvars or .tfvars.json file, as
    /// `terraform plan -var-file` does; repeatable.
    #[arg(long = "var-file", value_name = "FILE", requires = "terraform")]
    var_file: Vec<PathBuf>,

    /// With --terraform: a directory of mapping files (<terraform_type>.hcl) that map more
    /// Terraform types to cloudspec types, or replace shipped mappings.
    #[arg(long, value_name = "DIR", requires = "terraform")]
    terraform_mappings: Option<PathBuf>,
}

/// `--var`'s value parser: `NAME=VALUE`.
fn parse_var(text: &str) -> Result<VarArg, String> {
    cloudspec_terraform::provider::parse_var(text)
}

impl FromArgMatches for TerraformArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let flags = Flags::from_arg_matches(matches)?;
        let indices = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(Iterator::collect)
                .unwrap_or_default()
        };
        let mut ordered: Vec<(usize, VarArg)> = indices("var").into_iter().zip(flags.var).collect();
        ordered.extend(
            indices("var_file")
                .into_iter()
                .zip(flags.var_file.into_iter().map(VarArg::File)),
        );
        ordered.sort_by_key(|(at, _)| *at);
        Ok(TerraformArgs {
            path: flags.terraform,
            tree: flags.terraform_root,
            vars: ordered.into_iter().map(|(_, var)| var).collect(),
            mappings: flags.terraform_mappings,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for TerraformArgs {
    fn augment_args(cmd: Command) -> Command {
        Flags::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Flags::augment_args_for_update(cmd)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        terraform: TerraformArgs,
    }

    fn parse(args: &[&str]) -> Result<TerraformArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("cloudspec").chain(args.iter().copied()))
            .map(|cli| cli.terraform)
    }

    #[test]
    fn vars_and_var_files_interleave_in_command_order() {
        let args = parse(&[
            "--var-file",
            "a.tfvars",
            "--var",
            "x=1",
            "--terraform",
            "infra",
            "--var=y=2",
            "--var-file=b.tfvars",
            "--var",
            "x=3",
        ])
        .unwrap();
        assert_eq!(args.path, Some(PathBuf::from("infra")));
        assert_eq!(
            args.vars,
            [
                VarArg::File("a.tfvars".into()),
                VarArg::Value {
                    name: "x".into(),
                    value: "1".into()
                },
                VarArg::Value {
                    name: "y".into(),
                    value: "2".into()
                },
                VarArg::File("b.tfvars".into()),
                VarArg::Value {
                    name: "x".into(),
                    value: "3".into()
                },
            ]
        );
    }

    #[test]
    fn no_flags_no_terraform() {
        assert_eq!(parse(&[]).unwrap(), TerraformArgs::default());
    }

    #[test]
    fn vars_need_terraform_and_an_equals_sign() {
        let err = parse(&["--var", "x=1"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::MissingRequiredArgument);
        let err = parse(&["--terraform", "infra", "--var", "region"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::ValueValidation);
        assert!(
            err.to_string()
                .contains("invalid value 'region' for '--var <NAME=VALUE>': expected NAME=VALUE"),
            "{err}"
        );
    }
}
