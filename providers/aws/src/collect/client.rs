//! SDK configuration: the standard AWS configuration chain (environment, profiles, SSO,
//! instance roles, `AWS_ENDPOINT_URL*`), adaptive retries with backoff, timeouts, and an
//! interceptor that counts attempts so retries can be reported.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::context::InterceptorContext;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::retries::classifiers::{
    ClassifyRetry, RetryAction, RetryClassifierPriority,
};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;

/// Whole operation, retries included.
const OPERATION_TIMEOUT: Duration = Duration::from_secs(120);
/// One attempt.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(30);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Attempts per operation when neither AWS_MAX_ATTEMPTS nor the profile says.
const DEFAULT_MAX_ATTEMPTS: u32 = 5;

/// Loads the shared SDK configuration from the standard chain.
pub(crate) async fn load(profile: Option<&str>) -> SdkConfig {
    let mut loader = aws_config::defaults(BehaviorVersion::latest());
    if let Some(profile) = profile {
        loader = loader.profile_name(profile);
    }
    let base = loader.load().await;
    let attempts = configured_max_attempts(&base).unwrap_or(DEFAULT_MAX_ATTEMPTS);
    base.into_builder()
        .retry_config(RetryConfig::adaptive().with_max_attempts(attempts))
        .timeout_config(
            TimeoutConfig::builder()
                .operation_timeout(OPERATION_TIMEOUT)
                .operation_attempt_timeout(ATTEMPT_TIMEOUT)
                .connect_timeout(CONNECT_TIMEOUT)
                .build(),
        )
        .build()
}

/// AWS_MAX_ATTEMPTS (or the profile's `max_attempts`), when set explicitly.
fn configured_max_attempts(config: &SdkConfig) -> Option<u32> {
    let explicit = std::env::var_os("AWS_MAX_ATTEMPTS").is_some();
    explicit.then(|| config.retry_config().map(|r| r.max_attempts()))?
}

/// An EC2 client for `region`.
pub(crate) fn ec2(
    config: &SdkConfig,
    region: &str,
    attempts: &Arc<AtomicU64>,
) -> aws_sdk_ec2::Client {
    let conf = aws_sdk_ec2::config::Builder::from(config)
        .region(Region::new(region.to_string()))
        .interceptor(CountAttempts(attempts.clone()))
        .retry_classifier(UnreadableAnswers)
        .build();
    aws_sdk_ec2::Client::from_conf(conf)
}

/// An S3 client for `region`; path-style addressing when an endpoint URL is configured
/// (local stand-ins such as moto do not serve virtual-hosted buckets).
pub(crate) fn s3(
    config: &SdkConfig,
    region: &str,
    attempts: &Arc<AtomicU64>,
) -> aws_sdk_s3::Client {
    let custom_endpoint = config.endpoint_url().is_some()
        || std::env::var_os("AWS_ENDPOINT_URL_S3").is_some()
        || std::env::var_os("AWS_ENDPOINT_URL").is_some();
    let conf = aws_sdk_s3::config::Builder::from(config)
        .region(Region::new(region.to_string()))
        .force_path_style(custom_endpoint)
        .interceptor(CountAttempts(attempts.clone()))
        .retry_classifier(UnreadableAnswers)
        .build();
    aws_sdk_s3::Client::from_conf(conf)
}

/// Counts every attempt (first tries and retries) of every request.
#[derive(Debug)]
struct CountAttempts(Arc<AtomicU64>);

impl Intercept for CountAttempts {
    fn name(&self) -> &'static str {
        "CountAttempts"
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// An STS client (GetCallerIdentity: the account id).
pub(crate) fn sts(
    config: &SdkConfig,
    region: &str,
    attempts: &Arc<AtomicU64>,
) -> aws_sdk_sts::Client {
    let conf = aws_sdk_sts::config::Builder::from(config)
        .region(Region::new(region.to_string()))
        .interceptor(CountAttempts(attempts.clone()))
        .build();
    aws_sdk_sts::Client::from_conf(conf)
}

/// An IAM client (a global service: its calls go to the partition's IAM endpoint).
pub(crate) fn iam(
    config: &SdkConfig,
    region: &str,
    attempts: &Arc<AtomicU64>,
) -> aws_sdk_iam::Client {
    let conf = aws_sdk_iam::config::Builder::from(config)
        .region(Region::new(region.to_string()))
        .interceptor(CountAttempts(attempts.clone()))
        .retry_classifier(UnreadableAnswers)
        .build();
    aws_sdk_iam::Client::from_conf(conf)
}

/// An S3 Control client (account-level S3 settings).
pub(crate) fn s3control(
    config: &SdkConfig,
    region: &str,
    attempts: &Arc<AtomicU64>,
) -> aws_sdk_s3control::Client {
    let mut builder = aws_sdk_s3control::config::Builder::from(config)
        .region(Region::new(region.to_string()))
        .interceptor(CountAttempts(attempts.clone()));
    let custom = std::env::var("AWS_ENDPOINT_URL_S3_CONTROL")
        .ok()
        .or_else(|| config.endpoint_url().map(str::to_string));
    if let Some(url) = custom {
        // S3 Control puts the account id in front of the host (`{account}.host`), which no
        // local stand-in such as moto resolves: with an explicit endpoint, use it as given.
        builder = builder.endpoint_resolver(FixedEndpoint(url));
    }
    aws_sdk_s3control::Client::from_conf(builder.build())
}

/// An endpoint resolver that always answers the configured URL.
#[derive(Debug)]
struct FixedEndpoint(String);

impl aws_sdk_s3control::config::endpoint::ResolveEndpoint for FixedEndpoint {
    fn resolve_endpoint<'a>(
        &'a self,
        _params: &'a aws_sdk_s3control::config::endpoint::Params,
    ) -> aws_sdk_s3control::config::endpoint::EndpointFuture<'a> {
        aws_sdk_s3control::config::endpoint::EndpointFuture::ready(Ok(
            aws_sdk_s3control::config::endpoint::Endpoint::builder()
                .url(self.0.clone())
                .build(),
        ))
    }
}

/// Forbids retrying an answer that will not change: a 500 or 501 whose body names no error
/// code (no `<Code>` element, no `__type` or `code` member: an empty or foreign body, as a
/// stand-in that does not implement an operation gives). AWS's own internal errors name
/// their code (`InternalError`) and are retried as usual, as are 502-504 (gateways and
/// throttling) and every answer without a response (timeouts, connection errors). The SDK
/// retries no other 4xx than throttling already.
#[derive(Debug)]
struct UnreadableAnswers;

impl ClassifyRetry for UnreadableAnswers {
    fn classify_retry(&self, ctx: &InterceptorContext) -> RetryAction {
        let Some(response) = ctx.response() else {
            return RetryAction::NoActionIndicated;
        };
        if !matches!(response.status().as_u16(), 500 | 501) {
            return RetryAction::NoActionIndicated;
        }
        let body = response.body().bytes().unwrap_or_default();
        if names_an_error_code(body) {
            RetryAction::NoActionIndicated
        } else {
            RetryAction::RetryForbidden
        }
    }

    fn name(&self) -> &'static str {
        "UnreadableAnswers"
    }

    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::run_before(RetryClassifierPriority::http_status_code_classifier())
    }
}

/// Whether an error body names its code: XML (`<Code>`) or JSON (`"__type"`, `"code"`).
fn names_an_error_code(body: &[u8]) -> bool {
    [&b"<Code>"[..], b"\"__type\"", b"\"code\"", b"\"Code\""]
        .iter()
        .any(|needle| body.windows(needle.len()).any(|w| w == *needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_that_name_a_code_are_told_apart() {
        assert!(names_an_error_code(
            b"<Response><Errors><Error><Code>InternalError</Code></Error></Errors></Response>"
        ));
        assert!(names_an_error_code(br#"{"__type": "InternalFailure"}"#));
        assert!(!names_an_error_code(b""));
        assert!(!names_an_error_code(b"<html>Internal Server Error</html>"));
    }
}

/// A client constructor for a regional service, as [`iam`]: the region, the attempt
/// counter and the classifier that does not retry unreadable answers.
macro_rules! regional_client {
    ($($(#[$doc:meta])* $name:ident => $sdk:ident;)*) => {$(
        $(#[$doc])*
        #[allow(dead_code)] // until every service's collector uses its client
        pub(crate) fn $name(
            config: &SdkConfig,
            region: &str,
            attempts: &Arc<AtomicU64>,
        ) -> $sdk::Client {
            let conf = $sdk::config::Builder::from(config)
                .region(Region::new(region.to_string()))
                .interceptor(CountAttempts(attempts.clone()))
                .retry_classifier(UnreadableAnswers)
                .build();
            $sdk::Client::from_conf(conf)
        }
    )*};
}

regional_client! {
    /// CloudTrail: trails, their status and event selectors.
    cloudtrail => aws_sdk_cloudtrail;
    /// AWS Config: recorders and delivery channels.
    config => aws_sdk_config;
    /// KMS: keys, rotation, key policies.
    kms => aws_sdk_kms;
    /// CloudWatch Logs: log groups and metric filters.
    logs => aws_sdk_cloudwatchlogs;
    /// CloudWatch: metric alarms.
    cloudwatch => aws_sdk_cloudwatch;
    /// SNS: topics and subscriptions.
    sns => aws_sdk_sns;
    /// RDS: DB instances.
    rds => aws_sdk_rds;
    /// EFS: file systems.
    efs => aws_sdk_efs;
    /// Security Hub: the hub of a region.
    securityhub => aws_sdk_securityhub;
    /// IAM Access Analyzer: analyzers of a region.
    accessanalyzer => aws_sdk_accessanalyzer;
}
