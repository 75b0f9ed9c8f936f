//! The files the command line reads and writes, one way for every subcommand
//! (`docs/security.md`).
//!
//! Reading: every input goes through [`cloudspec_model::input`] (size limits, no binary
//! content, positions for encoding errors). Directory arguments are walked by [`walk`],
//! which never follows a symbolic link out of the tree it was given and never loops.
//!
//! Writing: [`write_file`] writes the one file it was told to, and nothing else:
//! - a new file, or a regular file with one link, is written to a temporary file created
//!   exclusively (never through a symbolic link) in the same directory, then renamed over
//!   it, so a reader never sees half a report; an existing file keeps its permissions;
//! - a device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a pipe) is written in place,
//!   never replaced;
//! - a regular file with several hard links is written in place, so every link sees it;
//! - a symbolic link is followed only to a device or FIFO, or to a file in the link's own
//!   directory tree (`latest.json -> runs/a.json`); a link that leads elsewhere is refused,
//!   so a link committed to a repository cannot make a report overwrite a file outside it.
//!
//! Standard output: [`Stdout`] collects write errors (a closed pipe, a full disk), so a
//! subcommand can tell that its output was not delivered and exit with status 2.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use cloudspec_model::input::{self, display_path};

/// Reads a spec file (`*.cloudspec`): at most [`input::MAX_SPEC_BYTES`], UTF-8 text.
pub(crate) fn read_spec(path: &Path) -> Result<String, String> {
    input::read_text(path, input::MAX_SPEC_BYTES, "a spec file").map_err(|e| e.to_string())
}

/// Reads a spec from standard input, as [`read_spec`] reads a file.
pub(crate) fn read_spec_stdin() -> Result<String, String> {
    let bytes = input::read_limited(
        std::io::stdin().lock(),
        "<stdin>",
        input::MAX_SPEC_BYTES,
        "a spec file",
    )
    .map_err(|e| e.to_string())?;
    input::into_text(bytes, "<stdin>", "a spec file").map_err(|e| e.to_string())
}

/// Reads a YAML file (waivers, rule tests): at most [`input::MAX_YAML_BYTES`], UTF-8 text.
pub(crate) fn read_yaml(path: &Path, what: &'static str) -> Result<String, String> {
    input::read_text(path, input::MAX_YAML_BYTES, what).map_err(|e| e.to_string())
}

// -------------------------------------------------------------------------------------
// Directory walks
// -------------------------------------------------------------------------------------

/// Every file below `root` whose name `wanted` accepts, sorted. Symbolic links are
/// followed only to files inside `root` (each file is listed once, however many links
/// lead to it); a link to a file outside `root` is an error; links to directories are not
/// followed (their targets inside the tree are walked anyway), so a walk never loops.
pub(crate) fn walk(root: &Path, wanted: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, String> {
    let shown = display_path(root);
    let canonical_root =
        std::fs::canonicalize(root).map_err(|e| format!("{shown}: cannot read directory: {e}"))?;
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: cannot read directory: {e}", display_path(&dir)))?;
        for entry in entries {
            let entry =
                entry.map_err(|e| format!("{}: cannot read directory: {e}", display_path(&dir)))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| format!("{}: cannot read: {e}", display_path(&path)))?;
            if kind.is_dir() {
                stack.push(path);
            } else if !wanted(&path) {
                continue;
            } else if kind.is_symlink() {
                let target = std::fs::canonicalize(&path).map_err(|e| {
                    format!(
                        "{}: symbolic link that cannot be followed: {e}",
                        display_path(&path)
                    )
                })?;
                if !target.starts_with(&canonical_root) {
                    return Err(format!(
                        "{}: symbolic link to a file outside {shown}; cloudspec does not follow \
                         links out of the tree it was given",
                        display_path(&path)
                    ));
                }
                if target.is_file() {
                    found.push(path);
                }
            } else if kind.is_file() {
                found.push(path);
            }
        }
    }
    // A file reached directly and through an in-tree link is kept once: under the name
    // that sorts first.
    found.sort();
    let mut once = BTreeSet::new();
    found.retain(|p| once.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
    Ok(found)
}

/// Resolves `relative`, a path written inside the file `from`, within `root`: it must be
/// relative and must stay inside `root` (after following links), so a file in a pull
/// request cannot make cloudspec read `/proc/self/environ` or `../../secrets`.
pub(crate) fn resolve_inside(root: &Path, from: &Path, relative: &str) -> Result<PathBuf, String> {
    let written = Path::new(relative);
    if written.is_absolute() || written.has_root() {
        return Err(format!(
            "\"{}\" is an absolute path; paths in a test file are relative to it",
            input::escape_control(relative)
        ));
    }
    let dir = from.parent().unwrap_or(Path::new(""));
    let joined = dir.join(written);
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let outside = || {
        format!(
            "\"{}\" leads outside {}; paths in a test file stay inside the tree it was given",
            input::escape_control(relative),
            display_path(root)
        )
    };
    match std::fs::canonicalize(&joined) {
        Ok(target) if target.starts_with(&canonical_root) => Ok(joined),
        Ok(_) => Err(outside()),
        Err(_) => {
            // A missing file: judge the written path itself (its read error comes later).
            if written
                .components()
                .any(|c| matches!(c, Component::ParentDir))
            {
                Err(outside())
            } else {
                Ok(joined)
            }
        }
    }
}

// -------------------------------------------------------------------------------------
// Writing files
// -------------------------------------------------------------------------------------

/// How [`write_file`] writes a path.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// A temporary file in the directory, renamed over this path.
    Replace(PathBuf),
    /// Opened and written in place (a device, a FIFO, a file with several links).
    InPlace(PathBuf),
}

/// Writes the file at `path` with what `write` produces (through a buffer): see the
/// module documentation for how each kind of target is written. Errors name the path.
pub(crate) fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let shown = display_path(path);
    let plan = plan(path).map_err(|m| format!("{shown}: {m}"))?;
    match plan {
        Plan::InPlace(target) => {
            let is_file = std::fs::metadata(&target).is_ok_and(|m| m.is_file());
            let file = OpenOptions::new()
                .write(true)
                .truncate(is_file)
                .open(&target)
                .map_err(|e| format!("{shown}: cannot open for writing: {e}"))?;
            let mut out = std::io::BufWriter::new(file);
            write(&mut out)
                .and_then(|()| out.flush())
                .map_err(|e| format!("{shown}: cannot write: {e}"))
        }
        Plan::Replace(target) => replace(&target, write).map_err(|m| format!("{shown}: {m}")),
    }
}

/// [`write_file`] with bytes.
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_file(path, |out| out.write_all(bytes))
}

/// Writes `target` (a regular file or a new name) through an exclusively created
/// temporary file in its directory, then renames it into place. Used directly for the
/// files cloudspec names itself (`--output-dir`): whatever was at that name is replaced.
pub(crate) fn replace(
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let dir = parent_dir(target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let existing = std::fs::symlink_metadata(target)
        .ok()
        .filter(|m| m.is_file());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // New files get the usual 0666 less the umask; existing ones keep their mode.
        let mode = existing
            .as_ref()
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(dir).map_err(|e| {
        // tempfile adds the temporary file's random name; the directory says enough.
        let text = e.to_string();
        let cause = text.split(" at path ").next().unwrap_or_default();
        format!(
            "cannot create a temporary file in {}: {cause}",
            display_path(dir)
        )
    })?;
    let mut out = std::io::BufWriter::new(tmp);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write: {e}"))?;
    let tmp = out
        .into_inner()
        .map_err(|e| format!("cannot write: {}", e.error()))?;
    tmp.persist(target)
        .map(drop)
        .map_err(|e| format!("cannot replace the file: {}", e.error))
}

/// The directory a file is in (`.` for a bare name).
pub(crate) fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Decides how to write `path` (see the module documentation).
fn plan(path: &Path) -> Result<Plan, String> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Plan::Replace(path.to_path_buf()))
        }
        Err(e) => return Err(format!("cannot write: {e}")),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err("is a directory".into());
    }
    if kind.is_symlink() {
        let target = std::fs::canonicalize(path)
            .map_err(|e| format!("symbolic link that cannot be followed: {e}"))?;
        let target_meta = std::fs::metadata(&target).map_err(|e| format!("cannot write: {e}"))?;
        if target_meta.is_dir() {
            return Err("is a link to a directory".into());
        }
        if !target_meta.is_file() {
            return Ok(Plan::InPlace(target));
        }
        if is_standard_stream(path) {
            // `/dev/stdout` redirected to a file: write where the stream goes.
            return Ok(Plan::InPlace(target));
        }
        let link_dir =
            std::fs::canonicalize(parent_dir(path)).map_err(|e| format!("cannot write: {e}"))?;
        if !target.starts_with(&link_dir) {
            return Err(format!(
                "is a symbolic link to {}, outside its directory; cloudspec does not write \
                 through it (name the file itself)",
                display_path(&target)
            ));
        }
        return plan_regular(target, &target_meta);
    }
    if !kind.is_file() {
        return Ok(Plan::InPlace(path.to_path_buf()));
    }
    plan_regular(path.to_path_buf(), &meta)
}

fn plan_regular(path: PathBuf, meta: &std::fs::Metadata) -> Result<Plan, String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if meta.nlink() > 1 {
            return Ok(Plan::InPlace(path));
        }
    }
    let _ = meta;
    Ok(Plan::Replace(path))
}

/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: names of open streams.
fn is_standard_stream(path: &Path) -> bool {
    ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"]
        .iter()
        .any(|p| path.to_string_lossy().starts_with(p))
}

// -------------------------------------------------------------------------------------
// Standard output
// -------------------------------------------------------------------------------------

/// Standard output that remembers its first write error instead of panicking (as
/// `println!` does on a closed pipe or a full disk).
#[derive(Default)]
pub(crate) struct Stdout {
    failed: Option<std::io::Error>,
}

impl Stdout {
    /// Writes `text` and flushes; after a failure nothing more is written.
    pub(crate) fn write(&mut self, text: &str) {
        if self.failed.is_some() {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            self.failed = Some(e);
        }
    }

    /// [`Stdout::write`] with a line break.
    pub(crate) fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }

    /// `Err(2)` after printing why, when a write failed.
    pub(crate) fn finish(self) -> Result<(), u8> {
        match self.failed {
            None => Ok(()),
            Some(e) => Err(stdout_failed(&e)),
        }
    }
}

/// Prints that standard output could not be written; returns exit status 2.
pub(crate) fn stdout_failed(e: &std::io::Error) -> u8 {
    super::fail(&format!("cannot write to standard output: {e}"))
}

/// Writes `text` to standard output: exit status 2 (after saying why) when it fails.
pub(crate) fn print_stdout(text: &str) -> Result<(), u8> {
    let mut out = Stdout::default();
    out.write(text);
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.json");
        assert_eq!(plan(&new).unwrap(), Plan::Replace(new.clone()));
        assert_eq!(
            plan(Path::new("/dev/null")).unwrap(),
            Plan::InPlace("/dev/null".into())
        );
        assert_eq!(plan(dir.path()).unwrap_err(), "is a directory");
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_directory_are_followed_others_refused() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("a.json");
        std::fs::write(&real, "old").unwrap();
        let inside = dir.path().join("latest.json");
        std::os::unix::fs::symlink("a.json", &inside).unwrap();
        write_bytes(&inside, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&inside)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");

        let other = tempfile::tempdir().unwrap();
        let victim = other.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let out = dir.path().join("report.xml");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let err = write_bytes(&out, b"report").unwrap_err();
        assert!(err.contains("outside its directory"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    }

    /// The old temporary name (`.NAME.PID.tmp`) could be planted as a link by anyone who
    /// can write the directory: the temporary file is now created exclusively, under a
    /// random name, so a planted link is never written through.
    #[cfg(unix)]
    #[test]
    fn a_planted_temporary_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let planted = dir
            .path()
            .join(format!(".report.json.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_bytes(&dir.path().join("report.json"), b"report").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("report.json")).unwrap(),
            "report"
        );
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_are_written_in_place_and_modes_kept() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        write_bytes(&a, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new");

        let c = dir.path().join("c");
        std::fs::write(&c, "old").unwrap();
        std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_bytes(&c, b"new").unwrap();
        let mode = std::fs::metadata(&c).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            3,
            "no temporary left"
        );
    }

    #[cfg(unix)]
    #[test]
    fn walks_stay_in_the_tree_and_do_not_loop() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("specs");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("a.cloudspec"), "").unwrap();
        std::fs::write(root.join("sub/b.cloudspec"), "").unwrap();
        std::os::unix::fs::symlink(".", root.join("x")).unwrap();
        std::os::unix::fs::symlink("..", root.join("sub/y")).unwrap();
        std::os::unix::fs::symlink("a.cloudspec", root.join("z.cloudspec")).unwrap();
        let is_spec = |p: &Path| p.extension().is_some_and(|e| e == "cloudspec");
        let found = walk(&root, is_spec).unwrap();
        assert_eq!(
            found,
            vec![root.join("a.cloudspec"), root.join("sub/b.cloudspec")]
        );

        std::os::unix::fs::symlink("/proc/self/environ", root.join("env.cloudspec")).unwrap();
        let err = walk(&root, is_spec).unwrap_err();
        let expected = format!(
            "env.cloudspec: symbolic link to a file outside {}; cloudspec does not follow \
             links out of the tree it was given",
            display_path(&root)
        );
        assert!(err.ends_with(&expected), "{err}");
    }

    #[test]
    fn paths_in_test_files_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("t/fixtures")).unwrap();
        std::fs::write(root.join("t/fixtures/a.json"), "{}").unwrap();
        let test = root.join("t/a.test.yaml");
        assert!(resolve_inside(root, &test, "fixtures/a.json").is_ok());
        assert!(resolve_inside(root, &test, "../t/fixtures/a.json").is_ok());
        assert_eq!(
            resolve_inside(root, &test, "/proc/self/environ").unwrap_err(),
            "\"/proc/self/environ\" is an absolute path; paths in a test file are relative to it"
        );
        let err = resolve_inside(&root.join("t"), &test, "../../x").unwrap_err();
        assert!(err.starts_with("\"../../x\" leads outside "), "{err}");
    }
}
