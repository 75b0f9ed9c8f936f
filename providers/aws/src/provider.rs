//! PLACEHOLDER until the aws-table branch lands.
use cloudspec_model::{Inventory, LoadRequest, Provider, ProviderError};

pub struct LiveAws;

impl Provider for LiveAws {
    fn name(&self) -> &str {
        "aws"
    }
    fn schemas(&self) -> Option<cloudspec_model::schema::SchemaSet> {
        Some(crate::schemas())
    }
    fn load(&self, _request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        Err(ProviderError::new("placeholder"))
    }
}
