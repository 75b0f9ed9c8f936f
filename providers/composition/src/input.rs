//! Reading what `cloudspec render` and `run --composition` are pointed at (contract
//! section 1): the composition's HCL files and the request's documents.

use std::path::Path;

/// One HCL file of a composition: its name in messages and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub name: String,
    pub text: String,
}

/// The files of one composition, evaluated as one unit (in this order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Composition {
    pub files: Vec<File>,
}

/// The request's documents, already read.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The composite resource (`--xr`): one object.
    pub xr: serde_json::Value,
    /// Observed resources (`--observed`), each with its
    /// `crossplane.io/composition-resource-name` annotation, in file order.
    pub observed: Vec<(String, serde_json::Value)>,
    /// Objects requirements may select (`--extra-resources`); `None` without the flag.
    pub extra: Option<Vec<serde_json::Value>>,
    /// The incoming pipeline context (`--context`), `{}` when none.
    pub context: serde_json::Map<String, serde_json::Value>,
}

/// A composition or request document that cannot be read: the message names the file and,
/// where there is one, the position (`xr.yaml:3:7: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

/// Reads a composition: a directory (its `*.hcl` files, sorted, not recursive), a `.txtar`
/// file, a Crossplane `Composition` YAML, or one HCL file.
pub fn load_composition(path: &Path) -> Result<Composition, InputError> {
    let _ = path;
    Err(InputError {
        message: "not yet implemented".into(),
    })
}

/// Splits txtar text into its members (`-- NAME --` markers); line 1 of a member is the
/// line after its marker. Text before the first marker (the comment) is not a file.
pub fn parse_txtar(text: &str) -> Vec<File> {
    let _ = text;
    Vec::new()
}

/// Reads the request's documents from the paths the command line gives.
pub fn load_inputs(
    xr: &Path,
    observed: Option<&Path>,
    extra: Option<&Path>,
    context: Option<&Path>,
) -> Result<Inputs, InputError> {
    let _ = (xr, observed, extra, context);
    Err(InputError {
        message: "not yet implemented".into(),
    })
}
