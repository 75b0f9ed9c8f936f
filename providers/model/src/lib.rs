//! The inventory model every provider produces and the engine reads.
//!
//! An [`Inventory`] is a set of [`Resource`]s, each a tree of [`Value`]s whose object keys
//! are interned [`Sym`]s, plus the list of [`CollectionError`]s a provider met. Associations
//! are [`Value::Ref`]s resolved to resource indexes once, when the inventory is finished, so
//! following one is O(1). The JSON form is the contract in `shared/design/inventory.md`.
//! [`schema`] holds the resource schemas providers declare.
// `deny`, not `forbid`: json::mapped holds the one reviewed `unsafe` block (a file mapped
// into memory for loading; ARCHITECTURE.md says why).
#![deny(unsafe_code)]

pub mod from_json;
pub mod input;
mod intern;
mod inventory;
mod json;
mod plan;
mod projection;
pub mod provider;
mod ref_list;
mod saved;
pub mod schema;
mod value;

pub use intern::{Interner, Sym};
/// `file` inside `root` as reports locate it ([`Source::located`]).
pub use inventory::located as located_source;
pub use inventory::{
    CollectionError, Dangling, DuplicateResource, Inventory, InventoryBuilder, Origin, Resource,
    ResourceIdx, Source,
};
pub use json::{InventoryHeader, InventoryWriter, LoadError, LoadErrorKind};
pub use plan::CollectionPlan;
pub use projection::Projection;
pub use provider::{merge, LoadRequest, MergeError, Options, Part, Provider, ProviderError};
pub use saved::SavedInventory;
pub use value::{Object, Reference, Text, Unknown, Value};
