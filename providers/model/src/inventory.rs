//! The inventory: resources, their index by type and id, and collection errors.

use std::collections::HashMap;

use crate::intern::{Interner, Sym};
use crate::value::{Object, Value};

/// Index of a resource in [`Inventory::resources`].
pub type ResourceIdx = u32;

/// One cloud resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// `aws:ec2:instance`.
    pub type_name: Box<str>,
    pub id: Box<str>,
    pub region: Option<Box<str>>,
    pub account: Option<Box<str>>,
    /// Where a resource read from a file was declared.
    pub source: Option<Source>,
    pub properties: Object,
}

/// A file position a resource was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub file: String,
    pub line: Option<u64>,
}

/// Something a provider could not collect: rules on `type_name` come out `error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionError {
    pub type_name: String,
    pub region: Option<String>,
    pub message: String,
}

/// A finished inventory: references resolved, index built.
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    /// The provider that wrote it (`"aws"`), when known: its schemas then apply.
    pub provider: Option<String>,
    pub collected_at: Option<String>,
    pub resources: Vec<Resource>,
    pub errors: Vec<CollectionError>,
    pub interner: Interner,
    by_key: HashMap<(Box<str>, Box<str>), ResourceIdx>,
    by_type: HashMap<Box<str>, Vec<ResourceIdx>>,
    /// `"<type>/<id>"` of every reference whose target is missing, once each, sorted.
    dangling: Vec<String>,
}

/// Adds resources one by one, then [`InventoryBuilder::finish`]es the inventory.
#[derive(Debug, Default)]
pub struct InventoryBuilder {
    inv: Inventory,
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

    pub fn push(&mut self, resource: Resource) -> Result<ResourceIdx, DuplicateResource> {
        let idx = self.inv.resources.len() as ResourceIdx;
        let key = (resource.type_name.clone(), resource.id.clone());
        if self.inv.by_key.contains_key(&key) {
            return Err(DuplicateResource {
                type_name: resource.type_name.to_string(),
                id: resource.id.to_string(),
                index: idx as usize,
            });
        }
        self.inv.by_key.insert(key, idx);
        self.inv
            .by_type
            .entry(resource.type_name.clone())
            .or_default()
            .push(idx);
        self.inv.resources.push(resource);
        Ok(idx)
    }

    pub fn push_error(&mut self, error: CollectionError) {
        self.inv.errors.push(error);
    }

    /// Resolves every reference to its target and returns the inventory.
    pub fn finish(mut self) -> Inventory {
        let mut dangling = std::collections::BTreeSet::new();
        let by_key = std::mem::take(&mut self.inv.by_key);
        for resource in &mut self.inv.resources {
            for (_, value) in resource.properties.entries.iter_mut() {
                resolve(value, &by_key, &mut dangling);
            }
        }
        self.inv.by_key = by_key;
        self.inv.dangling = dangling.into_iter().collect();
        self.inv
    }
}

fn resolve(
    value: &mut Value,
    by_key: &HashMap<(Box<str>, Box<str>), ResourceIdx>,
    dangling: &mut std::collections::BTreeSet<String>,
) {
    match value {
        Value::Ref(r) => {
            let key: (Box<str>, Box<str>) = (r.target_type().into(), r.target_id().into());
            r.target = by_key.get(&key).copied();
            if r.target.is_none() {
                dangling.insert(r.raw.to_string());
            }
        }
        Value::List(items) => {
            for item in items.iter_mut() {
                resolve(item, by_key, dangling);
            }
        }
        Value::Object(obj) => {
            for (_, v) in obj.entries.iter_mut() {
                resolve(v, by_key, dangling);
            }
        }
        _ => {}
    }
}

impl Inventory {
    /// The resource with this type and id.
    pub fn find(&self, type_name: &str, id: &str) -> Option<ResourceIdx> {
        self.by_key.get(&(type_name.into(), id.into())).copied()
    }

    pub fn resource(&self, idx: ResourceIdx) -> Option<&Resource> {
        self.resources.get(idx as usize)
    }

    /// Every resource of a type, in load order.
    pub fn of_type(&self, type_name: &str) -> &[ResourceIdx] {
        self.by_type.get(type_name).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The resource types present, sorted.
    pub fn types(&self) -> Vec<&str> {
        let mut t: Vec<&str> = self.by_type.keys().map(|k| &**k).collect();
        t.sort_unstable();
        t
    }

    /// The collection errors recorded for a type.
    pub fn errors_for<'a>(&'a self, type_name: &'a str) -> impl Iterator<Item = &'a CollectionError> {
        self.errors.iter().filter(move |e| e.type_name == type_name)
    }

    /// Every dangling reference (`"<type>/<id>"`), once each, sorted.
    pub fn dangling_refs(&self) -> &[String] {
        &self.dangling
    }

    /// The symbol of a property name, if any property in the inventory is named so.
    pub fn sym(&self, name: &str) -> Option<Sym> {
        self.interner.get(name)
    }
}
