//! The live AWS account as a [`Provider`]: the AWS schemas, and an inventory collected
//! with the settings `region` (repeatable), `all-regions`, `profile` and `concurrency`.

use cloudspec_model::schema::SchemaSet;
use cloudspec_model::{Inventory, LoadRequest, Provider, ProviderError};

/// The live AWS provider (`aws`).
#[derive(Debug, Clone, Copy, Default)]
pub struct LiveAws;

/// Requests in flight without `--concurrency`.
#[cfg(feature = "collect")]
const DEFAULT_CONCURRENCY: usize = 16;

impl Provider for LiveAws {
    fn name(&self) -> &str {
        "aws"
    }

    fn schemas(&self) -> Option<SchemaSet> {
        Some(crate::schemas())
    }

    #[cfg(feature = "collect")]
    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        let options = request.options;
        let collect = crate::collect::Options {
            regions: options.all("region").to_vec(),
            all_regions: options.flag("all-regions"),
            profile: options.get("profile").map(str::to_string),
            concurrency: concurrency(options.get("concurrency"))?,
            progress: options.progress,
        };
        let (inventory, stats) = crate::collect::collect_blocking(request.plan, &collect)
            .map_err(|e| ProviderError::new(e.to_string()))?;
        if !options.quiet {
            tracing::info!("{stats}");
        }
        Ok(inventory)
    }

    #[cfg(not(feature = "collect"))]
    fn load(&self, _request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        Err(ProviderError::new(
            "no inventory given: pass --inventory FILE (this build has no live AWS collection; \
             build with the `live-aws` feature)",
        ))
    }
}

/// The `concurrency` setting: a positive number of requests in flight.
#[cfg(feature = "collect")]
fn concurrency(value: Option<&str>) -> Result<usize, ProviderError> {
    match value {
        None => Ok(DEFAULT_CONCURRENCY),
        Some(v) => v.trim().parse::<usize>().map_err(|_| {
            ProviderError::new(format!(
                "--concurrency: expected a number of requests, got {:?}",
                cloudspec_model::input::truncate_chars(v, 40)
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cloudspec_model::{CollectionPlan, Options};

    #[test]
    fn it_is_aws_with_the_aws_schemas() {
        assert_eq!(LiveAws.name(), "aws");
        let schemas = LiveAws.schemas().expect("declared");
        assert!(schemas.get("aws:ec2:volume").is_some());
    }

    #[cfg(feature = "collect")]
    #[test]
    fn concurrency_is_a_number() {
        assert_eq!(concurrency(None), Ok(16));
        assert_eq!(concurrency(Some("4")), Ok(4));
        let err = concurrency(Some("many")).unwrap_err();
        assert_eq!(
            err.message,
            "--concurrency: expected a number of requests, got \"many\""
        );
    }

    #[cfg(feature = "collect")]
    #[test]
    fn a_bad_concurrency_fails_before_collecting() {
        let plan = CollectionPlan::new();
        let mut options = Options::default();
        options.set("concurrency", "x").set("region", "eu-west-1");
        let request = LoadRequest {
            plan: &plan,
            keep: None,
            options: &options,
        };
        let err = LiveAws.load(&request).unwrap_err();
        assert!(err.message.starts_with("--concurrency"), "{err}");
    }

    #[cfg(not(feature = "collect"))]
    #[test]
    fn without_the_collector_it_asks_for_an_inventory() {
        let plan = CollectionPlan::new();
        let options = Options::default();
        let request = LoadRequest {
            plan: &plan,
            keep: None,
            options: &options,
        };
        let err = LiveAws.load(&request).unwrap_err();
        assert!(err.message.starts_with("no inventory given"), "{err}");
    }
}
