//! The response state of one call and its document (contract section 4).

use std::collections::BTreeMap;

use crate::Rendered;

/// A requirement's selector, by requirement name.
pub(crate) type Requirements = BTreeMap<String, Selector>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    pub api_version: String,
    pub kind: String,
    pub name: Option<String>,
    pub labels: BTreeMap<String, String>,
}

pub(crate) struct State {
    pub requirements: Requirements,
}

impl State {
    pub(crate) fn context_out(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}

pub(crate) fn finish(state: State) -> Rendered {
    let _ = state;
    Rendered {
        document: serde_json::Value::Null,
        resources: Vec::new(),
        dropped: Vec::new(),
    }
}
