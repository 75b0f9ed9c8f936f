//! The shipped mappings as data: every folder of `tests/mapping/` is one case, a small
//! configuration (`main.tf`, and a `main.tf.json` twin where the JSON syntax reads
//! differently) with the resources it maps to (`expected.json`: type, id, region, source,
//! properties, and the warnings of mapping). A case may hold a `mappings/` folder of its
//! own mapping files (added over the shipped ones, as `--terraform-mappings` does) and a
//! `vars.json` (values of its variables).
//!
//! Every case's resources are also checked against the AWS schemas: each member of the
//! type is present at every depth (a value, null or `$unknown`), none other, each of the
//! schema's kind. `UPDATE_EXPECT=1 cargo test` rewrites `expected.json` files.

mod standin;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cloudspec_model::schema::{MemberType, SchemaSet};
use cloudspec_terraform::mapping::{map, Mapped, Mappings};
use serde_json::{json, Value as Json};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mapping")
}

/// A mapping run as `expected.json` holds it.
fn output(m: &Mapped) -> Json {
    json!({
        "resources": m.resources.iter().map(|r| json!({
            "type": r.type_name,
            "id": r.id,
            "region": r.region,
            "file": r.file,
            "line": r.line,
            "properties": r.properties,
        })).collect::<Vec<_>>(),
        "warnings": m.warnings,
    })
}

/// `output` without what depends on the syntax: source lines and files, and the
/// positions warnings start with.
fn without_positions(mut v: Json) -> Json {
    if let Some(resources) = v["resources"].as_array_mut() {
        for r in resources {
            r["file"] = Json::Null;
            r["line"] = Json::Null;
        }
    }
    if let Some(warnings) = v["warnings"].as_array_mut() {
        for w in warnings {
            if let Some(s) = w.as_str() {
                let rest =
                    s.split_once(": ").map_or(
                        s,
                        |(head, rest)| {
                            if head.contains(".tf") {
                                rest
                            } else {
                                s
                            }
                        },
                    );
                *w = Json::String(rest.to_string());
            }
        }
    }
    v
}

fn mappings_for(dir: &Path) -> Mappings {
    let mut mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let own = dir.join("mappings");
    if own.is_dir() {
        mappings.add_dir(&own).unwrap_or_else(|f| panic!("{f}"));
    }
    mappings
}

fn run_case(name: &str) {
    let dir = cases_dir().join(name);
    let mappings = mappings_for(&dir);
    let got = output(&map(&mappings, &standin::instances(&dir, "main.tf")));
    let problems = conformance(&got, &cloudspec_aws::schemas());
    assert!(problems.is_empty(), "{name}: {problems:#?}");
    let expected_path = dir.join("expected.json");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let text = serde_json::to_string_pretty(&got).unwrap_or_default();
        std::fs::write(&expected_path, text + "\n").unwrap_or_else(|e| panic!("{e}"));
    }
    let expected: Json = std::fs::read_to_string(&expected_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("{name}: no readable expected.json"));
    assert_eq!(
        got,
        expected,
        "{name}: got\n{}",
        serde_json::to_string_pretty(&got).unwrap_or_default()
    );
    if dir.join("main.tf.json").is_file() {
        let twin = output(&map(&mappings, &standin::instances(&dir, "main.tf.json")));
        assert_eq!(
            without_positions(twin.clone()),
            without_positions(got),
            "{name}: main.tf.json maps differently from main.tf:\n{}",
            serde_json::to_string_pretty(&twin).unwrap_or_default()
        );
    }
}

/// Where each mapped resource differs from its type's schema.
fn conformance(out: &Json, schemas: &SchemaSet) -> Vec<String> {
    let mut problems = Vec::new();
    for r in out["resources"].as_array().into_iter().flatten() {
        let ty = r["type"].as_str().unwrap_or_default();
        let at = format!("{ty} {}", r["id"].as_str().unwrap_or_default());
        let Some(schema) = schemas.get(ty) else {
            problems.push(format!("{at}: no schema"));
            continue;
        };
        let members = MemberType::Object(schema.members.clone());
        conform(&r["properties"], &members, &at, &mut problems);
    }
    problems
}

fn conform(v: &Json, ty: &MemberType, at: &str, problems: &mut Vec<String>) {
    if v.is_null() {
        return;
    }
    if let Some(o) = v.as_object() {
        if o.contains_key("$unknown") {
            if !o.keys().all(|k| k == "$unknown" || k == "not_null") || !o["$unknown"].is_string() {
                problems.push(format!("{at}: malformed unknown {v}"));
            }
            return;
        }
    }
    let ok = match ty {
        MemberType::String => v.is_string(),
        MemberType::Integer => v.is_i64() || v.is_u64(),
        MemberType::Number => v.is_number(),
        MemberType::Bool => v.is_boolean(),
        MemberType::Any => true,
        MemberType::Association { target } => v
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.get("$ref"))
            .and_then(Json::as_str)
            .is_some_and(|r| r.starts_with(&format!("{target}/"))),
        MemberType::List(inner) => match v.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    conform(item, inner, &format!("{at}[{i}]"), problems);
                }
                true
            }
            None => false,
        },
        MemberType::Map(inner) => match v.as_object() {
            Some(o) => {
                for (k, item) in o {
                    conform(item, inner, &format!("{at}[{k:?}]"), problems);
                }
                true
            }
            None => false,
        },
        MemberType::Object(members) => match v.as_object() {
            Some(o) => {
                let want: BTreeSet<&str> = members.iter().map(|m| m.name.as_str()).collect();
                let have: BTreeSet<&str> = o.keys().map(String::as_str).collect();
                for extra in have.difference(&want) {
                    problems.push(format!("{at}: {extra} is not a member"));
                }
                for missing in want.difference(&have) {
                    problems.push(format!("{at}: {missing} is not classified"));
                }
                for m in members {
                    if let Some(item) = o.get(&m.name) {
                        conform(item, &m.ty, &format!("{at}.{}", m.name), problems);
                    }
                }
                true
            }
            None => false,
        },
    };
    if !ok {
        problems.push(format!("{at}: {v} is not a {ty:?}"));
    }
}

/// Decision 3 of the contract: every member of a mapped type's live schema is classified
/// by its mapping file (a value, an unknown, or null until declared), none is invented.
#[test]
fn every_shipped_mapping_classifies_every_member_of_its_type() {
    let mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let problems = mappings.check(&cloudspec_aws::schemas());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(mappings.iter().count(), 26);
}

/// What `Mappings::check` says about a mapping that misses members and invents one.
#[test]
fn a_mapping_that_leaves_members_out_is_reported() {
    let mut mappings = Mappings::default();
    mappings
        .add(
            "aws_ebs_encryption_by_default",
            "mine.hcl",
            "type = \"aws:ec2:region\"\nobject {\n  attr \"enabled\" {}\n  literal \"region_name\" {\n    value = self.region\n  }\n}\n",
        )
        .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(
        mappings.check(&cloudspec_aws::schemas()),
        [
            "mine.hcl: enabled is not a member of aws:ec2:region",
            "mine.hcl: aws:ec2:region has a member analyzers this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member configuration_recorders this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member delivery_channels this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member ebs_default_kms_key_id this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member ebs_encryption_by_default this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member endpoint this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member hubs this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member opt_in_status this mapping gives no value",
            "mine.hcl: aws:ec2:region has a member trails this mapping gives no value",
        ]
    );
}

/// The shipped list in `mapping/mod.rs` is the `mappings/` folder.
#[test]
fn every_mapping_file_is_shipped() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mappings");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let shipped: Vec<String> = mappings
        .iter()
        .map(|m| format!("{}.hcl", m.tf_type()))
        .collect();
    assert_eq!(shipped, files);
}

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_case(stringify!($name));
            }
        )*
        const CASES: &[&str] = &[$(stringify!($name)),*];
    };
}

cases!(
    flow_logs,
    instance_state,
    instance_volumes,
    network_acls,
    region_and_unknowns,
    region_opt_in,
    s3_creation_defaults,
    s3_logging_key_format,
    s3_ownership_and_acl,
    s3_split_resources,
    security_group_inline,
    security_group_rules,
    user_mapping,
    vpc_defaults,
    vpc_subnets,
);

#[test]
fn every_case_folder_is_a_test() {
    let mut folders: Vec<String> = std::fs::read_dir(cases_dir())
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    let mut listed: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(folders, listed);
}

/// `--terraform-mappings DIR`: every file's errors, each at its position in its file.
#[test]
fn bad_mapping_files_are_errors_at_their_positions() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    write(
        "aws_thing.hcl",
        "type = \"aws:ec2:thing\"\nobject {\n  attr \"a\" {\n    typo = string\n  }\n}\n",
    );
    write(
        "aws_other.hcl",
        "type = [\"aws:ec2:other\"]\nobject {\n  literal \"b\" {\n    value = upper(self.address, 1)\n  }\n}\n",
    );
    let mut mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let failure = mappings.add_dir(dir.path()).err();
    let shown = cloudspec_model::input::display_path(dir.path());
    let text = failure.map(|f| f.to_string().replace(&shown, "DIR"));
    assert_eq!(
        text.as_deref(),
        Some(
            "DIR/aws_other.hcl:1:8: error: Unsuitable value type; Unsuitable value: string required\n\
             DIR/aws_other.hcl:4:33: error: Too many function arguments; Function \"upper\" expects only 1 argument(s).\n\
             DIR/aws_thing.hcl:4:5: error: Unsupported argument; An argument named \"typo\" is not expected here. Did you mean \"type\"?"
        )
    );
}

/// A file of `--terraform-mappings DIR` replaces the shipped mapping of its type.
#[test]
fn a_users_mapping_file_replaces_the_shipped_one() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.path().join("aws_vpc.hcl"),
        "type = \"aws:ec2:vpc\"\nobject {\n  attr \"cidr_block\" {\n    type = string\n  }\n}\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    mappings
        .add_dir(dir.path())
        .unwrap_or_else(|f| panic!("{f}"));
    let vpc = mappings.get("aws_vpc").map(|m| m.members());
    assert_eq!(vpc, Some(vec!["cidr_block"]));
    assert_eq!(mappings.target("aws_subnet"), Some("aws:ec2:subnet"));
}

/// `extends`: a file starts from another mapping (its type, locals, properties and blocks),
/// replaces the properties it names and adds its own blocks; a user's file over the base
/// changes what extends it; an unknown base or a cycle is an error at `extends`.
#[test]
fn a_mapping_extends_another() {
    let mappings = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let (sg, default) = (
        mappings.get("aws_security_group"),
        mappings.get("aws_default_security_group"),
    );
    assert_eq!(sg.map(|m| m.members()), default.map(|m| m.members()));
    assert_eq!(
        mappings.target("aws_default_security_group"),
        Some("aws:ec2:security_group")
    );

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    write(
        "aws_security_group.hcl",
        "type = \"aws:ec2:security_group\"\nobject {\n  attr \"description\" {\n    type = string\n  }\n}\n",
    );
    let mut mine = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    mine.add_dir(dir.path()).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(
        mine.get("aws_default_security_group").map(|m| m.members()),
        Some(vec!["description", "group_name"])
    );

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    write("aws_a.hcl", "extends = \"aws_b\"\n");
    write("aws_b.hcl", "extends = \"aws_a\"\n");
    write("aws_c.hcl", "extends = \"aws_nothing\"\n");
    let mut bad = Mappings::shipped().unwrap_or_else(|f| panic!("{f}"));
    let err = bad.add_dir(dir.path()).map(|_| ()).unwrap_err();
    let shown = err
        .to_string()
        .replace(&dir.path().display().to_string(), "DIR");
    assert_eq!(
        shown,
        "DIR/aws_a.hcl:1:11: error: Mappings extend each other; aws_a extends itself through aws_a -> aws_b -> aws_a.\n\
         DIR/aws_b.hcl:1:11: error: Mappings extend each other; aws_b extends itself through aws_b -> aws_a -> aws_b.\n\
         DIR/aws_c.hcl:1:11: error: Unknown mapping to extend; aws_c extends aws_nothing, which no mapping file maps (a file named aws_nothing.hcl among the shipped ones or those of --terraform-mappings)."
    );
}

/// The worked example of `docs/terraform.md` ("Mapping a new type") is the `user_mapping`
/// case's mapping files, word for word.
#[test]
fn the_documented_example_is_the_tested_one() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/terraform.md");
    let docs = std::fs::read_to_string(docs).unwrap_or_default();
    for file in [
        "aws_ebs_snapshot.hcl",
        "aws_snapshot_create_volume_permission.hcl",
    ] {
        let path = cases_dir().join("user_mapping/mappings").join(file);
        let text = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            docs.contains(&format!("```hcl\n{text}```")),
            "docs/terraform.md does not show {file} as tested"
        );
    }
}
