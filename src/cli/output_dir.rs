//! `--output-dir DIR`: one run's JSON report, JUnit, SARIF and inventory, named with the
//! run's UTC time (`2026-11-23T071500Z.report.json`, colon-free), plus `latest.*` copies.
//!
//! - Every file is written to a temporary file in DIR and renamed into place, so a reader
//!   never sees a half-written file, and a crash leaves the previous `latest.*` whole.
//!   The timestamped files come first, the `latest.*` copies after them, and of each set
//!   the JSON report last: when `latest.report.json` is new, the other `latest.*` are too.
//! - A lock file, `DIR/.cloudspec.lock` (created exclusively; it holds the PID and start
//!   time), keeps two overlapping runs from writing the same directory: the second one
//!   stops with exit status 2. The lock is removed when the run ends, on error paths too.
//!   A lock left by a run that crashed (its PID is no longer alive, checked through
//!   `/proc`) is taken over with a warning; where `/proc` does not exist, a lock is never
//!   taken over and must be deleted by hand.
//! - Temporary files a crashed run left behind are removed once the lock is held.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

/// The lock file's name inside the output directory.
pub(crate) const LOCK_FILE: &str = ".cloudspec.lock";

/// Test hook (debug builds only): write this many files, then half of the next one, then abort the process,
/// as a crash would.
pub(crate) const CRASH_AFTER_VAR: &str = "CLOUDSPEC_TEST_CRASH_AFTER";

/// The exclusive right to write an output directory; released when dropped.
#[derive(Debug)]
pub(crate) struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Creates DIR (if needed) and takes its lock, taking over a stale one. `Err` says who
    /// holds it.
    pub(crate) fn acquire(dir: &Path, now: DateTime<Utc>) -> Result<Lock, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the output directory: {e}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        let lock = match create_lock(&path, now) {
            Ok(lock) => lock,
            Err(e) if e.kind() == ErrorKind::AlreadyExists => take_over(dir, &path, now)?,
            Err(e) => {
                return Err(format!(
                    "{}: cannot create the lock file: {e}",
                    path.display()
                ))
            }
        };
        remove_temporary_files(dir);
        Ok(lock)
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Creates the lock file exclusively, with this process's id and the run's time.
fn create_lock(path: &Path, now: DateTime<Utc>) -> std::io::Result<Lock> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    let lock = Lock {
        path: path.to_path_buf(),
    };
    // Dropping `lock` on a write error removes the file again.
    write!(
        file,
        "pid={}\nstarted={}\n",
        std::process::id(),
        stamp_rfc3339(now)
    )?;
    file.sync_all()?;
    Ok(lock)
}

/// Takes over a lock whose process is gone; anything else is an error naming the holder.
fn take_over(dir: &Path, path: &Path, now: DateTime<Utc>) -> Result<Lock, String> {
    // A lock is a small regular file of ours: anything else (a link, a device, a big
    // file) is read as saying nothing about its holder.
    let content = std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .and_then(|_| cloudspec_model::input::read_text(path, 4096, "a lock file").ok())
        .unwrap_or_default();
    let holder = Holder::parse(&content);
    if holder.pid.is_none_or(is_alive) {
        return Err(format!(
            "{}: another cloudspec run ({}) is writing this directory; wait for it to finish, or delete {} if no such run is active",
            dir.display(),
            holder.describe(),
            path.display()
        ));
    }
    // Move the stale lock aside first: of two runs taking it over at once, one rename wins.
    let aside = dir.join(format!("{LOCK_FILE}.stale.{}", std::process::id()));
    std::fs::rename(path, &aside)
        .map_err(|e| format!("{}: cannot take over the stale lock: {e}", path.display()))?;
    let _ = std::fs::remove_file(&aside);
    tracing::warn!(
        "{}: took over the lock of a cloudspec run that is gone ({})",
        dir.display(),
        holder.describe()
    );
    create_lock(path, now)
        .map_err(|e| format!("{}: cannot create the lock file: {e}", path.display()))
}

/// What a lock file says about its holder.
#[derive(Debug, Default, PartialEq, Eq)]
struct Holder {
    pid: Option<u32>,
    started: Option<String>,
}

impl Holder {
    fn parse(content: &str) -> Holder {
        let mut holder = Holder::default();
        for line in content.lines() {
            match line.split_once('=') {
                Some(("pid", pid)) => holder.pid = pid.trim().parse().ok(),
                Some(("started", at)) => {
                    // Only a time is shown; anything else in the file is not echoed.
                    holder.started = DateTime::parse_from_rfc3339(at.trim())
                        .is_ok()
                        .then(|| at.trim().to_string());
                }
                _ => {}
            }
        }
        holder
    }

    /// `pid 1234, started 2026-11-23T07:15:00Z`.
    fn describe(&self) -> String {
        let pid = self
            .pid
            .map_or("an unknown process".to_string(), |p| format!("pid {p}"));
        match &self.started {
            Some(at) => format!("{pid}, started {at}"),
            None => pid,
        }
    }
}

/// Whether process `pid` is alive. Without `/proc` nobody can tell: assume it is.
fn is_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    proc.join(pid.to_string()).exists()
}

/// Removes `.*.tmp` files (left by a crashed run's atomic writes) from DIR.
fn remove_temporary_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes one of a run's files to the writer given.
pub(crate) type Render<'a> = dyn Fn(&mut dyn Write) -> std::io::Result<()> + 'a;

/// The run's files, by kind, each written as it is rendered (never held whole: at 100k
/// instances the four files are a gigabyte).
pub(crate) struct RunFiles<'a> {
    pub report_json: &'a Render<'a>,
    pub junit: &'a Render<'a>,
    pub sarif: &'a Render<'a>,
    pub inventory: &'a Render<'a>,
}

impl<'a> RunFiles<'a> {
    /// `(suffix, render)` in the order they are written: the JSON report last, so that
    /// once `latest.report.json` is new, every other `latest.*` file is too.
    fn parts(&self) -> [(&'static str, &'a Render<'a>); 4] {
        [
            ("inventory.json", self.inventory),
            ("junit.xml", self.junit),
            ("sarif", self.sarif),
            ("report.json", self.report_json),
        ]
    }
}

/// Writes the run's files into DIR (whose [`Lock`] the caller holds): first
/// `STAMP.SUFFIX` for each, rendered, then `latest.SUFFIX`, copied from the `STAMP` file
/// just written, each atomically. Returns the paths written and the stamp used. A second
/// run in the same second gets `STAMP-2`, `STAMP-3`...
pub(crate) fn write_run(
    dir: &Path,
    now: DateTime<Utc>,
    files: &RunFiles<'_>,
    crash_after: Option<usize>,
) -> Result<(String, Vec<PathBuf>), String> {
    let stamp = free_stamp(dir, &stamp_name(now));
    let shown =
        |path: &Path, e: String| format!("{}: {e}", cloudspec_model::input::display_path(path));
    let parts = files.parts();
    let mut written = Vec::new();
    for (suffix, render) in parts {
        let path = dir.join(format!("{stamp}.{suffix}"));
        if crash_after == Some(written.len()) {
            let mut bytes = Vec::new();
            let _ = render(&mut bytes);
            crash_while_writing(&path, &bytes);
        }
        super::files::replace(&path, |out| render(out)).map_err(|e| shown(&path, e))?;
        written.push(path);
    }
    let stamped = written.clone();
    for ((suffix, _), from) in parts.into_iter().zip(&stamped) {
        let path = dir.join(format!("latest.{suffix}"));
        if crash_after == Some(written.len()) {
            let bytes = std::fs::read(from).unwrap_or_default();
            crash_while_writing(&path, &bytes);
        }
        super::files::replace(&path, |out| {
            std::io::copy(&mut std::fs::File::open(from)?, out).map(drop)
        })
        .map_err(|e| shown(&path, e))?;
        written.push(path);
    }
    Ok((stamp, written))
}

/// The crash hook's value: how many files to write before crashing. Debug builds (the
/// tests) only: a release build never reads it.
pub(crate) fn crash_after() -> Option<usize> {
    if !cfg!(debug_assertions) {
        return None;
    }
    std::env::var(CRASH_AFTER_VAR).ok()?.trim().parse().ok()
}

/// Simulates a crash in the middle of writing `path`: half of its bytes go to the
/// temporary file, then the process aborts (no destructor runs, as in a real crash).
fn crash_while_writing(path: &Path, bytes: &[u8]) -> ! {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.crash.tmp"));
    let _ = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .and_then(|mut f| f.write_all(&bytes[..bytes.len() / 2]));
    std::process::abort()
}

/// `2026-11-23T071500Z`: the run's UTC time without colons (valid in any file system).
pub(crate) fn stamp_name(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%dT%H%M%SZ").to_string()
}

/// `2026-11-23T07:15:00Z`.
fn stamp_rfc3339(now: DateTime<Utc>) -> String {
    now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// `stamp`, or `stamp-2`, `stamp-3`... when a report with that name already exists.
fn free_stamp(dir: &Path, stamp: &str) -> String {
    let taken = |s: &str| dir.join(format!("{s}.report.json")).exists();
    if !taken(stamp) {
        return stamp.to_string();
    }
    (2..)
        .map(|n| format!("{stamp}-{n}"))
        .find(|s| !taken(s))
        .unwrap_or_else(|| stamp.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn names_have_no_colons() {
        assert_eq!(stamp_name(at("2026-11-23T07:15:00Z")), "2026-11-23T071500Z");
    }

    #[test]
    fn holder_is_read_from_the_lock_file() {
        let h = Holder::parse("pid=42\nstarted=2026-11-23T07:15:00Z\n");
        assert_eq!(h.describe(), "pid 42, started 2026-11-23T07:15:00Z");
        assert_eq!(Holder::parse("garbage").describe(), "an unknown process");
        assert_eq!(
            Holder::parse("pid=7\nstarted=AWS_SECRET_ACCESS_KEY=x\n").describe(),
            "pid 7",
            "what is not a time is not echoed"
        );
    }

    #[test]
    fn a_second_run_in_the_same_second_gets_a_suffix() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(free_stamp(dir.path(), "S"), "S");
        std::fs::write(dir.path().join("S.report.json"), "{}").unwrap();
        std::fs::write(dir.path().join("S-2.report.json"), "{}").unwrap();
        assert_eq!(free_stamp(dir.path(), "S"), "S-3");
    }

    #[test]
    fn the_lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let now = at("2026-11-23T07:15:00Z");
        let lock = Lock::acquire(dir.path(), now).unwrap();
        let err = Lock::acquire(dir.path(), now).unwrap_err();
        assert!(err.contains("another cloudspec run (pid "), "{err}");
        drop(lock);
        assert!(!dir.path().join(LOCK_FILE).exists());
        assert!(Lock::acquire(dir.path(), now).is_ok());
    }
}
