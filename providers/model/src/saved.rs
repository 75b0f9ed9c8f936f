//! The saved-inventory source: `--inventory FILE`, an inventory written by a collector or
//! by hand in the JSON form of `shared/design/inventory.md`.

use crate::inventory::Inventory;
use crate::provider::{merge, LoadRequest, Part, Provider, ProviderError};

/// Loads inventory files. Only the properties the specs read are kept when the request
/// says so ([`LoadRequest::keep`]); the whole file is still checked.
#[derive(Debug, Clone, Copy, Default)]
pub struct SavedInventory;

impl Provider for SavedInventory {
    fn name(&self) -> &str {
        "inventory"
    }

    /// None: a saved inventory names its provider inside the file, and the engine checks
    /// specs against that provider's schemas once the file is read.
    fn schemas(&self) -> Option<crate::schema::SchemaSet> {
        None
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        let mut parts = Vec::new();
        for path in &request.options.paths {
            let inventory = match request.keep {
                Some(keep) => Inventory::load_projected(path, keep),
                None => Inventory::load(path),
            }
            .map_err(|e| ProviderError::new(e.to_string()))?;
            parts.push(Part {
                label: format!("inventory {}", crate::input::display_path(path)),
                inventory,
            });
        }
        if parts.is_empty() {
            return Err(ProviderError::new("no inventory file given"));
        }
        merge(parts).map_err(|e| ProviderError::new(e.to_string()))
    }
}
