//! Reading the `resources` array on several threads.
//!
//! A big inventory is nearly all `resources`. Its elements are split into chunks at
//! *candidate* boundaries found without reading the whole file: a line that starts, at
//! the indentation of the first element, with `{` right after a line ending in `,`. A raw
//! line break never occurs inside a valid JSON string, so a candidate is structural, but
//! it may sit deeper than the array (inside some nested list). Each chunk is read on its
//! own thread with its own interner, up to the next candidate; a chunk that ends exactly
//! on the next candidate proves that candidate was a true element boundary. If one does
//! not, the array is read again on one thread. Errors are reported in document order, so
//! the result, and every error, is the same as a serial read. Compact (one-line) JSON has
//! no candidates and is read serially.

use super::document::{resource_run, RunEnd};
use super::error::{PResult, ParseError, Seg};
use super::reader::Reader;
use crate::intern::{Interner, Sym};
use crate::inventory::Resource;
use crate::value::Value;

/// Below this many bytes, splitting costs more than it saves.
const MIN_PARALLEL_BYTES: usize = 4 << 20;

/// The resources of one chunk, with what its reader ended on.
struct Chunk {
    result: PResult<RunEnd>,
    resources: Vec<Resource>,
    offsets: Vec<usize>,
    interner: Interner,
    end: usize,
}

/// Reads the `resources` array at `pos` on up to `threads` threads.
pub(crate) fn resources(r: &mut Reader, threads: usize) -> PResult<(Vec<Resource>, Vec<usize>)> {
    let found = r.peek();
    if found != Some(b'[') {
        return Err(r.syntax_or_format(found, "expected \"resources\" to be an array"));
    }
    r.enter()?;
    let body = r.pos;
    if r.peek() == Some(b']') {
        r.pos += 1;
        r.leave();
        return Ok((Vec::new(), Vec::new()));
    }
    let starts = split_points(r.bytes, r.pos, threads);
    if starts.len() > 1 {
        let symbols_before = r.interner.len();
        if let Some(read) = read_chunks(r, &starts)? {
            r.leave();
            return Ok(read);
        }
        r.interner.truncate(symbols_before);
        r.pos = body;
    }
    let (mut resources, mut offsets) = (Vec::new(), Vec::new());
    resource_run(r, usize::MAX, &mut resources, &mut offsets)?;
    r.leave();
    Ok((resources, offsets))
}

/// Where chunks start: `first` (the first element) and up to `threads - 1` candidates.
fn split_points(bytes: &[u8], first: usize, threads: usize) -> Vec<usize> {
    let mut starts = vec![first];
    let remaining = bytes.len().saturating_sub(first);
    if threads < 2 || remaining < MIN_PARALLEL_BYTES {
        return starts;
    }
    let Some(indent) = line_indent(bytes, first) else {
        return starts;
    };
    for k in 1..threads {
        let target = first + remaining / threads * k;
        match next_candidate(
            bytes,
            target.max(starts.last().map_or(0, |s| s + 1)),
            indent,
        ) {
            Some(c) => starts.push(c),
            None => break,
        }
    }
    starts
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

/// The first candidate element start at or after `from`: a `{` after exactly `indent`
/// on a line whose previous line ends with `,`.
fn next_candidate(bytes: &[u8], from: usize, indent: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let newline = at + memchr::memchr(b'\n', bytes.get(at..)?)?;
        let line = newline + 1;
        let brace = line + indent.len();
        if bytes.get(line..brace) == Some(indent)
            && bytes.get(brace) == Some(&b'{')
            && ends_with_comma(bytes.get(..newline)?)
        {
            return Some(brace);
        }
        at = line;
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

/// Reads the chunks starting at `starts` in parallel: chunk 0 with `r` itself, the others
/// on threads of their own. `None` when a candidate turned out not to be a boundary.
fn read_chunks(r: &mut Reader, starts: &[usize]) -> PResult<Option<(Vec<Resource>, Vec<usize>)>> {
    let text = r.text;
    let depth = r.depth;
    let stops: Vec<usize> = starts.iter().skip(1).copied().chain([usize::MAX]).collect();
    let (first, others) = std::thread::scope(|scope| {
        let handles: Vec<_> = starts
            .iter()
            .zip(&stops)
            .skip(1)
            .map(|(&start, &stop)| {
                scope.spawn(move || {
                    let mut reader = Reader::new(text, start, depth, Interner::new());
                    let mut chunk = read_chunk(&mut reader, stop);
                    chunk.interner = reader.interner;
                    chunk
                })
            })
            .collect();
        let first = read_chunk(r, stops.first().copied().unwrap_or(usize::MAX));
        let others: Vec<_> = handles.into_iter().map(|h| h.join()).collect();
        (first, others)
    });
    let mut chunks = vec![first];
    for joined in others {
        match joined {
            Ok(chunk) => chunks.push(chunk),
            // A panicking reader is a bug; fall back to the serial read.
            Err(_) => return Ok(None),
        }
    }
    merge(r, chunks)
}

/// Reads one chunk up to `stop` (its keys stay in `r`'s interner).
fn read_chunk(r: &mut Reader, stop: usize) -> Chunk {
    let (mut resources, mut offsets) = (Vec::new(), Vec::new());
    let result = resource_run(r, stop, &mut resources, &mut offsets);
    Chunk {
        result,
        resources,
        offsets,
        interner: Interner::new(),
        end: r.pos,
    }
}

/// Joins chunk results in document order, renumbering symbols and error indexes.
/// `None` when some chunk did not end exactly where the next one started.
fn merge(r: &mut Reader, chunks: Vec<Chunk>) -> PResult<Option<(Vec<Resource>, Vec<usize>)>> {
    let total = chunks.iter().map(|c| c.resources.len()).sum();
    let (mut resources, mut offsets) = (Vec::with_capacity(total), Vec::with_capacity(total));
    let last = chunks.len().saturating_sub(1);
    for (k, chunk) in chunks.into_iter().enumerate() {
        let expected = if k == last {
            RunEnd::Closed
        } else {
            RunEnd::ReachedStop
        };
        match chunk.result {
            Err(e) => return Err(renumber_error(e, resources.len())),
            Ok(end) if end != expected => return Ok(None),
            Ok(_) => {}
        }
        let mut chunk_resources = chunk.resources;
        if k > 0 {
            remap_symbols(&mut chunk_resources, &chunk.interner, &mut r.interner);
        }
        resources.append(&mut chunk_resources);
        offsets.extend(chunk.offsets);
        r.pos = chunk.end;
    }
    Ok(Some((resources, offsets)))
}

/// Shifts the resource index of an error from chunk-local to document-wide.
fn renumber_error(mut e: Box<ParseError>, base: usize) -> Box<ParseError> {
    if let Some(Seg::Index(i)) = e.path.last_mut() {
        *i += base;
    }
    e
}

/// Rewrites every key of `resources` from the symbols of `from` to those of `to`.
fn remap_symbols(resources: &mut [Resource], from: &Interner, to: &mut Interner) {
    let table: Vec<Sym> = from.names().map(|name| to.intern(name)).collect();
    for resource in resources {
        for (key, value) in resource.properties.entries.iter_mut() {
            *key = remap(*key, &table);
            remap_value(value, &table);
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
    fn candidates_need_indent_brace_and_comma() {
        let text = b"[\n  {\"a\": [\n    {},\n    {}\n  ]},\n  {}\n]";
        let first = 4;
        let indent = line_indent(text, first).unwrap_or_default();
        assert_eq!(indent, b"  ");
        let c = next_candidate(text, first + 1, indent);
        assert_eq!(c, Some(text.len() - 4));
    }
}
