//! IAM (global: collected once per account, from the task's home region, never per
//! region). `aws:iam:user` is ListUsers with one member per per-user call (access keys with
//! their last use, MFA devices, login profile, attached and inline policies, groups, tags),
//! each made only when a rule reads it; `aws:iam:account` holds the account-wide settings
//! (password policy, account summary, virtual MFA devices), each likewise.

use aws_sdk_iam::error::ProvideErrorMetadata;
use aws_sdk_iam::types as iam;
use aws_sdk_iam::Client;
use cloudspec_model::from_json::JsonResource;
use cloudspec_model::CollectionError;
use serde_json::{json, Map, Value as Json};

use super::client;
use super::convert::{document, list, tag_map, ts};
use super::ctx::api_error;
use super::fetch::{arn_account, each_page, one_call, per_resource, BoxFuture, Fetched, On, Task};
use crate::schema::SUMMARY_KEYS;
use crate::types::{GET_ACCESS_KEY_LAST_USED, GET_POLICY_VERSION};

/// `aws:iam:user`: every page of ListUsers, then the per-user members the plan needs.
pub(crate) async fn users(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::iam(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    each_page(
        &t.ctx,
        None,
        listing,
        client.list_users().max_items(1000).into_paginator().send(),
        |page| {
            for u in page.users() {
                let props = json!({
                    "user_name": u.user_name(),
                    "user_id": u.user_id(),
                    "arn": u.arn(),
                    "path": u.path(),
                    "create_date": ts(Some(u.create_date())),
                    "password_last_used": ts(u.password_last_used()),
                });
                found.extend(iam_resource(t, u.arn(), props));
            }
        },
    )
    .await?;
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

/// The IAM per-resource members the plan needs, added to `found` ([`per_resource`]).
async fn iam_members(
    t: &Task,
    found: &mut [JsonResource],
    client: &Client,
) -> Vec<CollectionError> {
    per_resource(t, found, client, None).await
}

/// IAM tags (of a user, role, policy or server certificate) as a key-value object.
fn iam_tags(tags: &[iam::Tag]) -> Json {
    tag_map(tags.iter().map(|t| (Some(t.key()), Some(t.value()))))
}

/// The user name of a user's ARN (its id): the part after the last `/`.
fn user_name(arn: &str) -> &str {
    arn.rsplit('/').next().unwrap_or(arn)
}

/// ListAccessKeys, each key with GetAccessKeyLastUsed.
pub(crate) fn access_keys<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let name = user_name(o.id);
        let out = o
            .ctx
            .request(
                o.region,
                o.call,
                o.client.list_access_keys().user_name(name).send(),
            )
            .await?;
        let mut keys = Vec::new();
        for k in out.access_key_metadata() {
            let last_used = match k.access_key_id() {
                Some(id) => {
                    let used = o
                        .ctx
                        .request(
                            o.region,
                            &GET_ACCESS_KEY_LAST_USED,
                            o.client.get_access_key_last_used().access_key_id(id).send(),
                        )
                        .await?;
                    used.access_key_last_used().map_or(Json::Null, |u| {
                        json!({
                            "last_used_date": ts(u.last_used_date()),
                            "service_name": u.service_name(),
                            "region": u.region(),
                        })
                    })
                }
                None => Json::Null,
            };
            keys.push(json!({
                "access_key_id": k.access_key_id(),
                "status": k.status().map(|s| s.as_str()),
                "create_date": ts(k.create_date()),
                "last_used": last_used,
            }));
        }
        Ok(Json::Array(keys))
    })
}

one_call! {
    /// ListMFADevices.
    mfa_devices(o: Client) = o.client.list_mfa_devices().user_name(user_name(o.id))
        => |out| list(
            out.mfa_devices(),
            |d| json!({"serial_number": d.serial_number(), "enable_date": ts(Some(d.enable_date()))}),
        )
}

/// GetLoginProfile; null for a user without a console password (NoSuchEntity).
pub(crate) fn login_profile<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let request = o.client.get_login_profile().user_name(user_name(o.id));
        match o.ctx.send(o.region, o.call, request.send()).await {
            Ok(out) => Ok(out.login_profile().map_or(Json::Null, |p| {
                json!({
                    "create_date": ts(Some(p.create_date())),
                    "password_reset_required": p.password_reset_required(),
                })
            })),
            Err(e) if e.code() == Some("NoSuchEntity") => Ok(Json::Null),
            Err(e) => Err(api_error(o.call.operation, &e)),
        }
    })
}

one_call! {
    /// ListAttachedUserPolicies.
    attached_policies(o: Client) =
        o.client.list_attached_user_policies().user_name(user_name(o.id))
        => |out| list(out.attached_policies(), attached_policy)
}

fn attached_policy(p: &iam::AttachedPolicy) -> Json {
    json!({
        "policy_name": p.policy_name(),
        "policy_arn": p.policy_arn(),
        "policy": p.policy_arn().map(|arn| json!({"$ref": format!("aws:iam:policy/{arn}")})),
    })
}

one_call! {
    /// ListUserPolicies: the names of the user's inline policies.
    policy_names(o: Client) = o.client.list_user_policies().user_name(user_name(o.id))
        => |out| json!(out.policy_names())
}

one_call! {
    /// ListGroupsForUser.
    groups(o: Client) = o.client.list_groups_for_user().user_name(user_name(o.id))
        => |out| list(out.groups(), |g| {
            json!({"group_name": g.group_name(), "group_id": g.group_id(), "arn": g.arn(),
                       "group": {"$ref": format!("aws:iam:group/{}", g.arn())}})
        })
}

one_call! {
    /// ListUserTags as a key-value object.
    user_tags(o: Client) = o.client.list_user_tags().user_name(user_name(o.id))
        => |out| iam_tags(out.tags())
}

/// `aws:iam:account`: the account (from STS), then each account-wide setting a rule reads
/// (members of [`crate::types::MEMBERS`]: `password_policy`, `summary`,
/// `virtual_mfa_devices`), a failed one an error of its member only.
pub(crate) async fn account(t: &Task) -> Fetched {
    let [identity] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let ctx = &t.ctx;
    let account_id = ctx.account_id(&t.config, &t.region, identity).await?;
    let mut props = Map::new();
    props.insert("account_id".into(), json!(account_id));
    let mut found = vec![JsonResource {
        type_name: t.ty.name.to_string(),
        id: account_id.clone(),
        region: None,
        account: Some(account_id),
        properties: props,
    }];
    let client = client::iam(&t.config, &t.region, &ctx.attempts);
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

/// GetAccountPasswordPolicy; null when none is set (NoSuchEntity).
pub(crate) fn password_policy<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let request = o.client.get_account_password_policy().send();
        match o.ctx.send(o.region, o.call, request).await {
            Ok(out) => Ok(out.password_policy().map_or(Json::Null, policy)),
            Err(e) if e.code() == Some("NoSuchEntity") => Ok(Json::Null),
            Err(e) => Err(api_error(o.call.operation, &e)),
        }
    })
}

/// GetAccountSummary: the SummaryMap entries of [`SUMMARY_KEYS`].
pub(crate) fn summary<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let request = o.client.get_account_summary().send();
        let out = o.ctx.request(o.region, o.call, request).await?;
        let map = out.summary_map();
        let mut s = Map::new();
        for (key, name) in SUMMARY_KEYS {
            let value =
                map.and_then(|m| m.iter().find(|(k, _)| k.as_str() == *key).map(|(_, v)| *v));
            s.insert((*name).to_string(), json!(value));
        }
        Ok(Json::Object(s))
    })
}

/// ListVirtualMFADevices, every page.
pub(crate) fn virtual_mfa_devices<'a>(
    o: &'a On<'a, Client>,
) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let mut devices = Vec::new();
        let pages = o
            .client
            .list_virtual_mfa_devices()
            .max_items(1000)
            .into_paginator()
            .send();
        each_page(o.ctx, o.region, o.call, pages, |page| {
            for d in page.virtual_mfa_devices() {
                devices.push(json!({
                    "serial_number": d.serial_number(),
                    "enable_date": ts(d.enable_date()),
                    "user": d.user().map_or(Json::Null, |u| json!({
                        "user_name": u.user_name(),
                        "user_id": u.user_id(),
                        "arn": u.arn(),
                    })),
                }));
            }
        })
        .await?;
        Ok(Json::Array(devices))
    })
}

fn policy(p: &iam::PasswordPolicy) -> Json {
    json!({
        "minimum_password_length": p.minimum_password_length(),
        "require_symbols": p.require_symbols(),
        "require_numbers": p.require_numbers(),
        "require_uppercase_characters": p.require_uppercase_characters(),
        "require_lowercase_characters": p.require_lowercase_characters(),
        "allow_users_to_change_password": p.allow_users_to_change_password(),
        "expire_passwords": p.expire_passwords(),
        "max_password_age": p.max_password_age(),
        "password_reuse_prevention": p.password_reuse_prevention(),
        "hard_expiry": p.hard_expiry(),
    })
}

/// `aws:iam:policy`: the account's own managed policies (ListPolicies, scope `Local`) and
/// the AWS-managed ones attached to something (scope `AWS`, only attached), then the
/// per-policy members the plan needs (its default version's document, its attachments).
pub(crate) async fn policies(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::iam(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    for (scope, only_attached) in [
        (iam::PolicyScopeType::Local, false),
        (iam::PolicyScopeType::Aws, true),
    ] {
        let pages = client
            .list_policies()
            .scope(scope)
            .only_attached(only_attached)
            .max_items(1000)
            .into_paginator()
            .send();
        each_page(&t.ctx, None, listing, pages, |page| {
            for p in page.policies() {
                let Some(arn) = p.arn() else { continue };
                let props = json!({
                    "policy_name": p.policy_name(),
                    "policy_id": p.policy_id(),
                    "arn": arn,
                    "path": p.path(),
                    "default_version_id": p.default_version_id(),
                    "attachment_count": p.attachment_count(),
                    "is_attachable": p.is_attachable(),
                    "create_date": ts(p.create_date()),
                    "update_date": ts(p.update_date()),
                });
                // An AWS managed policy's ARN names `aws`, which is no account.
                found.extend(iam_resource(t, arn, props).map(|mut policy| {
                    policy.account = policy.account.filter(|a| a != "aws");
                    policy
                }));
            }
        })
        .await?;
    }
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

/// GetPolicy then GetPolicyVersion of its default version: the document, parsed.
pub(crate) fn policy_document<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let policy = o
            .ctx
            .request(
                o.region,
                o.call,
                o.client.get_policy().policy_arn(o.id).send(),
            )
            .await?;
        let Some(version) = policy.policy().and_then(|p| p.default_version_id()) else {
            return Ok(Json::Null);
        };
        let out = o
            .ctx
            .request(
                o.region,
                &GET_POLICY_VERSION,
                o.client
                    .get_policy_version()
                    .policy_arn(o.id)
                    .version_id(version)
                    .send(),
            )
            .await?;
        Ok(document(out.policy_version().and_then(|v| v.document())))
    })
}

one_call! {
    /// ListEntitiesForPolicy: the users, groups and roles it is attached to (names and ids).
    entities(o: Client) =
        o.client.list_entities_for_policy().policy_arn(o.id).max_items(1000)
        => |out| entities_json(&out)
}

/// The users, groups and roles of a ListEntitiesForPolicy answer.
fn entities_json(
    out: &aws_sdk_iam::operation::list_entities_for_policy::ListEntitiesForPolicyOutput,
) -> Json {
    json!({
        "policy_users": list(out.policy_users(), |u| json!({"user_name": u.user_name(), "user_id": u.user_id()})),
        "policy_groups": list(out.policy_groups(), |g| json!({"group_name": g.group_name(), "group_id": g.group_id()})),
        "policy_roles": list(out.policy_roles(), |r| json!({"role_name": r.role_name(), "role_id": r.role_id()})),
    })
}

one_call! {
    /// ListPolicyTags as a key-value object.
    policy_tags(o: Client) = o.client.list_policy_tags().policy_arn(o.id)
        => |out| iam_tags(out.tags())
}

/// A global IAM resource of the task's type named by its ARN ([`Task::resource`] without a
/// region), owned by the account the ARN names.
fn iam_resource(t: &Task, arn: &str, props: Json) -> Option<JsonResource> {
    let mut resource = t.resource(Some(arn), arn_account(Some(arn)), props)?;
    resource.region = None;
    Some(resource)
}

/// `aws:iam:role`: every page of ListRoles (the trust policy parsed), then the per-role
/// members the plan needs.
pub(crate) async fn roles(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::iam(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    let pages = client.list_roles().max_items(1000).into_paginator().send();
    each_page(&t.ctx, None, listing, pages, |page| {
        for r in page.roles() {
            let props = json!({
                "role_name": r.role_name(),
                "role_id": r.role_id(),
                "arn": r.arn(),
                "path": r.path(),
                "description": r.description(),
                "create_date": ts(Some(r.create_date())),
                "max_session_duration": r.max_session_duration(),
                "assume_role_policy_document": document(r.assume_role_policy_document()),
            });
            found.extend(iam_resource(t, r.arn(), props));
        }
    })
    .await?;
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

/// `aws:iam:group`: every page of ListGroups, then the per-group members the plan needs.
pub(crate) async fn groups_of_account(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::iam(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    let pages = client.list_groups().max_items(1000).into_paginator().send();
    each_page(&t.ctx, None, listing, pages, |page| {
        for g in page.groups() {
            let props = json!({
                "group_name": g.group_name(),
                "group_id": g.group_id(),
                "arn": g.arn(),
                "path": g.path(),
                "create_date": ts(Some(g.create_date())),
            });
            found.extend(iam_resource(t, g.arn(), props));
        }
    })
    .await?;
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

/// `aws:iam:server_certificate`: every page of ListServerCertificates.
pub(crate) async fn server_certificates(t: &Task) -> Fetched {
    let [listing] = t.ty.calls else {
        return Err(format!("{}: expected one call", t.ty.name));
    };
    let client = client::iam(&t.config, &t.region, &t.ctx.attempts);
    let mut found = Vec::new();
    let pages = client
        .list_server_certificates()
        .max_items(1000)
        .into_paginator()
        .send();
    each_page(&t.ctx, None, listing, pages, |page| {
        for c in page.server_certificate_metadata_list() {
            let props = json!({
                "server_certificate_name": c.server_certificate_name(),
                "server_certificate_id": c.server_certificate_id(),
                "arn": c.arn(),
                "path": c.path(),
                "upload_date": ts(c.upload_date()),
                "expiration": ts(c.expiration()),
            });
            found.extend(iam_resource(t, c.arn(), props));
        }
    })
    .await?;
    let errors = iam_members(t, &mut found, &client).await;
    Ok((found, errors))
}

one_call! {
    /// ListAttachedRolePolicies.
    role_attached_policies(o: Client) =
        o.client.list_attached_role_policies().role_name(user_name(o.id))
        => |out| list(out.attached_policies(), attached_policy)
}

one_call! {
    /// ListRolePolicies: the names of the role's inline policies.
    role_policy_names(o: Client) = o.client.list_role_policies().role_name(user_name(o.id))
        => |out| json!(out.policy_names())
}

one_call! {
    /// ListRoleTags as a key-value object.
    role_tags(o: Client) = o.client.list_role_tags().role_name(user_name(o.id))
        => |out| iam_tags(out.tags())
}

one_call! {
    /// ListAttachedGroupPolicies.
    group_attached_policies(o: Client) =
        o.client.list_attached_group_policies().group_name(user_name(o.id))
        => |out| list(out.attached_policies(), attached_policy)
}

one_call! {
    /// ListGroupPolicies: the names of the group's inline policies.
    group_policy_names(o: Client) = o.client.list_group_policies().group_name(user_name(o.id))
        => |out| json!(out.policy_names())
}

/// The ARN of AWS's `AWSSupportAccess` managed policy in the partition of the client's
/// region (`aws`, `aws-cn`, `aws-us-gov`).
fn support_access_arn(region: Option<&str>) -> String {
    let partition = match region {
        Some(r) if r.starts_with("cn-") => "aws-cn",
        Some(r) if r.starts_with("us-gov-") => "aws-us-gov",
        _ => "aws",
    };
    format!("arn:{partition}:iam::aws:policy/AWSSupportAccess")
}

/// ListEntitiesForPolicy of AWS's `AWSSupportAccess` policy: who may manage incidents
/// with AWS Support (CIS 2.16).
pub(crate) fn support_access<'a>(o: &'a On<'a, Client>) -> BoxFuture<'a, Result<Json, String>> {
    Box::pin(async move {
        let region = o.client.config().region().map(|r| r.as_ref().to_string());
        let request = o
            .client
            .list_entities_for_policy()
            .policy_arn(support_access_arn(region.as_deref()))
            .max_items(1000);
        let out = o.ctx.request(o.region, o.call, request.send()).await?;
        Ok(entities_json(&out))
    })
}

one_call! {
    /// ListServerCertificateTags as a key-value object.
    server_certificate_tags(o: Client) =
        o.client.list_server_certificate_tags().server_certificate_name(user_name(o.id))
        => |out| iam_tags(out.tags())
}
