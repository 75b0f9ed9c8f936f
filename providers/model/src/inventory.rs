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
#[derive(Debug, Clone, Default)]
struct TypeIndex {
    by_id: TextMap<crate::value::Text, ResourceIdx>,
    in_order: Vec<ResourceIdx>,
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
        let index = match self.inv.by_type.get_mut(&*resource.type_name) {
            Some(index) => index,
            None => self
                .inv
                .by_type
                .entry(resource.type_name.clone())
                .or_default(),
        };
        match index.by_id.entry(resource.id.clone()) {
            std::collections::hash_map::Entry::Occupied(_) => {
                return Err(DuplicateResource {
                    type_name: resource.type_name.to_string(),
                    id: resource.id.to_string(),
                    index: idx as usize,
                })
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(idx);
            }
        }
        index.in_order.push(idx);
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
    for resource in resources {
        for (key, value) in resource.properties.entries.iter_mut() {
            if keys.may_hold_refs(*key) {
                resolve(value, by_type, keys, &mut dangling);
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
        let found = index.is_some_and(|index| index.by_id.contains_key(target_id));
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
    dangling: &mut BTreeSet<String>,
) {
    match value {
        Value::Ref(r) => {
            let (target_type, target_id) = r.parts();
            r.target = by_type
                .get(target_type)
                .and_then(|index| index.by_id.get(target_id))
                .copied();
            if r.target.is_none() && !dangling.contains(&*r.raw) {
                dangling.insert(r.raw.to_string());
            }
        }
        Value::List(items) => {
            for item in items.iter_mut() {
                resolve(item, by_type, keys, dangling);
            }
        }
        Value::Object(obj) => {
            for (key, v) in obj.entries.iter_mut() {
                if keys.may_hold_refs(*key) {
                    resolve(v, by_type, keys, dangling);
                }
            }
        }
        _ => {}
    }
}

impl Inventory {
    /// The resource with this type and id.
    pub fn find(&self, type_name: &str, id: &str) -> Option<ResourceIdx> {
        self.by_type.get(type_name)?.by_id.get(id).copied()
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
