//! What every collecting task shares: the concurrency limit, call counters, the progress
//! bar, and the conversion of SDK errors into the messages `CollectionError`s carry.

use std::collections::BTreeMap;
use std::error::Error;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_ec2::error::ProvideErrorMetadata;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use aws_smithy_types::error::display::DisplayErrorContext;
use indicatif::ProgressBar;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::types::Call;

/// Shared state of one collection run.
pub(crate) struct Ctx {
    limit: Semaphore,
    calls: AtomicU64,
    pub(crate) attempts: Arc<AtomicU64>,
    errors: AtomicU64,
    by_operation: Mutex<BTreeMap<&'static str, u64>>,
    progress: Option<ProgressBar>,
    /// `MaxResults` for paginated EC2 calls (the largest every operation accepts).
    pub(crate) page_size: i32,
    /// The account id from STS GetCallerIdentity, asked once for every type that needs it.
    caller: tokio::sync::OnceCell<Result<String, String>>,
}

impl Ctx {
    pub(crate) fn new(concurrency: usize, progress: Option<ProgressBar>, page_size: i32) -> Self {
        Ctx {
            limit: Semaphore::new(concurrency.max(1)),
            calls: AtomicU64::new(0),
            attempts: Arc::new(AtomicU64::new(0)),
            errors: AtomicU64::new(0),
            by_operation: Mutex::new(BTreeMap::new()),
            progress,
            page_size,
            caller: tokio::sync::OnceCell::new(),
        }
    }

    /// The account the credentials belong to (GetCallerIdentity, `call`), asked once per
    /// run whatever number of types need it; a failure is every asker's error.
    pub(crate) async fn account_id(
        &self,
        config: &aws_config::SdkConfig,
        region: &str,
        call: &Call,
    ) -> Result<String, String> {
        self.caller
            .get_or_init(|| async {
                let sts = super::client::sts(config, region, &self.attempts);
                let caller = self
                    .request(None, call, sts.get_caller_identity().send())
                    .await?;
                caller
                    .account()
                    .map(str::to_string)
                    .ok_or_else(|| "GetCallerIdentity: the answer names no account".to_string())
            })
            .await
            .clone()
    }

    /// Waits for a slot under `--concurrency`; hold it for the duration of one request.
    pub(crate) async fn slot(&self) -> Option<SemaphorePermit<'_>> {
        self.limit.acquire().await.ok()
    }

    /// Records one request of `operation` (one page of a paginated call).
    pub(crate) fn count(&self, operation: &'static str, region: Option<&str>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut map) = self.by_operation.lock() {
            *map.entry(operation).or_default() += 1;
        }
        tracing::debug!(
            operation,
            region = region.unwrap_or("global"),
            "aws api call"
        );
        if let Some(bar) = &self.progress {
            bar.inc(1);
            bar.set_message(operation);
        }
    }

    /// Sends one request of `call` in a slot, counted.
    pub(crate) async fn send<O, E>(
        &self,
        region: Option<&str>,
        call: &Call,
        request: impl Future<Output = Result<O, E>>,
    ) -> Result<O, E> {
        let slot = self.slot().await;
        let result = request.await;
        drop(slot);
        self.count(call.operation, region);
        result
    }

    /// [`Ctx::send`], a failure as its message (`Operation: Code: message`).
    pub(crate) async fn request<O, E>(
        &self,
        region: Option<&str>,
        call: &Call,
        request: impl Future<Output = Result<O, SdkError<E, HttpResponse>>>,
    ) -> Result<O, String>
    where
        E: ProvideErrorMetadata + Error + 'static,
    {
        self.send(region, call, request)
            .await
            .map_err(|e| api_error(call.operation, &e))
    }

    /// Records one collection error.
    pub(crate) fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    pub(crate) fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    pub(crate) fn attempts(&self) -> u64 {
        self.attempts.load(Ordering::Relaxed)
    }

    pub(crate) fn by_operation(&self) -> BTreeMap<String, u64> {
        self.by_operation
            .lock()
            .map(|m| m.iter().map(|(k, v)| (k.to_string(), *v)).collect())
            .unwrap_or_default()
    }

    pub(crate) fn finish_progress(&self) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
    }
}

/// `Operation: ErrorCode: message`, or `Operation: <what failed>` for errors without a
/// service error code (timeouts, connection failures).
pub(crate) fn api_error<E>(operation: &str, err: &SdkError<E, HttpResponse>) -> String
where
    E: ProvideErrorMetadata + Error + 'static,
{
    match (err.code(), err.message()) {
        (Some(code), Some(message)) => format!("{operation}: {code}: {message}"),
        (Some(code), None) => format!("{operation}: {code}"),
        _ => format!("{operation}: {}", describe(err)),
    }
}

/// What went wrong with a request that has no service error code, in one short line (never
/// the raw response, which can be large).
fn describe<E>(err: &SdkError<E, HttpResponse>) -> String
where
    E: Error + 'static,
{
    let cause = || {
        err.source()
            .map(|s| DisplayErrorContext(s).to_string())
            .unwrap_or_default()
    };
    match err {
        SdkError::TimeoutError(_) => "timed out".to_string(),
        SdkError::DispatchFailure(_) => format!("request failed: {}", cause()),
        SdkError::ServiceError(s) => {
            // An error without a code: its innermost cause says what was wrong with the
            // answer (the chain's Debug forms repeat the whole error).
            let mut inner: &(dyn Error + 'static) = s.err();
            while let Some(next) = inner.source() {
                inner = next;
            }
            format!(
                "unexpected response: HTTP {} without an error code ({inner})",
                s.raw().status().as_u16()
            )
        }
        SdkError::ResponseError(_) => format!("unreadable response: {}", cause()),
        _ => cause(),
    }
}
