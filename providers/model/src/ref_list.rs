//! References kept as text only: the ones under properties a projected load dropped,
//! which the inventory still checks for dangling targets.

/// References (`"<type>/<id>"`) in one string instead of a box each: a projected load may
/// drop hundreds of thousands (every instance's `vpc`), and a box each was an allocation,
/// a free and some 64 bytes of fresh memory apiece. A reference equal to one stored
/// recently (most point at a few VPCs or subnets) is not stored again: only whether it
/// dangles matters.
#[derive(Debug, Clone, Default)]
pub(crate) struct RefList {
    text: String,
    /// Where each reference ends in `text`.
    ends: Vec<usize>,
    /// By a hash of its text: the index of a reference stored lately (`usize::MAX`: none).
    recent: Vec<usize>,
}

/// Slots of [`RefList::recent`].
const RECENT: usize = 256;

impl RefList {
    /// Adds `raw`, unless a reference stored lately has the same text.
    pub fn push(&mut self, raw: &str) {
        if self.recent.is_empty() {
            self.recent = vec![usize::MAX; RECENT];
        }
        let slot = slot_of(raw);
        if let Some(&at) = self.recent.get(slot) {
            if self.get(at) == Some(raw) {
                return;
            }
        }
        if let Some(entry) = self.recent.get_mut(slot) {
            *entry = self.ends.len();
        }
        self.text.push_str(raw);
        self.ends.push(self.text.len());
    }

    /// Frees the table of recent references (2 KiB) once nothing more is pushed: a big
    /// inventory's builder holds one list per 4 MiB segment until it finishes.
    pub fn done_pushing(&mut self) {
        self.recent = Vec::new();
    }

    /// The references stored.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Keeps the first `len` references stored.
    pub fn truncate(&mut self, len: usize) {
        if len < self.ends.len() {
            self.ends.truncate(len);
            self.text.truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    /// The reference stored `at`th.
    fn get(&self, at: usize) -> Option<&str> {
        let end = *self.ends.get(at)?;
        let start = match at.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// The references in the order they were stored.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|at| self.get(at).unwrap_or_default())
    }
}

impl<'a> FromIterator<&'a str> for RefList {
    fn from_iter<I: IntoIterator<Item = &'a str>>(refs: I) -> Self {
        let mut list = RefList::default();
        for raw in refs {
            list.push(raw);
        }
        list
    }
}

/// A slot of [`RefList::recent`] for `raw`: from its length and last eight bytes, where
/// ids differ (`vpc-00000000000000001`).
fn slot_of(raw: &str) -> usize {
    let bytes = raw.as_bytes();
    let tail = bytes
        .get(bytes.len().saturating_sub(8)..)
        .unwrap_or_default();
    let mut word = [0u8; 8];
    if let Some(dest) = word.get_mut(..tail.len()) {
        dest.copy_from_slice(tail);
    }
    let hash = (u64::from_le_bytes(word) ^ bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (hash >> 56) as usize % RECENT
}

#[cfg(test)]
mod tests {
    use super::RefList;
    use proptest::prelude::*;

    #[test]
    fn repeats_are_stored_once_and_truncation_forgets_them() {
        let mut list = RefList::default();
        for raw in ["t/a", "t/b", "t/a", "t/b", "u/a"] {
            list.push(raw);
        }
        assert_eq!(list.iter().collect::<Vec<_>>(), ["t/a", "t/b", "u/a"]);
        list.truncate(1);
        assert_eq!(list.iter().collect::<Vec<_>>(), ["t/a"]);
        // `t/b` was forgotten with its slot still pointing past the end: stored again.
        list.push("t/b");
        list.push("t/a");
        assert_eq!(list.iter().collect::<Vec<_>>(), ["t/a", "t/b"]);
        assert_eq!(list.len(), 2);
        // Pushing after `done_pushing` still stores, without the check for a repeat.
        list.done_pushing();
        list.push("t/a");
        assert_eq!(list.iter().collect::<Vec<_>>(), ["t/a", "t/b", "t/a"]);
        list.truncate(0);
        assert!(list.is_empty());
        assert_eq!(list.iter().count(), 0);
    }

    proptest! {
        /// Whatever is pushed and truncated, the list holds the same set of references as
        /// a plain list would, each one in order of first storing.
        #[test]
        fn holds_what_a_plain_list_holds(
            ops in proptest::collection::vec(
                prop_oneof![
                    "[ab]/[0-9a-z]{0,3}".prop_map(Some),
                    Just(None),
                ],
                0..60,
            )
        ) {
            let mut list = RefList::default();
            let mut plain: Vec<String> = Vec::new();
            for op in ops {
                match op {
                    Some(raw) => {
                        list.push(&raw);
                        plain.push(raw);
                    }
                    None => {
                        let keep = list.len() / 2;
                        list.truncate(keep);
                        // The plain list keeps every push up to the `keep`th stored one.
                        let kept: std::collections::BTreeSet<String> =
                            list.iter().map(str::to_string).collect();
                        plain.retain(|r| kept.contains(r));
                    }
                }
            }
            let stored: Vec<&str> = list.iter().collect();
            let distinct: std::collections::BTreeSet<&str> = plain.iter().map(String::as_str).collect();
            let stored_set: std::collections::BTreeSet<&str> = stored.iter().copied().collect();
            prop_assert_eq!(stored_set, distinct);
            prop_assert!(stored.len() <= plain.len());
        }
    }
}
