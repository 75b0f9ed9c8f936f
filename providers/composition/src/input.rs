//! Reading what `cloudspec render` and `run --composition` are pointed at (contract
//! section 1): the composition's HCL files and the request's documents.
//!
//! - A composition is a directory (its `*.hcl` files, sorted by name, not recursive; a
//!   symbolic link is followed only to a file inside the directory), a `*.txtar` archive
//!   (Go's `golang.org/x/tools/txtar` semantics, [`parse_txtar`]), a Crossplane
//!   `Composition` YAML (the `input.hcl` archive of its one function-hcl step), or one HCL
//!   file.
//! - The request's documents are YAML 1.2 (`yes` stays a string) read into JSON values:
//!   `--xr` one object, `--observed` and `--extra-resources` a stream of objects,
//!   `--context` a JSON object.
//!
//! Bounded (`docs/security.md`): every file is read through [`cloudspec_model::input`]
//! (a size limit, UTF-8 text only); a YAML or JSON file builds at most [`MAX_VALUES`]
//! values, anchors and aliases counted each time they repeat, nested at most
//! [`MAX_DEPTH`] deep. Errors name the file and, where the parser gives one, the line and
//! column, and quote at most a short excerpt of the input.

use std::cell::Cell;
use std::fmt;
use std::path::Path;

use cloudspec_model::input::{self as read, display_path, escape_control, truncate_chars};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

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

/// A YAML or JSON value nests at most this deep (a Kubernetes object rarely passes 20).
pub const MAX_DEPTH: usize = 100;
/// A YAML or JSON file builds at most this many values (scalars, lists and mappings),
/// an alias counting as many as it repeats: a "billion laughs" file is an error at the
/// alias that goes over, not gigabytes of copies.
pub const MAX_VALUES: usize = 4_000_000;
/// The annotation naming an observed composed resource.
pub const RESOURCE_NAME_ANNOTATION: &str = "crossplane.io/composition-resource-name";

/// A composition or request document that cannot be read: the file (as messages show
/// it), the line and column where the parser gives one, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    /// 1-based line and column.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl InputError {
    fn new(file: &str, message: impl Into<String>) -> InputError {
        InputError {
            file: file.to_string(),
            at: None,
            message: message.into(),
        }
    }

    /// The error as `cloudspec render` prints it (contract section 5):
    /// `FILE:LINE:COL: error: MESSAGE` with a position, else `error: FILE: MESSAGE`.
    pub fn line(&self) -> String {
        match self.at {
            Some((line, column)) => {
                format!("{}:{line}:{column}: error: {}", self.file, self.message)
            }
            None => format!("error: {}: {}", self.file, self.message),
        }
    }
}

/// `FILE:LINE:COL: MESSAGE`, or `FILE: MESSAGE` without a position.
impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for InputError {}

// -------------------------------------------------------------------------------------
// Compositions
// -------------------------------------------------------------------------------------

/// A composition and where its files are on disk.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub composition: Composition,
    pub origins: Origins,
}

/// Where each file of a composition is on disk, so that a line of a file as the render
/// names it (`main.hcl`, line 12) can be shown where the user edits it (the directory's
/// `main.hcl`; the line of a txtar archive or of a Composition YAML holding it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    files: Vec<(String, Origin)>,
}

/// Where one file of a composition is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    /// The file on disk (`comp/main.hcl`), or `ARCHIVE#NAME` for a member whose lines
    /// could not be placed in its archive (then lines count from the member's first).
    path: String,
    /// Line 1 of the member is line `offset + 1` of `path`.
    offset: usize,
}

impl Origins {
    /// The file and line where line `line` of the composition's file `name` is.
    pub fn locate(&self, name: &str, line: usize) -> (String, usize) {
        match self.files.iter().find(|(n, _)| n == name) {
            Some((_, origin)) => (origin.path.clone(), line + origin.offset),
            None => (name.to_string(), line),
        }
    }

    fn add(&mut self, name: &str, path: String, offset: usize) {
        self.files.push((name.to_string(), Origin { path, offset }));
    }
}

/// Reads a composition: a directory (its `*.hcl` files, sorted, not recursive), a `.txtar`
/// file, a Crossplane `Composition` YAML (`.yaml`, `.yml`), or one HCL file.
pub fn load_composition(path: &Path) -> Result<Composition, InputError> {
    load(path).map(|loaded| loaded.composition)
}

/// [`load_composition`], with where each file is on disk.
pub fn load(path: &Path) -> Result<Loaded, InputError> {
    let shown = display_path(path);
    let meta = std::fs::metadata(path)
        .map_err(|e| InputError::new(&shown, format!("cannot read: {e}")))?;
    if meta.is_dir() {
        return load_dir(path);
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("txtar") => {
            let text = read_file(path, read::MAX_HCL_BYTES, "a txtar archive")?;
            let members = txtar(&text);
            let mut loaded = Loaded::default();
            for member in &members {
                loaded
                    .origins
                    .add(&member.name, shown.clone(), member.line - 1);
            }
            loaded.composition = archive(
                &shown,
                members,
                "a txtar archive starts each file with a line `-- NAME --`",
                &text,
            )?;
            Ok(loaded)
        }
        Some("yaml" | "yml") => {
            let text = read_file(path, read::MAX_YAML_BYTES, "a Composition YAML")?;
            composition_yaml(&shown, &text)
        }
        _ => {
            let text = read_file(path, read::MAX_HCL_BYTES, "an HCL file")?;
            let name = path
                .file_name()
                .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
            let mut origins = Origins::default();
            origins.add(&name, shown, 0);
            Ok(Loaded {
                composition: Composition {
                    files: vec![File { name, text }],
                },
                origins,
            })
        }
    }
}

/// A directory's `*.hcl` files, sorted by name, each named by its file name.
fn load_dir(dir: &Path) -> Result<Loaded, InputError> {
    let shown = display_path(dir);
    let unreadable =
        |e: std::io::Error| InputError::new(&shown, format!("cannot read directory: {e}"));
    let root = std::fs::canonicalize(dir).map_err(unreadable)?;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".hcl") {
            continue;
        }
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| InputError::new(&display_path(&path), format!("cannot read: {e}")))?;
        if kind.is_symlink() {
            let target = std::fs::canonicalize(&path).map_err(|e| {
                InputError::new(
                    &display_path(&path),
                    format!("symbolic link that cannot be followed: {e}"),
                )
            })?;
            if !target.starts_with(&root) {
                return Err(InputError::new(
                    &display_path(&path),
                    format!(
                        "symbolic link to a file outside {shown}; cloudspec does not follow \
                         links out of the directory it was given"
                    ),
                ));
            }
            if !target.is_file() {
                continue;
            }
        } else if !kind.is_file() {
            continue;
        }
        found.push((name, path));
    }
    if found.is_empty() {
        return Err(InputError::new(
            &shown,
            "no HCL input files found (no *.hcl file in this directory)",
        ));
    }
    found.sort();
    let mut loaded = Loaded::default();
    for (name, path) in found {
        let text = read_file(&path, read::MAX_HCL_BYTES, "an HCL file")?;
        loaded.origins.add(&name, display_path(&path), 0);
        loaded.composition.files.push(File { name, text });
    }
    Ok(loaded)
}

/// The members of an archive as a composition: at least one, names unique.
fn archive(
    shown: &str,
    members: Vec<Member>,
    hint: &str,
    text: &str,
) -> Result<Composition, InputError> {
    if members.is_empty() {
        let crlf = if text.contains("\r\n") {
            "; its lines end with CR LF, and a marker line must end with a bare line feed"
        } else {
            ""
        };
        return Err(InputError::new(
            shown,
            format!("no HCL input files found ({hint}{crlf})"),
        ));
    }
    let mut files: Vec<File> = Vec::with_capacity(members.len());
    for member in members {
        if files.iter().any(|f| f.name == member.name) {
            return Err(InputError::new(
                shown,
                format!(
                    "two files named \"{}\"; the files of a composition have unique names",
                    short(&member.name)
                ),
            ));
        }
        files.push(File {
            name: member.name,
            text: member.text,
        });
    }
    Ok(Composition { files })
}

/// One file of a txtar archive, with the line of the archive its text starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Member {
    name: String,
    text: String,
    /// The archive line holding the member's line 1 (the line after its marker).
    line: usize,
}

/// Splits txtar text into its members (`-- NAME --` markers); line 1 of a member is the
/// line after its marker. Text before the first marker (the comment) is not a file.
///
/// Go's `txtar.Parse` exactly: a marker is a line starting `-- ` and ending ` --` around
/// a name that is not empty once trimmed (a marker line ending in CR LF is not one); a
/// member's text runs to the next marker, and only the last member gets a final line
/// feed added when it lacks one.
pub fn parse_txtar(text: &str) -> Vec<File> {
    txtar(text)
        .into_iter()
        .map(|m| File {
            name: m.name,
            text: m.text,
        })
        .collect()
}

fn txtar(text: &str) -> Vec<Member> {
    let mut members = Vec::new();
    let (_, mut marker) = next_marker(text, 0);
    while let Some((name, start)) = marker {
        let (end, next) = next_marker(text, start);
        let mut data = text.get(start..end).unwrap_or_default().to_string();
        if next.is_none() && !data.is_empty() && !data.ends_with('\n') {
            data.push('\n');
        }
        members.push(Member {
            name,
            text: data,
            line: 1 + text
                .get(..start)
                .map_or(0, |t| t.bytes().filter(|&b| b == b'\n').count()),
        });
        marker = next;
    }
    members
}

/// Go's `findFileMarker` from byte `from`: where the data before the next marker ends,
/// and that marker's name and the offset of the data after it (`None` at the end).
fn next_marker(text: &str, from: usize) -> (usize, Option<(String, usize)>) {
    let mut i = from;
    loop {
        if let Some((name, after)) = marker_at(text, i) {
            return (i, Some((name, after)));
        }
        match text.get(i..).and_then(|rest| rest.find("\n-- ")) {
            Some(j) => i += j + 1,
            None => return (text.len(), None),
        }
    }
}

/// Go's `isMarker`: the name of the marker line starting at byte `at`, and the offset
/// after that line.
fn marker_at(text: &str, at: usize) -> Option<(String, usize)> {
    let rest = text.get(at..)?;
    if !rest.starts_with("-- ") {
        return None;
    }
    let (line, after) = match rest.find('\n') {
        Some(k) => (&rest[..k], at + k + 1),
        None => (rest, text.len()),
    };
    if !(line.ends_with(" --") && line.len() >= 6) {
        return None;
    }
    let name = line.get(3..line.len() - 3)?.trim();
    (!name.is_empty()).then(|| (name.to_string(), after))
}

/// A Crossplane `Composition` YAML: the `input.hcl` archive of its one pipeline step whose
/// input is `kind: HclInput`.
fn composition_yaml(shown: &str, text: &str) -> Result<Loaded, InputError> {
    let documents = yaml_documents(shown, text)?;
    let mut found = Vec::new();
    for (n, doc) in documents.iter().enumerate() {
        let Some(Json::Object(object)) = doc else {
            continue;
        };
        if object.get("kind").and_then(Json::as_str) != Some("Composition") {
            continue;
        }
        match object.get("apiVersion").and_then(Json::as_str) {
            Some(COMPOSITION_API_VERSION) => found.push((n + 1, object)),
            Some(v) if v.starts_with("apiextensions.crossplane.io/") => {
                return Err(InputError::new(
                    shown,
                    format!(
                        "document {}: a Composition of apiVersion \"{}\"; cloudspec reads \
                         {COMPOSITION_API_VERSION}",
                        n + 1,
                        short(v)
                    ),
                ))
            }
            _ => {}
        }
    }
    let composition = match found.as_slice() {
        [] => {
            return Err(InputError::new(
                shown,
                format!(
                    "not a Crossplane Composition: no document has apiVersion \
                     {COMPOSITION_API_VERSION} and kind Composition"
                ),
            ))
        }
        [(_, one)] => *one,
        several => {
            let at: Vec<String> = several.iter().map(|(n, _)| n.to_string()).collect();
            return Err(InputError::new(
                shown,
                format!(
                    "{} Compositions (documents {}); give a file with one",
                    several.len(),
                    at.join(", ")
                ),
            ));
        }
    };
    let steps = match composition
        .get("spec")
        .and_then(|s| s.get("pipeline"))
        .and_then(Json::as_array)
    {
        Some(steps) => steps,
        None => {
            return Err(InputError::new(
                shown,
                "the Composition has no spec.pipeline; function-hcl runs as a step of a \
                 Pipeline-mode Composition",
            ))
        }
    };
    let names: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(n, step)| match step.get("step").and_then(Json::as_str) {
            Some(name) => format!("\"{}\"", short(name)),
            None => format!("step {}", n + 1),
        })
        .collect();
    let hcl: Vec<(&String, &Json)> = names
        .iter()
        .zip(steps)
        .filter(|(_, step)| {
            step.get("input")
                .and_then(|i| i.get("kind"))
                .and_then(Json::as_str)
                == Some("HclInput")
        })
        .collect();
    let (step, input) = match hcl.as_slice() {
        [] => {
            return Err(InputError::new(
                shown,
                format!(
                    "no pipeline step has an input of kind HclInput (steps: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ))
        }
        [(name, step)] => (*name, step.get("input").unwrap_or(&Json::Null)),
        several => {
            let which: Vec<&str> = several.iter().map(|(name, _)| name.as_str()).collect();
            return Err(InputError::new(
                shown,
                format!(
                    "{} pipeline steps have an input of kind HclInput ({}); cloudspec renders \
                     one function-hcl step",
                    several.len(),
                    which.join(", ")
                ),
            ));
        }
    };
    match input.get("source") {
        None | Some(Json::Null) => {}
        Some(Json::String(s)) if s == "Inline" => {}
        Some(other) => {
            return Err(InputError::new(
                shown,
                format!(
                    "step {step}: HclInput source {}; only Inline is supported",
                    short(&other.to_string())
                ),
            ))
        }
    }
    let archive_text = match input.get("hcl") {
        None | Some(Json::Null) => "",
        Some(Json::String(s)) => s.as_str(),
        Some(_) => {
            return Err(InputError::new(
                shown,
                format!("step {step}: input.hcl is not a string"),
            ))
        }
    };
    let members = txtar(archive_text);
    let mut origins = Origins::default();
    let placed = place_block(text, archive_text);
    for member in &members {
        match placed {
            Some(first) => origins.add(&member.name, shown.to_string(), first + member.line - 1),
            None => origins.add(&member.name, format!("{shown}#{}", member.name), 0),
        }
    }
    let composition = archive(
        shown,
        members,
        &format!(
            "step {step}: input.hcl must be a txtar archive, each file starting with a line \
             `-- NAME --`"
        ),
        archive_text,
    )?;
    Ok(Loaded {
        composition,
        origins,
    })
}

const COMPOSITION_API_VERSION: &str = "apiextensions.crossplane.io/v1";

/// Where the lines of `block` (a literal block scalar's value) stand in `yaml`: the
/// 0-based index of the YAML line holding its first line, when exactly one run of lines,
/// each `block`'s line under one indentation (blank lines blank), holds it.
fn place_block(yaml: &str, block: &str) -> Option<usize> {
    let wanted: Vec<&str> = block
        .strip_suffix('\n')
        .unwrap_or(block)
        .split('\n')
        .collect();
    let first = wanted.first().filter(|l| !l.trim().is_empty())?;
    let lines: Vec<&str> = yaml
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut found = None;
    for (k, line) in lines.iter().enumerate() {
        let body = line.trim_start_matches(' ');
        if body != *first {
            continue;
        }
        let indent = line.len() - body.len();
        let fits = wanted.iter().enumerate().all(|(m, want)| {
            lines.get(k + m).is_some_and(|have| {
                if want.is_empty() {
                    have.trim().is_empty()
                } else {
                    have.len() == indent + want.len()
                        && have
                            .get(..indent)
                            .is_some_and(|p| p.bytes().all(|b| b == b' '))
                        && have.get(indent..) == Some(*want)
                }
            })
        });
        if fits {
            if found.is_some() {
                return None;
            }
            found = Some(k);
        }
    }
    found
}

// -------------------------------------------------------------------------------------
// The request's documents
// -------------------------------------------------------------------------------------

/// Reads the request's documents from the paths the command line gives.
pub fn load_inputs(
    xr: &Path,
    observed: Option<&Path>,
    extra: Option<&Path>,
    context: Option<&Path>,
) -> Result<Inputs, InputError> {
    let xr = {
        let shown = display_path(xr);
        let text = read_file(xr, read::MAX_YAML_BYTES, "the composite resource (--xr)")?;
        parse_xr(&shown, &text)?
    };
    let observed = match observed {
        Some(path) => {
            let text = read_file(
                path,
                read::MAX_YAML_BYTES,
                "observed resources (--observed)",
            )?;
            parse_observed(&display_path(path), &text)?
        }
        None => Vec::new(),
    };
    let extra = match extra {
        Some(path) => {
            let text = read_file(
                path,
                read::MAX_YAML_BYTES,
                "extra resources (--extra-resources)",
            )?;
            Some(parse_extra(&display_path(path), &text)?)
        }
        None => None,
    };
    let context = match context {
        Some(path) => {
            let text = read_file(path, read::MAX_YAML_BYTES, "a context (--context)")?;
            parse_context(&display_path(path), &text)?
        }
        None => Map::new(),
    };
    Ok(Inputs {
        xr,
        observed,
        extra,
        context,
    })
}

/// `--xr`: exactly one YAML document, an object.
pub fn parse_xr(file: &str, text: &str) -> Result<Json, InputError> {
    let docs: Vec<Json> = yaml_documents(file, text)?.into_iter().flatten().collect();
    match docs.as_slice() {
        [] => Err(InputError::new(
            file,
            "no YAML document; --xr takes the composite resource, one YAML object",
        )),
        [Json::Object(_)] => Ok(docs.into_iter().next().unwrap_or_default()),
        [other] => Err(InputError::new(
            file,
            format!(
                "the composite resource is {}; it must be a YAML mapping (an object)",
                kind(other)
            ),
        )),
        several => Err(InputError::new(
            file,
            format!(
                "{} YAML documents; --xr takes one, the composite resource",
                several.len()
            ),
        )),
    }
}

/// `--observed`: YAML documents, each an object named by its
/// `crossplane.io/composition-resource-name` annotation (required, unique). Empty
/// documents are skipped.
pub fn parse_observed(file: &str, text: &str) -> Result<Vec<(String, Json)>, InputError> {
    let mut out: Vec<(String, Json)> = Vec::new();
    let mut first_at: Vec<usize> = Vec::new();
    for (n, doc) in yaml_documents(file, text)?.into_iter().enumerate() {
        let Some(doc) = doc else { continue };
        let n = n + 1;
        if !doc.is_object() {
            return Err(InputError::new(
                file,
                format!(
                    "document {n} is {}; an observed resource must be a YAML mapping (an object)",
                    kind(&doc)
                ),
            ));
        }
        let name = match doc
            .get("metadata")
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get(RESOURCE_NAME_ANNOTATION))
        {
            Some(Json::String(name)) if !name.is_empty() => name.clone(),
            Some(Json::String(_)) => {
                return Err(InputError::new(
                    file,
                    format!(
                        "document {n}{}: the {RESOURCE_NAME_ANNOTATION} annotation is empty",
                        describe(&doc)
                    ),
                ))
            }
            Some(other) => {
                return Err(InputError::new(
                    file,
                    format!(
                        "document {n}{}: the {RESOURCE_NAME_ANNOTATION} annotation is {}, \
                         not a string",
                        describe(&doc),
                        kind(other)
                    ),
                ))
            }
            None => {
                return Err(InputError::new(
                    file,
                    format!(
                        "document {n}{}: no {RESOURCE_NAME_ANNOTATION} annotation; each \
                         observed resource is named by it (metadata.annotations)",
                        describe(&doc)
                    ),
                ))
            }
        };
        if let Some(at) = out.iter().position(|(seen, _)| *seen == name) {
            return Err(InputError::new(
                file,
                format!(
                    "documents {} and {n} are both named \"{}\" ({RESOURCE_NAME_ANNOTATION}); \
                     names must be unique",
                    first_at.get(at).copied().unwrap_or_default(),
                    short(&name)
                ),
            ));
        }
        first_at.push(n);
        out.push((name, doc));
    }
    Ok(out)
}

/// `--extra-resources`: YAML documents, each an object. Empty documents are skipped.
pub fn parse_extra(file: &str, text: &str) -> Result<Vec<Json>, InputError> {
    let mut out = Vec::new();
    for (n, doc) in yaml_documents(file, text)?.into_iter().enumerate() {
        let Some(doc) = doc else { continue };
        if !doc.is_object() {
            return Err(InputError::new(
                file,
                format!(
                    "document {} is {}; an extra resource must be a YAML mapping (an object)",
                    n + 1,
                    kind(&doc)
                ),
            ));
        }
        out.push(doc);
    }
    Ok(out)
}

/// `--context`: a JSON object.
pub fn parse_context(file: &str, text: &str) -> Result<Map<String, Json>, InputError> {
    let count = Cell::new(0);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Node {
        count: &count,
        depth: 0,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v))
    .map_err(|e| json_error(file, &e))?;
    match value {
        Json::Object(map) => Ok(map),
        other => Err(InputError {
            file: file.to_string(),
            at: Some((1, 1)),
            message: format!("the context is {}; it must be a JSON object", kind(&other)),
        }),
    }
}

/// The documents of a YAML stream as JSON values, `None` for an empty document (or a
/// bare `null`). YAML 1.2: `yes`, `on` and `y` are strings; a key is its text (`80: x`
/// gives `"80"`); a key twice in one mapping, a tag of one's own (`!Ref`) and `.inf` or
/// `.nan` are errors with their position.
pub fn yaml_documents(file: &str, text: &str) -> Result<Vec<Option<Json>>, InputError> {
    check_bounds(file, text)?;
    let count = Cell::new(0);
    let mut out = Vec::new();
    for document in serde_yaml_ng::Deserializer::from_str(text) {
        let value = Node {
            count: &count,
            depth: 0,
        }
        .deserialize(document)
        .map_err(|e| yaml_error(file, &e))?;
        out.push((!value.is_null()).then_some(value));
    }
    Ok(out)
}

/// Checks a YAML stream's nesting and size once its aliases are expanded, from
/// saphyr-parser's events, before serde_yaml_ng reads it: libyaml takes time quadratic in
/// the nesting (a file of a million `[` would read for hours), and serde_yaml_ng bounds
/// alias expansion only loosely. Anything else saphyr-parser refuses is left to
/// serde_yaml_ng, whose errors are the ones reported.
fn check_bounds(file: &str, text: &str) -> Result<(), InputError> {
    let at = |line: usize, col: usize, message: String| InputError {
        file: file.to_string(),
        at: Some((line, col + 1)),
        message,
    };
    let deep = || format!("values nested more than {MAX_DEPTH} levels deep");
    let mut tally = Tally::default();
    for item in saphyr_parser::Parser::new_from_str(text) {
        let (event, span) = match item {
            Ok(item) => item,
            Err(e) if e.info().contains("recursion limit") => {
                return Err(at(e.marker().line(), e.marker().col(), deep()))
            }
            Err(_) => return Ok(()),
        };
        let fits = match event {
            saphyr_parser::Event::Scalar(_, _, anchor, _) => tally.place(1, 1, anchor),
            saphyr_parser::Event::Alias(id) => {
                let size = tally.sizes.get(&id).copied().unwrap_or(1);
                tally.place(size, size, 0)
            }
            saphyr_parser::Event::SequenceStart(anchor, _)
            | saphyr_parser::Event::MappingStart(anchor, _) => {
                if tally.open.len() >= MAX_DEPTH {
                    return Err(at(span.start.line(), span.start.col(), deep()));
                }
                tally.open.push((anchor, 0));
                true
            }
            saphyr_parser::Event::SequenceEnd | saphyr_parser::Event::MappingEnd => {
                let (anchor, size) = tally.open.pop().unwrap_or((0, 0));
                tally.place(size.saturating_add(1), 1, anchor)
            }
            _ => true,
        };
        if !fits {
            return Err(at(
                span.start.line(),
                span.start.col(),
                format!(
                    "the file expands to more than {MAX_VALUES} keys and values (an alias \
                     counts as many as it repeats)"
                ),
            ));
        }
    }
    Ok(())
}

/// The nodes of a YAML stream once its aliases are expanded: each anchor's size is
/// remembered, and an alias costs as much as what it repeats.
#[derive(Default)]
struct Tally {
    total: usize,
    /// Each open collection: its anchor and its size so far (itself included).
    open: Vec<(usize, usize)>,
    sizes: std::collections::HashMap<usize, usize>,
}

impl Tally {
    /// A finished node: `subtree` nodes in all, `new` of them not counted yet (a
    /// collection's children were counted as they finished). False past [`MAX_VALUES`].
    fn place(&mut self, subtree: usize, new: usize, anchor: usize) -> bool {
        self.total = self.total.saturating_add(new);
        if let Some((_, size)) = self.open.last_mut() {
            *size = size.saturating_add(subtree);
        }
        if anchor != 0 {
            self.sizes.insert(anchor, subtree);
        }
        self.total <= MAX_VALUES
    }
}

/// A parser's error: its position and its message without the position it appends, cut
/// short (a message may quote a value). A long path before the message (`a[0][0]...:`)
/// is cut on its own, so the message stays whole.
fn yaml_error(file: &str, e: &serde_yaml_ng::Error) -> InputError {
    let text = e.to_string();
    let message = match text.find(" at line ") {
        Some(i) => text.get(..i).unwrap_or(&text),
        None => &text,
    };
    let message = match message.split_once(": ") {
        Some((path, rest)) if !path.contains(char::is_whitespace) => {
            format!("{}: {}", truncate_chars(path, 60), rest)
        }
        _ => message.to_string(),
    };
    let message = if message == "repetition limit exceeded" {
        "aliases repeat more often than the document's size allows (repetition limit \
         exceeded)"
            .to_string()
    } else {
        message
    };
    InputError {
        file: file.to_string(),
        at: e.location().map(|l| (l.line(), l.column().max(1))),
        message: short_message(&message),
    }
}

fn json_error(file: &str, e: &serde_json::Error) -> InputError {
    let text = e.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => text.get(..i).unwrap_or(&text),
        None => &text,
    };
    InputError {
        file: file.to_string(),
        at: (e.line() > 0).then(|| (e.line(), e.column().max(1))),
        message: short_message(message),
    }
}

/// A value as a message names it: `a list`, `a string`.
fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a mapping",
    }
}

/// ` (Bucket "b-1")`: an object's kind and name, for messages about a document.
fn describe(doc: &Json) -> String {
    let kind = doc.get("kind").and_then(Json::as_str);
    let name = doc
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Json::as_str);
    match (kind, name) {
        (Some(k), Some(n)) => format!(" ({} \"{}\")", short(k), short(n)),
        (Some(k), None) => format!(" ({})", short(k)),
        (None, Some(n)) => format!(" (\"{}\")", short(n)),
        (None, None) => String::new(),
    }
}

/// A value quoted in a message: at most 60 characters, control characters escaped.
fn short(text: &str) -> String {
    escape_control(&truncate_chars(text, 60)).into_owned()
}

/// A parser's message: at most 200 characters, control characters escaped.
fn short_message(text: &str) -> String {
    escape_control(&truncate_chars(text, 200)).into_owned()
}

/// Reads a text file within `limit`; the error keeps the reader's position.
fn read_file(path: &Path, limit: u64, what: &'static str) -> Result<String, InputError> {
    read::read_text(path, limit, what).map_err(|e| {
        let text = e.to_string();
        let (file, at) = match &e {
            read::InputError::Io { path, .. } | read::InputError::TooLarge { path, .. } => {
                (path.clone(), None)
            }
            read::InputError::Binary {
                path, line, column, ..
            }
            | read::InputError::NotUtf8 {
                path, line, column, ..
            } => (path.clone(), Some((*line, *column))),
        };
        let prefix = match at {
            Some((line, column)) => format!("{file}:{line}:{column}: "),
            None => format!("{file}: "),
        };
        InputError {
            message: text.strip_prefix(&prefix).unwrap_or(&text).to_string(),
            file,
            at,
        }
    })
}

// -------------------------------------------------------------------------------------
// JSON values from YAML or JSON, within bounds
// -------------------------------------------------------------------------------------

/// Builds one value (and what it holds), counting every value against [`MAX_VALUES`]
/// for the whole file and refusing nesting beyond [`MAX_DEPTH`].
#[derive(Clone, Copy)]
struct Node<'a> {
    count: &'a Cell<usize>,
    depth: usize,
}

impl Node<'_> {
    fn take<E: de::Error>(&self) -> Result<(), E> {
        let n = self.count.get() + 1;
        self.count.set(n);
        if n > MAX_VALUES {
            return Err(E::custom(format!(
                "more than {MAX_VALUES} values in one file (an alias counts as many values as \
                 it repeats)"
            )));
        }
        Ok(())
    }

    fn inner<E: de::Error>(&self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!(
                "values nested more than {MAX_DEPTH} levels deep"
            )));
        }
        Ok(Node {
            count: self.count,
            depth: self.depth + 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Json;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value: null, a boolean, a number, a string, a list or a mapping")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        self.take()?;
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        self.take()?;
        Ok(Json::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        self.take()?;
        Ok(Json::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Json, E> {
        self.visit_f64(v as f64)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Json, E> {
        self.visit_f64(v as f64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        self.take()?;
        serde_json::Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| {
                E::custom(format!(
                    "{v} is not a JSON number (.inf and .nan have no place in a Kubernetes object)"
                ))
            })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        self.take()?;
        Ok(Json::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        self.take()?;
        Ok(Json::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        self.take()?;
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        self.take()?;
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        self.take()?;
        let inner = self.inner()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key_seed(Key { seen: &object })? {
            let value = map.next_value_seed(inner)?;
            object.insert(key, value);
        }
        Ok(Json::Object(object))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Json, A::Error> {
        let (tag, _): (String, _) = data.variant()?;
        Err(de::Error::custom(format!(
            "the tag !{} is not supported: a Kubernetes object is plain data",
            short(&tag)
        )))
    }
}

/// A mapping key: its text, refused when the mapping already has it.
struct Key<'m> {
    seen: &'m Map<String, Json>,
}

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = String;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key that is a string, a number or a boolean")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        if self.seen.contains_key(v) {
            return Err(E::custom(format!(
                "the key \"{}\" appears twice in one mapping",
                short(v)
            )));
        }
        Ok(v.to_string())
    }
}

#[cfg(test)]
mod tests;
