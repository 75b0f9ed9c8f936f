//! Reverse links (aws.md): associations from a resource to the resources that point at it,
//! filled in once everything is collected. Each is a [`crate::types::Link`] of the owner's
//! row, reading the owner ids from the other side's properties; a link is set only when
//! both sides were collected.

use std::collections::{BTreeMap, BTreeSet};

use cloudspec_model::from_json::JsonResource;
use cloudspec_model::CollectionError;

use super::convert::refs;
use crate::types::{EVERY_OWNER, TYPES};

/// Sets every reverse link whose both sides were collected (`collected` lists the types
/// collected without error in any region). A link whose other side failed (a whole type's
/// error in `errors`) is left out and returned as an error of that member of the owning
/// type, so that a rule reading it is `error`, not judged on an empty list.
pub(crate) fn add_reverse_links(
    resources: &mut [JsonResource],
    collected: &BTreeSet<&str>,
    errors: &[CollectionError],
) -> Vec<CollectionError> {
    let links = TYPES
        .iter()
        .flat_map(|t| t.links.iter().map(move |l| (t.name, l)));
    let mut unlinked = Vec::new();
    for (owner, l) in links
        .clone()
        .filter(|(owner, l)| collected.contains(owner) && !collected.contains(l.source))
    {
        for e in errors
            .iter()
            .filter(|e| e.type_name == l.source && e.members.is_empty())
        {
            let message = format!("{} (of {}): {}", l.member, l.source, e.message);
            unlinked.push(
                CollectionError::new(owner, e.region.clone(), message).of_members(&[l.member]),
            );
        }
    }
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
    unlinked
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

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
        assert!(add_reverse_links(&mut all, &collected, &[]).is_empty());
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
        assert!(add_reverse_links(&mut all, &collected, &[]).is_empty());
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
    fn a_link_whose_other_side_failed_is_an_error_of_that_member() {
        let mut all = vec![res("aws:ec2:region", "us-east-1", json!({}))];
        let collected: BTreeSet<&str> = ["aws:ec2:region"].into();
        let failed = [CollectionError::new(
            "aws:accessanalyzer:analyzer",
            Some("us-east-1".into()),
            "ListAnalyzers: HTTP 500 without an error code",
        )];
        let errors = add_reverse_links(&mut all, &collected, &failed);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].type_name, "aws:ec2:region");
        assert_eq!(errors[0].members, ["analyzers"]);
        assert_eq!(
            errors[0].message,
            "analyzers (of aws:accessanalyzer:analyzer): ListAnalyzers: HTTP 500 without an error code"
        );
        assert!(!all[0].properties.contains_key("analyzers"));
    }
}
