//! Rule-driven collection plans over the AWS schemas (`cloudspec::plan`): which types and
//! members a live run collects.

use cloudspec::model::CollectionPlan;
use cloudspec::syntax::parse;

fn plan_of(text: &str) -> CollectionPlan {
    let parsed = parse(text);
    let spec = parsed.spec.expect("the test spec parses");
    cloudspec::plan::plan(&[&spec], &cloudspec_aws::schemas())
}

fn types(plan: &CollectionPlan) -> Vec<&str> {
    plan.types.iter().map(String::as_str).collect()
}

#[test]
fn a_volume_rule_needs_only_volumes() {
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:volume\nAssert encrypted is true\n",
    );
    assert_eq!(types(&p), ["aws:ec2:volume"]);
}

#[test]
fn associations_are_followed_at_any_depth() {
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:instance\nAssert block_device_mappings ( ebs ( > volume ( > snapshot ( encrypted is true ) ) ) )\n",
    );
    assert_eq!(
        types(&p),
        ["aws:ec2:instance", "aws:ec2:snapshot", "aws:ec2:volume"]
    );
    assert!(p.needs_member("aws:ec2:snapshot", "encrypted"));
}

#[test]
fn reverse_links_need_the_other_side() {
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:vpc\nAssert any > flow_logs ( traffic_type equal to \"ALL\" )\n",
    );
    assert_eq!(types(&p), ["aws:ec2:flow_log", "aws:ec2:vpc"]);
}

#[test]
fn bucket_settings_are_recorded_per_member() {
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:s3:bucket\nWith tags[\"env\"] equal to \"prod\"\nAssert versioning ( status equal to \"Enabled\" )\n",
    );
    assert!(p.needs_member("aws:s3:bucket", "versioning"));
    assert!(p.needs_member("aws:s3:bucket", "tags"));
    assert!(!p.needs_member("aws:s3:bucket", "policy"));
}

#[test]
fn vpc_dns_attributes_pass_the_static_checks_and_are_planned_per_member() {
    let text = "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:subnet\nAssert > vpc ( enable_dns_support is true and enable_dns_hostnames is true )\n";
    let parsed = parse(text);
    let spec = parsed.spec.expect("the test spec parses");
    let diagnostics = cloudspec::check::check(&spec, &cloudspec_aws::schemas());
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let p = cloudspec::plan::plan(&[&spec], &cloudspec_aws::schemas());
    assert!(p.needs_member("aws:ec2:vpc", "enable_dns_support"));
    assert!(p.needs_member("aws:ec2:vpc", "enable_dns_hostnames"));
}

#[test]
fn logging_key_formats_pass_the_static_checks() {
    let text = "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:s3:bucket\nAssert logging ( target_object_key_format ( partitioned_prefix ( partition_date_source == \"EventTime\" ) and simple_prefix is null ) )\n";
    let parsed = parse(text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let spec = parsed.spec.expect("the test spec parses");
    let diagnostics = cloudspec::check::check(&spec, &cloudspec_aws::schemas());
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

/// `cloudspec permissions` lists DescribeVpcAttribute (once, for both attributes) only
/// for specs that read a VPC's DNS attributes.
#[test]
fn permissions_include_describe_vpc_attribute_when_dns_attributes_are_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let policy = |assert: &str| -> serde_json::Value {
        let path = dir.path().join("vpcs.cloudspec");
        std::fs::write(
            &path,
            format!("Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:vpc\nAssert {assert}\n"),
        )
        .expect("spec written");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cloudspec"))
            .arg("permissions")
            .arg(&path)
            .output()
            .expect("cloudspec runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("a JSON policy")
    };
    let dns = policy("enable_dns_support is true and enable_dns_hostnames is true");
    assert_eq!(
        dns,
        serde_json::json!({
            "Version": "2012-10-17",
            "Statement": [{
                "Sid": "CloudspecReadOnly",
                "Effect": "Allow",
                "Action": [
                    "ec2:DescribeRegions",
                    "ec2:DescribeVpcAttribute",
                    "ec2:DescribeVpcs"
                ],
                "Resource": "*",
            }],
        })
    );
    let plain = policy("cidr_block is not null");
    assert_eq!(
        plain["Statement"][0]["Action"],
        serde_json::json!(["ec2:DescribeRegions", "ec2:DescribeVpcs"])
    );
}

#[test]
fn every_alternative_of_an_or_is_planned() {
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:s3:bucket\nWith tags[\"env\"] == \"prod\" or tags[\"env\"] == \"staging\"\nAssert versioning ( status == \"Enabled\" ) or logging ( target_bucket is not null )\n",
    );
    assert!(p.needs_member("aws:s3:bucket", "versioning"));
    assert!(p.needs_member("aws:s3:bucket", "logging"));
    assert!(p.needs_member("aws:s3:bucket", "tags"));
    assert!(!p.needs_member("aws:s3:bucket", "policy"));
    // Inside a body, through an association in the second alternative only.
    let p = plan_of(
        "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:ec2:instance\nAssert block_device_mappings ( device_name == \"x\" or ebs ( > volume ( > snapshot ( encrypted is true ) ) ) )\n",
    );
    assert_eq!(
        types(&p),
        ["aws:ec2:instance", "aws:ec2:snapshot", "aws:ec2:volume"]
    );
    assert!(p.needs_member("aws:ec2:snapshot", "encrypted"));
}

#[test]
fn the_static_checks_see_every_alternative_of_an_or() {
    let text = "Spec \"s\"\nGroup \"g\"\nRule \"r\"\nOn aws:s3:bucket\nWith tags[\"env\"] == \"prod\" or nmae == \"x\"\nAssert versioning ( status == \"Enabled\" or statuss == \"Suspended\" )\nOr loging is null\n";
    let parsed = parse(text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let spec = parsed.spec.expect("the test spec parses");
    let diagnostics = cloudspec::check::check(&spec, &cloudspec_aws::schemas());
    let found: Vec<(&str, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, &text[d.span.start..d.span.end]))
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-member", "nmae"),
            ("unknown-member", "statuss"),
            ("unknown-member", "loging")
        ]
    );
}
