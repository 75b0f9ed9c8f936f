//! The JSON form of an inventory (`shared/design/inventory.md`): load and save.
//!
//! Loading reads the bytes with a purpose-built reader ([`reader`]) that builds
//! [`crate::Value`]s directly (no intermediate JSON tree) and, for big pretty-printed
//! files, reads the `resources` array in segments on several threads, window by window
//! through a memory map of the file ([`mapped`], [`segments`]). Every malformed
//! file gives a [`LoadError`] with a JSON path, a line and a column; no input panics.

mod document;
mod error;
mod mapped;
mod reader;
mod segments;
mod writer;

use std::io::Write as _;
use std::path::Path;

pub use error::{LoadError, LoadErrorKind};
pub use writer::{InventoryHeader, InventoryWriter};

use crate::intern::Interner;
use crate::inventory::{Inventory, InventoryBuilder};
use crate::projection::Projection;
use segments::FileRead;

/// The number of threads a load uses by default: the available cores, at most 8.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

impl Inventory {
    /// Loads an inventory file. A big file is read block by block, its resources on every
    /// core, without holding the whole file in memory ([`segments`]).
    pub fn load(path: &Path) -> Result<Inventory, LoadError> {
        Self::load_with_threads(path, default_threads())
    }

    /// [`Inventory::load`] with at most `threads` threads reading resources. The result,
    /// errors included, does not depend on `threads`.
    pub fn load_with_threads(path: &Path, threads: usize) -> Result<Inventory, LoadError> {
        Self::load_from(path, threads, None)
    }

    /// [`Inventory::load`] keeping only the properties `projection` names:
    /// what an evaluation of the specs it was made from reads. The file is read and checked
    /// whole (the same errors as a full load), and the dangling references under dropped
    /// properties are still listed ([`Inventory::dangling_refs`]).
    pub fn load_projected(path: &Path, projection: &Projection) -> Result<Inventory, LoadError> {
        Self::load_from(path, default_threads(), Some(projection))
    }

    /// [`Inventory::load_projected`] with at most `threads` threads reading resources.
    pub fn load_projected_with_threads(
        path: &Path,
        threads: usize,
        projection: &Projection,
    ) -> Result<Inventory, LoadError> {
        Self::load_from(path, threads, Some(projection))
    }

    fn load_from(
        path: &Path,
        threads: usize,
        projection: Option<&Projection>,
    ) -> Result<Inventory, LoadError> {
        let name = crate::input::display_path(path);
        let io_error = |e: std::io::Error| LoadError {
            file: name.clone(),
            json_path: "$".into(),
            line: None,
            column: None,
            kind: LoadErrorKind::Io,
            message: format!("cannot read: {e}"),
        };
        let mut file = std::fs::File::open(path).map_err(io_error)?;
        let metadata = file.metadata().ok();
        if !metadata.as_ref().is_some_and(|m| m.is_file()) {
            // A pipe or device cannot be read a second time for the serial read's exact
            // errors: keep all of it, up to the limit.
            let bytes = read_stream(&mut file, &name, crate::input::MAX_INVENTORY_STREAM_BYTES)?;
            return Self::from_slice_from(&bytes, &name, threads, projection);
        }
        let size = metadata.and_then(|m| usize::try_from(m.len()).ok());
        // A big file is read through memory-mapped windows (no copy); should mapping fail
        // (a file system without it), block by block. Either gives the same result.
        let mapped = size
            .filter(|&size| size >= segments::MIN_SEGMENTED)
            .and_then(|size| {
                segments::read_mapped(&file, size, threads, segments::BLOCK, projection)
                    .ok()
                    .flatten()
            });
        let read = match mapped {
            Some(read) => read,
            None => segments::read_file(&mut file, size, threads, segments::BLOCK, projection)
                .map_err(io_error)?,
        };
        match read {
            FileRead::Loaded(inventory) => Ok(*inventory),
            FileRead::Whole(bytes) => Self::from_slice_from(&bytes, &name, threads, projection),
            FileRead::Serial => {
                drop(file);
                let bytes = std::fs::read(path).map_err(io_error)?;
                Self::from_slice_serial(&bytes, &name, projection)
            }
        }
    }

    /// Parses an inventory from bytes; `file` names it in errors.
    pub fn from_slice(bytes: &[u8], file: &str) -> Result<Inventory, LoadError> {
        Self::from_slice_with_threads(bytes, file, default_threads())
    }

    /// [`Inventory::from_slice`] with at most `threads` threads reading resources
    /// (1 reads serially). The result, errors included, does not depend on `threads`.
    pub fn from_slice_with_threads(
        bytes: &[u8],
        file: &str,
        threads: usize,
    ) -> Result<Inventory, LoadError> {
        Self::from_slice_from(bytes, file, threads, None)
    }

    /// [`Inventory::from_slice_with_threads`] keeping only the properties `projection`
    /// names ([`Inventory::load_projected`]).
    pub fn from_slice_projected(
        bytes: &[u8],
        file: &str,
        threads: usize,
        projection: &Projection,
    ) -> Result<Inventory, LoadError> {
        Self::from_slice_from(bytes, file, threads, Some(projection))
    }

    fn from_slice_from(
        bytes: &[u8],
        file: &str,
        threads: usize,
        projection: Option<&Projection>,
    ) -> Result<Inventory, LoadError> {
        if threads > 1 && bytes.len() >= segments::MIN_SEGMENTED {
            let read = segments::read_slice(bytes, threads, segments::BLOCK, projection);
            if let Some(inventory) = read {
                return Ok(inventory);
            }
        }
        Self::from_slice_serial(bytes, file, projection)
    }

    /// Reads a document on one thread: the reference for every other way of reading, and
    /// the one that reports errors.
    fn from_slice_serial(
        bytes: &[u8],
        file: &str,
        projection: Option<&Projection>,
    ) -> Result<Inventory, LoadError> {
        let doc = document::parse(bytes, Interner::new(), projection)
            .map_err(|e| e.into_load_error(bytes, file))?;
        let mut builder = InventoryBuilder::new();
        if let Err((duplicate, offset)) = doc.add_to(&mut builder) {
            let first = builder
                .find(&duplicate.type_name, &duplicate.id)
                .unwrap_or_default();
            return Err(duplicate_error(
                bytes,
                file,
                &duplicate,
                first as usize,
                offset,
            ));
        }
        Ok(builder.finish())
    }

    /// The deterministic JSON form: resources sorted by type then id, keys sorted,
    /// collection errors sorted, two-space indents and a final newline.
    pub fn to_json_string(&self) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_json(&mut out);
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// Writes [`Inventory::to_json_string`]'s text to `out`.
    pub fn write_json<W: std::io::Write>(&self, out: W) -> std::io::Result<W> {
        let mut order: Vec<&crate::Resource> = self.resources.iter().collect();
        order.sort_by(|a, b| (&a.type_name, &a.id).cmp(&(&b.type_name, &b.id)));
        let mut writer = InventoryWriter::with_header(
            out,
            writer::InventoryHeader {
                provider: self.provider.as_deref(),
                collected_at: self.collected_at.as_deref(),
                dangling: self.dangling,
                origin: self.origin.as_ref(),
            },
        )?;
        for resource in order {
            writer.resource(resource, &self.interner)?;
        }
        writer.finish(&self.errors)
    }

    /// Saves the JSON form to `path` atomically: a temporary file in the same folder,
    /// then a rename, so a reader never sees half a file. The temporary file is created
    /// exclusively (`create_new`: never through a link someone planted at its name).
    /// cloudspec's CLI writes through its own writer (`docs/security.md`), which also
    /// writes devices and FIFOs in place; this is for library users.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (temp, file) = exclusive_temp(path, &name)?;
        let result = (|| {
            let mut file = self.write_json(std::io::BufWriter::new(file))?;
            file.flush()?;
            file.get_ref().sync_all()?;
            std::fs::rename(&temp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result
    }
}

/// A new temporary file next to `path`, created exclusively: `.NAME.PID.N.tmp` for the
/// first N whose name is free.
fn exclusive_temp(path: &Path, name: &str) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    let mut last = None;
    for n in 0..64 {
        let temp = path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::ErrorKind::AlreadyExists.into()))
}

/// Reads an inventory from a pipe or a device (which may never end) into memory: at most
/// `limit` bytes, and not a byte more once the first byte that is not whitespace shows
/// that this is no inventory (`/dev/zero` fails at its first byte). Errors are the serial
/// read's, with their position; more than `limit` bytes is an error at the first byte
/// past it.
fn read_stream(
    stream: &mut impl std::io::Read,
    name: &str,
    limit: u64,
) -> Result<Vec<u8>, LoadError> {
    let mut bytes = Vec::new();
    let mut block = vec![0u8; 64 << 10];
    let mut checked = false;
    loop {
        let n = match stream.read(&mut block) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(LoadError {
                    file: name.into(),
                    json_path: "$".into(),
                    line: None,
                    column: None,
                    kind: LoadErrorKind::Io,
                    message: format!("cannot read: {e}"),
                })
            }
        };
        bytes.extend_from_slice(block.get(..n).unwrap_or_default());
        if !checked {
            let text = bytes.strip_prefix(error::BOM).unwrap_or(&bytes);
            if let Some(first) = text
                .iter()
                .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            {
                checked = true;
                if *first != b'{' {
                    // Not an object: the serial read's error is at that byte.
                    return match Inventory::from_slice_serial(&bytes, name, None) {
                        Err(e) => Err(e),
                        Ok(_) => Ok(bytes),
                    };
                }
            }
        }
        if bytes.len() as u64 > limit {
            let (line, column) =
                error::line_column(&bytes, usize::try_from(limit).unwrap_or(usize::MAX));
            return Err(LoadError {
                file: name.into(),
                json_path: "$".into(),
                line: Some(line),
                column: Some(column),
                kind: LoadErrorKind::Io,
                message: format!(
                    "larger than the {} limit for an inventory read from a pipe or a device",
                    crate::input::human_bytes(limit)
                ),
            });
        }
    }
}

/// The error for a second resource with the same type and id, at `offset`.
fn duplicate_error(
    bytes: &[u8],
    file: &str,
    duplicate: &crate::DuplicateResource,
    first: usize,
    offset: usize,
) -> LoadError {
    let (line, column) = error::line_column(bytes, offset);
    LoadError {
        file: file.into(),
        json_path: format!("$.resources[{}]", duplicate.index),
        line: Some(line),
        column: Some(column),
        kind: LoadErrorKind::Duplicate,
        message: format!(
            "duplicate resource {}/{} (first at $.resources[{first}])",
            error::shown(&duplicate.type_name),
            error::shown(&duplicate.id)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_past_the_limit_is_an_error_at_the_first_byte_past_it() {
        let head = b"{\"cloudspec_inventory\": 1, \"resources\": [\n";
        let limit = 1 << 20;
        let mut endless = std::io::Read::chain(&head[..], std::io::repeat(b' '));
        let e = read_stream(&mut endless, "fifo", limit).expect_err("endless");
        let column = limit as usize - head.len() + 1;
        assert_eq!(
            e.to_string(),
            format!("fifo:2:{column}: larger than the 1 MiB limit for an inventory read from a pipe or a device (at $)")
        );
        // Exactly the limit is read whole.
        let text = format!(
            "{{\"cloudspec_inventory\": 1, \"resources\": []}}{}",
            " ".repeat(1000)
        );
        let mut stream = text.as_bytes();
        let bytes = read_stream(&mut stream, "fifo", text.len() as u64).expect("fits");
        assert_eq!(bytes, text.as_bytes());
        let mut stream = text.as_bytes();
        let e = read_stream(&mut stream, "fifo", text.len() as u64 - 1).expect_err("one byte over");
        assert!(e.to_string().contains("larger than the"), "{e}");
    }

    #[test]
    fn a_stream_stops_at_its_first_byte_that_cannot_start_an_inventory() {
        // After a byte-order mark and whitespace, a `[`: nothing more is read.
        let mut endless =
            std::io::Read::chain(&b"\xEF\xBB\xBF \r\n\t[1,"[..], std::io::repeat(b'1'));
        let e = read_stream(&mut endless, "fifo", u64::MAX).expect_err("an array");
        assert_eq!(
            e.to_string(),
            "fifo:2:2: expected the inventory to be a JSON object, found array (at $)"
        );
        let mut zeros = std::io::repeat(0);
        let e = read_stream(&mut zeros, "/dev/zero", u64::MAX).expect_err("zeros");
        assert_eq!(
            e.to_string(),
            "/dev/zero:1:1: not JSON: expected a JSON value (at $)"
        );
    }
}
