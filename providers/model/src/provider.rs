//! The provider seam: every source of resources (a saved inventory, a live AWS account,
//! Terraform code, a crossplane composition) is one [`Provider`]. The engine asks a provider
//! for its resource schemas (to check specs before anything is loaded) and for an
//! [`Inventory`] holding what a [`CollectionPlan`] needs; it never knows which cloud or
//! file format the resources came from. The CLI keeps the list of providers (its registry)
//! and turns command-line flags into [`Options`]; several sources in one run are joined by
//! [`merge`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::intern::Interner;
use crate::inventory::{Dangling, Inventory, InventoryBuilder, Resource};
use crate::plan::CollectionPlan;
use crate::projection::Projection;
use crate::schema::SchemaSet;
use crate::value::{Object, Reference, Value};

/// One source of resources.
pub trait Provider: Send + Sync {
    /// The name users know it by, in messages and in the registry: `inventory`, `aws`.
    fn name(&self) -> &str;

    /// The resource schemas of the types it produces, when it declares any: specs are
    /// checked against them before anything is loaded. `None` for sources whose types are
    /// only known once loaded (a saved inventory names its provider inside the file).
    fn schemas(&self) -> Option<SchemaSet> {
        None
    }

    /// Loads what `request.plan` needs. Per-resource or per-type failures belong in the
    /// inventory's errors (rules on those types are then `error`); `Err` is for a source
    /// that cannot be read at all (a missing file, no region), and ends the run.
    fn load(&self, request: &LoadRequest<'_>) -> Result<Inventory, ProviderError>;
}

/// What one load is for.
#[derive(Debug, Clone, Copy)]
pub struct LoadRequest<'a> {
    /// The resource types and members the specs reach.
    pub plan: &'a CollectionPlan,
    /// The properties rules read, for sources that can skip the rest while reading; `None`
    /// when everything must be kept (the run saves the inventory).
    pub keep: Option<&'a Projection>,
    /// The options the user gave this source.
    pub options: &'a Options,
}

/// What the user gave one source on the command line: its inputs and its settings, by the
/// name of the flag that set them (without dashes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Files or directories given to the source (`--inventory FILE`).
    pub paths: Vec<PathBuf>,
    /// Settings by flag name, each with every value given (`region` -> `[eu-west-1]`); a
    /// flag without a value is present with an empty list.
    pub settings: BTreeMap<String, Vec<String>>,
    /// Show progress on stderr (a terminal, not `--quiet`).
    pub progress: bool,
    /// Print no warnings or summaries.
    pub quiet: bool,
}

impl Options {
    /// Adds a value for a setting.
    pub fn set(&mut self, name: &str, value: impl Into<String>) -> &mut Self {
        self.settings
            .entry(name.to_string())
            .or_default()
            .push(value.into());
        self
    }

    /// Sets a flag that takes no value.
    pub fn flag_on(&mut self, name: &str) -> &mut Self {
        self.settings.entry(name.to_string()).or_default();
        self
    }

    /// The last value of a setting.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.settings
            .get(name)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of a setting, in the order given.
    pub fn all(&self, name: &str) -> &[String] {
        self.settings.get(name).map_or(&[], Vec::as_slice)
    }

    /// Whether a setting was given at all.
    pub fn flag(&self, name: &str) -> bool {
        self.settings.contains_key(name)
    }
}

/// A source that cannot be read at all; the message is complete (it names the file or the
/// setting at fault) and the run ends with exit status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    pub message: String,
}

impl ProviderError {
    pub fn new(message: impl Into<String>) -> Self {
        ProviderError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProviderError {}

/// One source's inventory, with the label its resources are known by in messages
/// (`inventory inv.json`, `aws`).
#[derive(Debug)]
pub struct Part {
    pub label: String,
    pub inventory: Inventory,
}

/// The same `(type, id)` came from two sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    pub type_name: String,
    pub id: String,
    pub first: String,
    pub second: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "resource {}/{} comes from two sources, {} and {}: a (type, id) must be unique in a run",
            crate::input::escape_control(&crate::input::truncate_chars(&self.type_name, 60)),
            crate::input::escape_control(&crate::input::truncate_chars(&self.id, 60)),
            self.first,
            self.second
        )
    }
}

impl std::error::Error for MergeError {}

/// Joins the inventories of several sources into one. One part is returned as it is.
///
/// Resources keep their order (source by source), references are resolved again across
/// the whole (a Terraform resource may name one a live account holds), errors are kept,
/// the provider is the parts' common one (none when they differ) and `collected_at` the
/// earliest (the oldest view decides what "now" the data describes). When one part's
/// dangling references stand for resources outside it ([`Dangling::Unknown`], Terraform),
/// so do the whole's: a reference no part holds may be to something none describes, and
/// unknown is the verdict that claims nothing.
pub fn merge(mut parts: Vec<Part>) -> Result<Inventory, MergeError> {
    if parts.len() == 1 {
        if let Some(part) = parts.pop() {
            return Ok(part.inventory);
        }
    }
    let mut builder = InventoryBuilder::new();
    let mut providers = parts.iter().map(|p| p.inventory.provider.clone());
    let first = providers.next().flatten();
    let provider = if providers.all(|p| p == first) {
        first
    } else {
        None
    };
    builder.set_provider(provider);
    // The origin of the one part that has one (several: none, each resource keeps its
    // source's root).
    let mut origins = parts.iter().filter_map(|p| p.inventory.origin.as_ref());
    let origin = origins.next().cloned();
    builder.set_origin(if origins.next().is_none() {
        origin
    } else {
        None
    });
    builder.set_dangling(
        if parts
            .iter()
            .any(|p| p.inventory.dangling == Dangling::Unknown)
        {
            Dangling::Unknown
        } else {
            Dangling::Null
        },
    );
    builder.set_collected_at(earliest(
        parts
            .iter()
            .filter_map(|p| p.inventory.collected_at.as_deref()),
    ));
    let mut owner: Vec<usize> = Vec::new();
    for (n, part) in parts.iter().enumerate() {
        let from = &part.inventory.interner;
        for resource in &part.inventory.resources {
            let copy = Resource {
                type_name: resource.type_name.clone(),
                id: resource.id.clone(),
                region: resource.region.clone(),
                account: resource.account.clone(),
                source: resource.source.clone(),
                properties: object(&resource.properties, from, builder.interner()),
            };
            match builder.push(copy) {
                Ok(_) => owner.push(n),
                Err(dup) => {
                    let first = builder
                        .find(&dup.type_name, &dup.id)
                        .and_then(|idx| owner.get(idx as usize))
                        .and_then(|&at| parts.get(at))
                        .map_or_else(String::new, |p| p.label.clone());
                    return Err(MergeError {
                        type_name: dup.type_name,
                        id: dup.id,
                        first,
                        second: part.label.clone(),
                    });
                }
            }
        }
        for error in &part.inventory.errors {
            builder.push_error(error.clone());
        }
        // References under properties a projected load dropped: still listed when no
        // source holds their target.
        let dropped: crate::ref_list::RefList = part
            .inventory
            .dangling_refs()
            .iter()
            .map(String::as_str)
            .collect();
        builder.note_dropped_refs(dropped);
    }
    Ok(builder.finish())
}

/// The earliest of RFC 3339 times, compared as instants (offsets and fractions apply); a
/// time that does not parse comes after every one that does.
fn earliest<'a>(times: impl Iterator<Item = &'a str>) -> Option<String> {
    times
        .min_by_key(|t| {
            chrono::DateTime::parse_from_rfc3339(t)
                .map(|d| (0, d.timestamp(), d.timestamp_subsec_nanos()))
                .unwrap_or((1, 0, 0))
        })
        .map(str::to_string)
}

fn object(from: &Object, names: &Interner, to: &mut Interner) -> Object {
    Object::new(
        from.iter()
            .map(|(key, value)| (to.intern(names.resolve(*key)), copy(value, names, to)))
            .collect(),
    )
}

fn copy(value: &Value, names: &Interner, to: &mut Interner) -> Value {
    match value {
        Value::Object(o) => Value::Object(object(o, names, to)),
        Value::List(items) => Value::List(items.iter().map(|v| copy(v, names, to)).collect()),
        Value::Ref(r) => Value::Ref(Box::new(Reference::new(r.raw.clone()))),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Text;

    fn inventory(resources: &[(&str, &str, Option<&str>)]) -> Inventory {
        let mut b = InventoryBuilder::new();
        for (type_name, id, link) in resources {
            let key = b.interner().intern("link");
            let properties = match link {
                Some(to) => Object::new(vec![(key, Value::Ref(Box::new(Reference::new(*to))))]),
                None => Object::default(),
            };
            b.push(Resource {
                type_name: Text::from(*type_name),
                id: Text::from(*id),
                region: None,
                account: None,
                source: None,
                properties,
            })
            .unwrap();
        }
        b.finish()
    }

    #[test]
    fn references_resolve_across_sources() {
        let a = inventory(&[("t:a:x", "1", Some("t:b:y/2"))]);
        let b = inventory(&[("t:b:y", "2", None)]);
        let merged = merge(vec![
            Part {
                label: "a".into(),
                inventory: a,
            },
            Part {
                label: "b".into(),
                inventory: b,
            },
        ])
        .unwrap();
        assert_eq!(merged.resources.len(), 2);
        assert!(merged.dangling_refs().is_empty());
        let link = merged.sym("link").unwrap();
        match merged.resources[0].properties.get(link) {
            Some(Value::Ref(r)) => assert_eq!(r.target, Some(1)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_resource_in_two_sources_names_both() {
        let err = merge(vec![
            Part {
                label: "inventory inv.json".into(),
                inventory: inventory(&[("t:a:x", "1", None)]),
            },
            Part {
                label: "tiny".into(),
                inventory: inventory(&[("t:a:x", "2", None), ("t:a:x", "1", None)]),
            },
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "resource t:a:x/1 comes from two sources, inventory inv.json and tiny: a (type, id) must be unique in a run"
        );
    }

    #[test]
    fn the_earliest_time_is_compared_as_an_instant() {
        let times = ["2026-11-22T07:00:00Z", "2026-11-22T08:30:00+02:00", "soon"];
        assert_eq!(
            earliest(times.into_iter()).as_deref(),
            Some("2026-11-22T08:30:00+02:00")
        );
    }

    #[test]
    fn dangling_references_of_a_part_stay_dangling_unless_another_part_holds_them() {
        let a = inventory(&[
            ("t:a:x", "1", Some("t:b:y/2")),
            ("t:a:x", "3", Some("t:c:z/9")),
        ]);
        let b = inventory(&[("t:b:y", "2", None)]);
        let merged = merge(vec![
            Part {
                label: "a".into(),
                inventory: a,
            },
            Part {
                label: "b".into(),
                inventory: b,
            },
        ])
        .unwrap();
        assert_eq!(merged.dangling_refs(), ["t:c:z/9"]);
    }

    #[test]
    fn one_part_with_unknown_dangling_targets_makes_the_whole_so() {
        let mut unknown = inventory(&[("t:a:x", "1", Some("t:c:z/9"))]);
        unknown.dangling = Dangling::Unknown;
        let part = |label: &str, inventory| Part {
            label: label.into(),
            inventory,
        };
        let merged = merge(vec![
            part("a", inventory(&[("t:b:y", "2", None)])),
            part("terraform", unknown),
        ])
        .unwrap();
        assert_eq!(merged.dangling, Dangling::Unknown);
        let merged = merge(vec![
            part("a", inventory(&[("t:b:y", "2", None)])),
            part("b", inventory(&[("t:a:x", "1", None)])),
        ])
        .unwrap();
        assert_eq!(merged.dangling, Dangling::Null);
    }

    #[test]
    fn options_read_back() {
        let mut o = Options::default();
        o.set("region", "a")
            .set("region", "b")
            .flag_on("all-regions");
        assert_eq!(o.all("region"), ["a", "b"]);
        assert_eq!(o.get("region"), Some("b"));
        assert!(o.flag("all-regions"));
        assert!(!o.flag("profile"));
    }
}
