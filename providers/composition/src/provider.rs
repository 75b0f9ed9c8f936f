//! The `--composition` source of `cloudspec run` (contract section 6): renders, then loads
//! every desired resource and the XR as `k8s:<group>:<Kind>` resources.
//!
//! - A desired resource is type `k8s:<group>:<Kind>` (the group is its `apiVersion` before
//!   the `/`, `core` without one), id its crossplane name, properties the whole object,
//!   source the file and line of its block, region its `spec.forProvider.region`.
//! - The XR (`--xr`) joins as observed: its type from its `apiVersion` and `kind`, id its
//!   `metadata.name`, source its file (decision 2).
//! - A resource dropped as incomplete is an inventory error on its type, so rules on that
//!   type give `error` (exit 3). When its type is unknown (its `apiVersion` or `kind` did
//!   not evaluate), it could be of any type: every `k8s:` type the specs name gets the
//!   error, and a warning says so.
//! - A render that fails is a [`ProviderError`] (exit 2) listing the failure's lines.
//!
//! There are no schemas: rules on `k8s:` types get no static checks.

use std::path::Path;

use cloudspec_model::from_json::object_from_json;
use cloudspec_model::input::{display_path, escape_control, truncate_chars};
use cloudspec_model::{
    CollectionError, CollectionPlan, Inventory, InventoryBuilder, LoadRequest, Provider,
    ProviderError, Resource, Source,
};
use serde_json::Value as Json;

use crate::input::{self, Origins};
use crate::{Failure, Rendered};

/// The settings of the source, by flag name: the XR, observed resources, extra resources
/// and the context (the composition is the one path of its [`cloudspec_model::Options`]).
pub const XR: &str = "xr";
pub const OBSERVED: &str = "observed";
pub const EXTRA_RESOURCES: &str = "extra-resources";
pub const CONTEXT: &str = "context";

/// Renders a crossplane function-hcl composition and loads what it desires (`composition`).
#[derive(Debug, Clone, Copy, Default)]
pub struct CompositionSource;

impl Provider for CompositionSource {
    fn name(&self) -> &str {
        "composition"
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError> {
        let options = request.options;
        let path = match options.paths.as_slice() {
            [path] => path,
            _ => {
                return Err(ProviderError::new(
                    "no composition given: pass --composition PATH",
                ))
            }
        };
        let xr = options.get(XR).map(Path::new).ok_or_else(|| {
            ProviderError::new(
                "--composition needs --xr XR.yaml: the composite resource to render it for",
            )
        })?;
        let loaded = input::load(path).map_err(|e| ProviderError::new(e.to_string()))?;
        let inputs = input::load_inputs(
            xr,
            options.get(OBSERVED).map(Path::new),
            options.get(EXTRA_RESOURCES).map(Path::new),
            options.get(CONTEXT).map(Path::new),
        )
        .map_err(|e| ProviderError::new(e.to_string()))?;
        let rendered = crate::render(&loaded.composition, &inputs)
            .map_err(|failure| render_failed(path, &failure))?;
        let judged = inventory(
            &rendered,
            &inputs.xr,
            &display_path(xr),
            &loaded.origins,
            request.plan,
        )?;
        if !options.quiet {
            for warning in &judged.warnings {
                tracing::warn!("{warning}");
            }
        }
        Ok(judged.inventory)
    }
}

/// The error of a failed render: one line per line of the failure, each naming the
/// composition (`composition comp/: main.hcl:3:5: error: ...`).
pub fn render_failed(path: &Path, failure: &Failure) -> ProviderError {
    let shown = display_path(path);
    let text = failure.to_string();
    let lines: Vec<String> = text
        .lines()
        .map(|line| format!("composition {shown}: {line}"))
        .collect();
    ProviderError::new(if lines.is_empty() {
        format!("composition {shown}: the render failed")
    } else {
        lines.join("\n")
    })
}

/// What a render gives `run`: the inventory and the warnings to show.
#[derive(Debug)]
pub struct Judged {
    pub inventory: Inventory,
    pub warnings: Vec<String>,
}

/// `k8s:<group>:<Kind>` for an object's `apiVersion` and `kind`: the group is the
/// `apiVersion` before the `/`, `core` when there is none (`v1`). `None` when either is
/// missing, not a string, or empty.
pub fn k8s_type(object: &Json) -> Option<String> {
    let api_version = object.get("apiVersion")?.as_str()?;
    let kind = object.get("kind")?.as_str()?;
    type_of(api_version, kind)
}

fn type_of(api_version: &str, kind: &str) -> Option<String> {
    let group = match api_version.split_once('/') {
        Some((group, _)) => group,
        None => "core",
    };
    (!group.is_empty() && !api_version.is_empty() && !kind.is_empty())
        .then(|| format!("k8s:{group}:{kind}"))
}

/// The inventory of a render: the XR (read from `xr_file`), every desired resource, and
/// an error for each dropped one. `origins` places each resource's block in the files the
/// user edits; `plan` names the types rules are on (a resource of unknown type is an
/// error for every `k8s:` type among them).
pub fn inventory(
    rendered: &Rendered,
    xr: &Json,
    xr_file: &str,
    origins: &Origins,
    plan: &CollectionPlan,
) -> Result<Judged, ProviderError> {
    let mut entries: Vec<Entry<'_>> = Vec::with_capacity(rendered.resources.len() + 1);
    let xr_type = k8s_type(xr).ok_or_else(|| {
        ProviderError::new(format!(
            "{xr_file}: the composite resource has no apiVersion and kind; run --composition \
             judges it as type k8s:<group>:<Kind>"
        ))
    })?;
    let xr_name = xr
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Json::as_str)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            ProviderError::new(format!(
                "{xr_file}: the composite resource has no metadata.name; run --composition \
                 judges it by that name"
            ))
        })?;
    let Some(xr_object) = xr.as_object() else {
        return Err(ProviderError::new(format!(
            "{xr_file}: the composite resource is not an object"
        )));
    };
    entries.push(Entry {
        type_name: xr_type,
        id: xr_name,
        what: "the composite resource".into(),
        source: Source::new(xr_file.to_string(), None),
        object: xr_object,
    });
    let mut errors: Vec<CollectionError> = Vec::new();
    let mut warnings = Vec::new();
    let k8s_types: Vec<&String> = plan
        .types
        .iter()
        .filter(|t| t.starts_with("k8s:"))
        .collect();
    let mut untyped = |name: &str, place: &str, why: String, errors: &mut Vec<CollectionError>| {
        for type_name in &k8s_types {
            errors.push(CollectionError::new(
                (*type_name).clone(),
                None,
                format!(
                    "resource \"{}\" ({place}) {why}, and its apiVersion and kind are unknown, \
                     so it may be of this type",
                    short(name)
                ),
            ));
        }
        warnings.push(format!(
            "composition: resource \"{}\" ({place}) {why}, and its apiVersion and kind are \
             unknown: every rule on a k8s: type gives error",
            short(name)
        ));
    };
    for desired in &rendered.resources {
        let (file, line) = origins.locate(&desired.file, desired.line);
        let place = format!("{file}:{line}");
        match (k8s_type(&desired.body), desired.body.as_object()) {
            (Some(type_name), Some(object)) => entries.push(Entry {
                type_name,
                id: &desired.name,
                what: format!("the desired resource \"{}\"", short(&desired.name)),
                source: Source::new(file, u64::try_from(line).ok()),
                object,
            }),
            _ => untyped(
                &desired.name,
                &place,
                "has no apiVersion and kind".into(),
                &mut errors,
            ),
        }
    }
    for dropped in &rendered.dropped {
        let (file, line) = origins.locate(&dropped.file, dropped.line);
        let place = format!("{file}:{line}");
        let why = format!(
            "was not rendered: its body is incomplete{}",
            reasons(&dropped.message)
        );
        let type_name = match (&dropped.api_version, &dropped.kind) {
            (Some(api_version), Some(kind)) => type_of(api_version, kind),
            _ => None,
        };
        match type_name {
            Some(type_name) => errors.push(CollectionError::new(
                type_name,
                None,
                format!("resource \"{}\" ({place}) {why}", short(&dropped.name)),
            )),
            None => untyped(&dropped.name, &place, why, &mut errors),
        }
    }
    entries.sort_by(|a, b| (&a.type_name, a.id).cmp(&(&b.type_name, b.id)));
    let mut builder = InventoryBuilder::new();
    builder.reserve(entries.len());
    for (n, entry) in entries.iter().enumerate() {
        let resource = Resource {
            type_name: entry.type_name.as_str().into(),
            id: entry.id.into(),
            region: region(entry.object).map(Into::into),
            account: None,
            source: Some(Box::new(entry.source.clone())),
            properties: object_from_json(entry.object, builder.interner()),
        };
        if builder.push(resource).is_err() {
            let first = entries
                .iter()
                .take(n)
                .find(|e| e.type_name == entry.type_name && e.id == entry.id)
                .map_or("another resource", |e| e.what.as_str());
            return Err(ProviderError::new(format!(
                "{first} and {} are both {}/{}: a (type, id) must be unique in a run",
                entry.what,
                short(&entry.type_name),
                short(entry.id)
            )));
        }
    }
    errors.sort_by(|a, b| (&a.type_name, &a.message).cmp(&(&b.type_name, &b.message)));
    for error in errors {
        builder.push_error(error);
    }
    Ok(Judged {
        inventory: builder.finish(),
        warnings,
    })
}

/// One resource of the inventory before it is built.
struct Entry<'a> {
    type_name: String,
    id: &'a str,
    /// How a message names it: `the composite resource`, `the desired resource "b-0"`.
    what: String,
    source: Source,
    object: &'a serde_json::Map<String, Json>,
}

/// `spec.forProvider.region`, when a string.
fn region(object: &serde_json::Map<String, Json>) -> Option<&str> {
    object
        .get("spec")?
        .get("forProvider")?
        .get("region")?
        .as_str()
}

/// ` (REASON; REASON)`: the lines of a drop's warning after its first (`FILE:RANGE:discarded
/// resource NAME`), cut short.
fn reasons(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(
        " ({})",
        escape_control(&truncate_chars(&lines.join("; "), 300))
    )
}

/// A name quoted in a message: at most 80 characters, control characters escaped.
fn short(text: &str) -> String {
    escape_control(&truncate_chars(text, 80)).into_owned()
}

#[cfg(test)]
mod tests;
