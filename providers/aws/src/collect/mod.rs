//! The live collector: reads what a [`CollectionPlan`] needs from an AWS account into an
//! [`Inventory`]. Types, regions and buckets are collected concurrently, every request
//! waits for one of `concurrency` slots, list calls are paginated, the SDK retries in
//! adaptive mode with timeouts, and any failure becomes a [`CollectionError`] of its type
//! and region: nothing fails the whole run except having no region to collect from.
//! What each type calls is its row of [`crate::types::TYPES`], fetched through
//! [`fetch`]. Only Describe/List/Get operations are called (`tests/aws/read_only.rs`
//! checks the source).

pub(crate) mod account;
mod client;
pub(crate) mod cloudtrail;
pub(crate) mod cloudwatch;
pub(crate) mod config;
mod convert;
mod ctx;
pub(crate) mod ec2;
pub(crate) mod efs;
pub(crate) mod fetch;
pub(crate) mod iam;
pub(crate) mod kms;
mod links;
pub(crate) mod logs;
pub(crate) mod posture;
pub(crate) mod rds;
pub(crate) mod s3;
pub(crate) mod sns;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aws_config::SdkConfig;
use cloudspec_model::from_json::{inventory_from_json, JsonResource};
use cloudspec_model::{CollectionError, CollectionPlan, Inventory};
use indicatif::{ProgressBar, ProgressStyle};
use tokio::task::JoinSet;

use crate::types::{AwsType, TYPES};
use ctx::Ctx;
use fetch::Task;

/// How to collect.
#[derive(Debug, Clone)]
pub struct Options {
    /// Regions to collect from; empty means the configured default region.
    pub regions: Vec<String>,
    /// Collect from every region enabled in the account (DescribeRegions).
    pub all_regions: bool,
    /// A named profile of the shared config files.
    pub profile: Option<String>,
    /// At most this many requests in flight.
    pub concurrency: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// What a collection run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Requests made (each page of a paginated call counts once).
    pub api_calls: u64,
    /// Attempts beyond the first, made by the SDK's retry strategy.
    pub retries: u64,
    /// Collection errors recorded.
    pub errors: u64,
    pub resources: u64,
    pub regions: Vec<String>,
    pub wall: Duration,
    /// Requests per API operation (`DescribeVolumes` -> 3).
    pub calls_by_operation: BTreeMap<String, u64>,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "collected {} resources from {} region(s): {} API calls, {} retries, {} errors in {:.2}s",
            self.resources,
            self.regions.len(),
            self.api_calls,
            self.retries,
            self.errors,
            self.wall.as_secs_f64()
        )
    }
}

/// Why collection could not start at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// No `--region`, no AWS_REGION and no region in the profile.
    NoRegion,
    /// `--all-regions`, and DescribeRegions failed.
    Regions(String),
    /// The async runtime could not start.
    Runtime(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NoRegion => f.write_str(
                "no AWS region: pass --region REGION (or --all-regions), or set AWS_REGION or a region in the profile",
            ),
            SetupError::Regions(message) => write!(f, "cannot list the account's regions: {message}"),
            SetupError::Runtime(message) => write!(f, "cannot start the async runtime: {message}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Collects `plan` on a runtime of its own (for callers that are not async).
pub fn collect_blocking(
    plan: &CollectionPlan,
    options: &Options,
) -> Result<(Inventory, Stats), SetupError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| SetupError::Runtime(e.to_string()))?;
    runtime.block_on(collect(plan, options))
}

/// Collects everything `plan` needs.
pub async fn collect(
    plan: &CollectionPlan,
    options: &Options,
) -> Result<(Inventory, Stats), SetupError> {
    let started = Instant::now();
    let config = client::load(options.profile.as_deref()).await;
    let ctx = Arc::new(Ctx::new(
        options.concurrency,
        progress_bar(options.progress),
        page_size(),
    ));
    let needed: Vec<&'static AwsType> = TYPES.iter().filter(|t| plan.needs_type(t.name)).collect();
    let regions = regions(&ctx, &config, options).await?;
    let home = regions
        .first()
        .cloned()
        .unwrap_or_else(|| "us-east-1".to_string());
    let plan = Arc::new(plan.clone());
    let all_regions: Arc<[String]> = regions.clone().into();
    let mut tasks: JoinSet<(Vec<JsonResource>, Vec<CollectionError>)> = JoinSet::new();
    // Regional types in each region, then global ones (their calls go to the home region).
    let (regional, global): (Vec<&'static AwsType>, Vec<_>) =
        needed.iter().partition(|t| t.regional);
    let mut runs: Vec<(&String, &[&'static AwsType])> = Vec::new();
    if !regional.is_empty() {
        runs.extend(regions.iter().map(|r| (r, regional.as_slice())));
    }
    if !global.is_empty() {
        runs.push((&home, global.as_slice()));
    }
    for (region, types) in runs {
        let client = client::ec2(&config, region, &ctx.attempts);
        for &ty in types {
            let task = Task {
                ctx: ctx.clone(),
                config: config.clone(),
                region: region.clone(),
                regions: all_regions.clone(),
                client: client.clone(),
                plan: plan.clone(),
                ty,
            };
            tasks.spawn(async move {
                match (ty.fetch)(&task).await {
                    Ok(found) => found,
                    Err(message) => {
                        let region = ty.regional.then(|| task.region.clone());
                        (Vec::new(), vec![type_error(ty.name, region, message)])
                    }
                }
            });
        }
    }
    let mut resources = Vec::new();
    let mut errors = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((found, errs)) => {
                resources.extend(found);
                errors.extend(errs);
            }
            Err(e) => errors.push(type_error("aws", None, format!("internal error: {e}"))),
        }
    }
    errors.extend(links::unlinked(&plan, &errors));
    for _ in &errors {
        ctx.error();
    }
    let complete: BTreeSet<&str> = plan
        .types
        .iter()
        .map(String::as_str)
        .filter(|t| {
            !errors
                .iter()
                .any(|e| e.type_name == *t && e.members.is_empty())
        })
        .collect();
    links::add_reverse_links(&mut resources, &complete);
    ctx.finish_progress();
    for r in &mut resources {
        for value in r.properties.values_mut() {
            convert::prune_refs(value, &|t| plan.needs_type(t));
        }
    }
    let inventory = inventory_from_json("aws", Some(now_rfc3339()), resources, errors);
    let stats = Stats {
        api_calls: ctx.calls(),
        retries: ctx.attempts().saturating_sub(ctx.calls()),
        errors: ctx.errors(),
        resources: inventory.resources.len() as u64,
        regions,
        wall: started.elapsed(),
        calls_by_operation: ctx.by_operation(),
    };
    Ok((inventory, stats))
}

/// The regions to collect from.
async fn regions(
    ctx: &Ctx,
    config: &SdkConfig,
    options: &Options,
) -> Result<Vec<String>, SetupError> {
    let default = config.region().map(|r| r.to_string());
    if options.all_regions {
        let home = default.unwrap_or_else(|| "us-east-1".to_string());
        let client = client::ec2(config, &home, &ctx.attempts);
        return ec2::enabled_regions(ctx, &client)
            .await
            .map_err(SetupError::Regions);
    }
    if !options.regions.is_empty() {
        let unique: BTreeSet<&String> = options.regions.iter().collect();
        return Ok(unique.into_iter().cloned().collect());
    }
    default.map(|r| vec![r]).ok_or(SetupError::NoRegion)
}

pub(crate) fn type_error(
    type_name: &str,
    region: Option<String>,
    message: String,
) -> CollectionError {
    tracing::debug!(type_name, ?region, %message, "collection error");
    CollectionError::new(type_name, region, message)
}

fn now_rfc3339() -> String {
    aws_smithy_types::DateTime::from(std::time::SystemTime::now())
        .fmt(aws_smithy_types::date_time::Format::DateTime)
        .unwrap_or_default()
}

/// `CLOUDSPEC_AWS_PAGE_SIZE`: a smaller `MaxResults` for paginated calls (a test hook for
/// pagination, read by debug builds only); clamped to the 5..=1000 AWS accepts. Default:
/// the largest page.
fn page_size() -> i32 {
    if !cfg!(debug_assertions) {
        return 1000;
    }
    std::env::var("CLOUDSPEC_AWS_PAGE_SIZE")
        .ok()
        .and_then(|v| v.parse::<i32>().ok())
        .map_or(1000, |n| n.clamp(5, 1000))
}

fn progress_bar(enabled: bool) -> Option<ProgressBar> {
    if !enabled {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} collecting: {pos} API calls, last {msg} [{elapsed}]",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}
