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
