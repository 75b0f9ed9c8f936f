//! What a run needs collected: the resource types its rules reach and, per type, the
//! top-level members they read. The engine computes it from the specs (`cloudspec::plan`);
//! providers read it to call only the APIs that matter.

use std::collections::{BTreeMap, BTreeSet};

/// The resource types and members a set of specs needs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectionPlan {
    /// Every type a rule is `On`, or reaches through an association at any depth.
    pub types: BTreeSet<String>,
    /// Per type, the top-level members rules read (for types whose members cost calls of
    /// their own, such as S3 bucket settings).
    pub members: BTreeMap<String, BTreeSet<String>>,
}

impl CollectionPlan {
    /// An empty plan: nothing needed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether resources of `type_name` are needed.
    pub fn needs_type(&self, type_name: &str) -> bool {
        self.types.contains(type_name)
    }

    /// Whether a rule reads the top-level member `member` of `type_name`.
    pub fn needs_member(&self, type_name: &str, member: &str) -> bool {
        self.members
            .get(type_name)
            .is_some_and(|members| members.contains(member))
    }

    /// Records that `type_name` is needed.
    pub fn add_type(&mut self, type_name: &str) {
        if !self.types.contains(type_name) {
            self.types.insert(type_name.to_string());
        }
    }

    /// Records that `member` of `type_name` is read (and so the type is needed).
    pub fn add_member(&mut self, type_name: &str, member: &str) {
        self.add_type(type_name);
        self.members
            .entry(type_name.to_string())
            .or_default()
            .insert(member.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_imply_their_type() {
        let mut plan = CollectionPlan::new();
        plan.add_member("aws:s3:bucket", "versioning");
        assert!(plan.needs_type("aws:s3:bucket"));
        assert!(plan.needs_member("aws:s3:bucket", "versioning"));
        assert!(!plan.needs_member("aws:s3:bucket", "policy"));
        assert!(!plan.needs_type("aws:ec2:volume"));
    }
}
