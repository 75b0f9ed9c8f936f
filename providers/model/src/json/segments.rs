//! Reading the `resources` array in segments: from a file without holding the file in
//! memory, and on several threads.
//!
//! A big inventory is nearly all `resources`. Its elements are cut into segments at
//! *candidate* boundaries: a line that starts, at the indentation of the first element,
//! with `{` right after a line ending in `,`. A raw line break never occurs inside a valid
//! JSON string, so a candidate is structural, but it may sit deeper than the array (inside
//! some nested list). The pieces:
//!
//! - the *prefix*, from the start of the file to the first element of `resources`;
//! - *segments*, each a run of whole elements with their `,`, read by worker threads, each
//!   with a snapshot of the shared key interner;
//! - the *tail*, from the last cut to the end of the file.
//!
//! The prefix and the tail together form a small JSON document of their own, the
//! *skeleton*, which the ordinary document reader checks (every top-level field, the
//! tail's resources, the collection errors). A big regular file is read window by window
//! through a memory map ([`read_mapped`]), anything else block by block into a few reused
//! buffers ([`read_file`]), so loading never holds the whole file: peak memory is the
//! model plus a few windows or blocks.
//!
//! Why the result is the serial read's: the skeleton's reader must see its first
//! resource exactly where the prefix ends, which proves that the first cut (the prefix's
//! end) is the start of the first element of the top-level `resources`; a segment read
//! from a true element start that ends exactly on the next cut, after a `,`, proves that
//! cut is a true element start; and the tail begins at a true element start, where the
//! skeleton's reader is in the same state as at the prefix's end. When any of this does not
//! hold, or anything is malformed (an error, a duplicate resource), the caller reads the
//! whole document serially, which gives the exact error with its line and column.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

use super::document::{self, resource_run, RunEnd};
use super::mapped;
use super::reader::Reader;
use crate::intern::{Interner, Sym};
use crate::inventory::{Inventory, InventoryBuilder, Resource};
use crate::projection::Projection;
use crate::value::Value;

/// Bytes read from a file per block: the size of a segment and of each reused buffer.
pub(crate) const BLOCK: usize = 4 << 20;

/// The least the first block holds: the start of the document, up to the first resource,
/// must be in it.
const FIRST_BLOCK: usize = 64 << 10;

/// Below this many bytes, a document in memory is read serially: splitting costs more
/// than it saves.
pub(crate) const MIN_SEGMENTED: usize = 4 << 20;

/// The nesting depth of an element of `resources`: inside the document and the array.
const ELEMENT_DEPTH: usize = 2;

/// What reading a file in segments gave.
pub(crate) enum FileRead {
    Loaded(Box<Inventory>),
    /// The whole file, which is small or cannot be cut (compact JSON): read it serially.
    Whole(Vec<u8>),
    /// The file is malformed or was cut wrongly: read it serially for the exact result.
    Serial,
}

/// Reads an inventory from `file` (of `size` bytes, when known) in blocks of `block` bytes
/// on `threads` worker threads.
pub(crate) fn read_file(
    file: &mut impl Read,
    size: Option<usize>,
    threads: usize,
    block: usize,
    projection: Option<&Projection>,
) -> io::Result<FileRead> {
    let block = block.max(1);
    // The first block holds the document's start up to the first resource.
    let first_block = block.max(FIRST_BLOCK);
    let mut buf = Vec::with_capacity(first_block);
    let mut eof = fill(file, &mut buf, first_block)?;
    if eof {
        return Ok(FileRead::Whole(buf));
    }
    let Some((first, indent)) = first_element(&buf) else {
        file.read_to_end(&mut buf)?;
        return Ok(FileRead::Whole(buf));
    };
    let indent = indent.to_vec();
    let mut skeleton = buf.get(..first).unwrap_or_default().to_vec();
    // A line whose `{` is not read yet may be a candidate: searches look again from this
    // far before the end of what they searched.
    let margin = indent.len() + 2;
    let read = pipeline::<Chunk>(threads, first, size, projection, |feed| {
        // The next segment starts at `buf[start]`; no candidate starts a line before
        // `buf[searched]` after it (so a long stretch without one is searched once, not
        // once per block).
        let mut start = first;
        let mut searched = first;
        loop {
            let len = buf.len();
            if let Some(cut) = last_candidate(&buf, searched.max(start), &indent) {
                let mut next = feed.buffer(block);
                next.extend_from_slice(buf.get(cut..).unwrap_or_default());
                let full = std::mem::replace(&mut buf, next);
                if !feed.send(Chunk {
                    buf: full,
                    range: start..cut,
                }) {
                    return Ok(None);
                }
                start = 0;
                searched = (len - cut).saturating_sub(margin);
            } else {
                searched = len.saturating_sub(margin);
            }
            if eof {
                break;
            }
            let want = buf.len() + block;
            eof = fill(file, &mut buf, want)?;
        }
        skeleton.extend_from_slice(buf.get(start..).unwrap_or_default());
        Ok(Some(skeleton))
    })?;
    Ok(match read {
        Some(inventory) => FileRead::Loaded(Box::new(inventory)),
        None => FileRead::Serial,
    })
}

/// [`read_file`] through windows of the file mapped into memory ([`super::mapped`]), for a
/// regular file of `size` bytes: each segment is a window of about `block` bytes, cut at
/// its last candidate and unmapped once read, so no byte is copied and the pages mapped at
/// once are those of the segments in flight (at most `2 * threads + 1` windows). `None`
/// when the document's start does not show where `resources` begins (the caller reads the
/// file instead).
pub(crate) fn read_mapped(
    file: &File,
    size: usize,
    threads: usize,
    block: usize,
    projection: Option<&Projection>,
) -> io::Result<Option<FileRead>> {
    let block = block.max(1);
    // The first window holds the document's start up to the first resource; it is also the
    // first segment's window.
    let mut len = block.max(FIRST_BLOCK).min(size);
    let mut map = mapped::window(file, 0, len, size as u64)?;
    if map.len() == size {
        return Ok(None);
    }
    let Some((first, indent)) = first_element(&map) else {
        return Ok(None);
    };
    let indent = indent.to_vec();
    let mut skeleton = map.get(..first).unwrap_or_default().to_vec();
    let read = pipeline::<Window>(threads, first, Some(size), projection, |feed| {
        // `map` holds the file from `base` on; the next segment starts at `map[start]`.
        let (mut base, mut start) = (0, first);
        loop {
            let last = base + map.len() == size;
            match last_candidate(&map, start, &indent) {
                Some(cut) => {
                    if last {
                        skeleton.extend_from_slice(map.get(cut..).unwrap_or_default());
                    }
                    if !feed.send(Window {
                        map,
                        range: start..cut,
                    }) {
                        return Ok(None);
                    }
                    if last {
                        return Ok(Some(skeleton));
                    }
                    (base, start, len) = (base + cut, 0, block);
                }
                // A window without a cut: an element longer than a block. Look again in
                // one twice as long (the search stays linear in the file).
                None if !last => len = len.saturating_mul(2),
                None => {
                    skeleton.extend_from_slice(map.get(start..).unwrap_or_default());
                    return Ok(Some(skeleton));
                }
            }
            map = mapped::window(file, base as u64, len.min(size - base), size as u64)?;
        }
    })?;
    Ok(Some(match read {
        Some(inventory) => FileRead::Loaded(Box::new(inventory)),
        None => FileRead::Serial,
    }))
}

/// Reads an inventory held in memory in segments of about `segment` bytes on `threads`
/// worker threads; `None` when it must be read serially.
pub(crate) fn read_slice(
    bytes: &[u8],
    threads: usize,
    segment: usize,
    projection: Option<&Projection>,
) -> Option<Inventory> {
    let (first, indent) = first_element(bytes)?;
    let read = pipeline::<&[u8]>(threads, first, Some(bytes.len()), projection, |feed| {
        let mut start = first;
        while let Some(cut) = next_candidate(bytes, start + segment.max(1), indent) {
            if !feed.send(bytes.get(start..cut).unwrap_or_default()) {
                return Ok(None);
            }
            start = cut;
        }
        let mut skeleton = bytes.get(..first).unwrap_or_default().to_vec();
        skeleton.extend_from_slice(bytes.get(start..).unwrap_or_default());
        Ok(Some(skeleton))
    });
    read.ok().flatten()
}

/// Reads into `buf` until it holds `want` bytes or the file ends; true at the end.
fn fill(file: &mut impl Read, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let missing = want.saturating_sub(buf.len());
    buf.reserve(missing);
    file.by_ref().take(missing as u64).read_to_end(buf)?;
    Ok(buf.len() < want)
}

/// A file block handed to a worker: the buffer, and the segment's bytes in it.
struct Chunk {
    buf: Vec<u8>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Chunk {
    fn as_ref(&self) -> &[u8] {
        self.buf.get(self.range.clone()).unwrap_or_default()
    }
}

/// A buffer a worker is done with, to be reused for reading.
trait Recycle {
    fn recycle(self) -> Option<Vec<u8>>;
}

impl Recycle for Chunk {
    fn recycle(self) -> Option<Vec<u8>> {
        Some(self.buf)
    }
}

/// A mapped window handed to a worker: the map, and the segment's bytes in it.
struct Window {
    map: mapped::Window,
    range: Range<usize>,
}

impl AsRef<[u8]> for Window {
    fn as_ref(&self) -> &[u8] {
        self.map.get(self.range.clone()).unwrap_or_default()
    }
}

impl Recycle for Window {
    fn recycle(self) -> Option<Vec<u8>> {
        None
    }
}

impl Recycle for &[u8] {
    fn recycle(self) -> Option<Vec<u8>> {
        None
    }
}

/// One segment to read: its place in the document order and its bytes.
struct Task<B> {
    index: usize,
    bytes: B,
}

/// Hands segments to the workers and collects their resources in document order.
struct Feeder<'s, B> {
    tasks: Option<mpsc::SyncSender<Task<B>>>,
    /// Each segment's index, length in bytes and resources.
    results: mpsc::Receiver<(usize, usize, Option<Segment>)>,
    free: mpsc::Receiver<Vec<u8>>,
    failed: &'s AtomicBool,
    sent: usize,
    buffers: usize,
    max_buffers: usize,
    order: Ordered,
}

impl<B> Feeder<'_, B> {
    /// Queues a segment; false once the read has failed (stop producing).
    fn send(&mut self, bytes: B) -> bool {
        self.drain();
        let task = Task {
            index: self.sent,
            bytes,
        };
        self.sent += 1;
        let sent = self.tasks.as_ref().is_some_and(|t| t.send(task).is_ok());
        sent && !self.failed.load(Ordering::Relaxed)
    }

    /// An empty buffer with room for `capacity` bytes: one the workers gave back, or a
    /// new one while fewer than the limit exist.
    fn buffer(&mut self, capacity: usize) -> Vec<u8> {
        let reused = match self.free.try_recv() {
            Ok(buf) => Some(buf),
            Err(_) if self.buffers >= self.max_buffers => self.free.recv().ok(),
            Err(_) => None,
        };
        let mut buf = reused.unwrap_or_else(|| {
            self.buffers += 1;
            Vec::with_capacity(capacity)
        });
        buf.clear();
        buf
    }

    /// Takes the segments already read, in order.
    fn drain(&mut self) {
        while let Ok((index, len, read)) = self.results.try_recv() {
            self.order.take(index, len, read, self.failed);
        }
    }
}

/// Segment results put back in document order and pushed into the builder.
#[derive(Default)]
struct Ordered {
    next: usize,
    waiting: BTreeMap<usize, Segment>,
    builder: InventoryBuilder,
    /// The document's size in bytes, when known.
    size: Option<usize>,
}

impl Ordered {
    fn take(&mut self, index: usize, len: usize, read: Option<Segment>, failed: &AtomicBool) {
        let Some(segment) = read else {
            failed.store(true, Ordering::Relaxed);
            return;
        };
        if index == 0 {
            self.reserve(len, segment.resources.len());
        }
        self.waiting.insert(index, segment);
        while let Some(segment) = self.waiting.remove(&self.next) {
            self.next += 1;
            self.push(segment, failed);
        }
    }

    /// Makes room for the resources the whole document likely has, judging by the first
    /// segment (`count` resources in `len` bytes): growing the list by doubling would copy
    /// it several times and touch twice the memory. Best effort: a failed reservation
    /// leaves growth to the pushes.
    fn reserve(&mut self, len: usize, count: usize) {
        if let Some(size) = self.size {
            let _ = self.builder.try_reserve(reservation(size, len, count));
        }
    }

    fn push(
        &mut self,
        Segment {
            resources,
            ref_keys,
            dropped_refs,
        }: Segment,
        failed: &AtomicBool,
    ) {
        if failed.load(Ordering::Relaxed) {
            return;
        }
        self.builder.reserve(resources.len());
        self.builder.note_ref_keys(&ref_keys);
        self.builder.note_dropped_refs(dropped_refs);
        for resource in resources {
            if self.builder.push_read(resource).is_err() {
                // A duplicate: the serial read reports it with its position.
                failed.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
}

/// How many resources to make room for in a document of `size` bytes whose first segment
/// has `count` resources in `len` bytes: twice the estimate, as the first resources may be
/// bigger than the rest, but never more list than a quarter of the document's size, so that
/// an odd first segment cannot reserve more memory than the document itself takes.
fn reservation(size: usize, len: usize, count: usize) -> usize {
    if len == 0 {
        return 0;
    }
    let estimate = (size as f64 / len as f64 * count as f64 * 2.0) as usize;
    estimate.min(size / 4 / std::mem::size_of::<Resource>().max(1))
}

/// Runs `produce`, which cuts the document and sends its segments, while `threads`
/// workers read them; then reads the skeleton. `first` is where the prefix ends.
fn pipeline<B: AsRef<[u8]> + Recycle + Send>(
    threads: usize,
    first: usize,
    size: Option<usize>,
    projection: Option<&Projection>,
    produce: impl FnOnce(&mut Feeder<'_, B>) -> io::Result<Option<Vec<u8>>>,
) -> io::Result<Option<Inventory>> {
    let threads = threads.max(1);
    let keys = Mutex::new(Interner::new());
    let failed = AtomicBool::new(false);
    let (task_tx, task_rx) = mpsc::sync_channel::<Task<B>>(threads);
    let (result_tx, result_rx) = mpsc::channel();
    let (free_tx, free_rx) = mpsc::channel();
    let task_rx = Mutex::new(task_rx);
    let (produced, order, panicked) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (result_tx, free_tx) = (result_tx.clone(), free_tx.clone());
                let (task_rx, keys, failed) = (&task_rx, &keys, &failed);
                scope.spawn(move || loop {
                    let task = match task_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(task) = task else { return };
                    let len = task.bytes.as_ref().len();
                    let read = if failed.load(Ordering::Relaxed) {
                        None
                    } else {
                        // A panic would be a bug; the serial read then decides.
                        std::panic::catch_unwind(AssertUnwindSafe(|| {
                            read_segment(task.bytes.as_ref(), keys, projection)
                        }))
                        .unwrap_or(None)
                    };
                    if let Some(buf) = task.bytes.recycle() {
                        let _ = free_tx.send(buf);
                    }
                    let _ = result_tx.send((task.index, len, read));
                })
            })
            .collect();
        drop((result_tx, free_tx));
        let mut feed = Feeder {
            tasks: Some(task_tx),
            results: result_rx,
            free: free_rx,
            failed: &failed,
            sent: 0,
            buffers: 0,
            max_buffers: threads + 2,
            order: Ordered {
                size,
                ..Ordered::default()
            },
        };
        let produced = produce(&mut feed);
        feed.tasks = None;
        while let Ok((index, len, read)) = feed.results.recv() {
            feed.order.take(index, len, read, &failed);
        }
        let panicked = workers.into_iter().any(|w| w.join().is_err());
        (produced, feed.order, panicked)
    });
    let Some(skeleton) = produced? else {
        return Ok(None);
    };
    if panicked || failed.load(Ordering::Relaxed) || !order.waiting.is_empty() {
        return Ok(None);
    }
    let interner = keys.into_inner().unwrap_or_default();
    Ok(finish(
        order.builder,
        interner,
        &skeleton,
        first,
        projection,
    ))
}

/// Reads the skeleton (the prefix and the tail glued together), adds the tail's resources
/// after the segments' and finishes.
fn finish(
    mut builder: InventoryBuilder,
    interner: Interner,
    skeleton: &[u8],
    first: usize,
    projection: Option<&Projection>,
) -> Option<Inventory> {
    let doc = document::parse(skeleton, interner, projection).ok()?;
    // The skeleton's first resource must start where the prefix ends (see the module
    // documentation): otherwise the cut was not where `resources` begins.
    if doc.offsets.first() != Some(&first) {
        return None;
    }
    // A duplicate is left to the serial read, which reports it with its position.
    doc.add_to(&mut builder).ok()?;
    Some(builder.finish())
}

/// What a worker read from one segment.
struct Segment {
    resources: Vec<Resource>,
    /// The keys under which references were read (shared symbols).
    ref_keys: Vec<Sym>,
    /// References under dropped properties ([`Reader::dropped_refs`]).
    dropped_refs: crate::ref_list::RefList,
}

/// Bytes per resource [`read_segment`] makes room for at first.
const RESOURCE_BYTES_GUESS: usize = 1024;

/// Reads one segment: whole elements, each followed by `,`, up to its end exactly.
fn read_segment(
    bytes: &[u8],
    keys: &Mutex<Interner>,
    projection: Option<&Projection>,
) -> Option<Segment> {
    // SIMD validation: a segment's bytes are checked before anything is read from them.
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    let snapshot = keys.lock().ok()?.clone();
    let known = snapshot.len();
    let mut reader = Reader::new(text, 0, ELEMENT_DEPTH, snapshot).with_projection(projection);
    // Room for the segment's resources at a guess (a resource of an AWS inventory takes
    // 0.5-2 KiB), so that the lists do not grow by copying themselves again and again;
    // capped, as a segment holding one huge resource is as long as that resource.
    let guess = (bytes.len() / RESOURCE_BYTES_GUESS + 1).min(1 << 16);
    let (mut resources, mut offsets) = (Vec::with_capacity(guess), Vec::with_capacity(guess));
    match resource_run(&mut reader, bytes.len(), &mut resources, &mut offsets) {
        Ok(RunEnd::ReachedStop) => {}
        _ => return None,
    }
    let mut ref_keys = reader.ref_keys();
    let dropped_refs = std::mem::take(&mut reader.dropped_refs);
    let local = reader.interner;
    if local.len() > known {
        // Publish the keys this segment met first; renumber them if another segment
        // published keys in the meantime.
        let table: Vec<Sym> = {
            let mut global = keys.lock().ok()?;
            local
                .names()
                .enumerate()
                .map(|(i, name)| {
                    if i < known {
                        Sym(i as u32)
                    } else {
                        global.intern(name)
                    }
                })
                .collect()
        };
        if table.iter().enumerate().any(|(i, s)| s.0 as usize != i) {
            remap_symbols(&mut resources, &table);
            for key in &mut ref_keys {
                *key = remap(*key, &table);
            }
        }
    }
    Some(Segment {
        resources,
        ref_keys,
        dropped_refs,
    })
}

/// Where the first element of `"resources"` seems to start, and the whitespace before it
/// on its line: the first `{` after the first `"resources"`, a `:` and a `[`. A guess,
/// which the skeleton's reader confirms.
fn first_element(bytes: &[u8]) -> Option<(usize, &[u8])> {
    let key = memchr::memmem::find(bytes, b"\"resources\"")?;
    let mut at = key + "\"resources\"".len();
    for expected in [b':', b'[', b'{'] {
        at = skip_whitespace(bytes, at);
        if bytes.get(at) != Some(&expected) {
            return None;
        }
        at += 1;
    }
    let first = at - 1;
    Some((first, line_indent(bytes, first)?))
}

fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The whitespace before `pos` on its line, if only whitespace precedes it there and a
/// line break precedes the line.
fn line_indent(bytes: &[u8], pos: usize) -> Option<&[u8]> {
    let line_start = memchr::memrchr(b'\n', bytes.get(..pos)?)? + 1;
    let indent = bytes.get(line_start..pos)?;
    indent
        .iter()
        .all(|b| matches!(b, b' ' | b'\t'))
        .then_some(indent)
}

/// Whether a candidate element start is at `line`: `indent`, then `{`, on a line after
/// one ending with `,`.
fn is_candidate(bytes: &[u8], line: usize, indent: &[u8]) -> bool {
    let brace = line + indent.len();
    line > 0
        && bytes.get(line..brace) == Some(indent)
        && bytes.get(brace) == Some(&b'{')
        && ends_with_comma(bytes.get(..line - 1).unwrap_or_default())
}

/// The first candidate element start at or after `from` (the offset of its `{`).
fn next_candidate(bytes: &[u8], from: usize, indent: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let line = at + memchr::memchr(b'\n', bytes.get(at..)?)? + 1;
        if is_candidate(bytes, line, indent) {
            return Some(line + indent.len());
        }
        at = line;
    }
}

/// The last candidate element start in `bytes` after `after` (the offset of its `{`).
fn last_candidate(bytes: &[u8], after: usize, indent: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    loop {
        let newline = after + memchr::memrchr(b'\n', bytes.get(after..end)?)?;
        let line = newline + 1;
        if is_candidate(bytes, line, indent) {
            return Some(line + indent.len());
        }
        end = newline;
    }
}

/// Whether the last non-whitespace byte is a `,`.
fn ends_with_comma(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .rev()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        == Some(&b',')
}

/// Rewrites every key of `resources` through `table` (old symbol -> new symbol).
fn remap_symbols(resources: &mut [Resource], table: &[Sym]) {
    for resource in resources {
        for (key, value) in resource.properties.entries.iter_mut() {
            *key = remap(*key, table);
            remap_value(value, table);
        }
    }
}

fn remap(sym: Sym, table: &[Sym]) -> Sym {
    table.get(sym.0 as usize).copied().unwrap_or(sym)
}

fn remap_value(value: &mut Value, table: &[Sym]) {
    match value {
        Value::List(items) => items.iter_mut().for_each(|v| remap_value(v, table)),
        Value::Object(object) => {
            for (key, v) in object.entries.iter_mut() {
                *key = remap(*key, table);
                remap_value(v, table);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_follow_the_first_segment_within_a_quarter_of_the_document() {
        let per = std::mem::size_of::<Resource>();
        // 1,000 resources of 1 KiB in a 1 MiB first segment of a 100 MiB document.
        assert_eq!(reservation(100 << 20, 1 << 20, 1_000), 200_000);
        // A first segment of tiny resources would ask for more list than the document.
        let size = 100 << 20;
        assert_eq!(reservation(size, 1 << 20, 40_000), size / 4 / per);
        assert!(reservation(size, 1, usize::MAX) * per <= size / 4);
        assert_eq!(reservation(size, 0, 10), 0);
    }

    #[test]
    fn candidates_need_indent_brace_and_comma() {
        let text = b"[\n  {\"a\": [\n    {},\n    {}\n  ]},\n  {}\n]";
        let first = 4;
        let indent = line_indent(text, first).unwrap_or_default();
        assert_eq!(indent, b"  ");
        let c = next_candidate(text, first + 1, indent);
        assert_eq!(c, Some(text.len() - 4));
        assert_eq!(last_candidate(text, first, indent), c);
        assert_eq!(last_candidate(text, text.len() - 4, indent), None);
    }

    /// A pretty-printed inventory of `n` resources, each pointing at the next, with a
    /// nested list of objects and keys that first appear late in the file.
    fn inventory(n: usize) -> String {
        let mut out = String::from(
            "{\n  \"cloudspec_inventory\": 1,\n  \"provider\": \"aws\",\n  \"resources\": [\n",
        );
        for i in 0..n {
            if i > 0 {
                out.push_str(",\n");
            }
            out.push_str(&format!(
                "    {{\n      \"type\": \"t{}\",\n      \"id\": \"r{i}\",\n      \"properties\": {{\n        \"next\": {{ \"$ref\": \"t{}/r{}\" }},\n        \"k{}\": [\n          {{ \"a\": {i}, \"b\": \"text {i}\" }},\n          {{ \"c\": [1.5, true, null] }}\n        ]\n      }}\n    }}",
                i % 3,
                (i + 1) % 3,
                i + 1,
                i % 50 + i / 100
            ));
        }
        out.push_str("\n  ],\n  \"errors\": [{\"type\": \"t1\", \"message\": \"m\"}]\n}\n");
        out
    }

    /// Everything a load gives, in a form that does not depend on symbol numbers.
    fn summary(inv: &Inventory) -> (String, Vec<String>, Vec<String>) {
        let order = inv
            .resources
            .iter()
            .map(|r| format!("{}/{}", r.type_name, r.id))
            .collect();
        (inv.to_json_string(), order, inv.dangling_refs().to_vec())
    }

    fn serial(text: &str) -> Inventory {
        match Inventory::from_slice_serial(text.as_bytes(), "t.json", None) {
            Ok(inv) => inv,
            Err(e) => panic!("{e}"),
        }
    }

    /// What reading `text` from a file gives, block by block ([`read_file`]) and through
    /// mapped windows ([`read_mapped`]; `None` from it shows as `Whole`), with its name.
    fn from_file(
        text: &str,
        threads: usize,
        block: usize,
        projection: Option<&Projection>,
    ) -> [(&'static str, FileRead); 2] {
        let read = match read_file(
            &mut text.as_bytes(),
            Some(text.len()),
            threads,
            block,
            projection,
        ) {
            Ok(read) => read,
            Err(e) => panic!("{e}"),
        };
        let mut file = match tempfile::tempfile() {
            Ok(file) => file,
            Err(e) => panic!("{e}"),
        };
        if let Err(e) = std::io::Write::write_all(&mut file, text.as_bytes()) {
            panic!("{e}");
        }
        let mapped = match read_mapped(&file, text.len(), threads, block, projection) {
            Ok(read) => read.unwrap_or(FileRead::Whole(Vec::new())),
            Err(e) => panic!("{e}"),
        };
        [("read", read), ("mapped", mapped)]
    }

    /// The summary of an inventory read in segments; anything else fails the test.
    fn read_in_segments(read: FileRead, context: &str) -> (String, Vec<String>, Vec<String>) {
        let FileRead::Loaded(inv) = read else {
            panic!("{context}: not read in segments");
        };
        summary(&inv)
    }

    #[test]
    fn reading_in_blocks_gives_the_serial_result() {
        let text = inventory(3_000);
        let expected = summary(&serial(&text));
        for block in [64, 700, 4096, 100_000] {
            for threads in [1, 2, 3] {
                for (how, read) in from_file(&text, threads, block, None) {
                    let context = format!("{how}, block {block}, {threads} threads");
                    assert_eq!(read_in_segments(read, &context), expected, "{context}");
                }
            }
        }
        for segment in [1, 5_000, 50_000] {
            let inv = read_slice(text.as_bytes(), 2, segment, None);
            assert_eq!(inv.map(|i| summary(&i)), Some(expected.clone()));
        }
    }

    #[test]
    fn big_windows_widened_to_huge_page_bounds_give_the_serial_result() {
        // Windows of 2 MiB or more start and end on 2 MiB bounds (`mapped::window`): the
        // file's block size and a size that puts every later window's start off a bound.
        let text = inventory(40_000);
        assert!(text.len() > 8 << 20, "{} bytes", text.len());
        let expected = summary(&serial(&text));
        for block in [BLOCK, (3 << 20) + 123] {
            for threads in [1, 2] {
                let [_, (how, read)] = from_file(&text, threads, block, None);
                let context = format!("{how}, block {block}, {threads} threads");
                assert_eq!(read_in_segments(read, &context), expected, "{context}");
            }
        }
    }

    #[test]
    fn projected_segments_give_the_projected_serial_result() {
        let text = inventory(3_000);
        let mut keep = Projection::new();
        keep.keep_through("k1").keep_whole("c").keep_whole("b");
        let expected = match Inventory::from_slice_serial(text.as_bytes(), "t.json", Some(&keep)) {
            Ok(inv) => summary(&inv),
            Err(e) => panic!("{e}"),
        };
        // The references under the dropped `next` still count for the dangling list.
        assert_eq!(expected.2, vec!["t0/r3000".to_string()]);
        assert!(expected.0.contains("\"k1\"") && !expected.0.contains("\"k2\""));
        assert!(!expected.0.contains("\"next\"") && !expected.0.contains("\"a\""));
        for block in [64, 4096] {
            for (how, read) in from_file(&text, 2, block, Some(&keep)) {
                let FileRead::Loaded(inv) = read else {
                    panic!("{how}, block {block}: not read in segments");
                };
                assert_eq!(summary(&inv), expected, "{how}, block {block}");
            }
        }
        let inv = read_slice(text.as_bytes(), 2, 5_000, Some(&keep));
        assert_eq!(inv.map(|i| summary(&i)), Some(expected));
    }

    #[test]
    fn repeated_references_under_dropped_properties_are_listed_once_when_dangling() {
        // Enough resources for the references to be resolved on several threads, and
        // dropped references that repeat (stored once per segment when seen lately) or
        // not, some of them dangling.
        let n = 45_000;
        let mut text = String::from("{\n  \"cloudspec_inventory\": 1,\n  \"resources\": [\n");
        for i in 0..n {
            if i > 0 {
                text.push_str(",\n");
            }
            let unique = if i % 1_000 == 0 {
                format!("t/gone{i}")
            } else {
                format!("t/r{}", (i * 7) % n)
            };
            text.push_str(&format!(
                "    {{\n      \"type\": \"t\",\n      \"id\": \"r{i}\",\n      \"properties\": {{\n        \"kept\": {i},\n        \"dropped\": [\n          {{ \"$ref\": \"t/r{}\" }},\n          {{ \"$ref\": \"t/missing{}\" }},\n          {{ \"$ref\": \"{unique}\" }}\n        ]\n      }}\n    }}",
                i % 5,
                i % 7,
            ));
        }
        text.push_str("\n  ]\n}\n");
        let mut keep = Projection::new();
        keep.keep_whole("kept");
        let full = summary(&serial(&text)).2;
        let mut expected: Vec<String> = (0..7).map(|k| format!("t/missing{k}")).collect();
        expected.extend((0..n).step_by(1_000).map(|i| format!("t/gone{i}")));
        expected.sort();
        assert_eq!(full, expected);
        for threads in [1, 2] {
            for (how, read) in from_file(&text, threads, 64 * 1024, Some(&keep)) {
                let FileRead::Loaded(inv) = read else {
                    panic!("{how}, {threads} threads: not read in segments");
                };
                assert_eq!(inv.dangling_refs(), full, "{how}, {threads} threads");
            }
        }
    }

    #[test]
    fn a_small_or_compact_file_is_read_whole() {
        let text = inventory(3);
        assert!(matches!(
            read_file(&mut text.as_bytes(), None, 2, 1 << 20, None),
            Ok(FileRead::Whole(b)) if b == text.as_bytes()
        ));
        let compact = text.replace('\n', "");
        assert!(matches!(
            read_file(&mut compact.as_bytes(), None, 2, 64, None),
            Ok(FileRead::Whole(b)) if b == compact.as_bytes()
        ));
        // Not mapped either (`None`: the caller reads it): small, or big but compact.
        let big_compact = inventory(3_000).replace('\n', "");
        for text in [&text, &compact, &big_compact] {
            let [_, (_, mapped)] = from_file(text, 2, 4096, None);
            assert!(matches!(mapped, FileRead::Whole(b) if b.is_empty()));
        }
    }

    #[test]
    fn malformed_documents_are_left_to_the_serial_read() {
        let text = inventory(500);
        let bad = [
            text.replacen("\"id\": \"r400\"", "\"id\": 400", 1),
            text.replacen("\"id\": \"r404\"", "\"id\": \"r401\"", 1),
            text.replacen("\"id\": \"r2\"", "\"id\": \"r401\"", 1),
            text.replacen("\"text 300\"", "\"text 300", 1),
            text.replacen(
                "\"cloudspec_inventory\": 1",
                "\"cloudspec_inventory\": 2",
                1,
            ),
            text.replacen("\"errors\": [", "\"errors\": 3, \"x\": [", 1),
            text.replacen(
                "\"provider\": \"aws\",",
                "\"provider\": \"aws\", \"provider\": \"aws\",",
                1,
            ),
            format!("{text} ]"),
            text.replacen("]\n}\n", "]\n}", 1)
                .replacen("{\n  \"cloudspec", "[\n  \"cloudspec", 1),
        ];
        for (k, text) in bad.iter().enumerate() {
            assert!(
                Inventory::from_slice_serial(text.as_bytes(), "t.json", None).is_err(),
                "case {k} is not malformed"
            );
            for block in [64, 4096] {
                for (how, read) in from_file(text, 2, block, None) {
                    assert!(
                        matches!(read, FileRead::Serial),
                        "case {k}, {how}, block {block}"
                    );
                }
            }
            assert!(
                read_slice(text.as_bytes(), 2, 100, None).is_none(),
                "case {k}"
            );
        }
    }

    #[test]
    fn cuts_that_are_not_element_starts_are_found_out() {
        // Elements of a nested list at the indentation of resources, and a decoy
        // `"resources"` in an unknown field before the real one.
        let mut text = String::from(
            "{\"x\": {\"resources\": [\n    {\"a\": 1},\n    {\"a\": 2}\n]},\n\"cloudspec_inventory\": 1, \"resources\": [\n    {\"type\": \"t\", \"id\": \"first\"}",
        );
        for i in 0..400 {
            text.push_str(&format!(",\n    {{\"type\": \"t\", \"id\": \"r{i}\", \"properties\": {{\"l\": [\n    {{\"a\": 1}},\n    {{\"a\": 2}}\n]}}}}"));
        }
        text.push_str("\n]}");
        let expected = summary(&serial(&text));
        for block in [64, 1000, 5000] {
            for (how, read) in from_file(&text, 2, block, None) {
                match read {
                    FileRead::Loaded(inv) => assert_eq!(summary(&inv), expected, "{how}"),
                    FileRead::Serial | FileRead::Whole(_) => {}
                }
            }
        }
        if let Some(inv) = read_slice(text.as_bytes(), 2, 100, None) {
            assert_eq!(summary(&inv), expected);
        }
    }

    #[test]
    fn a_long_stretch_without_a_cut_is_searched_once() {
        // One resource of 200,000 lines after a small first one: no candidate cut after the
        // first, so the buffer grows block by block. Each block used to search the whole
        // buffer again (quadratic: minutes here); the result is the serial read's.
        let mut text = String::from(
            "{\n  \"cloudspec_inventory\": 1,\n  \"resources\": [\n    {\"type\": \"t\", \"id\": \"a\"},\n    {\"type\": \"t\", \"id\": \"b\", \"properties\": {\"l\": [\n",
        );
        for i in 0..200_000 {
            text.push_str(&format!("      {i},\n"));
        }
        text.push_str("      0\n    ]}},\n    {\"type\": \"t\", \"id\": \"c\"}\n  ]\n}\n");
        let expected = summary(&serial(&text));
        for block in [64, 4096] {
            for (how, read) in from_file(&text, 2, block, None) {
                match read {
                    FileRead::Loaded(inv) => assert_eq!(summary(&inv), expected, "{how}"),
                    _ => panic!("{how}, block {block}: not read in segments"),
                }
            }
        }
    }

    #[test]
    fn the_first_element_follows_resources() {
        let text = b"{\n \"resources\" :\n [\n   {\"type\": \"t\"}]}";
        assert_eq!(first_element(text), Some((23, &b"   "[..])));
        assert_eq!(first_element(b"{\"resources\": []}"), None);
    }
}
