//! The long arrays of a report rendered on every core and written in order.
//!
//! Most of a big report is a few long arrays: each rule's resources in the JSON report, the
//! results in SARIF. [`write`] serializes the rest of the document on the calling thread
//! with [`Pretty`], serde_json's pretty layout, and each array where the document holds a
//! [`Slots::slot`] marker. The arrays' items are cut into pieces of [`PIECE`] items, which
//! worker threads render into byte buffers ahead of the writer; the writer takes the pieces
//! in order (rendering a piece itself when no worker has taken it yet) and writes them as
//! they come, so serializing, writing to the file and the file system's own work overlap.
//! At most [`WINDOW`] pieces are rendered ahead and their buffers are reused: memory stays
//! flat however big the report. The bytes are exactly those of `serde_json::to_writer_pretty`
//! on the whole document (`tests/it/report.rs` and the unit tests below compare them).

use std::io::{self, Write};
use std::ops::Range;
use std::sync::{Condvar, Mutex, MutexGuard};

use serde::Serialize;
use serde_json::value::RawValue;

/// Items per piece: big enough that a piece is worth a hand-over, small enough that the
/// workers stay busy to the end.
pub(crate) const PIECE: usize = 1024;

/// Pieces rendered ahead of the writer, at most.
const WINDOW: usize = 32;

/// Below this many items in all, everything is rendered on the calling thread.
const SERIAL_BELOW: usize = 4096;

/// serde_json's `PrettyFormatter` (two-space indent) starting at any depth, and writing the
/// arrays of a [`Slots`] where the document holds their markers. Its layout is
/// PrettyFormatter's, rule for rule: `serde_json` offers no way to start that formatter at
/// a depth, which pieces rendered apart need.
pub(crate) struct Pretty<'s> {
    current_indent: usize,
    has_value: bool,
    /// The arrays the markers stand for, and the depth of their items.
    slots: Option<(&'s Stream<'s>, usize)>,
}

impl<'s> Pretty<'s> {
    fn new(depth: usize, slots: Option<(&'s Stream<'s>, usize)>) -> Self {
        Pretty {
            current_indent: depth,
            has_value: false,
            slots,
        }
    }
}

/// Spaces for `depth` levels of two-space indent.
fn indent<W: ?Sized + Write>(out: &mut W, depth: usize) -> io::Result<()> {
    const SPACES: &[u8; 64] = b"                                                                ";
    let mut n = depth * 2;
    while n > 0 {
        let take = n.min(SPACES.len());
        out.write_all(&SPACES[..take])?;
        n -= take;
    }
    Ok(())
}

/// What comes before an array's item or an object's key: a line break (after a comma
/// unless it is the first) and the indent of `depth`.
fn next_line<W: ?Sized + Write>(out: &mut W, first: bool, depth: usize) -> io::Result<()> {
    out.write_all(if first { b"\n" } else { b",\n" })?;
    indent(out, depth)
}

/// The closing `bracket` of an array or object standing at `depth`: on a line of its own
/// when the container holds something, right after the opening one when it is empty.
fn close<W: ?Sized + Write>(
    out: &mut W,
    has_value: bool,
    depth: usize,
    bracket: &[u8],
) -> io::Result<()> {
    if has_value {
        out.write_all(b"\n")?;
        indent(out, depth)?;
    }
    out.write_all(bracket)
}

impl Pretty<'_> {
    fn begin<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.current_indent += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.current_indent -= 1;
        close(out, self.has_value, self.current_indent, bracket)
    }
}

impl serde_json::ser::Formatter for Pretty<'_> {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.begin(out, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.end(out, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        next_line(out, first, self.current_indent)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.begin(out, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.end(out, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        next_line(out, first, self.current_indent)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    /// A marker of [`Slots::slot`]: the array it stands for, at this depth.
    fn write_raw_fragment<W: ?Sized + Write>(
        &mut self,
        out: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let (Some((stream, depth)), Ok(array)) = (self.slots, fragment.parse::<usize>()) else {
            return out.write_all(fragment.as_bytes());
        };
        if depth != self.current_indent + 1 {
            return Err(io::Error::other(format!(
                "internal error: report array {array} at indent {} out of place",
                self.current_indent
            )));
        }
        if stream.is_empty(array) {
            // Taken all the same: the arrays are asked for in order.
            stream.write_array(array, out)?;
            return out.write_all(b"[]");
        }
        out.write_all(b"[")?;
        stream.write_array(array, out)?;
        close(out, true, self.current_indent, b"]")
    }
}

/// `value` pretty-printed as if it stood at `depth` (its nested lines indented from there).
pub(crate) fn pretty_at<T: Serialize + ?Sized>(
    value: &T,
    depth: usize,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Pretty::new(depth, None));
    value.serialize(&mut ser)
}

/// A JSON string as serde_json writes it: only `"`, `\\` and control characters escaped.
pub(crate) fn string(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    // Every byte is looked at without branching (most strings need no escape), and the
    // string copied whole; the rare one that needs escapes goes through serde_json.
    let plain = !s.bytes().fold(false, |escape, b| {
        escape | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
    if plain {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        serde_json::to_writer(out, s)
    }
}

/// An object written field by field in [`Pretty`]'s layout, for the items a report has
/// hundreds of thousands of (serde's derived code is the slower way to the same bytes).
/// Fields with serde types go through [`pretty_at`], so only the shape lives here.
pub(crate) struct Object<'b> {
    out: &'b mut Vec<u8>,
    depth: usize,
    empty: bool,
}

impl<'b> Object<'b> {
    /// `{` of an object standing at `depth`.
    pub(crate) fn begin(out: &'b mut Vec<u8>, depth: usize) -> Self {
        out.push(b'{');
        Object {
            out,
            depth,
            empty: true,
        }
    }

    fn key(&mut self, key: &str) {
        // Writing to a vector cannot fail.
        let _ = next_line(self.out, self.empty, self.depth + 1);
        self.empty = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\": ");
    }

    /// A string field.
    pub(crate) fn str(&mut self, key: &str, value: &str) -> serde_json::Result<()> {
        self.key(key);
        string(self.out, value)
    }

    /// A field of any serializable value.
    pub(crate) fn value<T: Serialize + ?Sized>(
        &mut self,
        key: &str,
        value: &T,
    ) -> serde_json::Result<()> {
        self.key(key);
        pretty_at(value, self.depth + 1, self.out)
    }

    /// A list field whose items `item` writes, each at its depth (given).
    pub(crate) fn list<T>(
        &mut self,
        key: &str,
        items: &[T],
        mut item: impl FnMut(&T, &mut Vec<u8>, usize) -> serde_json::Result<()>,
    ) -> serde_json::Result<()> {
        self.key(key);
        if items.is_empty() {
            self.out.extend_from_slice(b"[]");
            return Ok(());
        }
        self.out.push(b'[');
        for (i, value) in items.iter().enumerate() {
            let _ = next_line(self.out, i == 0, self.depth + 2);
            item(value, self.out, self.depth + 2)?;
        }
        let _ = close(self.out, true, self.depth + 1, b"]");
        Ok(())
    }

    /// `}`.
    pub(crate) fn end(self) {
        let _ = close(self.out, !self.empty, self.depth, b"}");
    }
}

/// The markers of a document's arrays: `slot(k)` stands for the `k`-th array, and the
/// document must hold them in order, each once.
pub(crate) struct Slots(Vec<Box<RawValue>>);

impl Slots {
    pub(crate) fn new(arrays: usize) -> serde_json::Result<Self> {
        (0..arrays)
            .map(|k| RawValue::from_string(k.to_string()))
            .collect::<serde_json::Result<_>>()
            .map(Slots)
    }

    /// The marker of the `k`-th array (`null` if there is none: a document built wrong).
    pub(crate) fn slot(&self, k: usize) -> Option<&RawValue> {
        self.0.get(k).map(|b| &**b)
    }
}

/// Renders item `index` of array `array` (without separator or leading indent) at the
/// depth the arrays' items stand at.
pub(crate) type RenderItem<'a> =
    dyn Fn(usize, usize, &mut Vec<u8>) -> serde_json::Result<()> + Sync + 'a;

/// Renders the items `items` of array `array` into the buffer, whole lines or whole items
/// (pieces are written one after another, nothing between them).
pub(crate) type RenderPiece<'a> =
    dyn Fn(usize, Range<usize>, &mut Vec<u8>) -> io::Result<()> + Sync + 'a;

/// Serializes `document` to `out` with [`Pretty`]; the document's [`Slots`] markers are
/// replaced by the arrays whose lengths `lens` gives, item `i` of array `k` rendered by
/// `item(k, i, buffer)` at depth `depth` (the depth of the marker plus one), on up to
/// `threads` threads.
pub(crate) fn write<W: Write>(
    out: W,
    lens: &[usize],
    depth: usize,
    threads: usize,
    item: &RenderItem<'_>,
    document: impl FnOnce(&mut serde_json::Serializer<W, Pretty<'_>>) -> serde_json::Result<()>,
) -> serde_json::Result<()> {
    let piece = |array: usize, items: Range<usize>, buffer: &mut Vec<u8>| -> io::Result<()> {
        for index in items {
            next_line(buffer, index == 0, depth)?;
            item(array, index, buffer)?;
        }
        Ok(())
    };
    in_order(lens, threads, &piece, |stream| {
        let mut ser =
            serde_json::Serializer::with_formatter(out, Pretty::new(0, Some((stream, depth))));
        document(&mut ser)
    })
}

/// Runs `consume` with a [`Stream`] of the arrays whose lengths `lens` gives, whose pieces
/// `piece` renders on up to `threads` threads ahead of `consume` asking for them.
pub(crate) fn in_order<R>(
    lens: &[usize],
    threads: usize,
    piece: &RenderPiece<'_>,
    consume: impl FnOnce(&Stream<'_>) -> R,
) -> R {
    let stream = Stream::new(lens, piece);
    let total: usize = lens.iter().sum();
    let workers = if total < SERIAL_BELOW { 0 } else { threads };
    std::thread::scope(|scope| {
        // Stops the workers however `consume` ends (an error, a panic).
        let _stop = StopOnDrop(&stream);
        for _ in 0..workers {
            // A thread the system refuses is one worker fewer: the writer renders any
            // piece no worker has taken.
            let _ = std::thread::Builder::new().spawn_scoped(scope, || stream.work());
        }
        consume(&stream)
    })
}

/// The pieces of the arrays and who has rendered which.
pub(crate) struct Stream<'a> {
    /// Per piece: its array and item range.
    pieces: Vec<(usize, Range<usize>)>,
    /// Per array: its range of pieces.
    arrays: Vec<Range<usize>>,
    piece: &'a RenderPiece<'a>,
    state: Mutex<State>,
    changed: Condvar,
}

struct State {
    /// The next piece no one has taken.
    next: usize,
    /// Pieces written out; `next < written + WINDOW` bounds the work ahead.
    written: usize,
    /// The next array the document may ask for.
    next_array: usize,
    /// Rendered pieces not written yet.
    done: Vec<Option<io::Result<Vec<u8>>>>,
    /// Buffers of written pieces, for the next ones.
    spare: Vec<Vec<u8>>,
    /// The consumer ended (done, failed or panicked) or a worker panicked: nobody waits for
    /// anything any more. (A piece that fails to render is handed over as its error.)
    stop: bool,
}

impl<'a> Stream<'a> {
    fn new(lens: &[usize], piece: &'a RenderPiece<'a>) -> Self {
        let mut pieces = Vec::new();
        let mut arrays = Vec::with_capacity(lens.len());
        for (k, &len) in lens.iter().enumerate() {
            let first = pieces.len();
            let mut start = 0;
            while start < len {
                let end = (start + PIECE).min(len);
                pieces.push((k, start..end));
                start = end;
            }
            arrays.push(first..pieces.len());
        }
        let done = (0..pieces.len()).map(|_| None).collect();
        Stream {
            pieces,
            arrays,
            piece,
            state: Mutex::new(State {
                next: 0,
                written: 0,
                next_array: 0,
                done,
                spare: Vec::new(),
                stop: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked holds no lock while rendering: a poisoned state is whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'g>(&self, guard: MutexGuard<'g, State>) -> MutexGuard<'g, State> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    fn stop(&self) {
        self.lock().stop = true;
        self.changed.notify_all();
    }

    /// A worker: takes the next piece within the window, renders it, hands it over.
    fn work(&self) {
        let _stop_on_panic = StopOnPanic(self);
        loop {
            let (piece, buffer) = {
                let mut state = self.lock();
                loop {
                    if state.stop || state.next >= self.pieces.len() {
                        return;
                    }
                    if state.next < state.written + WINDOW {
                        break;
                    }
                    state = self.wait(state);
                }
                state.next += 1;
                (state.next - 1, state.spare.pop().unwrap_or_default())
            };
            let rendered = self.render(piece, buffer);
            let mut state = self.lock();
            if let Some(slot) = state.done.get_mut(piece) {
                *slot = Some(rendered);
            }
            drop(state);
            self.changed.notify_all();
        }
    }

    /// Piece `piece` into `buffer`.
    fn render(&self, piece: usize, mut buffer: Vec<u8>) -> io::Result<Vec<u8>> {
        if let Some((array, items)) = self.pieces.get(piece).cloned() {
            (self.piece)(array, items, &mut buffer)?;
        }
        Ok(buffer)
    }

    /// Piece `piece`, rendered by a worker or, if none has taken it, here.
    fn take(&self, piece: usize) -> io::Result<Vec<u8>> {
        let mut state = self.lock();
        loop {
            if let Some(rendered) = state.done.get_mut(piece).and_then(Option::take) {
                return rendered;
            }
            if state.next == piece {
                state.next += 1;
                let buffer = state.spare.pop().unwrap_or_default();
                drop(state);
                self.changed.notify_all();
                return self.render(piece, buffer);
            }
            if state.stop {
                return Err(io::Error::other("a report worker stopped"));
            }
            state = self.wait(state);
        }
    }

    /// Whether array `array` has no items.
    pub(crate) fn is_empty(&self, array: usize) -> bool {
        self.arrays
            .get(array)
            .is_none_or(|pieces| pieces.is_empty())
    }

    /// The pieces of array `array`, in order as they are rendered. The arrays must be asked
    /// for in order, each once.
    pub(crate) fn write_array<W: ?Sized + Write>(
        &self,
        array: usize,
        out: &mut W,
    ) -> io::Result<()> {
        {
            let mut state = self.lock();
            if array != state.next_array {
                return Err(io::Error::other(format!(
                    "internal error: report array {array} asked for out of order"
                )));
            }
            state.next_array += 1;
        }
        for piece in self.arrays.get(array).cloned().unwrap_or_default() {
            let mut buffer = self.take(piece)?;
            let written = out.write_all(&buffer);
            buffer.clear();
            let mut state = self.lock();
            state.written += 1;
            state.spare.push(buffer);
            drop(state);
            self.changed.notify_all();
            written?;
        }
        Ok(())
    }
}

struct StopOnDrop<'s, 'a>(&'s Stream<'a>);

impl Drop for StopOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Stops the stream when a worker panics, so that the writer does not wait for its piece.
struct StopOnPanic<'s, 'a>(&'s Stream<'a>);

impl Drop for StopOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Doc<'a> {
        name: &'a str,
        arrays: Vec<Holder<'a>>,
        after: Vec<u32>,
    }

    #[derive(Serialize)]
    struct Holder<'a> {
        label: String,
        items: &'a RawValue,
    }

    #[derive(Serialize)]
    struct Item {
        n: usize,
        text: String,
        nested: Vec<Vec<u8>>,
        empty: Vec<u8>,
    }

    fn item(k: usize, i: usize) -> Item {
        Item {
            n: i,
            text: format!("array {k} \"item\" {i}\n"),
            nested: vec![vec![], vec![1, 2]],
            empty: vec![],
        }
    }

    /// The same document with real arrays.
    #[derive(Serialize)]
    struct PlainDoc<'a> {
        name: &'a str,
        arrays: Vec<PlainHolder>,
        after: Vec<u32>,
    }

    #[derive(Serialize)]
    struct PlainHolder {
        label: String,
        items: Vec<Item>,
    }

    /// The whole document with serde_json's own pretty printer.
    fn expected(lens: &[usize]) -> String {
        let doc = PlainDoc {
            name: "d",
            arrays: lens
                .iter()
                .enumerate()
                .map(|(k, &len)| PlainHolder {
                    label: format!("a{k}"),
                    items: (0..len).map(|i| item(k, i)).collect(),
                })
                .collect(),
            after: vec![1, 2],
        };
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }

    fn streamed(lens: &[usize], threads: usize) -> String {
        let slots = Slots::new(lens.len()).ok();
        let slots = slots.as_ref();
        let mut out = Vec::new();
        let render = |k: usize, i: usize, buf: &mut Vec<u8>| pretty_at(&item(k, i), 4, buf);
        let result = write(&mut out, lens, 4, threads, &render, |ser| {
            let doc = Doc {
                name: "d",
                arrays: (0..lens.len())
                    .filter_map(|k| {
                        Some(Holder {
                            label: format!("a{k}"),
                            items: slots?.slot(k)?,
                        })
                    })
                    .collect(),
                after: vec![1, 2],
            };
            doc.serialize(ser)
        });
        assert!(result.is_ok(), "{result:?}");
        String::from_utf8(out).unwrap_or_default()
    }

    /// Whatever the lengths and threads, the bytes are serde_json's.
    #[test]
    fn arrays_stream_as_serde_json_prints_them() {
        for lens in [
            vec![],
            vec![0],
            vec![1],
            vec![0, 3, 0],
            vec![PIECE, PIECE + 1, 0, 2 * PIECE - 1],
            vec![SERIAL_BELOW + 7, 5, 3 * PIECE + 2],
        ] {
            let want = expected(&lens);
            for threads in [0, 1, 2, 4] {
                assert_eq!(
                    streamed(&lens, threads),
                    want,
                    "lens {lens:?}, threads {threads}"
                );
            }
        }
    }

    /// Raw pieces (the console and JUnit reports) come out in order, whatever the threads,
    /// with whatever the consumer writes between the arrays.
    #[test]
    fn raw_pieces_come_out_in_order() {
        // The first array has more pieces than the window: workers wait for the writer.
        let lens = [WINDOW * PIECE + 3 * PIECE + 1, 0, SERIAL_BELOW, 7];
        let piece = |k: usize, items: Range<usize>, buffer: &mut Vec<u8>| {
            for i in items {
                buffer.extend_from_slice(format!("{k}.{i}\n").as_bytes());
            }
            Ok(())
        };
        let mut want = String::new();
        for (k, &len) in lens.iter().enumerate() {
            want.push_str(&format!("array {k}\n"));
            for i in 0..len {
                want.push_str(&format!("{k}.{i}\n"));
            }
        }
        for threads in [0, 1, 2, 5] {
            let mut out = Vec::new();
            let result = in_order(&lens, threads, &piece, |stream| {
                for k in 0..lens.len() {
                    out.extend_from_slice(format!("array {k}\n").as_bytes());
                    stream.write_array(k, &mut out)?;
                }
                Ok::<(), io::Error>(())
            });
            assert!(result.is_ok());
            assert_eq!(String::from_utf8_lossy(&out), want, "threads {threads}");
        }
    }

    /// Arrays asked for out of order are an error, not a wait for ever.
    #[test]
    fn arrays_out_of_order_are_an_error() {
        let piece = |_: usize, _: Range<usize>, _: &mut Vec<u8>| Ok(());
        let result = in_order(&[1, 1], 2, &piece, |stream| {
            stream.write_array(1, &mut Vec::new())
        });
        assert!(result.is_err());
    }

    /// A writer that fails stops the workers: the error comes back, nothing hangs.
    #[test]
    fn a_failing_writer_ends_the_stream() {
        struct Fails(usize);
        impl Write for Fails {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk full"));
                }
                self.0 -= 1;
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let lens = [50 * PIECE];
        let Ok(slots) = Slots::new(1) else {
            panic!("slots")
        };
        let render = |k: usize, i: usize, buf: &mut Vec<u8>| pretty_at(&item(k, i), 2, buf);
        let result = write(Fails(3), &lens, 2, 2, &render, |ser| {
            [slots.slot(0)].serialize(ser)
        });
        assert!(result.is_err());
    }
}
