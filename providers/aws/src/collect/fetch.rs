//! The one fetch skeleton every row of [`crate::types::TYPES`] shares: a [`Task`] (one type
//! in one region), the generic paginated Describe ([`describe`]) that EC2 list types are
//! rows of, and the per-resource member calls ([`PerResource`]).
//!
//! `describe` takes the SDK's pages (a paginator's stream, or [`Once`] for an operation
//! without pagination), an accessor for each page's items with their owner account, the
//! id accessor and the converter. Every page is one request waiting for a slot under
//! `--concurrency`, counted under the row's listing operation; the first failing page
//! fails the type with `Operation: Code: message`.

use std::collections::BTreeMap;
use std::error::Error;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use aws_config::SdkConfig;
use aws_sdk_ec2::error::ProvideErrorMetadata;
use aws_smithy_async::future::pagination_stream::PaginationStream;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use cloudspec_model::from_json::JsonResource;
use cloudspec_model::{CollectionError, CollectionPlan};
use serde_json::Value as Json;
use tokio::task::JoinSet;

use super::ctx::{api_error, Ctx};
use crate::catalog::needed_members;
use crate::types::{AwsType, Call};

/// A boxed future that may move between threads.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What fetching a type found: its resources and the errors of single resources (a
/// bucket whose settings failed); `Err` fails the whole type in the task's region.
pub(crate) type Fetched = Result<(Vec<JsonResource>, Vec<CollectionError>), String>;

/// How a row is fetched.
pub(crate) type Fetch = for<'a> fn(&'a Task) -> BoxFuture<'a, Fetched>;

/// One type to collect in one region (a global type: the home region its calls go to).
pub(crate) struct Task {
    pub(crate) ctx: Arc<Ctx>,
    pub(crate) config: SdkConfig,
    pub(crate) region: String,
    /// Every region collected, in order (the first is the home region of global types).
    pub(crate) regions: Arc<[String]>,
    /// The EC2 client of `region`.
    pub(crate) client: aws_sdk_ec2::Client,
    pub(crate) plan: Arc<CollectionPlan>,
    pub(crate) ty: &'static AwsType,
}

impl Task {
    /// `MaxResults` for an operation whose largest page is `max`.
    pub(crate) fn page(&self, max: i32) -> i32 {
        self.ctx.page_size.min(max)
    }

    /// A resource of the task's type in its region; `None` without an id or properties.
    pub(crate) fn resource(
        &self,
        id: Option<&str>,
        owner: Option<&str>,
        props: Json,
    ) -> Option<JsonResource> {
        let Json::Object(properties) = props else {
            return None;
        };
        Some(JsonResource {
            type_name: self.ty.name.to_string(),
            id: id?.to_string(),
            region: Some(self.region.clone()),
            account: owner.map(str::to_string),
            properties,
        })
    }

    /// Adds the EC2 per-resource members the plan needs to `found` ([`per_resource`] with
    /// the task's EC2 client, in its region).
    pub(crate) async fn per_resource(&self, found: &mut [JsonResource]) -> Vec<CollectionError> {
        per_resource(self, found, &self.client, Some(&self.region)).await
    }
}

/// Adds the per-resource members the plan needs to `found`, for the members whose fetch
/// `pick` takes (those of one service, called with `client`): one call per member and
/// resource, all sent at once (each waits for a slot under `--concurrency`, as every request
/// does). A failed call leaves its member out of that resource and is an error of that
/// member only (one per member, naming how many resources it failed for): rules that read
/// other members are judged as usual.
pub(crate) async fn per_resource<C: MemberClient>(
    t: &Task,
    found: &mut [JsonResource],
    client: &C,
    region: Option<&str>,
) -> Vec<CollectionError> {
    let mut calls = JoinSet::new();
    for m in needed_members(&t.plan, t.ty.name) {
        let Some(fetch) = C::fetch_of(m.fetch) else {
            continue;
        };
        for (index, item) in found.iter().enumerate() {
            let (ctx, client) = (t.ctx.clone(), client.clone());
            let (region, id) = (region.map(str::to_string), item.id.clone());
            calls.spawn(async move {
                let on = On {
                    ctx: &ctx,
                    client: &client,
                    region: region.as_deref(),
                    id: &id,
                    call: &m.call,
                };
                (index, m.member, fetch(&on).await)
            });
        }
    }
    let mut failed: BTreeMap<&'static str, Failures> = BTreeMap::new();
    let mut errors = Vec::new();
    while let Some(joined) = calls.join_next().await {
        match joined {
            Ok((index, member, Ok(value))) => {
                if let Some(item) = found.get_mut(index) {
                    item.properties.insert(member.to_string(), value);
                }
            }
            Ok((_, member, Err(message))) => failed.entry(member).or_default().add(message),
            Err(e) => errors.push(CollectionError::new(
                t.ty.name,
                region.map(str::to_string),
                format!("internal error: {e}"),
            )),
        }
    }
    for (member, failures) in failed {
        if let Some(message) = failures.message("resources") {
            errors.push(
                CollectionError::new(t.ty.name, region.map(str::to_string), message)
                    .of_members(&[member]),
            );
        }
    }
    errors
}

/// The failures of one kind among many calls: the first one's message, and how many.
#[derive(Default)]
pub(crate) struct Failures(Option<(String, usize)>);

impl Failures {
    pub(crate) fn add(&mut self, message: String) {
        self.0.get_or_insert((message, 0)).1 += 1;
    }

    /// The first message, then `(and N more <things>)` when there were more; `None` when
    /// nothing failed.
    pub(crate) fn message(self, things: &str) -> Option<String> {
        let (message, count) = self.0?;
        Some(match count {
            1 => message,
            n => format!("{message} (and {} more {things})", n - 1),
        })
    }
}

/// How one member is read for one resource, with a client of type `C`.
pub(crate) type MemberFetch<C> = for<'a> fn(&'a On<'a, C>) -> BoxFuture<'a, Result<Json, String>>;

/// Defines a [`MemberFetch`] made of one call: the request `$request` (built from the
/// [`On`] named `$o`) is sent as the member's call, and its answer, named `$out`, becomes
/// the member's value `$value`. Most per-resource members are one call each; a member that
/// needs more (IAM's access keys with their last use) is written out as a function.
///
/// ```ignore
/// one_call! {
///     /// ListTagsForResource of the topic, as a key-value object.
///     tags(o: Client) = o.client.list_tags_for_resource().resource_arn(o.id)
///         => |out| tag_map(out.tags().iter().map(|t| (Some(t.key()), Some(t.value()))))
/// }
/// ```
macro_rules! one_call {
    ($(#[$doc:meta])* $name:ident($o:ident: $client:ty) = $request:expr => |$out:ident| $value:expr) => {
        $(#[$doc])*
        pub(crate) fn $name<'a>(
            $o: &'a $crate::collect::fetch::On<'a, $client>,
        ) -> $crate::collect::fetch::BoxFuture<'a, Result<::serde_json::Value, String>> {
            Box::pin(async move {
                let request = $request;
                let $out = $o.ctx.request($o.region, $o.call, request.send()).await?;
                Ok($value)
            })
        }
    };
}
pub(crate) use one_call;

/// A service's client, whose members [`per_resource`] reads: the [`PerResource`] fetches
/// that are its own.
pub(crate) trait MemberClient: Clone + Send + Sync + 'static {
    fn fetch_of(fetch: PerResource) -> Option<MemberFetch<Self>>;
}

/// [`MemberClient`] for each service whose per-resource members go through
/// [`per_resource`] (S3 reads its bucket settings in `collect/s3.rs`).
macro_rules! member_clients {
    ($($variant:ident => $client:ty),* $(,)?) => {$(
        impl MemberClient for $client {
            fn fetch_of(fetch: PerResource) -> Option<MemberFetch<Self>> {
                match fetch {
                    PerResource::$variant(fetch) => Some(fetch),
                    _ => None,
                }
            }
        }
    )*};
}

member_clients!(
    Ec2 => aws_sdk_ec2::Client,
    Iam => aws_sdk_iam::Client,
    CloudTrail => aws_sdk_cloudtrail::Client,
    Kms => super::kms::Client,
    Logs => aws_sdk_cloudwatchlogs::Client,
    Sns => aws_sdk_sns::Client,
    CloudWatch => aws_sdk_cloudwatch::Client,
);

/// The response pages of one listing.
pub(crate) trait Pages<O, E>: Send {
    fn next_page(&mut self) -> impl Future<Output = Option<Result<O, E>>> + Send;
}

impl<O: Send, E: Send> Pages<O, E> for PaginationStream<Result<O, E>> {
    fn next_page(&mut self) -> impl Future<Output = Option<Result<O, E>>> + Send {
        self.next()
    }
}

/// One request that answers everything (an operation without pagination): one page.
pub(crate) struct Once<F>(Option<F>);

impl<F> Once<F> {
    pub(crate) fn new(request: F) -> Self {
        Once(Some(request))
    }
}

impl<O, E, F> Pages<O, E> for Once<F>
where
    F: Future<Output = Result<O, E>> + Send,
{
    async fn next_page(&mut self) -> Option<Result<O, E>> {
        Some(self.0.take()?.await)
    }
}

/// Hands every page of `call` to `on_page`, one request per slot, each counted.
pub(crate) async fn each_page<O, E>(
    ctx: &Ctx,
    region: Option<&str>,
    call: &Call,
    mut pages: impl Pages<O, SdkError<E, HttpResponse>>,
    mut on_page: impl FnMut(O) + Send,
) -> Result<(), String>
where
    O: Send,
    E: ProvideErrorMetadata + Error + Send + 'static,
{
    loop {
        let slot = ctx.slot().await;
        let next = pages.next_page().await;
        drop(slot);
        match next {
            None => return Ok(()),
            Some(Err(e)) => {
                ctx.count(call.operation, region);
                return Err(api_error(call.operation, &e));
            }
            Some(Ok(page)) => {
                ctx.count(call.operation, region);
                on_page(page);
            }
        }
    }
}

/// The generic Describe of a list type: every page of the row's listing, each item with
/// an id converted into a resource (owned by the account `items` names with it), then the
/// per-resource members the plan needs.
pub(crate) fn describe<'a, O, E, T>(
    t: &'a Task,
    pages: impl Pages<O, SdkError<E, HttpResponse>> + 'a,
    items: fn(&O) -> Owned<'_, T>,
    id: fn(&T) -> Option<&str>,
    convert: fn(&T) -> Json,
) -> BoxFuture<'a, Fetched>
where
    O: Send + 'static,
    E: ProvideErrorMetadata + Error + Send + 'static,
    T: 'static,
{
    Box::pin(async move {
        let mut out = listing(t, pages, items, id, convert).await?;
        let errors = t.per_resource(&mut out).await;
        Ok((out, errors))
    })
}

/// Every page of the row's listing (of any service), each item with an id converted into
/// a resource: [`describe`] without the per-resource members, for services whose members
/// go through their own client ([`per_resource`]).
pub(crate) async fn listing<O, E, T>(
    t: &Task,
    pages: impl Pages<O, SdkError<E, HttpResponse>>,
    items: fn(&O) -> Owned<'_, T>,
    id: fn(&T) -> Option<&str>,
    convert: fn(&T) -> Json,
) -> Result<Vec<JsonResource>, String>
where
    O: Send,
    E: ProvideErrorMetadata + Error + Send + 'static,
{
    let listing = t.ty.calls.first().ok_or("no listing call")?;
    let mut out = Vec::new();
    each_page(&t.ctx, Some(&t.region), listing, pages, |page| {
        for (item, owner) in items(&page) {
            out.extend(t.resource(id(item), owner, convert(item)));
        }
    })
    .await?;
    Ok(out)
}

/// The account id of an ARN (`arn:aws:rds:us-east-1:123456789012:db:x`), when it names one.
pub(crate) fn arn_account(arn: Option<&str>) -> Option<&str> {
    arn?.split(':').nth(4).filter(|a| !a.is_empty())
}

/// A page's items, each with the owner account it names.
pub(crate) type Owned<'o, T> = Vec<(&'o T, Option<&'o str>)>;

/// Items with the owner account each names.
pub(crate) fn owned<T>(items: &[T], owner: fn(&T) -> Option<&str>) -> Owned<'_, T> {
    items.iter().map(|i| (i, owner(i))).collect()
}

/// Items that name no owner account.
pub(crate) fn unowned<T>(items: &[T]) -> Owned<'_, T> {
    items.iter().map(|i| (i, None)).collect()
}

/// One resource a per-resource member is read for.
pub(crate) struct On<'a, C> {
    pub(crate) ctx: &'a Ctx,
    /// A client of the resource's region.
    pub(crate) client: &'a C,
    /// The region to count the call under (`None`: global).
    pub(crate) region: Option<&'a str>,
    pub(crate) id: &'a str,
    /// The member's call.
    pub(crate) call: &'static Call,
}

/// How a per-resource member is read, by the service its call goes to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PerResource {
    /// An EC2 call in the resource's region, for every resource at once; a failure is an
    /// error of the member.
    Ec2(for<'a> fn(&'a On<'a, aws_sdk_ec2::Client>) -> BoxFuture<'a, Result<Json, String>>),
    /// An S3 call on a bucket in its region; a failure is an error of the member (naming the
    /// bucket).
    S3(for<'a> fn(&'a On<'a, aws_sdk_s3::Client>) -> BoxFuture<'a, Result<Json, String>>),
    /// An IAM call (global) for every resource at once; a failure is an error of the member.
    Iam(MemberFetch<aws_sdk_iam::Client>),
    /// A CloudTrail call on a trail (by ARN) from the region that lists it.
    CloudTrail(MemberFetch<aws_sdk_cloudtrail::Client>),
    /// A KMS call per key in its region (`collect/kms.rs`).
    Kms(MemberFetch<super::kms::Client>),
    /// A CloudWatch Logs call per log group in its region (`collect/logs.rs`).
    Logs(MemberFetch<aws_sdk_cloudwatchlogs::Client>),
    /// An SNS call per topic in its region (`collect/sns.rs`).
    Sns(MemberFetch<aws_sdk_sns::Client>),
    /// A CloudWatch call per alarm in its region (`collect/cloudwatch.rs`).
    CloudWatch(MemberFetch<aws_sdk_cloudwatch::Client>),
}

#[cfg(test)]
mod tests {
    use super::Failures;

    #[test]
    fn failures_name_the_first_message_and_count_the_rest() {
        assert_eq!(Failures::default().message("keys"), None);
        let mut one = Failures::default();
        one.add("AccessDenied: no".into());
        assert_eq!(one.message("keys").as_deref(), Some("AccessDenied: no"));
        let mut three = Failures::default();
        for message in [
            "Throttling: slow down",
            "AccessDenied: no",
            "AccessDenied: no",
        ] {
            three.add(message.into());
        }
        assert_eq!(
            three.message("resources").as_deref(),
            Some("Throttling: slow down (and 2 more resources)")
        );
    }
}
