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
//!   threads plus one windows (about 4 MiB each) are mapped at once: one per worker, as
//!   many queued, one being cut; `read(2)` held up to the threads plus two buffers.

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
