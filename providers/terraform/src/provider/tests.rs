use std::path::Path;

use cloudspec_hcl::diag::{Pos, Range};
use cloudspec_model::{Dangling, Options, Value};
use serde_json::json;

use super::*;
use crate::Diagnostic;

fn resource(
    type_name: &str,
    id: &str,
    file: &str,
    line: u64,
    properties: serde_json::Value,
) -> MappedResource {
    let serde_json::Value::Object(properties) = properties else {
        panic!("an object")
    };
    MappedResource {
        type_name: type_name.into(),
        id: id.into(),
        region: Some("eu-west-1".into()),
        file: file.into(),
        line: Some(line),
        properties,
    }
}

#[test]
fn sources_are_relative_to_the_module_and_located_from_where_cloudspec_runs() {
    let cases = [
        (
            "infra",
            true,
            "main.tf",
            "main.tf",
            Some("infra"),
            "infra/main.tf",
        ),
        (
            "infra/",
            true,
            "modules/net/main.tf",
            "modules/net/main.tf",
            Some("infra"),
            "infra/modules/net/main.tf",
        ),
        (".", true, "main.tf", "main.tf", None, "main.tf"),
        (
            "./infra",
            true,
            "a.tf.json",
            "a.tf.json",
            Some("infra"),
            "infra/a.tf.json",
        ),
        (
            "/abs/infra",
            true,
            "main.tf",
            "main.tf",
            Some("/abs/infra"),
            "/abs/infra/main.tf",
        ),
        ("/", true, "main.tf", "main.tf", Some("/"), "/main.tf"),
        ("plan.json", false, "", "plan.json", None, "plan.json"),
        ("out/p.json", false, "", "p.json", Some("out"), "out/p.json"),
    ];
    for (root, is_dir, file, want_file, want_root, want_located) in cases {
        let s = source(Path::new(root), is_dir, file);
        assert_eq!(s.file, want_file, "{root} {file}");
        assert_eq!(s.root.as_deref(), want_root, "{root} {file}");
        assert_eq!(s.located(), want_located, "{root} {file}");
    }
}

#[test]
fn the_inventory_says_aws_and_unknown_dangling_targets_and_keeps_sources() {
    let inv = inventory(
        Path::new("infra"),
        true,
        vec![
            resource(
                "terraform:aws:instance",
                "aws_instance.web",
                "main.tf",
                9,
                json!({"subnet_id": "subnet-0abc"}),
            ),
            resource(
                "aws:ec2:instance",
                "aws_instance.web",
                "main.tf",
                9,
                json!({
                    "subnet": {"$ref": "aws:ec2:subnet/subnet-0abc"},
                    "instance_id": {"$unknown": "computed by AWS after apply", "not_null": true}
                }),
            ),
        ],
    )
    .unwrap();
    assert_eq!(inv.provider.as_deref(), Some("aws"));
    assert_eq!(inv.dangling, Dangling::Unknown);
    assert_eq!(inv.dangling_refs(), ["aws:ec2:subnet/subnet-0abc"]);
    let types: Vec<&str> = inv.resources.iter().map(|r| &*r.type_name).collect();
    assert_eq!(types, ["aws:ec2:instance", "terraform:aws:instance"]);
    let web = &inv.resources[0];
    let source = web.source.as_deref().unwrap();
    assert_eq!(
        (source.file.as_str(), source.line, source.root.as_deref()),
        ("main.tf", Some(9), Some("infra"))
    );
    assert_eq!(web.region.as_deref(), Some("eu-west-1"));
    let id = inv.sym("instance_id").unwrap();
    match web.properties.get(id) {
        Some(Value::Unknown(u)) => assert!(u.not_null),
        other => panic!("{other:?}"),
    }
    let saved = inv.to_json_string();
    assert!(
        saved.starts_with(
            "{\n  \"cloudspec_inventory\": 1,\n  \"provider\": \"aws\",\n  \"dangling\": \"unknown\",\n"
        ),
        "{saved}"
    );
}

#[test]
fn two_resources_with_one_type_and_id_are_an_error() {
    let twice = vec![
        resource(
            "aws:ec2:volume",
            "aws_instance.web.root_block_device[0]",
            "main.tf",
            3,
            json!({}),
        ),
        resource(
            "aws:ec2:volume",
            "aws_instance.web.root_block_device[0]",
            "main.tf",
            4,
            json!({}),
        ),
    ];
    assert_eq!(
        inventory(Path::new("infra"), true, twice).unwrap_err().message,
        "terraform infra: two resources are both aws:ec2:volume/aws_instance.web.root_block_device[0]: \
         a (type, id) must be unique (check the mappings that derive them)"
    );
}

#[test]
fn a_failure_is_one_line_per_diagnostic() {
    let at = Range {
        filename: "main.tf".into(),
        start: Pos {
            line: 3,
            column: 5,
            byte: 20,
        },
        end: Pos {
            line: 3,
            column: 9,
            byte: 24,
        },
    };
    let failure = Failure {
        diagnostics: vec![
            Diagnostic::error(
                "Reference to undeclared input variable",
                "An input variable with the name \"regoin\" has not been declared.",
                Some(at),
            ),
            Diagnostic::error("not yet implemented", "", None),
        ],
    };
    assert_eq!(
        failed("terraform infra", &failure).message,
        "terraform infra: main.tf:3:5: error: Reference to undeclared input variable; An input \
         variable with the name \"regoin\" has not been declared.\n\
         terraform infra: not yet implemented"
    );
    assert_eq!(
        failed(
            "terraform infra",
            &Failure {
                diagnostics: vec![]
            }
        )
        .message,
        "terraform infra: the configuration could not be loaded"
    );
}

#[test]
fn vars_and_var_files_keep_their_command_order() {
    let given = vec![
        VarArg::File("prod.tfvars".into()),
        VarArg::Value {
            name: "region".into(),
            value: "eu-west-1".into(),
        },
        VarArg::File("override.tfvars".into()),
        VarArg::Value {
            name: "tags".into(),
            value: "{a = \"b=c\"}".into(),
        },
    ];
    let mut options = Options::default();
    set_vars(&mut options, &given);
    assert_eq!(options.all(VAR_ORDER), [VAR_FILE, VAR, VAR_FILE, VAR]);
    assert_eq!(vars(&options).unwrap(), given);
    // Without a recorded order: the files, then the values.
    let mut options = Options::default();
    options.set(VAR, "a=1").set(VAR_FILE, "x.tfvars");
    assert_eq!(
        vars(&options).unwrap(),
        [
            VarArg::File("x.tfvars".into()),
            VarArg::Value {
                name: "a".into(),
                value: "1".into()
            }
        ]
    );
}

#[test]
fn a_var_is_name_equals_value() {
    assert_eq!(
        parse_var("instance_type=t3.micro=x"),
        Ok(VarArg::Value {
            name: "instance_type".into(),
            value: "t3.micro=x".into()
        })
    );
    assert_eq!(
        parse_var("empty="),
        Ok(VarArg::Value {
            name: "empty".into(),
            value: String::new()
        })
    );
    assert_eq!(
        parse_var("region").unwrap_err(),
        "expected NAME=VALUE, a variable name and its value separated by \"=\" (--var 'region=eu-west-1')"
    );
    assert_eq!(
        parse_var("=x").unwrap_err(),
        "the variable name before \"=\" is empty (--var 'region=eu-west-1')"
    );
    assert_eq!(
        parse_var("region = eu-west-1").unwrap_err(),
        "the variable name \"region \" ends with a space; did you mean --var 'region=eu-west-1'?"
    );
    let mut options = Options::default();
    options.set(VAR, "region").set(VAR_ORDER, VAR);
    assert_eq!(
        vars(&options).unwrap_err().message,
        "--var region: expected NAME=VALUE, a variable name and its value separated by \"=\" (--var 'region=eu-west-1')"
    );
}

#[test]
fn only_tf_var_variables_reach_the_evaluator() {
    let mut options = Options::default();
    set_env(
        &mut options,
        [
            ("TF_VAR_region".to_string(), "eu-west-1".to_string()),
            ("TF_VAR_".to_string(), "nameless".to_string()),
            ("HOME".to_string(), "/root".to_string()),
            ("TF_VAR_list".to_string(), "[\"a=b\"]".to_string()),
        ],
    );
    let env = env(&options);
    assert_eq!(env.len(), 2);
    assert_eq!(env["region"], "eu-west-1");
    assert_eq!(env["list"], "[\"a=b\"]");
}

#[test]
fn a_missing_path_is_an_error_naming_it() {
    let mut options = Options::default();
    options.paths.push("no/such/dir".into());
    let plan = cloudspec_model::CollectionPlan::default();
    let request = LoadRequest {
        plan: &plan,
        keep: None,
        options: &options,
    };
    let err = TerraformSource.load(&request).unwrap_err().message;
    assert!(
        err.starts_with("terraform no/such/dir: cannot read: "),
        "{err}"
    );
    let none = Options::default();
    let request = LoadRequest {
        plan: &plan,
        keep: None,
        options: &none,
    };
    assert_eq!(
        TerraformSource.load(&request).unwrap_err().message,
        "no configuration given: pass --terraform PATH"
    );
}
