//! The JSON form of an inventory (`shared/design/inventory.md`): load and save.
//! STUB: to be implemented.

use std::path::Path;

use crate::inventory::Inventory;

/// Why an inventory file could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {message} (at {json_path})")]
pub struct LoadError {
    pub file: String,
    /// Where in the document: `$.resources[3].type`.
    pub json_path: String,
    /// 1-based line and column when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub kind: LoadErrorKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    Io,
    Syntax,
    Format,
    Duplicate,
}

impl Inventory {
    /// Loads an inventory file.
    pub fn load(path: &Path) -> Result<Inventory, LoadError> {
        let bytes = std::fs::read(path).map_err(|e| LoadError {
            file: path.display().to_string(),
            json_path: "$".into(),
            line: None,
            column: None,
            kind: LoadErrorKind::Io,
            message: format!("cannot read: {e}"),
        })?;
        Self::from_slice(&bytes, &path.display().to_string())
    }

    /// Parses an inventory from bytes; `file` names it in errors.
    pub fn from_slice(_bytes: &[u8], file: &str) -> Result<Inventory, LoadError> {
        Err(LoadError {
            file: file.into(),
            json_path: "$".into(),
            line: None,
            column: None,
            kind: LoadErrorKind::Format,
            message: "not implemented".into(),
        })
    }

    /// The deterministic JSON form: resources sorted by type then id, keys sorted.
    pub fn to_json_string(&self) -> String {
        String::new()
    }
}
