//! The state one call leaves and the `RunFunctionResponse` document made from it
//! (contract section 4; upstream's `toResponse`, `addDiagnosticsInfo` and `mergeResponse`).

use std::collections::BTreeMap;

use base64::Engine as _;
use cloudspec_hcl::diag::range_string;
use cloudspec_hcl::{Diagnostic, Severity};
use serde_json::{json, Map, Value as Json};

use crate::{Desired, Dropped, Rendered};

/// A requirement's selector, by requirement name.
pub(crate) type Requirements = BTreeMap<String, Selector>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    pub api_version: String,
    pub kind: String,
    /// `matchName`; `None` for `matchLabels`.
    pub name: Option<String>,
    pub labels: BTreeMap<String, String>,
}

/// A desired resource.
pub(crate) struct Resource {
    pub body: Json,
    pub ready: Option<String>,
    pub file: String,
    pub line: usize,
}

/// Something left out of the output (upstream's `DiscardItem`); false conditions are not
/// recorded.
pub(crate) struct Discard {
    /// `resource`, `resources`, `group`, `composite-status`, ...
    pub kind: &'static str,
    /// `incomplete` or `bad-secret`.
    pub reason: &'static str,
    pub name: String,
    pub range: String,
    pub context: Vec<String>,
}

impl Discard {
    /// `FILE:RANGE:discarded TYPE NAME`, then the context lines.
    pub(crate) fn message(&self) -> String {
        let mut lines = vec![format!(
            "{}:discarded {} {}",
            self.range, self.kind, self.name
        )];
        lines.extend(self.context.iter().cloned());
        lines.join("\n")
    }
}

pub(crate) struct State {
    pub desired: BTreeMap<String, Resource>,
    pub statuses: Vec<Map<String, Json>>,
    pub connections: Vec<BTreeMap<String, Vec<u8>>>,
    pub contexts: Vec<(String, Json)>,
    pub requirements: Requirements,
    pub discards: Vec<Discard>,
    pub dropped: Vec<Dropped>,
    /// Every diagnostic that is not an error (errors of dropped items included, as
    /// warnings).
    pub warnings: Vec<Diagnostic>,
    /// The request's context.
    pub request_context: Map<String, Json>,
    /// Unified by [`State::unify`].
    pub status: Map<String, Json>,
    pub connection: BTreeMap<String, Vec<u8>>,
    pub context: Map<String, Json>,
}

impl State {
    pub(crate) fn new(request_context: Map<String, Json>) -> State {
        State {
            desired: BTreeMap::new(),
            statuses: Vec::new(),
            connections: Vec::new(),
            contexts: Vec::new(),
            requirements: BTreeMap::new(),
            discards: Vec::new(),
            dropped: Vec::new(),
            warnings: Vec::new(),
            request_context,
            status: Map::new(),
            connection: BTreeMap::new(),
            context: Map::new(),
        }
    }

    /// Merges the status bodies, connection maps and context values (a clash is fatal).
    pub(crate) fn unify(&mut self) -> Result<(), Vec<Diagnostic>> {
        let fail =
            |what: &str, e: String| vec![Diagnostic::error(format!("{what}: {e}"), "", None)];
        let mut status = Map::new();
        for s in &self.statuses {
            unify_into(&mut status, s, "").map_err(|e| fail("unify composite status", e))?;
        }
        let mut connection: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        for c in &self.connections {
            for (k, v) in c {
                match connection.get(k) {
                    Some(existing) if existing != v => {
                        return Err(fail(
                            "unify composite connection",
                            format!("values for key {k} not equal"),
                        ))
                    }
                    _ => {
                        connection.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        let mut context = Map::new();
        for (k, v) in &self.contexts {
            let mut one = Map::new();
            one.insert(k.clone(), v.clone());
            unify_into(&mut context, &one, "").map_err(|e| fail("unify context", e))?;
        }
        self.status = status;
        self.connection = connection;
        self.context = context;
        Ok(())
    }

    /// The response's context: the request's, with each key the composition sets replaced
    /// whole.
    pub(crate) fn context_out(&self) -> Map<String, Json> {
        let mut out = self.request_context.clone();
        for (k, v) in &self.context {
            out.insert(k.clone(), v.clone());
        }
        out
    }
}

/// The JSON kind of a value, as messages name it.
pub(crate) fn json_kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// Upstream's `unify`: objects merge recursively, anything else must be equal.
fn unify_into(
    into: &mut Map<String, Json>,
    from: &Map<String, Json>,
    path: &str,
) -> Result<(), String> {
    for (k, v) in from {
        let here = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match into.get_mut(k) {
            None => {
                into.insert(k.clone(), v.clone());
            }
            Some(existing) => {
                if json_kind(existing) != json_kind(v) {
                    return Err(format!(
                        "type mismatch for key {here}: {} v/s {}",
                        json_kind(v),
                        json_kind(existing)
                    ));
                }
                match (existing, v) {
                    (Json::Object(e), Json::Object(n)) => unify_into(e, n, &here)?,
                    (e, n) if *e == *n => {}
                    _ => return Err(format!("values for key {here} not equal")),
                }
            }
        }
    }
    Ok(())
}

const MAX_DISCARDS_SHOWN: usize = 3;

/// The document of the last call, and the desired and dropped resources as data.
pub(crate) fn finish(state: State) -> Rendered {
    let target = "TARGET_COMPOSITE";
    let mut results = Vec::new();
    let mut shown = Vec::new();
    for d in &state.discards {
        results.push(json!({
            "severity": "SEVERITY_WARNING",
            "message": d.message(),
            "target": target,
            "reason": d.reason,
        }));
        if shown.len() < MAX_DISCARDS_SHOWN {
            shown.push(format!("{} {}", d.kind, d.name));
        }
    }
    let fully = if shown.is_empty() {
        json!({"type": "FullyResolved", "status": "STATUS_CONDITION_TRUE",
               "reason": "AllItemsProcessed", "message": "all items complete", "target": target})
    } else {
        let mut msg = shown.join(", ");
        if results.len() > MAX_DISCARDS_SHOWN {
            msg.push_str(&format!(
                " and {} more items incomplete",
                results.len() - MAX_DISCARDS_SHOWN
            ));
        } else {
            msg.push_str(" incomplete");
        }
        json!({"type": "FullyResolved", "status": "STATUS_CONDITION_FALSE",
               "reason": "IncompleteItemsPresent", "message": msg, "target": target})
    };
    let warnings = warning_summaries(&state.warnings);
    let hcl = if warnings.is_empty() {
        results.push(
            json!({"severity": "SEVERITY_NORMAL", "message": "no warnings",
                            "target": target, "reason": "HclDiagnostics"}),
        );
        json!({"type": "HclDiagnostics", "status": "STATUS_CONDITION_TRUE", "reason": "Eval",
               "message": "hcl.Diagnostics contains no warnings", "target": target})
    } else {
        results.push(json!({"severity": "SEVERITY_WARNING",
                            "message": format!("warnings: [{}]", warnings.join("; ")),
                            "target": target, "reason": "HclDiagnostics"}));
        json!({"type": "HclDiagnostics", "status": "STATUS_CONDITION_FALSE", "reason": "Eval",
               "message": format!("hcl.Diagnostics contains {} warnings; {}", warnings.len(), warnings.join("; ")),
               "target": target})
    };
    results.push(json!({"severity": "SEVERITY_NORMAL",
                        "message": "hcl module executed successfully", "target": target}));

    let mut composite = Map::new();
    if !state.status.is_empty() {
        composite.insert("status".into(), Json::Object(state.status.clone()));
    }
    let connection: Map<String, Json> = state
        .connection
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                Json::String(base64::engine::general_purpose::STANDARD.encode(v)),
            )
        })
        .collect();
    let resources: Map<String, Json> = state
        .desired
        .iter()
        .map(|(name, r)| {
            (
                name.clone(),
                json!({"resource": r.body,
                       "ready": r.ready.as_deref().unwrap_or("READY_UNSPECIFIED")}),
            )
        })
        .collect();
    let extra: Map<String, Json> = state
        .requirements
        .iter()
        .map(|(name, s)| {
            let mut sel = Map::new();
            sel.insert("apiVersion".into(), Json::String(s.api_version.clone()));
            sel.insert("kind".into(), Json::String(s.kind.clone()));
            match &s.name {
                Some(n) => {
                    sel.insert("matchName".into(), Json::String(n.clone()));
                }
                None => {
                    sel.insert("matchLabels".into(), json!({ "labels": s.labels }));
                }
            }
            (name.clone(), Json::Object(sel))
        })
        .collect();
    let document = json!({
        "desired": {
            "composite": {"resource": composite, "connectionDetails": connection},
            "resources": resources,
        },
        "context": state.context_out(),
        "requirements": {"extraResources": extra},
        "conditions": [fully, hcl],
        "results": results,
    });
    let resources = state
        .desired
        .into_iter()
        .map(|(name, r)| Desired {
            name,
            body: r.body,
            file: r.file,
            line: r.line,
        })
        .collect();
    Rendered {
        document,
        resources,
        dropped: state.dropped,
    }
}

/// The warnings of a call, deduplicated by (range, summary) and ordered by file and
/// position: `FILE:RANGE: SUMMARY` (just the summary when there is no range).
fn warning_summaries(diags: &[Diagnostic]) -> Vec<String> {
    let mut seen: BTreeMap<(String, usize, String, String), String> = BTreeMap::new();
    for d in diags.iter().filter(|d| d.severity == Severity::Warning) {
        let (file, byte, range) = match &d.subject {
            Some(r) => (r.filename.clone(), r.start.byte, range_string(r)),
            None => (String::new(), 0, String::new()),
        };
        let text = if range.is_empty() {
            d.summary.clone()
        } else {
            format!("{range}: {}", d.summary)
        };
        seen.entry((file, byte, range, d.summary.clone()))
            .or_insert(text);
    }
    seen.into_values().collect()
}
