//! The inventory: resources, their index by type and id, and collection errors.

use std::collections::BTreeSet;

use crate::intern::{Interner, Sym, TextMap};
use crate::ref_list::RefList;
use crate::value::{Object, Value};

/// Index of a resource in [`Inventory::resources`].
pub type ResourceIdx = u32;

/// One cloud resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// `aws:ec2:instance`.
    pub type_name: crate::value::Text,
    pub id: crate::value::Text,
    pub region: Option<crate::value::Text>,
    pub account: Option<crate::value::Text>,
    /// Where a resource read from a file was declared. Boxed: live resources have none,
    /// and resources are many.
    pub source: Option<Box<Source>>,
    pub properties: Object,
}

/// A file position a resource was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file as inventories carry it: for Terraform, relative to the `--terraform`
    /// directory (`modules/net/main.tf`).
    pub file: String,
    pub line: Option<u64>,
    /// The directory `file` is relative to, as given on the command line (`infra`), when
    /// not the working directory. Not part of an inventory: reports that point people and
    /// code-scanning tools at the file (console, JUnit, SARIF) name it [`Source::located`].
    pub root: Option<std::sync::Arc<str>>,
}

impl Source {
    /// A source without a root: its file is named from where cloudspec runs.
    pub fn new(file: impl Into<String>, line: Option<u64>) -> Self {
        Source {
            file: file.into(),
            line,
            root: None,
        }
    }

    /// The file as it is opened from where cloudspec runs: `root/file`.
    pub fn located(&self) -> String {
        located(self.root.as_deref(), &self.file)
    }
}

/// `file` inside `root` (`infra` + `main.tf` is `infra/main.tf`), with `/` separators.
pub fn located(root: Option<&str>, file: &str) -> String {
    match root {
        Some(root) if !root.is_empty() && root != "." => {
            format!("{}/{file}", root.trim_end_matches('/'))
        }
        _ => file.to_string(),
    }
}

/// The header's `"origin"` (`design/terraform.md` section 3): the kind of source the
/// resources were read from and its path as given on the command line
/// (`{"kind": "terraform", "path": "infra"}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub kind: String,
    pub path: String,
}

impl Origin {
    /// The directory the resources' `source.file`s are relative to: the path, or the
    /// folder of a file the resources come from (a plan `infra/plan.json` whose resources'
    /// file is `plan.json`). `None` for the working directory.
    pub fn root_for(&self, file: &str) -> Option<std::sync::Arc<str>> {
        let path = self.path.replace('\\', "/");
        let path = path.trim_end_matches('/');
        let dir = match path.rsplit_once('/') {
            Some((dir, name)) if name == file => dir,
            None if path == file => "",
            _ => path,
        };
        let mut dir = dir;
        while let Some(rest) = dir.strip_prefix("./") {
            dir = rest.trim_start_matches('/');
        }
        if dir.is_empty() && self.path.starts_with('/') {
            return Some("/".into());
        }
        (!dir.is_empty() && dir != ".").then(|| dir.into())
    }
}

/// Something a provider could not collect: rules on `type_name` come out `error`. With
/// `members`, only those top-level members are missing (the call that fills them failed):
/// a rule that reads one of them is `error`, others are judged as usual.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionError {
    pub type_name: String,
    pub region: Option<String>,
    pub message: String,
    /// The members the failed call fills; empty: the whole type.
    pub members: Vec<String>,
}

impl CollectionError {
    /// A failure of the whole type (in `region`, when regional).
    pub fn new(
        type_name: impl Into<String>,
        region: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        CollectionError {
            type_name: type_name.into(),
            region,
            message: message.into(),
            members: Vec::new(),
        }
    }

    /// A failure of the call that fills `members` only.
    pub fn of_members(mut self, members: &[&str]) -> Self {
        self.members = members.iter().map(|m| m.to_string()).collect();
        self
    }
}

/// What a reference whose target is not in the inventory stands for (the header's
/// `"dangling"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Dangling {
    /// A missing resource: its members are all null, and the run warns once per
    /// reference. Live accounts and saved inventories: what is not collected does not
    /// exist.
    #[default]
    Null,
    /// A resource outside what the inventory describes (Terraform code refers to things
    /// it does not manage): its members are all unknown (`"dangling": "unknown"`).
    Unknown,
}

impl Dangling {
    /// The header's word: `null`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dangling::Null => "null",
            Dangling::Unknown => "unknown",
        }
    }

    /// The mode of a header word.
    pub fn parse(word: &str) -> Option<Dangling> {
        match word {
            "null" => Some(Dangling::Null),
            "unknown" => Some(Dangling::Unknown),
            _ => None,
        }
    }
}

/// A finished inventory: references resolved, index built.
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    /// The provider that wrote it (`"aws"`), when known: its schemas then apply.
    pub provider: Option<String>,
    pub collected_at: Option<String>,
    /// What a dangling reference stands for (the header's `"dangling"`).
    pub dangling: Dangling,
    /// What the resources were read from (the header's `"origin"`), when one source.
    pub origin: Option<Origin>,
    pub resources: Vec<Resource>,
    pub errors: Vec<CollectionError>,
    pub interner: Interner,
    /// The resources of each type, by id and in load order.
    by_type: TextMap<crate::value::Text, TypeIndex>,
    /// `"<type>/<id>"` of every reference whose target is missing, once each, sorted.
    dangling_refs: Vec<String>,
}

/// The resources of one type.
#[derive(Debug, Clone)]
struct TypeIndex {
    in_order: Vec<ResourceIdx>,
    by_id: Ids,
    /// This type's number among the inventory's types, for [`Hints`].
    number: usize,
}

/// A type's resources by id.
#[derive(Debug, Clone)]
enum Ids {
    /// While the ids come in increasing order, as every inventory cloudspec writes has them
    /// (sorted by type, then id): each resource's id, in `in_order`'s order, found by
    /// search. Adding one compares it with the last; a hash table would hash it and write
    /// to a random place in a table larger than the cache, and resolving would read one
    /// there again (the index and the references' lookups were a sixth of a one-core
    /// load, issue 22).
    Sorted(Vec<crate::value::Text>),
    /// Once an id came out of order: a hash table.
    Hashed(TextMap<crate::value::Text, ResourceIdx>),
}

impl TypeIndex {
    fn new(number: usize) -> Self {
        TypeIndex {
            in_order: Vec::new(),
            by_id: Ids::Sorted(Vec::new()),
            number,
        }
    }

    /// Adds resource `idx` with `id`; false (and nothing added) when the id is taken.
    fn insert(&mut self, id: &crate::value::Text, idx: ResourceIdx) -> bool {
        match &mut self.by_id {
            Ids::Sorted(ids) => match ids.last().map(|last| last.as_str().cmp(id.as_str())) {
                None | Some(std::cmp::Ordering::Less) => {
                    ids.push(id.clone());
                    self.in_order.push(idx);
                    true
                }
                Some(std::cmp::Ordering::Equal) => false,
                // The first id out of order: from now on the ids go into a table (once).
                Some(std::cmp::Ordering::Greater) => {
                    let ids = std::mem::take(ids);
                    let table = ids.into_iter().zip(self.in_order.iter().copied());
                    self.by_id = Ids::Hashed(table.collect());
                    self.insert(id, idx)
                }
            },
            Ids::Hashed(table) => match table.entry(id.clone()) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(idx);
                    self.in_order.push(idx);
                    true
                }
            },
        }
    }

    /// The resource with `id`.
    fn get(&self, id: &str) -> Option<ResourceIdx> {
        self.get_near(id, &mut 0)
    }

    /// The resource with `id`, searched from `*hint` (where the last search of a run ended:
    /// references tend to point at neighbours, in order); sets `*hint`.
    fn get_near(&self, id: &str, hint: &mut usize) -> Option<ResourceIdx> {
        match &self.by_id {
            Ids::Hashed(table) => table.get(id).copied(),
            Ids::Sorted(ids) => {
                let at = search_from(ids, id, *hint);
                *hint = at.unwrap_or_else(|missing| missing);
                self.in_order.get(at.ok()?).copied()
            }
        }
    }
}

/// `ids.binary_search(id)` (`ids` sorted), started at `hint`: the steps grow from there
/// (1, 2, 4, ...) until they pass `id`, then halve, so a search next to the last one costs
/// a few comparisons of entries already in the cache.
fn search_from(ids: &[crate::value::Text], id: &str, hint: usize) -> Result<usize, usize> {
    let cmp = |at: usize| ids.get(at).map(|probe| probe.as_str().cmp(id));
    use std::cmp::Ordering::{Equal, Greater, Less};
    let hint = hint.min(ids.len().saturating_sub(1));
    let (lo, hi) = match cmp(hint) {
        None => return Err(0),
        Some(Equal) => return Ok(hint),
        Some(Less) => {
            // Forward: `ids[hint + step / 2] < id`, look at `hint + step`.
            let mut step = 1;
            loop {
                match cmp(hint + step) {
                    None => break (hint + step / 2 + 1, ids.len()),
                    Some(Equal) => return Ok(hint + step),
                    Some(Greater) => break (hint + step / 2 + 1, hint + step),
                    Some(Less) => step *= 2,
                }
            }
        }
        Some(Greater) => {
            let mut step = 1;
            loop {
                if step > hint {
                    break (0, hint - step / 2);
                }
                match cmp(hint - step) {
                    None => break (0, hint - step / 2),
                    Some(Equal) => return Ok(hint - step),
                    Some(Less) => break (hint - step + 1, hint - step / 2),
                    Some(Greater) => step *= 2,
                }
            }
        }
    };
    let within = ids.get(lo..hi).unwrap_or_default();
    within
        .binary_search_by(|probe| probe.as_str().cmp(id))
        .map(|at| lo + at)
        .map_err(|at| lo + at)
}

/// Where each type's last search ended, by type number (see [`TypeIndex::get_near`]), for
/// the first [`HINTED_TYPES`] types: an inventory of a million types, each referenced, would
/// otherwise have each resolving thread grow this list to a million entries per chunk.
#[derive(Default)]
struct Hints(Vec<usize>);

/// Types past this many are searched from their first id.
const HINTED_TYPES: usize = 1024;

impl Hints {
    fn find(&mut self, index: &TypeIndex, id: &str) -> Option<ResourceIdx> {
        if index.number >= HINTED_TYPES {
            return index.get(id);
        }
        if self.0.len() <= index.number {
            self.0.resize(index.number + 1, 0);
        }
        let mut unused = 0;
        let hint = self.0.get_mut(index.number).unwrap_or(&mut unused);
        index.get_near(id, hint)
    }
}

/// Adds resources one by one, then [`InventoryBuilder::finish`]es the inventory.
#[derive(Debug, Default)]
pub struct InventoryBuilder {
    inv: Inventory,
    /// By symbol: the keys under which the JSON reader found references. Resolving walks
    /// only those ([`InventoryBuilder::finish`]), unless `walk_everything`.
    ref_keys: Vec<bool>,
    /// A resource came from elsewhere than the JSON reader: walk every value.
    walk_everything: bool,
    /// References under properties a projected load dropped, checked for dangling ones.
    dropped_refs: Vec<RefList>,
}

/// Two resources with the same type and id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("duplicate resource {type_name}/{id}: (type, id) must be unique")]
pub struct DuplicateResource {
    pub type_name: String,
    pub id: String,
    /// Index of the second occurrence in insertion order.
    pub index: usize,
}

impl InventoryBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The interner property keys must be made with.
    pub fn interner(&mut self) -> &mut Interner {
        &mut self.inv.interner
    }

    pub fn set_provider(&mut self, provider: Option<String>) {
        self.inv.provider = provider;
    }

    pub fn set_collected_at(&mut self, at: Option<String>) {
        self.inv.collected_at = at;
    }

    /// What the inventory's dangling references stand for.
    pub fn set_dangling(&mut self, dangling: Dangling) {
        self.inv.dangling = dangling;
    }

    /// What the resources were read from.
    pub fn set_origin(&mut self, origin: Option<Origin>) {
        self.inv.origin = origin;
    }

    /// Adds a resource; a second one with the same type and id is refused.
    pub fn push(&mut self, resource: Resource) -> Result<ResourceIdx, DuplicateResource> {
        self.walk_everything = true;
        self.push_read(resource)
    }

    /// [`InventoryBuilder::push`] for a resource from the JSON reader, whose references
    /// all sit under keys given to [`InventoryBuilder::note_ref_keys`].
    pub(crate) fn push_read(
        &mut self,
        resource: Resource,
    ) -> Result<ResourceIdx, DuplicateResource> {
        let idx = ResourceIdx::try_from(self.inv.resources.len()).unwrap_or(ResourceIdx::MAX);
        let types = self.inv.by_type.len();
        let index = match self.inv.by_type.get_mut(&*resource.type_name) {
            Some(index) => index,
            None => self
                .inv
                .by_type
                .entry(resource.type_name.clone())
                .or_insert_with(|| TypeIndex::new(types)),
        };
        if !index.insert(&resource.id, idx) {
            return Err(DuplicateResource {
                type_name: resource.type_name.to_string(),
                id: resource.id.to_string(),
                index: idx as usize,
            });
        }
        self.inv.resources.push(resource);
        Ok(idx)
    }

    /// The resource already added with this type and id.
    pub fn find(&self, type_name: &str, id: &str) -> Option<ResourceIdx> {
        self.inv.find(type_name, id)
    }

    /// Makes room for `additional` more resources.
    pub fn reserve(&mut self, additional: usize) {
        self.inv.resources.reserve(additional);
    }

    /// Makes room for `additional` more resources if memory allows.
    pub(crate) fn try_reserve(
        &mut self,
        additional: usize,
    ) -> Result<(), std::collections::TryReserveError> {
        self.inv.resources.try_reserve(additional)
    }

    /// Records references the JSON reader dropped with their properties (a projected
    /// load): [`InventoryBuilder::finish`] still lists the dangling ones.
    pub(crate) fn note_dropped_refs(&mut self, mut refs: RefList) {
        if !refs.is_empty() {
            refs.done_pushing();
            self.dropped_refs.push(refs);
        }
    }

    /// Records keys under which the JSON reader found references.
    pub(crate) fn note_ref_keys(&mut self, keys: &[Sym]) {
        for key in keys {
            let at = key.0 as usize;
            if self.ref_keys.len() <= at {
                self.ref_keys.resize(at + 1, false);
            }
            if let Some(slot) = self.ref_keys.get_mut(at) {
                *slot = true;
            }
        }
    }

    pub fn push_error(&mut self, error: CollectionError) {
        self.inv.errors.push(error);
    }

    /// Resolves every reference to its target and returns the inventory. Only values under
    /// keys that hold references are walked, when every resource came from the JSON reader.
    pub fn finish(mut self) -> Inventory {
        let by_type = std::mem::take(&mut self.inv.by_type);
        let keys = Keys {
            marked: (!self.walk_everything).then_some(self.ref_keys.as_slice()),
        };
        let resources = self.inv.resources.len();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get().min(8))
            .min(resources.div_ceil(PARALLEL_RESOLVE_MIN).max(1));
        let by_type_ref = &by_type;
        let dropped = self.dropped_refs.as_slice();
        let dangling: BTreeSet<String> = if threads <= 1 {
            let mut dangling = resolve_all(&mut self.inv.resources, by_type_ref, keys);
            dangling.append(&mut dangling_among(dropped, by_type_ref));
            dangling
        } else {
            // Resources with many references (instances) tend to come together: hand out
            // small chunks on demand so that every thread gets a fair share; then the
            // references of dropped properties (a projected load), a segment's list at a
            // time.
            let chunks = std::sync::Mutex::new(self.inv.resources.chunks_mut(RESOLVE_CHUNK));
            let dropped_chunks = std::sync::Mutex::new(dropped.iter());
            let (chunks, dropped_chunks) = (&chunks, &dropped_chunks);
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(move || {
                            let mut dangling = BTreeSet::new();
                            loop {
                                let chunk = match chunks.lock() {
                                    Ok(mut chunks) => chunks.next(),
                                    Err(_) => None,
                                };
                                let Some(chunk) = chunk else { break };
                                dangling.append(&mut resolve_all(chunk, by_type_ref, keys));
                            }
                            loop {
                                let chunk = match dropped_chunks.lock() {
                                    Ok(mut chunks) => chunks.next(),
                                    Err(_) => None,
                                };
                                let Some(chunk) = chunk else { break };
                                dangling.append(&mut dangling_among([chunk], by_type_ref));
                            }
                            dangling
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            })
        };
        self.inv.by_type = by_type;
        self.inv.dangling_refs = dangling.into_iter().collect();
        self.inv
    }
}

/// Below this many resources per thread, references are resolved on one thread.
const PARALLEL_RESOLVE_MIN: usize = 20_000;

/// Resources a thread resolves at a time.
const RESOLVE_CHUNK: usize = 2_048;

/// The keys whose values may hold references.
#[derive(Clone, Copy)]
struct Keys<'a> {
    /// By symbol; `None`: any key may.
    marked: Option<&'a [bool]>,
}

impl Keys<'_> {
    fn may_hold_refs(self, key: Sym) -> bool {
        self.marked
            .is_none_or(|marked| marked.get(key.0 as usize) == Some(&true))
    }
}

/// Resolves the references of `resources`; returns the dangling ones.
fn resolve_all(
    resources: &mut [Resource],
    by_type: &TextMap<crate::value::Text, TypeIndex>,
    keys: Keys<'_>,
) -> BTreeSet<String> {
    let mut dangling = BTreeSet::new();
    let mut hints = Hints::default();
    for resource in resources {
        for (key, value) in resource.properties.entries.iter_mut() {
            if keys.may_hold_refs(*key) {
                resolve(value, by_type, keys, &mut hints, &mut dangling);
            }
        }
    }
    dangling
}

/// The references of `refs` (`"<type>/<id>"`) whose target is not in `by_type`.
fn dangling_among<'r>(
    refs: impl IntoIterator<Item = &'r RefList>,
    by_type: &TextMap<crate::value::Text, TypeIndex>,
) -> BTreeSet<String> {
    let mut dangling = BTreeSet::new();
    let mut hints = Hints::default();
    // References of one type tend to come together: look the type up once for a run.
    let mut last: Option<(&str, Option<&TypeIndex>)> = None;
    for raw in refs.into_iter().flat_map(RefList::iter) {
        let (target_type, target_id) = crate::value::split_reference(raw);
        let index = match last {
            Some((t, index)) if t == target_type => index,
            _ => {
                let index = by_type.get(target_type);
                last = Some((target_type, index));
                index
            }
        };
        let found = index.is_some_and(|index| hints.find(index, target_id).is_some());
        if !found && !dangling.contains(raw) {
            dangling.insert(raw.to_string());
        }
    }
    dangling
}

/// Sets the target of every reference inside `value`, recording the dangling ones.
fn resolve(
    value: &mut Value,
    by_type: &TextMap<crate::value::Text, TypeIndex>,
    keys: Keys<'_>,
    hints: &mut Hints,
    dangling: &mut BTreeSet<String>,
) {
    match value {
        Value::Ref(r) => {
            let (target_type, target_id) = r.parts();
            r.target = by_type
                .get(target_type)
                .and_then(|index| hints.find(index, target_id));
            if r.target.is_none() && !dangling.contains(&*r.raw) {
                dangling.insert(r.raw.to_string());
            }
        }
        Value::List(items) => {
            for item in items.iter_mut() {
                resolve(item, by_type, keys, hints, dangling);
            }
        }
        Value::Object(obj) => {
            for (key, v) in obj.entries.iter_mut() {
                if keys.may_hold_refs(*key) {
                    resolve(v, by_type, keys, hints, dangling);
                }
            }
        }
        _ => {}
    }
}

impl Inventory {
    /// The resource with this type and id.
    pub fn find(&self, type_name: &str, id: &str) -> Option<ResourceIdx> {
        self.by_type.get(type_name)?.get(id)
    }

    pub fn resource(&self, idx: ResourceIdx) -> Option<&Resource> {
        self.resources.get(idx as usize)
    }

    /// Every resource of a type, in load order.
    pub fn of_type(&self, type_name: &str) -> &[ResourceIdx] {
        self.by_type
            .get(type_name)
            .map(|t| t.in_order.as_slice())
            .unwrap_or(&[])
    }

    /// The resource types present, sorted.
    pub fn types(&self) -> Vec<&str> {
        let mut t: Vec<&str> = self.by_type.keys().map(|k| &**k).collect();
        t.sort_unstable();
        t
    }

    /// The collection errors recorded for a type.
    pub fn errors_for<'a>(
        &'a self,
        type_name: &'a str,
    ) -> impl Iterator<Item = &'a CollectionError> {
        self.errors.iter().filter(move |e| e.type_name == type_name)
    }

    /// Every dangling reference (`"<type>/<id>"`), once each, sorted.
    pub fn dangling_refs(&self) -> &[String] {
        &self.dangling_refs
    }

    /// The symbol of a property name, if any property in the inventory is named so.
    pub fn sym(&self, name: &str) -> Option<Sym> {
        self.interner.get(name)
    }
}

#[cfg(test)]
mod size {
    /// Resources are many: rare fields stay behind a box.
    #[test]
    fn resource_is_at_most_fifteen_words() {
        assert!(std::mem::size_of::<super::Resource>() <= 120);
    }
}

#[cfg(test)]
mod index {
    use super::*;
    use crate::value::Text;
    use proptest::prelude::*;

    fn texts(ids: &[&str]) -> Vec<Text> {
        ids.iter().map(|&id| Text::from(id)).collect()
    }

    #[test]
    fn a_search_from_any_hint_finds_what_binary_search_finds() {
        let ids = texts(&["b", "d", "f", "h", "j", "l", "n"]);
        for hint in 0..10 {
            for id in ["a", "b", "c", "d", "g", "h", "m", "n", "o"] {
                let expected = ids.binary_search_by(|p| p.as_str().cmp(id));
                assert_eq!(search_from(&ids, id, hint), expected, "{id} from {hint}");
            }
        }
        assert_eq!(search_from(&[], "a", 3), Err(0));
    }

    proptest! {
        #[test]
        fn searches_from_hints_agree_with_binary_search(
            set in proptest::collection::btree_set("[a-e]{0,4}", 0..60),
            probes in proptest::collection::vec(("[a-e]{0,4}", 0usize..80), 0..40),
        ) {
            let ids: Vec<Text> = set.iter().map(|s| Text::from(s.as_str())).collect();
            for (id, hint) in probes {
                let expected = ids.binary_search_by(|p| p.as_str().cmp(id.as_str()));
                prop_assert_eq!(search_from(&ids, &id, hint), expected);
            }
        }
    }

    /// Inserts `ids` in turn; the resources each id finds afterwards, and whether the
    /// index stayed sorted.
    fn index_of(ids: &[&str]) -> (Vec<bool>, Vec<Option<ResourceIdx>>, bool) {
        let mut index = TypeIndex::new(0);
        let added = ids
            .iter()
            .zip(0..)
            .map(|(&id, idx)| index.insert(&Text::from(id), idx))
            .collect();
        let found = ["a", "b", "c", "d", "x"]
            .iter()
            .map(|id| index.get(id))
            .collect();
        (added, found, matches!(index.by_id, Ids::Sorted(_)))
    }

    #[test]
    fn ids_in_order_stay_sorted_and_the_first_out_of_order_turns_to_a_table() {
        let (added, found, sorted) = index_of(&["a", "b", "d"]);
        assert_eq!(added, [true, true, true]);
        assert_eq!(found, [Some(0), Some(1), None, Some(2), None]);
        assert!(sorted);
        let (added, found, sorted) = index_of(&["a", "d", "b", "c"]);
        assert_eq!(added, [true, true, true, true]);
        assert_eq!(found, [Some(0), Some(2), Some(3), Some(1), None]);
        assert!(!sorted);
    }

    #[test]
    fn types_past_the_hinted_ones_are_found_without_a_hint() {
        let mut hints = Hints::default();
        for number in [0, HINTED_TYPES - 1, HINTED_TYPES, 10 * HINTED_TYPES] {
            let mut index = TypeIndex::new(number);
            for (idx, id) in ["a", "b", "c"].into_iter().enumerate() {
                assert!(index.insert(&Text::from(id), idx as ResourceIdx));
            }
            assert_eq!(hints.find(&index, "c"), Some(2));
            assert_eq!(hints.find(&index, "a"), Some(0));
            assert_eq!(hints.find(&index, "x"), None);
        }
        assert_eq!(hints.0.len(), HINTED_TYPES);
    }

    #[test]
    fn a_taken_id_is_refused_sorted_or_not() {
        // Right after itself, while sorted.
        let (added, found, sorted) = index_of(&["a", "b", "b"]);
        assert_eq!(added, [true, true, false]);
        assert_eq!(found, [Some(0), Some(1), None, None, None]);
        assert!(sorted);
        // Out of order: the table refuses it, and keeps the first.
        let (added, found, sorted) = index_of(&["a", "b", "c", "a"]);
        assert_eq!(added, [true, true, true, false]);
        assert_eq!(found, [Some(0), Some(1), Some(2), None, None]);
        assert!(!sorted);
        // After the turn to a table.
        let (added, _, _) = index_of(&["b", "a", "b"]);
        assert_eq!(added, [true, true, false]);
    }
}
