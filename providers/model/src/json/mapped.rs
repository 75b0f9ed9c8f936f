//! The one `unsafe` block of the model: a window of an inventory file mapped into memory.
//!
//! Why: reading a big inventory with `read(2)` copies every byte from the page cache into
//! a buffer before the reader sees it; on one core that copy and its page-cache lookups
//! were a tenth of the load (`bench/README.md`, issue 22). A window mapped read-only lets
//! the reader work on the page cache's own pages.
//!
//! What it risks, and why that is taken (ARCHITECTURE.md, "Invariants"):
//! - The mapping is read-only; the reader only reads it.
//! - Its bytes change only if another process writes into the file, in place, while it is
//!   loaded. A segment's bytes are checked as UTF-8 once and then read as `str`, so a byte
//!   changed after that check could put text that is not UTF-8 into the model: undefined
//!   behaviour in Rust's terms, where `read(2)` into a private buffer would only give a
//!   wrong or rejected inventory. cloudspec's own saving (`--save-inventory`,
//!   `--output-dir`) writes a new file and renames it over a regular file, which leaves a
//!   mapped file as it was; it writes in place only into a file with several hard links or
//!   one named as an open stream (`/dev/stdout`, `/dev/fd/N`), and a run has finished
//!   loading before it saves.
//! - A file that shrinks while it is loaded (after its size was read), or whose pages cannot
//!   be read (an I/O error on a network file system), raises `SIGBUS` at the first read of
//!   a missing page, which ends the process; `read(2)` would give a shorter file or an
//!   error. That is the price: it needs another program truncating the file, or a failing
//!   disk or network, during the load.
//! - Each window is unmapped once its segment has been read. At most twice the worker
//!   threads plus one windows (4-8 MiB each, see [`window`]) are mapped at once: one per
//!   worker, as many queued, one being cut; `read(2)` held up to the threads plus two
//!   buffers.
//!
//! Huge pages: the windows ask for them (`MADV_HUGEPAGE`) and start and end on 2 MiB
//! bounds. Where the page cache holds the file in 2 MiB folios (Linux 6.x on ext4 or XFS,
//! for a file written in large writes, as cloudspec writes its files, or read from the
//! disk through such a mapping), each is mapped with one page table entry, and mapping and
//! unmapping the windows, 7% of a one-core load in 4 KiB pages, costs about 1%
//! (`bench/README.md`, issue 22). Nothing else changes: the pages are the page cache's
//! either way, and a kernel without the advice maps them one by one.

use std::fs::File;
use std::io;
use std::ops::Range;

use memmap2::{Advice, Mmap, MmapOptions};

/// Windows of at least this many bytes start and end on a multiple of it (within the
/// file): the size of a huge page on x86-64 and arm64 (4 KiB pages).
const HUGE: usize = 2 << 20;

/// A window of the file: the bytes from the offset asked for, to at least the length asked
/// for.
pub(crate) struct Window {
    map: Mmap,
    /// Where the bytes asked for start in `map`.
    skip: usize,
}

impl std::ops::Deref for Window {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.map.get(self.skip..).unwrap_or_default()
    }
}

/// Maps the bytes of `file` (of `size` bytes) from `offset`, at least `len` of them,
/// read-only, with their pages faulted in at once (one system call instead of a fault per
/// few pages).
///
/// A window of [`HUGE`] bytes or more is widened to start and end on a multiple of
/// [`HUGE`] (or at the file's end), and asks for huge pages: where the page cache holds
/// the file in 2 MiB folios (written in large writes, or read from the disk through such a
/// mapping), each is mapped with one page table entry instead of 512, and mapping and
/// unmapping the file's windows costs next to nothing. The bytes before `offset` are mapped,
/// not faulted in; the window's bytes start at `offset`.
pub(crate) fn window(file: &File, offset: u64, len: usize, size: u64) -> io::Result<Window> {
    let range = widened(offset, len, size);
    let skip = (offset - range.start) as usize;
    let map = map(file, range.start, (range.end - range.start) as usize)?;
    if len >= HUGE {
        // Advice only: a kernel without it maps the same bytes the usual way.
        let _ = map.advise(Advice::HugePage);
    }
    // Before Linux 5.14 this fails, and the pages fault in a few at a time as they are read.
    let _ = map.advise_range(Advice::PopulateRead, skip, map.len() - skip);
    Ok(Window { map, skip })
}

/// The file range a window of `len` bytes from `offset` maps (see [`window`]).
fn widened(offset: u64, len: usize, size: u64) -> Range<u64> {
    let end = offset.saturating_add(len as u64).min(size);
    if len < HUGE {
        return offset..end;
    }
    let huge = HUGE as u64;
    let start = offset - offset % huge;
    let end = end.div_ceil(huge).saturating_mul(huge).min(size);
    start..end
}

#[allow(unsafe_code)]
fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: a read-only mapping of a regular file; see the module documentation
    // for what a concurrent writer can do and why it is accepted.
    unsafe { MmapOptions::new().offset(offset).len(len).map(file) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_windows_are_widened_to_huge_page_bounds_within_the_file() {
        const M: u64 = 1 << 20;
        // Small windows stay as asked, but for the file's end.
        assert_eq!(widened(100, 4096, 10 * M), 100..4196);
        assert_eq!(widened(100, 4096, 1000), 100..1000);
        // Big ones start and end on a 2 MiB bound, or at the file's end.
        assert_eq!(widened(0, 4 << 20, 10 * M), 0..4 * M);
        assert_eq!(widened(3 * M + 5, 4 << 20, 100 * M), 2 * M..8 * M);
        assert_eq!(widened(3 * M + 5, 4 << 20, 7 * M + 1), 2 * M..7 * M + 1);
        assert_eq!(widened(4 * M, 2 << 20, 6 * M), 4 * M..6 * M);
    }
}
