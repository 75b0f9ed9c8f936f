//! Reverse links (aws.md): associations from a resource to the resources that point at it,
//! filled in once everything is collected. Each is a [`crate::types::Link`] of the owner's
//! row, reading the owner ids from the other side's properties; a link is set only when
//! both sides were collected.

use std::collections::{BTreeMap, BTreeSet};

use cloudspec_model::from_json::JsonResource;
use cloudspec_model::{CollectionError, CollectionPlan};
use serde_json::Value as Json;

use super::convert::refs;
use crate::types::{EVERY_OWNER, TYPES};

/// Sets every reverse link whose both sides were collected (`collected` lists the types
/// without a whole-type error in any region; [`unlinked`] makes the others errors).
pub(crate) fn add_reverse_links(resources: &mut [JsonResource], collected: &BTreeSet<&str>) {
    let links = TYPES
        .iter()
        .flat_map(|t| t.links.iter().map(move |l| (t.name, l)));
    for (owner, l) in
        links.filter(|(owner, l)| collected.contains(l.source) && collected.contains(owner))
    {
        let mut by_owner: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut everyones = BTreeSet::new();
        for r in resources.iter().filter(|r| r.type_name == l.source) {
            for id in (l.owners)(&r.properties, r.region.as_deref()) {
                if id == EVERY_OWNER {
                    everyones.insert(r.id.clone());
                } else {
                    by_owner.entry(id).or_default().insert(r.id.clone());
                }
            }
        }
        for r in resources.iter_mut().filter(|r| r.type_name == owner) {
            let mut ids: BTreeSet<&str> = everyones.iter().map(String::as_str).collect();
            if let Some(own) = by_owner.get(&r.id) {
                ids.extend(own.iter().map(String::as_str));
            }
            r.properties
                .insert(l.member.to_string(), refs(l.source, ids));
        }
    }
    metric_alarms(resources, collected);
}

/// The reverse links a rule reads that cannot be set because their source type failed: an
/// error of the owner's link member per failure of the source, so a rule that reads the
/// link is `error` instead of being judged on a list that is missing, not empty.
pub(crate) fn unlinked(plan: &CollectionPlan, errors: &[CollectionError]) -> Vec<CollectionError> {
    let links = TYPES
        .iter()
        .flat_map(|t| t.links.iter().map(move |l| (t.name, l.member, l.source)))
        .chain([(LOG_GROUP, "metric_filters", ALARM)]);
    let mut out = Vec::new();
    for (owner, member, source) in links {
        if !plan.needs_member(owner, member) {
            continue;
        }
        let failed = errors
            .iter()
            .filter(|e| e.type_name == source && e.members.is_empty());
        for e in failed {
            let message = format!("{source} could not be collected: {}", e.message);
            out.push(CollectionError::new(owner, e.region.clone(), message).of_members(&[member]));
        }
    }
    out
}

const LOG_GROUP: &str = "aws:logs:log_group";
const ALARM: &str = "aws:cloudwatch:alarm";

/// The one reverse link inside a member: `aws:logs:log_group`
/// `metric_filters ( metric_transformations ( > alarms ) )`, the metric alarms of the log
/// group's region on the metric a filter publishes (same `metric_name` and `namespace`), set
/// when both types were collected and a rule read the metric filters.
fn metric_alarms(resources: &mut [JsonResource], collected: &BTreeSet<&str>) {
    if !collected.contains(LOG_GROUP) || !collected.contains(ALARM) {
        return;
    }
    let mut by_metric: BTreeMap<(Option<String>, String, String), Vec<String>> = BTreeMap::new();
    for a in resources.iter().filter(|r| r.type_name == ALARM) {
        let text = |k: &str| {
            a.properties
                .get(k)
                .and_then(Json::as_str)
                .map(str::to_string)
        };
        if let (Some(namespace), Some(name)) = (text("namespace"), text("metric_name")) {
            by_metric
                .entry((a.region.clone(), namespace, name))
                .or_default()
                .push(a.id.clone());
        }
    }
    for g in resources.iter_mut().filter(|r| r.type_name == LOG_GROUP) {
        let region = g.region.clone();
        let Some(Json::Array(filters)) = g.properties.get_mut("metric_filters") else {
            continue;
        };
        let transformations = filters
            .iter_mut()
            .filter_map(|f| f.get_mut("metric_transformations")?.as_array_mut())
            .flatten();
        for t in transformations {
            let text = |k: &str| t.get(k).and_then(Json::as_str).map(str::to_string);
            let key = match (text("metric_namespace"), text("metric_name")) {
                (Some(namespace), Some(name)) => (region.clone(), namespace, name),
                _ => continue,
            };
            let ids = by_metric
                .get(&key)
                .map(|ids| ids.iter().map(String::as_str));
            if let Json::Object(t) = t {
                t.insert("alarms".into(), refs(ALARM, ids.into_iter().flatten()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn res(type_name: &str, id: &str, props: Json) -> JsonResource {
        let Json::Object(properties) = props else {
            panic!("object")
        };
        JsonResource {
            type_name: type_name.into(),
            id: id.into(),
            region: None,
            account: None,
            properties,
        }
    }

    #[test]
    fn vpcs_link_back_to_their_flow_logs_and_subnets() {
        let mut all = vec![
            res("aws:ec2:vpc", "vpc-1", json!({})),
            res("aws:ec2:vpc", "vpc-2", json!({})),
            res("aws:ec2:flow_log", "fl-1", json!({"resource_id": "vpc-1"})),
            res("aws:ec2:subnet", "subnet-1", json!({"vpc_id": "vpc-1"})),
        ];
        let collected: BTreeSet<&str> = ["aws:ec2:vpc", "aws:ec2:flow_log"].into();
        add_reverse_links(&mut all, &collected);
        assert_eq!(
            all[0].properties["flow_logs"],
            json!([{"$ref": "aws:ec2:flow_log/fl-1"}])
        );
        assert_eq!(all[1].properties["flow_logs"], json!([]));
        assert!(
            !all[0].properties.contains_key("subnets"),
            "subnets were not collected"
        );
    }

    #[test]
    fn links_whose_source_failed_are_errors_of_the_members_that_read_them() {
        let mut plan = CollectionPlan::new();
        plan.add_member("aws:ec2:vpc", "flow_logs");
        plan.add_member(LOG_GROUP, "metric_filters");
        plan.add_type(ALARM);
        plan.add_type("aws:ec2:subnet");
        let errors = [
            CollectionError::new(
                "aws:ec2:flow_log",
                Some("eu-west-1".into()),
                "DescribeFlowLogs: denied",
            ),
            CollectionError::new(ALARM, Some("eu-west-1".into()), "DescribeAlarms: denied"),
            CollectionError::new("aws:ec2:subnet", None, "DescribeSubnets: denied"),
        ];
        let got: Vec<(String, Vec<String>)> = unlinked(&plan, &errors)
            .into_iter()
            .map(|e| (e.type_name, e.members))
            .collect();
        assert_eq!(
            got,
            [
                ("aws:ec2:vpc".to_string(), vec!["flow_logs".to_string()]),
                (LOG_GROUP.to_string(), vec!["metric_filters".to_string()]),
            ],
            "vpc subnets are not read"
        );
    }

    #[test]
    fn a_multi_region_trail_belongs_to_every_region() {
        let mut all = vec![
            res("aws:ec2:region", "us-east-1", json!({})),
            res("aws:ec2:region", "eu-west-1", json!({})),
            res(
                "aws:cloudtrail:trail",
                "org",
                json!({"home_region": "us-east-1", "is_multi_region_trail": true}),
            ),
            res(
                "aws:cloudtrail:trail",
                "local",
                json!({"home_region": "eu-west-1", "is_multi_region_trail": false}),
            ),
        ];
        let collected: BTreeSet<&str> = ["aws:ec2:region", "aws:cloudtrail:trail"].into();
        add_reverse_links(&mut all, &collected);
        assert_eq!(
            all[0].properties["trails"],
            json!([{"$ref": "aws:cloudtrail:trail/org"}])
        );
        assert_eq!(
            all[1].properties["trails"],
            json!([{"$ref": "aws:cloudtrail:trail/local"}, {"$ref": "aws:cloudtrail:trail/org"}])
        );
    }

    #[test]
    fn metric_filters_link_to_the_alarms_on_their_metric() {
        let filters = json!({"metric_filters": [{"metric_transformations": [
            {"metric_name": "Unauthorized", "metric_namespace": "CIS"},
            {"metric_name": "Other", "metric_namespace": "CIS"}
        ]}]});
        let mut all = vec![
            res(LOG_GROUP, "lg", filters),
            res(LOG_GROUP, "bare", json!({})),
            res(
                ALARM,
                "a1",
                json!({"metric_name": "Unauthorized", "namespace": "CIS"}),
            ),
            res(
                ALARM,
                "a2",
                json!({"metric_name": "Unauthorized", "namespace": "Elsewhere"}),
            ),
        ];
        add_reverse_links(&mut all, &[LOG_GROUP, ALARM].into());
        let t = &all[0].properties["metric_filters"][0]["metric_transformations"];
        assert_eq!(t[0]["alarms"], json!([{"$ref": "aws:cloudwatch:alarm/a1"}]));
        assert_eq!(t[1]["alarms"], json!([]));
        assert!(!all[1].properties.contains_key("metric_filters"));
    }
}
