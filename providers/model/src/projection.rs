//! Which properties a load keeps. An evaluation reads only the members its rules name, so
//! a load made for one may drop every other property as it reads it: most of a big
//! inventory's memory is properties no rule looks at (`Inventory::load_projected`).

use rustc_hash::FxHashSet;

/// The property keys to keep, by name, at any depth of any resource's properties.
///
/// A key kept *through* keeps its value, but objects in that value are projected in turn;
/// a key kept *whole* keeps everything below it. Every other key is dropped. Names are not
/// tied to a depth or a resource type, so a projection keeps at least what it must: a
/// name kept whole anywhere is kept whole everywhere.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Projection {
    through: FxHashSet<Box<str>>,
    whole: FxHashSet<Box<str>>,
}

/// What a projection does with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    Drop,
    Through,
    Whole,
}

impl Projection {
    /// A projection that keeps nothing yet.
    pub fn new() -> Self {
        Projection::default()
    }

    /// Keeps `name`, projecting the objects in its value in turn.
    pub fn keep_through(&mut self, name: &str) -> &mut Self {
        if !self.whole.contains(name) {
            self.through.insert(name.into());
        }
        self
    }

    /// Keeps `name` with everything below it.
    pub fn keep_whole(&mut self, name: &str) -> &mut Self {
        self.through.remove(name);
        self.whole.insert(name.into());
        self
    }

    /// What happens to a key named `name`.
    pub(crate) fn keep(&self, name: &str) -> Keep {
        if self.whole.contains(name) {
            Keep::Whole
        } else if self.through.contains(name) {
            Keep::Through
        } else {
            Keep::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_outranks_through_in_either_order() {
        let mut p = Projection::new();
        p.keep_through("tags").keep_whole("tags");
        p.keep_whole("state").keep_through("state");
        p.keep_through("ebs");
        assert_eq!(p.keep("tags"), Keep::Whole);
        assert_eq!(p.keep("state"), Keep::Whole);
        assert_eq!(p.keep("ebs"), Keep::Through);
        assert_eq!(p.keep("image_id"), Keep::Drop);
    }
}
