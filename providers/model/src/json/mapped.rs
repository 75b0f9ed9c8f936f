//! The one `unsafe` block of the model: a window of an inventory file mapped into memory.
//!
//! Why: reading a big inventory with `read(2)` copies every byte from the page cache into
//! a buffer before the reader sees it; on one core that copy and its page-cache lookups
//! were a tenth of the load (`bench/README.md`, issue 22). A window mapped read-only lets
//! the reader work on the page cache's own pages.
//!
//! Why it is sound enough to take (ARCHITECTURE.md, "Invariants"):
//! - The mapping is read-only; the reader only reads it.
//! - Its contents change only if another process writes into the same file while it is
//!   loaded. cloudspec never does (it saves an inventory to a new file and renames it over
//!   the old one, so a mapped file keeps its old contents), and a writer racing a reader
//!   gives a wrong inventory with or without a map.
//! - A file truncated by another process while a window of it is mapped makes the next read
//!   of a page past its new end raise `SIGBUS`, which ends the process. A `read(2)` would
//!   see a shorter file instead. That is the price; it needs a concurrent writer.
//! - Each window is unmapped when its segment has been read, so the pages mapped at once
//!   are those of the segments in flight, as with the buffers of `read(2)`.

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// Maps `len` bytes of `file` from `offset`, read-only, with its pages faulted in at once
/// (one system call instead of a fault per few pages). memmap2 aligns the offset to a page
/// itself.
#[allow(unsafe_code)]
pub(crate) fn window(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: a read-only mapping of a regular file; see the module documentation
    // for what a concurrent writer can do and why it is accepted.
    unsafe {
        MmapOptions::new()
            .offset(offset)
            .len(len)
            .populate()
            .map(file)
    }
}
