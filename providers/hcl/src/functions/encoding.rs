//! Encoding functions, as Terraform 1.5 defines them: `base64decode`, `base64encode`,
//! `base64gzip`, `textdecodebase64`, `textencodebase64`, `urlencode`
//! (`internal/lang/funcs/encoding.go`), `csvdecode`, `jsondecode`, `jsonencode` (cty's
//! stdlib) and `yamldecode`, `yamlencode` (`github.com/zclconf/go-cty-yaml` v1.0.3).
//!
//! Go behaviours reproduced here:
//! - Base64 is Go's `base64.StdEncoding`: padding required, `\r` and `\n` ignored, non-zero
//!   trailing bits accepted, errors located by byte offset.
//! - `urlencode` is `url.QueryEscape` (space as `+`, everything but `A-Za-z0-9-_.~` escaped).
//! - `csvdecode` follows Go's `encoding/csv` reader (RFC 4180, `""` escapes, quoted fields
//!   spanning lines, `\r\n` normalised, empty lines skipped) and its error texts.
//! - `base64gzip` writes a gzip stream framed as Go's `compress/gzip` writer does (zero
//!   mtime, OS 255, a sync flush, then an empty final stored block).
//! - `textencodebase64`/`textdecodebase64` take IANA names and aliases as
//!   `golang.org/x/text/encoding/ianaindex` does; see the README for the supported set.
//! - `yamlencode` is a port of the libyaml emitter as go-cty-yaml drives it: strings
//!   double-quoted (literal block style when they contain a newline), numbers, bools and
//!   null plain, block collections, 80-column folding, and the `...` end marker after a
//!   plain scalar document.
//! - `yamldecode` resolves scalars with go-cty-yaml's YAML 1.1-style rules (`yes`/`no`/
//!   `on`/`off`, `~`, timestamps, hex/octal integers, `!!binary`...), rejects multiple
//!   documents, recursive aliases and unsupported tags with go-cty-yaml's messages.

use std::collections::BTreeMap;

use super::conversion::str_arg;
use super::{FuncError, Function, FunctionTable, Param};
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(Function::new(
        "base64decode",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64decode,
    ));
    t.add(Function::new(
        "base64encode",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64encode,
    ));
    t.add(Function::new(
        "base64gzip",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64gzip,
    ));
    t.add(Function::new(
        "textencodebase64",
        vec![
            Param::new("string", Type::String),
            Param::new("encoding", Type::String),
        ],
        Type::String,
        textencodebase64,
    ));
    t.add(Function::new(
        "textdecodebase64",
        vec![
            Param::new("source", Type::String),
            Param::new("encoding", Type::String),
        ],
        Type::String,
        textdecodebase64,
    ));
    t.add(Function::new(
        "urlencode",
        vec![Param::new("str", Type::String)],
        Type::String,
        urlencode,
    ));
    t.add(Function::new(
        "csvdecode",
        vec![Param::new("str", Type::String)],
        Type::Dynamic,
        csvdecode,
    ));
    t.add(Function::new(
        "jsondecode",
        vec![Param::new("str", Type::String)],
        Type::Dynamic,
        jsondecode,
    ));
    t.add(Function::new(
        "jsonencode",
        vec![Param::new("val", Type::Dynamic).allow_null()],
        Type::String,
        jsonencode,
    ));
    t.add(Function::new(
        "yamldecode",
        vec![Param::new("src", Type::String)],
        Type::Dynamic,
        yamldecode,
    ));
    t.add(Function::new(
        "yamlencode",
        vec![Param::new("value", Type::Dynamic).allow_null()],
        Type::String,
        yamlencode,
    ));
}

// ---------------------------------------------------------------------------------------
// Base64 (Go's base64.StdEncoding).

const B64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard Base64 with padding.
pub(crate) fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    let sym = |i: u32| char::from(B64_ALPHABET[(i & 0x3f) as usize]);
    for chunk in data.chunks(3) {
        let b0 = u32::from(chunk.first().copied().unwrap_or(0));
        let b1 = u32::from(chunk.get(1).copied().unwrap_or(0));
        let b2 = u32::from(chunk.get(2).copied().unwrap_or(0));
        let n = b0 << 16 | b1 << 8 | b2;
        out.push(sym(n >> 18));
        out.push(sym(n >> 12));
        out.push(if chunk.len() > 1 { sym(n >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { sym(n) } else { '=' });
    }
    out
}

fn b64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Go's `base64.StdEncoding.DecodeString`; the error is the `CorruptInputError` offset.
pub(crate) fn base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0usize;
    let is_nl = |c: u8| c == b'\n' || c == b'\r';
    while si < src.len() {
        // One quantum: up to four symbols, newlines skipped.
        let mut dbuf = [0u32; 4];
        let mut dlen = 4;
        let mut j = 0usize;
        let mut trailing_err: Option<usize> = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src.get(si).copied().unwrap_or(0);
            si += 1;
            if let Some(v) = b64_value(c) {
                if let Some(d) = dbuf.get_mut(j) {
                    *d = v;
                }
                j += 1;
                continue;
            }
            if is_nl(c) {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            // Padding.
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while si < src.len() && is_nl(src.get(si).copied().unwrap_or(0)) {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src.get(si) != Some(&b'=') {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && is_nl(src.get(si).copied().unwrap_or(0)) {
                si += 1;
            }
            if si < src.len() {
                trailing_err = Some(si);
            }
            dlen = j;
            break;
        }
        let val = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3];
        let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
        out.extend_from_slice(bytes.get(..dlen.saturating_sub(1)).unwrap_or_default());
        if let Some(off) = trailing_err {
            return Err(off);
        }
    }
    Ok(out)
}

fn base64decode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let bytes = base64_decode(s.as_bytes())
        .map_err(|_| FuncError::new(format!("failed to decode base64 data {}", go_quote(s))))?;
    String::from_utf8(bytes).map(Value::String).map_err(|_| {
        FuncError::new("the result of decoding the provided string is not valid UTF-8")
    })
}

fn base64encode(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::String(base64_encode(str_arg(args, 0)?.as_bytes())))
}

fn base64gzip(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(Value::String(base64_encode(&gzip_go(s.as_bytes()))))
}

// ---------------------------------------------------------------------------------------
// gzip, framed as Go's compress/gzip writer after Write, Flush and Close.

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xedb8_8320 & mask);
        }
    }
    !crc
}

fn gzip_go(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend_from_slice(&deflate::compress_flushed(data));
    // Close: an empty final stored block.
    out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

mod deflate {
    //! A port of Go's `compress/flate` compressor at the default level (6), for
    //! `base64gzip` to produce Terraform's exact bytes: `Write(data)` then `Flush()`.
    //! (The caller adds the empty final block that `Close()` writes.)

    const WINDOW_SIZE: usize = 1 << 15;
    const WINDOW_MASK: usize = WINDOW_SIZE - 1;
    const BASE_MATCH_LENGTH: usize = 3;
    const MIN_MATCH_LENGTH: usize = 4;
    const MAX_MATCH_LENGTH: usize = 258;
    const BASE_MATCH_OFFSET: usize = 1;
    const MAX_FLATE_BLOCK_TOKENS: usize = 1 << 14;
    const MAX_STORE_BLOCK_SIZE: usize = 65535;
    const HASH_BITS: u32 = 17;
    const HASH_SIZE: usize = 1 << HASH_BITS;
    const HASH_MASK: u32 = (1 << HASH_BITS) - 1;
    const MAX_HASH_OFFSET: i64 = 1 << 24;
    // Level 6.
    const GOOD: usize = 8;
    const LAZY: usize = 16;
    const NICE: usize = 128;
    const CHAIN: usize = 128;

    const LENGTH_SHIFT: u32 = 22;
    const OFFSET_MASK: u32 = (1 << LENGTH_SHIFT) - 1;
    const MATCH_TYPE: u32 = 1 << 30;
    const END_BLOCK_MARKER: u32 = 256;
    const LENGTH_CODES_START: usize = 257;
    const MAX_NUM_LIT: usize = 286;
    const OFFSET_CODE_COUNT: usize = 30;
    const CODEGEN_CODE_COUNT: usize = 19;
    const BAD_CODE: u8 = 255;

    const LENGTH_EXTRA_BITS: [u32; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ];
    const LENGTH_BASE: [u32; 29] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112,
        128, 160, 192, 224, 255,
    ];
    const OFFSET_EXTRA_BITS: [u32; 30] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13, 13,
    ];
    const OFFSET_BASE: [u32; 30] = [
        0x000000, 0x000001, 0x000002, 0x000003, 0x000004, 0x000006, 0x000008, 0x00000c, 0x000010,
        0x000018, 0x000020, 0x000030, 0x000040, 0x000060, 0x000080, 0x0000c0, 0x000100, 0x000180,
        0x000200, 0x000300, 0x000400, 0x000600, 0x000800, 0x000c00, 0x001000, 0x001800, 0x002000,
        0x003000, 0x004000, 0x006000,
    ];
    const CODEGEN_ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];

    fn get<T: Copy + Default>(s: &[T], i: usize) -> T {
        s.get(i).copied().unwrap_or_default()
    }

    /// `lengthCodes[x]` (x = length - 3).
    fn length_code(x: u32) -> usize {
        LENGTH_BASE.iter().rposition(|&b| b <= x).unwrap_or(0)
    }

    fn small_offset_code(x: u32) -> u32 {
        OFFSET_BASE.iter().rposition(|&b| b <= x).unwrap_or(0) as u32
    }

    /// `offsetCode(off)` (off = offset - 1).
    fn offset_code(off: u32) -> usize {
        (if off < 256 {
            small_offset_code(off)
        } else if off >> 7 < 256 {
            small_offset_code(off >> 7) + 14
        } else {
            small_offset_code(off >> 14) + 28
        }) as usize
    }

    fn reverse_bits(number: u16, bit_length: u16) -> u16 {
        if bit_length == 0 || bit_length > 16 {
            return 0;
        }
        (number << (16 - bit_length)).reverse_bits()
    }

    #[derive(Clone, Copy)]
    struct LiteralNode {
        literal: u16,
        freq: i32,
    }

    #[derive(Clone, Copy, Default)]
    struct LevelInfo {
        last_freq: i32,
        next_char_freq: i32,
        next_pair_freq: i32,
        needed: i32,
    }

    /// `huffmanEncoder`.
    struct Huff {
        code: Vec<u16>,
        len: Vec<u16>,
    }

    impl Huff {
        fn new(size: usize) -> Huff {
            Huff {
                code: vec![0; size],
                len: vec![0; size],
            }
        }

        fn fixed_literal() -> Huff {
            let mut h = Huff::new(MAX_NUM_LIT);
            for ch in 0..MAX_NUM_LIT as u16 {
                let (bits, size) = match ch {
                    0..=143 => (ch + 48, 8),
                    144..=255 => (ch + 400 - 144, 9),
                    256..=279 => (ch - 256, 7),
                    _ => (ch + 192 - 280, 8),
                };
                h.code[usize::from(ch)] = reverse_bits(bits, size);
                h.len[usize::from(ch)] = size;
            }
            h
        }

        fn fixed_offset() -> Huff {
            let mut h = Huff::new(OFFSET_CODE_COUNT);
            for i in 0..OFFSET_CODE_COUNT {
                h.code[i] = reverse_bits(i as u16, 5);
                h.len[i] = 5;
            }
            h
        }

        fn bit_length(&self, freq: &[i32]) -> i64 {
            freq.iter()
                .enumerate()
                .filter(|(_, &f)| f != 0)
                .map(|(i, &f)| i64::from(f) * i64::from(get(&self.len, i)))
                .sum()
        }

        fn bit_counts(list: &[LiteralNode], max_bits: i32) -> Vec<i32> {
            let n = list.len() as i32;
            let mut list = list.to_vec();
            list.push(LiteralNode {
                literal: u16::MAX,
                freq: i32::MAX,
            });
            let freq = |i: i32| list.get(i as usize).map_or(i32::MAX, |x| x.freq);
            let max_bits = max_bits.min(n - 1).clamp(1, 15);
            let mb = max_bits as usize;
            let mut levels = [LevelInfo::default(); 17];
            let mut leaf_counts = [[0i32; 17]; 17];
            for level in 1..=mb {
                levels[level] = LevelInfo {
                    last_freq: freq(1),
                    next_char_freq: freq(2),
                    next_pair_freq: freq(0).wrapping_add(freq(1)),
                    needed: 0,
                };
                leaf_counts[level][level] = 2;
                if level == 1 {
                    levels[level].next_pair_freq = i32::MAX;
                }
            }
            levels[mb].needed = 2 * n - 4;
            let mut level = mb;
            // The loop ends when the top level has produced all its nodes; the step bound
            // only guards against malformed input.
            let mut steps = 0usize;
            loop {
                steps += 1;
                if steps > 1 << 22 || level == 0 || level > 16 {
                    break;
                }
                let l = levels[level];
                if l.next_pair_freq == i32::MAX && l.next_char_freq == i32::MAX {
                    levels[level].needed = 0;
                    if level < 16 {
                        levels[level + 1].next_pair_freq = i32::MAX;
                    }
                    level += 1;
                    continue;
                }
                let prev_freq = l.last_freq;
                if l.next_char_freq < l.next_pair_freq {
                    let n = leaf_counts[level][level] + 1;
                    levels[level].last_freq = l.next_char_freq;
                    leaf_counts[level][level] = n;
                    levels[level].next_char_freq = freq(n);
                } else {
                    levels[level].last_freq = l.next_pair_freq;
                    let (lower, upper) = leaf_counts.split_at_mut(level);
                    if let (Some(src), Some(dst)) = (lower.last(), upper.first_mut()) {
                        dst[..level].copy_from_slice(&src[..level]);
                    }
                    levels[level - 1].needed = 2;
                }
                levels[level].needed -= 1;
                if levels[level].needed == 0 {
                    if level == mb {
                        break;
                    }
                    levels[level + 1].next_pair_freq =
                        prev_freq.wrapping_add(levels[level].last_freq);
                    level += 1;
                } else {
                    while level > 1 && levels[level - 1].needed > 0 {
                        level -= 1;
                    }
                }
            }
            let mut bit_count = vec![0i32; mb + 1];
            let counts = leaf_counts[mb];
            for (bits, level) in (1..).zip((1..=mb).rev()) {
                bit_count[bits] = counts[level] - counts[level - 1];
            }
            bit_count
        }

        fn assign_encoding_and_size(&mut self, bit_count: &[i32], list: &mut [LiteralNode]) {
            let mut code: u16 = 0;
            let mut end = list.len();
            for (n, &bits) in bit_count.iter().enumerate() {
                code = code.wrapping_shl(1);
                if n == 0 || bits <= 0 {
                    continue;
                }
                let bits = (bits as usize).min(end);
                let chunk = &mut list[end - bits..end];
                chunk.sort_by_key(|x| x.literal);
                for node in chunk.iter() {
                    let lit = usize::from(node.literal);
                    if let (Some(c), Some(l)) = (self.code.get_mut(lit), self.len.get_mut(lit)) {
                        *c = reverse_bits(code, n as u16);
                        *l = n as u16;
                    }
                    code = code.wrapping_add(1);
                }
                end -= bits;
            }
        }

        fn generate(&mut self, freq: &[i32], max_bits: i32) {
            let mut list = Vec::with_capacity(freq.len());
            for (i, &f) in freq.iter().enumerate() {
                if f != 0 {
                    list.push(LiteralNode {
                        literal: i as u16,
                        freq: f,
                    });
                } else if let Some(l) = self.len.get_mut(i) {
                    *l = 0;
                }
            }
            if list.len() <= 2 {
                for (i, node) in list.iter().enumerate() {
                    let lit = usize::from(node.literal);
                    if let (Some(c), Some(l)) = (self.code.get_mut(lit), self.len.get_mut(lit)) {
                        *c = i as u16;
                        *l = 1;
                    }
                }
                return;
            }
            list.sort_by(|a, b| a.freq.cmp(&b.freq).then(a.literal.cmp(&b.literal)));
            let bit_count = Huff::bit_counts(&list, max_bits);
            self.assign_encoding_and_size(&bit_count, &mut list);
        }
    }

    /// `huffmanBitWriter`, writing into a vector.
    struct BitWriter {
        out: Vec<u8>,
        bits: u64,
        nbits: u32,
        literal_freq: Vec<i32>,
        offset_freq: Vec<i32>,
        codegen: Vec<u8>,
        codegen_freq: [i32; CODEGEN_CODE_COUNT],
        literal_enc: Huff,
        offset_enc: Huff,
        codegen_enc: Huff,
        fixed_literal: Huff,
        fixed_offset: Huff,
    }

    impl BitWriter {
        fn new() -> BitWriter {
            BitWriter {
                out: Vec::new(),
                bits: 0,
                nbits: 0,
                literal_freq: vec![0; MAX_NUM_LIT],
                offset_freq: vec![0; OFFSET_CODE_COUNT],
                codegen: Vec::new(),
                codegen_freq: [0; CODEGEN_CODE_COUNT],
                literal_enc: Huff::new(MAX_NUM_LIT),
                offset_enc: Huff::new(OFFSET_CODE_COUNT),
                codegen_enc: Huff::new(CODEGEN_CODE_COUNT),
                fixed_literal: Huff::fixed_literal(),
                fixed_offset: Huff::fixed_offset(),
            }
        }

        fn write_bits(&mut self, b: u32, nb: u32) {
            self.bits |= u64::from(b) << self.nbits;
            self.nbits += nb;
            while self.nbits >= 8 {
                self.out.push(self.bits as u8);
                self.bits >>= 8;
                self.nbits -= 8;
            }
        }

        fn flush(&mut self) {
            if self.nbits > 0 {
                self.out.push(self.bits as u8);
            }
            self.bits = 0;
            self.nbits = 0;
        }

        fn write_bytes(&mut self, bytes: &[u8]) {
            self.flush();
            self.out.extend_from_slice(bytes);
        }

        fn generate_codegen(&mut self, num_literals: usize, num_offsets: usize) {
            self.codegen_freq = [0; CODEGEN_CODE_COUNT];
            let mut sizes: Vec<u8> = Vec::with_capacity(num_literals + num_offsets + 1);
            sizes.extend(
                self.literal_enc
                    .len
                    .iter()
                    .take(num_literals)
                    .map(|&l| l as u8),
            );
            sizes.extend(
                self.offset_enc
                    .len
                    .iter()
                    .take(num_offsets)
                    .map(|&l| l as u8),
            );
            sizes.push(BAD_CODE);
            let mut out: Vec<u8> = Vec::with_capacity(sizes.len() + 1);
            let mut size = get(&sizes, 0);
            let mut count: i32 = 1;
            let mut in_index = 1;
            let freq = &mut self.codegen_freq;
            while size != BAD_CODE {
                let next = sizes.get(in_index).copied().unwrap_or(BAD_CODE);
                in_index += 1;
                if next == size {
                    count += 1;
                    continue;
                }
                if size != 0 {
                    out.push(size);
                    freq[usize::from(size).min(18)] += 1;
                    count -= 1;
                    while count >= 3 {
                        let n = count.min(6);
                        out.push(16);
                        out.push((n - 3) as u8);
                        freq[16] += 1;
                        count -= n;
                    }
                } else {
                    while count >= 11 {
                        let n = count.min(138);
                        out.push(18);
                        out.push((n - 11) as u8);
                        freq[18] += 1;
                        count -= n;
                    }
                    if count >= 3 {
                        out.push(17);
                        out.push((count - 3) as u8);
                        freq[17] += 1;
                        count = 0;
                    }
                }
                count -= 1;
                while count >= 0 {
                    out.push(size);
                    freq[usize::from(size).min(18)] += 1;
                    count -= 1;
                }
                size = next;
                count = 1;
            }
            out.push(BAD_CODE);
            self.codegen = out;
        }

        fn dynamic_size(&self, extra_bits: i64) -> (i64, usize) {
            let mut num_codegens = CODEGEN_CODE_COUNT;
            while num_codegens > 4 && self.codegen_freq[CODEGEN_ORDER[num_codegens - 1]] == 0 {
                num_codegens -= 1;
            }
            let header = 3
                + 5
                + 5
                + 4
                + 3 * num_codegens as i64
                + self.codegen_enc.bit_length(&self.codegen_freq)
                + i64::from(self.codegen_freq[16]) * 2
                + i64::from(self.codegen_freq[17]) * 3
                + i64::from(self.codegen_freq[18]) * 7;
            let size = header
                + self.literal_enc.bit_length(&self.literal_freq)
                + self.offset_enc.bit_length(&self.offset_freq)
                + extra_bits;
            (size, num_codegens)
        }

        fn fixed_size(&self, extra_bits: i64) -> i64 {
            3 + self.fixed_literal.bit_length(&self.literal_freq)
                + self.fixed_offset.bit_length(&self.offset_freq)
                + extra_bits
        }

        fn write_dynamic_header(
            &mut self,
            num_literals: usize,
            num_offsets: usize,
            num_codegens: usize,
            eof: bool,
        ) {
            self.write_bits(if eof { 5 } else { 4 }, 3);
            self.write_bits((num_literals - 257) as u32, 5);
            self.write_bits((num_offsets - 1) as u32, 5);
            self.write_bits((num_codegens - 4) as u32, 4);
            for &o in CODEGEN_ORDER.iter().take(num_codegens) {
                let v = u32::from(get(&self.codegen_enc.len, o));
                self.write_bits(v, 3);
            }
            let mut i = 0;
            loop {
                let cw = get(&self.codegen, i);
                i += 1;
                if cw == BAD_CODE || i > self.codegen.len() {
                    break;
                }
                let c = usize::from(cw);
                let (code, len) = (
                    get(&self.codegen_enc.code, c),
                    get(&self.codegen_enc.len, c),
                );
                self.write_bits(u32::from(code), u32::from(len));
                let extra = match cw {
                    16 => 2,
                    17 => 3,
                    18 => 7,
                    _ => 0,
                };
                if extra > 0 {
                    let v = u32::from(get(&self.codegen, i));
                    self.write_bits(v, extra);
                    i += 1;
                }
            }
        }

        fn write_stored_header(&mut self, length: usize, eof: bool) {
            self.write_bits(u32::from(eof), 3);
            self.flush();
            self.write_bits(length as u32 & 0xffff, 16);
            self.write_bits(!(length as u16) as u32, 16);
        }

        fn index_tokens(&mut self, tokens: &[u32]) -> (usize, usize) {
            self.literal_freq.iter_mut().for_each(|f| *f = 0);
            self.offset_freq.iter_mut().for_each(|f| *f = 0);
            for &t in tokens {
                if t < MATCH_TYPE {
                    if let Some(f) = self.literal_freq.get_mut(t as usize) {
                        *f += 1;
                    }
                    continue;
                }
                let length = (t - MATCH_TYPE) >> LENGTH_SHIFT;
                let offset = t & OFFSET_MASK;
                if let Some(f) = self
                    .literal_freq
                    .get_mut(LENGTH_CODES_START + length_code(length))
                {
                    *f += 1;
                }
                if let Some(f) = self.offset_freq.get_mut(offset_code(offset)) {
                    *f += 1;
                }
            }
            let mut num_literals = MAX_NUM_LIT;
            while num_literals > 0 && self.literal_freq[num_literals - 1] == 0 {
                num_literals -= 1;
            }
            let mut num_offsets = OFFSET_CODE_COUNT;
            while num_offsets > 0 && self.offset_freq[num_offsets - 1] == 0 {
                num_offsets -= 1;
            }
            if num_offsets == 0 {
                self.offset_freq[0] = 1;
                num_offsets = 1;
            }
            self.literal_enc.generate(&self.literal_freq, 15);
            self.offset_enc.generate(&self.offset_freq, 15);
            (num_literals, num_offsets)
        }

        fn write_tokens(&mut self, tokens: &[u32], dynamic: bool) {
            for &t in tokens {
                let (lit, off) = if dynamic {
                    (&self.literal_enc, &self.offset_enc)
                } else {
                    (&self.fixed_literal, &self.fixed_offset)
                };
                if t < MATCH_TYPE {
                    let (c, l) = (get(&lit.code, t as usize), get(&lit.len, t as usize));
                    self.write_bits(u32::from(c), u32::from(l));
                    continue;
                }
                let length = (t - MATCH_TYPE) >> LENGTH_SHIFT;
                let lc = length_code(length);
                let (c, l) = (
                    get(&lit.code, lc + LENGTH_CODES_START),
                    get(&lit.len, lc + LENGTH_CODES_START),
                );
                let offset = t & OFFSET_MASK;
                let oc = offset_code(offset);
                let (oc_code, oc_len) = (get(&off.code, oc), get(&off.len, oc));
                self.write_bits(u32::from(c), u32::from(l));
                let extra = get(&LENGTH_EXTRA_BITS, lc);
                if extra > 0 {
                    self.write_bits(length - get(&LENGTH_BASE, lc), extra);
                }
                self.write_bits(u32::from(oc_code), u32::from(oc_len));
                let extra = get(&OFFSET_EXTRA_BITS, oc);
                if extra > 0 {
                    self.write_bits(offset - get(&OFFSET_BASE, oc), extra);
                }
            }
        }

        /// `writeBlock`: the smallest of fixed Huffman, dynamic Huffman and stored.
        fn write_block(&mut self, tokens: &[u32], eof: bool, input: Option<&[u8]>) {
            let mut tokens = tokens.to_vec();
            tokens.push(END_BLOCK_MARKER);
            let (num_literals, num_offsets) = self.index_tokens(&tokens);
            let mut extra_bits: i64 = 0;
            let storable = input.is_some_and(|i| i.len() <= MAX_STORE_BLOCK_SIZE);
            let stored_size = input.map_or(0, |i| (i.len() as i64 + 5) * 8);
            if storable {
                for lc in LENGTH_CODES_START + 8..num_literals {
                    extra_bits += i64::from(self.literal_freq[lc])
                        * i64::from(get(&LENGTH_EXTRA_BITS, lc - LENGTH_CODES_START));
                }
                for oc in 4..num_offsets {
                    extra_bits +=
                        i64::from(self.offset_freq[oc]) * i64::from(get(&OFFSET_EXTRA_BITS, oc));
                }
            }
            let mut size = self.fixed_size(extra_bits);
            self.generate_codegen(num_literals, num_offsets);
            let codegen_freq = self.codegen_freq;
            self.codegen_enc.generate(&codegen_freq, 7);
            let (dynamic_size, num_codegens) = self.dynamic_size(extra_bits);
            let dynamic = dynamic_size < size;
            if dynamic {
                size = dynamic_size;
            }
            if let (true, Some(input)) = (storable && stored_size < size, input) {
                self.write_stored_header(input.len(), eof);
                self.write_bytes(input);
                return;
            }
            if dynamic {
                self.write_dynamic_header(num_literals, num_offsets, num_codegens, eof);
            } else {
                self.write_bits(if eof { 3 } else { 2 }, 3);
            }
            self.write_tokens(&tokens, dynamic);
        }
    }

    fn hash4(b: &[u8]) -> u32 {
        let v = u32::from(get(b, 3))
            | u32::from(get(b, 2)) << 8
            | u32::from(get(b, 1)) << 16
            | u32::from(get(b, 0)) << 24;
        v.wrapping_mul(0x1e35_a7bd) >> (32 - HASH_BITS)
    }

    /// The level-6 `compressor`.
    struct Compressor {
        w: BitWriter,
        sync: bool,
        chain_head: i64,
        hash_head: Vec<u32>,
        hash_prev: Vec<u32>,
        hash_offset: i64,
        index: usize,
        window: Vec<u8>,
        window_end: usize,
        block_start: i64,
        byte_available: bool,
        tokens: Vec<u32>,
        length: usize,
        offset: usize,
        max_insert_index: i64,
    }

    impl Compressor {
        fn new() -> Compressor {
            Compressor {
                w: BitWriter::new(),
                sync: false,
                chain_head: -1,
                hash_head: vec![0; HASH_SIZE],
                hash_prev: vec![0; WINDOW_SIZE],
                hash_offset: 1,
                index: 0,
                window: vec![0; 2 * WINDOW_SIZE],
                window_end: 0,
                block_start: 0,
                byte_available: false,
                tokens: Vec::with_capacity(MAX_FLATE_BLOCK_TOKENS + 1),
                length: MIN_MATCH_LENGTH - 1,
                offset: 0,
                max_insert_index: 0,
            }
        }

        fn fill(&mut self, b: &[u8]) -> usize {
            if self.index >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) {
                self.window.copy_within(WINDOW_SIZE..2 * WINDOW_SIZE, 0);
                self.index -= WINDOW_SIZE;
                self.window_end -= WINDOW_SIZE;
                if self.block_start >= WINDOW_SIZE as i64 {
                    self.block_start -= WINDOW_SIZE as i64;
                } else {
                    self.block_start = i64::from(i32::MAX);
                }
                self.hash_offset += WINDOW_SIZE as i64;
                if self.hash_offset > MAX_HASH_OFFSET {
                    let delta = self.hash_offset - 1;
                    self.hash_offset -= delta;
                    self.chain_head -= delta;
                    for v in self.hash_prev.iter_mut().chain(self.hash_head.iter_mut()) {
                        *v = if i64::from(*v) > delta {
                            (i64::from(*v) - delta) as u32
                        } else {
                            0
                        };
                    }
                }
            }
            let room = self.window.len() - self.window_end;
            let n = room.min(b.len());
            self.window[self.window_end..self.window_end + n].copy_from_slice(&b[..n]);
            self.window_end += n;
            n
        }

        fn write(&mut self, mut b: &[u8]) {
            while !b.is_empty() {
                self.deflate();
                let n = self.fill(b);
                b = &b[n..];
            }
        }

        fn sync_flush(&mut self) {
            self.sync = true;
            self.deflate();
            self.w.write_stored_header(0, false);
            self.w.flush();
            self.sync = false;
        }

        fn write_block(&mut self, index: usize) {
            if index > 0 {
                let input = if self.block_start <= index as i64 {
                    self.window.get(self.block_start as usize..index)
                } else {
                    None
                };
                self.block_start = index as i64;
                let tokens = std::mem::take(&mut self.tokens);
                self.w.write_block(&tokens, false, input);
                self.tokens = tokens;
            }
        }

        fn insert_hash(&mut self, index: usize) {
            let h = hash4(self.window.get(index..).unwrap_or_default());
            let slot = (h & HASH_MASK) as usize;
            let head = get(&self.hash_head, slot);
            if let Some(p) = self.hash_prev.get_mut(index & WINDOW_MASK) {
                *p = head;
            }
            if let Some(hh) = self.hash_head.get_mut(slot) {
                *hh = (index as i64 + self.hash_offset) as u32;
            }
        }

        fn find_match(
            &self,
            pos: usize,
            prev_head: i64,
            prev_length: usize,
            lookahead: usize,
        ) -> Option<(usize, usize)> {
            let min_match_look = MAX_MATCH_LENGTH.min(lookahead);
            let win_len = pos + min_match_look;
            let nice = NICE.min(win_len - pos);
            let mut tries = CHAIN;
            let mut length = prev_length;
            if length >= GOOD {
                tries >>= 2;
            }
            let w = &self.window;
            let mut w_end = get(w, pos + length);
            let min_index = pos as i64 - WINDOW_SIZE as i64;
            let mut found = None;
            let mut i = prev_head;
            while tries > 0 {
                let iu = i as usize;
                if w_end == get(w, iu + length) {
                    let a = w.get(iu..iu + min_match_look).unwrap_or_default();
                    let b = w.get(pos..pos + min_match_look).unwrap_or_default();
                    let n = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                    if n > length && (n > MIN_MATCH_LENGTH || pos - iu <= 4096) {
                        length = n;
                        found = Some((n, pos - iu));
                        if n >= nice {
                            break;
                        }
                        w_end = get(w, pos + n);
                    }
                }
                if i == min_index {
                    break;
                }
                i = i64::from(get(&self.hash_prev, iu & WINDOW_MASK)) - self.hash_offset;
                if i < min_index || i < 0 {
                    break;
                }
                tries -= 1;
            }
            found
        }

        fn deflate(&mut self) {
            if self.window_end - self.index < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH && !self.sync {
                return;
            }
            self.max_insert_index = self.window_end as i64 - (MIN_MATCH_LENGTH as i64 - 1);
            loop {
                let lookahead = self.window_end - self.index;
                if lookahead < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH {
                    if !self.sync {
                        break;
                    }
                    if lookahead == 0 {
                        if self.byte_available {
                            let lit = get(&self.window, self.index - 1);
                            self.tokens.push(u32::from(lit));
                            self.byte_available = false;
                        }
                        if !self.tokens.is_empty() {
                            self.write_block(self.index);
                            self.tokens.clear();
                        }
                        break;
                    }
                }
                if (self.index as i64) < self.max_insert_index {
                    let h = hash4(self.window.get(self.index..).unwrap_or_default());
                    let slot = (h & HASH_MASK) as usize;
                    self.chain_head = i64::from(get(&self.hash_head, slot));
                    if let Some(p) = self.hash_prev.get_mut(self.index & WINDOW_MASK) {
                        *p = self.chain_head as u32;
                    }
                    if let Some(hh) = self.hash_head.get_mut(slot) {
                        *hh = (self.index as i64 + self.hash_offset) as u32;
                    }
                }
                let prev_length = self.length;
                let prev_offset = self.offset;
                self.length = MIN_MATCH_LENGTH - 1;
                self.offset = 0;
                let min_index = (self.index as i64 - WINDOW_SIZE as i64).max(0);
                if self.chain_head - self.hash_offset >= min_index
                    && lookahead > prev_length
                    && prev_length < LAZY
                {
                    if let Some((l, o)) = self.find_match(
                        self.index,
                        self.chain_head - self.hash_offset,
                        MIN_MATCH_LENGTH - 1,
                        lookahead,
                    ) {
                        self.length = l;
                        self.offset = o;
                    }
                }
                if prev_length >= MIN_MATCH_LENGTH && self.length <= prev_length {
                    let xl = (prev_length - BASE_MATCH_LENGTH) as u32;
                    let xo = (prev_offset - BASE_MATCH_OFFSET) as u32;
                    self.tokens.push(MATCH_TYPE + (xl << LENGTH_SHIFT) + xo);
                    let new_index = self.index + prev_length - 1;
                    self.index += 1;
                    while self.index < new_index {
                        if (self.index as i64) < self.max_insert_index {
                            self.insert_hash(self.index);
                        }
                        self.index += 1;
                    }
                    self.byte_available = false;
                    self.length = MIN_MATCH_LENGTH - 1;
                    if self.tokens.len() == MAX_FLATE_BLOCK_TOKENS {
                        self.write_block(self.index);
                        self.tokens.clear();
                    }
                } else {
                    if self.byte_available {
                        let i = self.index - 1;
                        let lit = get(&self.window, i);
                        self.tokens.push(u32::from(lit));
                        if self.tokens.len() == MAX_FLATE_BLOCK_TOKENS {
                            self.write_block(i + 1);
                            self.tokens.clear();
                        }
                    }
                    self.index += 1;
                    self.byte_available = true;
                }
            }
        }
    }

    /// DEFLATE of `data` as Go's writer produces it after `Write(data)` and `Flush()`.
    pub(super) fn compress_flushed(data: &[u8]) -> Vec<u8> {
        let mut c = Compressor::new();
        c.write(data);
        c.sync_flush();
        c.w.out
    }
}

// ---------------------------------------------------------------------------------------
// urlencode (Go's url.QueryEscape).

fn urlencode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    Ok(Value::String(out))
}

// ---------------------------------------------------------------------------------------
// Text encodings by IANA name (golang.org/x/text/encoding/ianaindex).

#[derive(Clone, Copy)]
enum TextEncoding {
    Utf8,
    /// UTF-16 with a byte order mark written on encoding and honoured on decoding.
    Utf16Bom,
    Utf16 {
        big_endian: bool,
    },
    /// ISO-8859-1: bytes are code points.
    Latin1,
    /// ISO-8859-9: ISO-8859-1 with six Turkish letters.
    Latin5,
    Whatwg(&'static encoding_rs::Encoding),
}

/// (canonical IANA name, lowercase aliases, implementation).
fn iana_encodings() -> Vec<(&'static str, &'static [&'static str], TextEncoding)> {
    use encoding_rs as e;
    use TextEncoding as T;
    vec![
        ("UTF-8", &["utf-8", "csutf8"], T::Utf8),
        ("UTF-16", &["utf-16", "csutf16"], T::Utf16Bom),
        (
            "UTF-16BE",
            &["utf-16be", "csutf16be"],
            T::Utf16 { big_endian: true },
        ),
        (
            "UTF-16LE",
            &["utf-16le", "csutf16le"],
            T::Utf16 { big_endian: false },
        ),
        (
            "ISO_8859-1:1987",
            &[
                "iso_8859-1:1987",
                "iso-ir-100",
                "iso_8859-1",
                "iso-8859-1",
                "latin1",
                "l1",
                "ibm819",
                "cp819",
                "csisolatin1",
            ],
            T::Latin1,
        ),
        (
            "ISO_8859-2:1987",
            &[
                "iso_8859-2:1987",
                "iso-ir-101",
                "iso_8859-2",
                "iso-8859-2",
                "latin2",
                "l2",
                "csisolatin2",
            ],
            T::Whatwg(e::ISO_8859_2),
        ),
        (
            "ISO_8859-3:1988",
            &[
                "iso_8859-3:1988",
                "iso-ir-109",
                "iso_8859-3",
                "iso-8859-3",
                "latin3",
                "l3",
                "csisolatin3",
            ],
            T::Whatwg(e::ISO_8859_3),
        ),
        (
            "ISO_8859-4:1988",
            &[
                "iso_8859-4:1988",
                "iso-ir-110",
                "iso_8859-4",
                "iso-8859-4",
                "latin4",
                "l4",
                "csisolatin4",
            ],
            T::Whatwg(e::ISO_8859_4),
        ),
        (
            "ISO_8859-5:1988",
            &[
                "iso_8859-5:1988",
                "iso-ir-144",
                "iso_8859-5",
                "iso-8859-5",
                "cyrillic",
                "csisolatincyrillic",
            ],
            T::Whatwg(e::ISO_8859_5),
        ),
        (
            "ISO_8859-6:1987",
            &[
                "iso_8859-6:1987",
                "iso-ir-127",
                "iso_8859-6",
                "iso-8859-6",
                "ecma-114",
                "asmo-708",
                "arabic",
                "csisolatinarabic",
            ],
            T::Whatwg(e::ISO_8859_6),
        ),
        (
            "ISO_8859-6-E",
            &["iso_8859-6-e", "csiso88596e", "iso-8859-6-e"],
            T::Whatwg(e::ISO_8859_6),
        ),
        (
            "ISO_8859-6-I",
            &["iso_8859-6-i", "csiso88596i", "iso-8859-6-i"],
            T::Whatwg(e::ISO_8859_6),
        ),
        (
            "ISO_8859-7:1987",
            &[
                "iso_8859-7:1987",
                "iso-ir-126",
                "iso_8859-7",
                "iso-8859-7",
                "elot_928",
                "ecma-118",
                "greek",
                "greek8",
                "csisolatingreek",
            ],
            T::Whatwg(e::ISO_8859_7),
        ),
        (
            "ISO_8859-8:1988",
            &[
                "iso_8859-8:1988",
                "iso-ir-138",
                "iso_8859-8",
                "iso-8859-8",
                "hebrew",
                "csisolatinhebrew",
            ],
            T::Whatwg(e::ISO_8859_8),
        ),
        (
            "ISO_8859-8-E",
            &["iso_8859-8-e", "csiso88598e", "iso-8859-8-e"],
            T::Whatwg(e::ISO_8859_8),
        ),
        (
            "ISO_8859-8-I",
            &["iso_8859-8-i", "csiso88598i", "iso-8859-8-i"],
            T::Whatwg(e::ISO_8859_8_I),
        ),
        (
            "ISO_8859-9:1989",
            &[
                "iso_8859-9:1989",
                "iso-ir-148",
                "iso_8859-9",
                "iso-8859-9",
                "latin5",
                "l5",
                "csisolatin5",
            ],
            T::Latin5,
        ),
        (
            "ISO-8859-10",
            &[
                "iso-8859-10",
                "iso-ir-157",
                "l6",
                "iso_8859-10:1992",
                "csisolatin6",
                "latin6",
            ],
            T::Whatwg(e::ISO_8859_10),
        ),
        (
            "ISO-8859-13",
            &["iso-8859-13", "csiso885913"],
            T::Whatwg(e::ISO_8859_13),
        ),
        (
            "ISO-8859-14",
            &[
                "iso-8859-14",
                "iso-ir-199",
                "iso_8859-14:1998",
                "iso_8859-14",
                "latin8",
                "iso-celtic",
                "l8",
                "csiso885914",
            ],
            T::Whatwg(e::ISO_8859_14),
        ),
        (
            "ISO-8859-15",
            &["iso-8859-15", "iso_8859-15", "latin-9", "csiso885915"],
            T::Whatwg(e::ISO_8859_15),
        ),
        (
            "ISO-8859-16",
            &[
                "iso-8859-16",
                "iso-ir-226",
                "iso_8859-16:2001",
                "iso_8859-16",
                "latin10",
                "l10",
                "csiso885916",
            ],
            T::Whatwg(e::ISO_8859_16),
        ),
        (
            "Shift_JIS",
            &["shift_jis", "ms_kanji", "csshiftjis"],
            T::Whatwg(e::SHIFT_JIS),
        ),
        (
            "Extended_UNIX_Code_Packed_Format_for_Japanese",
            &[
                "extended_unix_code_packed_format_for_japanese",
                "cseucpkdfmtjapanese",
                "euc-jp",
            ],
            T::Whatwg(e::EUC_JP),
        ),
        (
            "ISO-2022-JP",
            &["iso-2022-jp", "csiso2022jp"],
            T::Whatwg(e::ISO_2022_JP),
        ),
        ("EUC-KR", &["euc-kr", "cseuckr"], T::Whatwg(e::EUC_KR)),
        (
            "GBK",
            &["gbk", "cp936", "ms936", "windows-936", "csgbk"],
            T::Whatwg(e::GBK),
        ),
        ("GB18030", &["gb18030", "csgb18030"], T::Whatwg(e::GB18030)),
        ("Big5", &["big5", "csbig5"], T::Whatwg(e::BIG5)),
        ("KOI8-R", &["koi8-r", "cskoi8r"], T::Whatwg(e::KOI8_R)),
        ("KOI8-U", &["koi8-u", "cskoi8u"], T::Whatwg(e::KOI8_U)),
        (
            "macintosh",
            &["macintosh", "mac", "csmacintosh"],
            T::Whatwg(e::MACINTOSH),
        ),
        (
            "IBM866",
            &["ibm866", "cp866", "866", "csibm866"],
            T::Whatwg(e::IBM866),
        ),
        (
            "windows-874",
            &["windows-874", "cswindows874"],
            T::Whatwg(e::WINDOWS_874),
        ),
        (
            "windows-1250",
            &["windows-1250", "cswindows1250"],
            T::Whatwg(e::WINDOWS_1250),
        ),
        (
            "windows-1251",
            &["windows-1251", "cswindows1251"],
            T::Whatwg(e::WINDOWS_1251),
        ),
        (
            "windows-1252",
            &["windows-1252", "cswindows1252"],
            T::Whatwg(e::WINDOWS_1252),
        ),
        (
            "windows-1253",
            &["windows-1253", "cswindows1253"],
            T::Whatwg(e::WINDOWS_1253),
        ),
        (
            "windows-1254",
            &["windows-1254", "cswindows1254"],
            T::Whatwg(e::WINDOWS_1254),
        ),
        (
            "windows-1255",
            &["windows-1255", "cswindows1255"],
            T::Whatwg(e::WINDOWS_1255),
        ),
        (
            "windows-1256",
            &["windows-1256", "cswindows1256"],
            T::Whatwg(e::WINDOWS_1256),
        ),
        (
            "windows-1257",
            &["windows-1257", "cswindows1257"],
            T::Whatwg(e::WINDOWS_1257),
        ),
        (
            "windows-1258",
            &["windows-1258", "cswindows1258"],
            T::Whatwg(e::WINDOWS_1258),
        ),
    ]
}

/// `ianaindex.IANA.Encoding(name)` then `IANA.Name(enc)`.
fn lookup_encoding(name: &str) -> Result<(&'static str, TextEncoding), FuncError> {
    let key = name.trim().to_lowercase();
    iana_encodings()
        .into_iter()
        .find(|(_, aliases, _)| aliases.contains(&key.as_str()))
        .map(|(canonical, _, enc)| (canonical, enc))
        .ok_or_else(|| {
            FuncError::arg(
                1,
                format!(
                    "{} is not a supported IANA encoding name or alias in this Terraform version",
                    go_quote(name)
                ),
            )
        })
}

/// The six code points where ISO-8859-9 differs from ISO-8859-1.
const LATIN5_DIFF: [(u8, char); 6] = [
    (0xd0, '\u{11e}'),
    (0xdd, '\u{130}'),
    (0xde, '\u{15e}'),
    (0xf0, '\u{11f}'),
    (0xfd, '\u{131}'),
    (0xfe, '\u{15f}'),
];

/// The encoded bytes, or None when a character has no representation.
fn encode_text(s: &str, enc: TextEncoding) -> Option<Vec<u8>> {
    match enc {
        TextEncoding::Utf8 => Some(s.as_bytes().to_vec()),
        TextEncoding::Utf16Bom => {
            let mut out = vec![0xfe, 0xff];
            for u in s.encode_utf16() {
                out.extend_from_slice(&u.to_be_bytes());
            }
            Some(out)
        }
        TextEncoding::Utf16 { big_endian } => {
            let mut out = Vec::with_capacity(s.len() * 2);
            for u in s.encode_utf16() {
                out.extend_from_slice(&if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                });
            }
            Some(out)
        }
        TextEncoding::Latin1 => s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect(),
        TextEncoding::Latin5 => s
            .chars()
            .map(|c| {
                if let Some((b, _)) = LATIN5_DIFF.iter().find(|(_, d)| *d == c) {
                    return Some(*b);
                }
                let b = u8::try_from(u32::from(c)).ok()?;
                if LATIN5_DIFF.iter().any(|(x, _)| *x == b) {
                    return None;
                }
                Some(b)
            })
            .collect(),
        TextEncoding::Whatwg(e) => {
            let (bytes, _, had_errors) = e.encode(s);
            (!had_errors).then(|| bytes.into_owned())
        }
    }
}

/// The decoded text (with U+FFFD for undecodable input), or None on a hard failure.
fn decode_text(b: &[u8], enc: TextEncoding) -> Option<String> {
    fn utf16(b: &[u8], big_endian: bool) -> String {
        let units = b.chunks(2).map(|c| match (c.first(), c.get(1)) {
            (Some(&x), Some(&y)) => Ok(if big_endian {
                u16::from_be_bytes([x, y])
            } else {
                u16::from_le_bytes([x, y])
            }),
            _ => Err(()),
        });
        let mut out = String::new();
        let mut pending: Vec<u16> = Vec::new();
        for u in units {
            match u {
                Ok(u) => pending.push(u),
                Err(()) => out.push('\u{fffd}'),
            }
        }
        let mut s: String = char::decode_utf16(pending.iter().copied())
            .map(|r| r.unwrap_or('\u{fffd}'))
            .collect();
        s.push_str(&out);
        s
    }
    match enc {
        TextEncoding::Utf8 => Some(String::from_utf8_lossy(b).into_owned()),
        TextEncoding::Utf16Bom => {
            if b.len() < 2 {
                return None;
            }
            match (b.first(), b.get(1)) {
                (Some(0xfe), Some(0xff)) => Some(utf16(b.get(2..).unwrap_or_default(), true)),
                (Some(0xff), Some(0xfe)) => Some(utf16(b.get(2..).unwrap_or_default(), false)),
                _ => Some(utf16(b, true)),
            }
        }
        TextEncoding::Utf16 { big_endian } => Some(utf16(b, big_endian)),
        TextEncoding::Latin1 => Some(b.iter().map(|&c| char::from(c)).collect()),
        TextEncoding::Latin5 => Some(
            b.iter()
                .map(|&c| {
                    LATIN5_DIFF
                        .iter()
                        .find(|(x, _)| *x == c)
                        .map_or(char::from(c), |(_, d)| *d)
                })
                .collect(),
        ),
        TextEncoding::Whatwg(e) => Some(e.decode_without_bom_handling(b).0.into_owned()),
    }
}

fn textencodebase64(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let (name, enc) = lookup_encoding(str_arg(args, 1)?)?;
    let bytes = encode_text(s, enc).ok_or_else(|| {
        FuncError::arg(
            0,
            format!("the given string contains characters that cannot be represented in {name}"),
        )
    })?;
    Ok(Value::String(base64_encode(&bytes)))
}

fn textdecodebase64(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let (name, enc) = lookup_encoding(str_arg(args, 1)?)?;
    let bytes = base64_decode(s.as_bytes()).map_err(|off| {
        FuncError::arg(
            0,
            format!("the given value is has an invalid base64 symbol at offset {off}"),
        )
    })?;
    match decode_text(&bytes, enc) {
        Some(text) if !text.contains('\u{fffd}') => Ok(Value::String(text)),
        _ => Err(FuncError::arg(
            0,
            format!("the given string contains symbols that are not defined for {name}"),
        )),
    }
}

// ---------------------------------------------------------------------------------------
// csvdecode (Go's encoding/csv).

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
const ERR_FIELD_COUNT: &str = "wrong number of fields";

enum CsvError {
    Eof,
    Parse { line: usize, err: &'static str },
}

struct CsvReader<'a> {
    data: &'a [u8],
    pos: usize,
    num_line: usize,
    fields_per_record: usize,
}

fn length_nl(b: &[u8]) -> usize {
    usize::from(b.last() == Some(&b'\n'))
}

impl<'a> CsvReader<'a> {
    fn new(data: &'a [u8]) -> Self {
        CsvReader {
            data,
            pos: 0,
            num_line: 0,
            fields_per_record: 0,
        }
    }

    /// One line including its `\n` (normalised from `\r\n`); None at the end of input.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if rest.is_empty() {
            return None;
        }
        let len = rest
            .iter()
            .position(|&c| c == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let mut line = rest.get(..len).unwrap_or_default().to_vec();
        self.pos += len;
        if line.last() != Some(&b'\n') && line.last() == Some(&b'\r') {
            line.pop();
        }
        self.num_line += 1;
        let n = line.len();
        if n >= 2 && line.get(n - 2) == Some(&b'\r') && line.get(n - 1) == Some(&b'\n') {
            line.truncate(n - 2);
            line.push(b'\n');
        }
        Some(line)
    }

    fn read_record(&mut self) -> Result<Vec<String>, CsvError> {
        let mut line = loop {
            match self.read_line() {
                None => return Err(CsvError::Eof),
                Some(l) if l.len() == length_nl(&l) => continue,
                Some(l) => break l,
            }
        };
        let rec_line = self.num_line;
        let mut buffer: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut pos_line = self.num_line;
        let mut err: Option<CsvError> = None;
        let mut off = 0usize;
        'fields: loop {
            let cur = line.get(off..).unwrap_or_default();
            if cur.first() != Some(&b'"') {
                // A non-quoted field.
                let comma = cur.iter().position(|&c| c == b',');
                let field = match comma {
                    Some(i) => cur.get(..i).unwrap_or_default(),
                    None => cur.get(..cur.len() - length_nl(cur)).unwrap_or_default(),
                };
                if field.contains(&b'"') {
                    err = Some(CsvError::Parse {
                        line: self.num_line,
                        err: ERR_BARE_QUOTE,
                    });
                    break 'fields;
                }
                buffer.extend_from_slice(field);
                ends.push(buffer.len());
                match comma {
                    Some(i) => {
                        off += i + 1;
                        continue 'fields;
                    }
                    None => break 'fields,
                }
            }
            // A quoted field.
            off += 1;
            loop {
                let cur = line.get(off..).unwrap_or_default();
                if let Some(i) = cur.iter().position(|&c| c == b'"') {
                    buffer.extend_from_slice(cur.get(..i).unwrap_or_default());
                    off += i + 1;
                    let after = line.get(off..).unwrap_or_default();
                    match after.first() {
                        Some(b'"') => {
                            buffer.push(b'"');
                            off += 1;
                        }
                        Some(b',') => {
                            off += 1;
                            ends.push(buffer.len());
                            continue 'fields;
                        }
                        _ if length_nl(after) == after.len() => {
                            ends.push(buffer.len());
                            break 'fields;
                        }
                        _ => {
                            err = Some(CsvError::Parse {
                                line: self.num_line,
                                err: ERR_QUOTE,
                            });
                            break 'fields;
                        }
                    }
                } else if !cur.is_empty() {
                    buffer.extend_from_slice(cur);
                    match self.read_line() {
                        Some(l) => {
                            line = l;
                            pos_line += 1;
                        }
                        None => line = Vec::new(),
                    }
                    off = 0;
                } else {
                    err = Some(CsvError::Parse {
                        line: pos_line,
                        err: ERR_QUOTE,
                    });
                    break 'fields;
                }
            }
        }
        let mut fields = Vec::with_capacity(ends.len());
        let mut start = 0;
        for end in ends {
            fields.push(
                String::from_utf8_lossy(buffer.get(start..end).unwrap_or_default()).into_owned(),
            );
            start = end;
        }
        if let Some(e) = err {
            return Err(e);
        }
        if self.fields_per_record > 0 {
            if fields.len() != self.fields_per_record {
                return Err(CsvError::Parse {
                    line: rec_line,
                    err: ERR_FIELD_COUNT,
                });
            }
        } else {
            self.fields_per_record = fields.len();
        }
        Ok(fields)
    }
}

fn csv_error(line: usize, err: &str) -> FuncError {
    FuncError::new(format!("CSV parse error on line {line}: {err}"))
}

fn csvdecode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let mut r = CsvReader::new(s.as_bytes());
    let headers = match r.read_record() {
        Ok(h) => h,
        Err(CsvError::Eof) => return Err(FuncError::new("missing header line")),
        Err(CsvError::Parse { line, err }) => return Err(csv_error(line, err)),
    };
    let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
    for name in &headers {
        if attrs.insert(name.clone(), Type::String).is_some() {
            return Err(FuncError::new(format!(
                "duplicate column name {}",
                go_quote(name)
            )));
        }
    }
    let mut rows = Vec::new();
    loop {
        match r.read_record() {
            Ok(cols) => {
                let obj: BTreeMap<String, Value> = headers
                    .iter()
                    .cloned()
                    .zip(cols.into_iter().map(Value::String))
                    .collect();
                rows.push(Value::Object(obj));
            }
            Err(CsvError::Eof) => break,
            Err(CsvError::Parse { line, err }) => return Err(csv_error(line, err)),
        }
    }
    Ok(Value::List(Type::Object(attrs), rows))
}

// ---------------------------------------------------------------------------------------
// JSON (cty's json package, via crate::json).

fn jsonencode(args: &[Value]) -> Result<Value, FuncError> {
    let v = args
        .first()
        .ok_or_else(|| FuncError::new("missing argument"))?;
    if !v.is_wholly_known() {
        return Ok(Value::Unknown(Type::String));
    }
    if v.is_null() {
        return Ok(Value::String("null".to_string()));
    }
    crate::json::encode(v)
        .map(Value::String)
        .map_err(FuncError::new)
}

fn jsondecode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    crate::json::decode_go(s).map_err(FuncError::new)
}

// ---------------------------------------------------------------------------------------
// YAML.

fn yamldecode(args: &[Value]) -> Result<Value, FuncError> {
    yaml::decode(str_arg(args, 0)?).map_err(FuncError::new)
}

fn yamlencode(args: &[Value]) -> Result<Value, FuncError> {
    let v = args
        .first()
        .ok_or_else(|| FuncError::new("missing argument"))?;
    yaml::encode(v).map(Value::String).map_err(FuncError::new)
}

/// A number as cty writes it for YAML and for number-to-string conversion.
fn number_text(n: &Number) -> String {
    n.to_string()
}

mod yaml {
    //! YAML as go-cty-yaml v1.0.3 (Terraform 1.5's `yamldecode`/`yamlencode`) does it.
    //!
    //! Decoding reads events from saphyr-parser (a libyaml-derived parser) and applies
    //! go-cty-yaml's two passes: the implied type first, then the value converted to that
    //! type (which is how quoted and block scalars become strings). Errors are worded and
    //! positioned as go-cty-yaml does: `on line L, column C: ...` with libyaml's zero-based
    //! line number and one-based column, and no position for errors on the first line.
    //!
    //! Encoding is a port of the libyaml emitter (as vendored by go-cty-yaml), limited to
    //! the events go-cty-yaml produces: no tags, no anchors, block style collections.

    use std::collections::{BTreeMap, HashMap};

    use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

    use super::{base64_decode, number_text};
    use crate::functions::datetime::parse_yaml_timestamp;
    use crate::number::Number;
    use crate::types::{go_quote, Type};
    use crate::value::Value;

    /// Deepest nesting of collections accepted (libyaml allows 10000; values nested that
    /// deeply are not useful and would strain recursive consumers).
    const MAX_DEPTH: usize = 1000;

    const TAG_STR: &str = "tag:yaml.org,2002:str";
    const TAG_BOOL: &str = "tag:yaml.org,2002:bool";
    const TAG_INT: &str = "tag:yaml.org,2002:int";
    const TAG_FLOAT: &str = "tag:yaml.org,2002:float";
    const TAG_NULL: &str = "tag:yaml.org,2002:null";
    const TAG_TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
    const TAG_BINARY: &str = "tag:yaml.org,2002:binary";
    const TAG_MAP: &str = "tag:yaml.org,2002:map";
    const TAG_SEQ: &str = "tag:yaml.org,2002:seq";

    // -----------------------------------------------------------------------------------
    // Events.

    /// A libyaml-style position: zero-based line and column.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct Mark {
        line: usize,
        col: usize,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Style {
        Plain,
        SingleQuoted,
        DoubleQuoted,
        Literal,
        Folded,
    }

    #[derive(Clone, Debug)]
    enum Ev {
        StreamStart,
        StreamEnd(Mark),
        DocStart(Mark),
        DocEnd,
        Alias {
            name: String,
            mark: Mark,
        },
        Scalar {
            value: String,
            style: Style,
            anchor: Option<String>,
            tag: String,
            mark: Mark,
        },
        SeqStart {
            anchor: Option<String>,
            tag: String,
            mark: Mark,
        },
        SeqEnd,
        MapStart {
            anchor: Option<String>,
            tag: String,
            mark: Mark,
        },
        MapEnd,
        /// A syntax error: the formatted message.
        Error(String),
    }

    fn ev_mark(ev: &Ev) -> Mark {
        match ev {
            Ev::StreamEnd(m) | Ev::DocStart(m) => *m,
            Ev::Alias { mark, .. }
            | Ev::Scalar { mark, .. }
            | Ev::SeqStart { mark, .. }
            | Ev::MapStart { mark, .. } => *mark,
            _ => Mark::default(),
        }
    }

    /// go-cty-yaml's `parseEventErrorWrap`.
    fn event_err(mark: Mark, msg: impl Into<String>) -> String {
        let msg = msg.into();
        if mark.line == 0 {
            msg
        } else {
            format!("on line {}, column {}: {msg}", mark.line, mark.col + 1)
        }
    }

    fn is_anchor_end(c: char) -> bool {
        c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}')
    }

    /// The anchor name of a node whose properties start at character `start`: `&name`,
    /// possibly after a tag.
    fn anchor_name_at(chars: &[char], start: usize) -> Option<String> {
        let mut i = start;
        if chars.get(i) == Some(&'!') {
            while chars.get(i).is_some_and(|&c| !c.is_whitespace()) {
                i += 1;
            }
            loop {
                match chars.get(i) {
                    Some(c) if c.is_whitespace() => i += 1,
                    Some('#') => {
                        while chars.get(i).is_some_and(|&c| c != '\n' && c != '\r') {
                            i += 1;
                        }
                    }
                    _ => break,
                }
            }
        }
        if chars.get(i) != Some(&'&') {
            return None;
        }
        let name: String = chars
            .iter()
            .skip(i + 1)
            .take_while(|&&c| !is_anchor_end(c))
            .collect();
        Some(name)
    }

    /// The alias name at character `start` (`*name`).
    fn alias_name_at(chars: &[char], start: usize) -> String {
        chars
            .iter()
            .skip(start + 1)
            .take_while(|&&c| !is_anchor_end(c))
            .collect()
    }

    /// libyaml's mark at the end of the stream (a new line is forced).
    fn stream_end_mark(src: &str) -> Mark {
        let mut m = Mark::default();
        let mut chars = src.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    m.line += 1;
                    m.col = 0;
                }
                '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                    m.line += 1;
                    m.col = 0;
                }
                _ => m.col += 1,
            }
        }
        if m.col != 0 {
            m.line += 1;
            m.col = 0;
        }
        m
    }

    /// A saphyr-parser error as go-cty-yaml reports a libyaml error.
    fn scan_error(e: &ScanError, chars: &[char]) -> String {
        let marker = e.marker();
        let mark = Mark {
            line: marker.line().saturating_sub(1),
            col: marker.col(),
        };
        let info = e.info();
        if info == "while parsing node, found unknown anchor" {
            let name = alias_name_at(chars, marker.index());
            return event_err(
                mark,
                format!("reference to undefined anchor {}", go_quote(&name)),
            );
        }
        let mut problem = match info.strip_prefix("while ") {
            Some(rest) => rest
                .split_once(", ")
                .map_or(info.to_string(), |(_, p)| p.to_string()),
            None => info.to_string(),
        };
        problem = match problem.as_str() {
            "expected ',' or ']'" => "did not find expected ',' or ']'".to_string(),
            "simple key expect ':'" | "simple key expected" => {
                "could not find expected ':'".to_string()
            }
            "did not find expected <document-start>" => {
                "did not find expected <document start>".to_string()
            }
            "the handle wasn't declared" => "found undefined tag handle".to_string(),
            "unexpected eof" => "found unexpected end of stream".to_string(),
            "tabs disallowed within this context (block indentation)"
            | "tabs disallowed in this context"
            | "tab cannot be used as indentation" => {
                "found character that cannot start any token".to_string()
            }
            p if p.starts_with("unexpected character") => {
                "found character that cannot start any token".to_string()
            }
            _ => problem,
        };
        let parser_error = matches!(
            problem.as_str(),
            "did not find expected key"
                | "did not find expected '-' indicator"
                | "did not find expected ',' or ']'"
                | "did not find expected ',' or '}'"
                | "did not find expected node content"
                | "did not find expected <document start>"
                | "found undefined tag handle"
        );
        if mark.line == 0 {
            problem
        } else if parser_error {
            format!("on line {}, column {}: {problem}", mark.line, mark.col + 1)
        } else {
            format!("on line {}, column 1: {problem}", mark.line + 1)
        }
    }

    fn collect_events(src: &str) -> Vec<Ev> {
        let chars: Vec<char> = src.chars().collect();
        let mut out = Vec::new();
        let mut names: HashMap<usize, String> = HashMap::new();
        let mut parser = Parser::new_from_str(src);
        let tag_text = |t: &Option<std::borrow::Cow<'_, saphyr_parser::Tag>>| -> String {
            t.as_ref()
                .map(|t| format!("{}{}", t.handle, t.suffix))
                .unwrap_or_default()
        };
        while let Some(next) = parser.next_event() {
            let (ev, span) = match next {
                Ok(x) => x,
                Err(e) => {
                    out.push(Ev::Error(scan_error(&e, &chars)));
                    break;
                }
            };
            let mark = Mark {
                line: span.start.line().saturating_sub(1),
                col: span.start.col(),
            };
            let mut anchor = |id: usize| -> Option<String> {
                if id == 0 {
                    return None;
                }
                let name = anchor_name_at(&chars, span.start.index()).unwrap_or_default();
                names.insert(id, name.clone());
                Some(name)
            };
            let e = match ev {
                Event::Nothing => continue,
                Event::StreamStart => Ev::StreamStart,
                Event::StreamEnd => {
                    out.push(Ev::StreamEnd(stream_end_mark(src)));
                    break;
                }
                Event::DocumentStart(_) => Ev::DocStart(mark),
                Event::DocumentEnd => Ev::DocEnd,
                Event::Alias(id) => Ev::Alias {
                    name: names
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| alias_name_at(&chars, span.start.index())),
                    mark,
                },
                Event::Scalar(value, style, id, tag) => Ev::Scalar {
                    value: value.into_owned(),
                    style: match style {
                        ScalarStyle::Plain => Style::Plain,
                        ScalarStyle::SingleQuoted => Style::SingleQuoted,
                        ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                        ScalarStyle::Literal => Style::Literal,
                        ScalarStyle::Folded => Style::Folded,
                    },
                    anchor: anchor(id),
                    tag: tag_text(&tag),
                    mark,
                },
                Event::SequenceStart(id, tag) => Ev::SeqStart {
                    anchor: anchor(id),
                    tag: tag_text(&tag),
                    mark,
                },
                Event::SequenceEnd => Ev::SeqEnd,
                Event::MappingStart(id, tag) => Ev::MapStart {
                    anchor: anchor(id),
                    tag: tag_text(&tag),
                    mark,
                },
                Event::MappingEnd => Ev::MapEnd,
            };
            out.push(e);
        }
        out
    }

    // -----------------------------------------------------------------------------------
    // Scalar resolution (go-cty-yaml's resolve.go).

    enum Resolved {
        Value(Value),
        Infinity,
    }

    fn resolve_map(src: &str) -> Option<(Resolved, &'static str)> {
        Some(match src {
            "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
                (Resolved::Value(Value::Bool(true)), TAG_BOOL)
            }
            "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off"
            | "OFF" => (Resolved::Value(Value::Bool(false)), TAG_BOOL),
            "" | "~" | "null" | "Null" | "NULL" => {
                (Resolved::Value(Value::Null(Type::Dynamic)), TAG_NULL)
            }
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf"
            | "-.INF" => (Resolved::Infinity, TAG_FLOAT),
            _ => return None,
        })
    }

    fn hint(src: &str) -> u8 {
        match src.as_bytes().first() {
            None => b'N',
            Some(b'+' | b'-') => b'S',
            Some(b'0'..=b'9') => b'D',
            Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
                b'M'
            }
            Some(b'.') => b'.',
            _ => 0,
        }
    }

    /// `\A[-+]?(0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)\z`
    fn is_yaml_int(s: &str) -> bool {
        let s = s.strip_prefix(['-', '+']).unwrap_or(s);
        let all = |t: &str, f: fn(char) -> bool| !t.is_empty() && t.chars().all(f);
        if let Some(rest) = s.strip_prefix("0o") {
            if all(rest, |c| matches!(c, '0'..='7' | '_')) {
                return true;
            }
        }
        if let Some(rest) = s.strip_prefix("0x") {
            if all(rest, |c| c.is_ascii_hexdigit() || c == '_') {
                return true;
            }
        }
        all(s, |c| c.is_ascii_digit() || c == '_')
    }

    /// `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`
    fn is_yaml_float(s: &str) -> bool {
        let b = s.as_bytes();
        let mut i = 0;
        if matches!(b.first(), Some(b'-' | b'+')) {
            i = 1;
        }
        let digits = |i: &mut usize| {
            let st = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i - st
        };
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return false;
            }
        } else {
            if digits(&mut i) == 0 {
                return false;
            }
            if b.get(i) == Some(&b'.') {
                i += 1;
                digits(&mut i);
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'-' | b'+')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return false;
            }
        }
        i == b.len()
    }

    /// cty's `ParseNumberVal` (Go's `big.ParseFloat` in base 10).
    fn parse_number_val(s: &str) -> Option<Resolved> {
        let (neg, body) = match s.as_bytes().first() {
            Some(b'-') => (true, s.get(1..)?),
            Some(b'+') => (false, s.get(1..)?),
            _ => (false, s),
        };
        if body.eq_ignore_ascii_case("inf") {
            return Some(Resolved::Infinity);
        }
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (body.get(..i)?, Some(body.get(i + 1..)?)),
            None => (body, None),
        };
        let (int_part, frac_part) = match mant.find('.') {
            Some(i) => (mant.get(..i)?, mant.get(i + 1..)?),
            None => (mant, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.bytes().all(|c| c.is_ascii_digit())
            || !frac_part.bytes().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let mut text = String::new();
        if neg {
            text.push('-');
        }
        let int_trim = int_part.trim_start_matches('0');
        text.push_str(if int_trim.is_empty() { "0" } else { int_trim });
        if !frac_part.is_empty() {
            text.push('.');
            text.push_str(frac_part);
        }
        if let Some(e) = exp {
            let (esign, edigits) = match e.as_bytes().first() {
                Some(b'-') => ("-", e.get(1..)?),
                Some(b'+') => ("", e.get(1..)?),
                _ => ("", e),
            };
            if edigits.is_empty() || !edigits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let et = edigits.trim_start_matches('0');
            text.push('e');
            text.push_str(esign);
            text.push_str(if et.is_empty() { "0" } else { et });
        }
        Number::parse(&text).map(|n| Resolved::Value(Value::Number(n)))
    }

    /// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`.
    fn parse_go_int(s: &str) -> Option<Number> {
        let (neg, body, signed) = match s.as_bytes().first() {
            Some(b'-') => (true, s.get(1..)?, true),
            Some(b'+') => (false, s.get(1..)?, true),
            _ => (false, s, false),
        };
        let lower = body.to_ascii_lowercase();
        let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
            (16, d.to_string())
        } else if let Some(d) = lower.strip_prefix("0o") {
            (8, d.to_string())
        } else if let Some(d) = lower.strip_prefix("0b") {
            (2, d.to_string())
        } else if lower.len() > 1 && lower.starts_with('0') {
            (8, lower.get(1..)?.to_string())
        } else {
            (10, lower.clone())
        };
        if digits.is_empty() {
            return None;
        }
        let mag = u64::from_str_radix(&digits, radix).ok()?;
        if neg {
            if mag <= 1u64 << 63 {
                return Some(Number::from_i64((mag as i64).wrapping_neg()));
            }
            return None;
        }
        if mag <= i64::MAX as u64 || !signed {
            return Some(Number::from_u64(mag));
        }
        None
    }

    fn resolvable_tag(tag: &str) -> bool {
        matches!(
            tag,
            "" | TAG_STR | TAG_BOOL | TAG_INT | TAG_FLOAT | TAG_NULL | TAG_TIMESTAMP | TAG_BINARY
        )
    }

    fn finite(r: Resolved) -> Result<Value, String> {
        match r {
            Resolved::Value(v) => Ok(v),
            Resolved::Infinity => Err("floating point infinity is not supported".to_string()),
        }
    }

    /// go-cty-yaml's `resolveScalar(tag, src, style)`.
    fn resolve_scalar(tag: &str, src: &str, style: Style) -> Result<Value, String> {
        if !resolvable_tag(tag) {
            return Err(format!("unsupported tag {}", go_quote(tag)));
        }
        let mut tag = tag;
        let h = hint(src);
        if h != 0 && tag != TAG_STR && tag != TAG_BINARY {
            if matches!(style, Style::SingleQuoted | Style::DoubleQuoted) {
                return Ok(Value::String(src.to_string()));
            }
            if let Some((v, _)) = resolve_map(src) {
                return finite(v);
            }
            if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
                return Err("floating point NaN is not supported".to_string());
            }
            match h {
                b'.' => {
                    if let Some(v) = parse_number_val(src) {
                        return finite(v);
                    }
                }
                b'D' | b'S' => {
                    if tag.is_empty() || tag == TAG_TIMESTAMP {
                        if let Some(t) = parse_yaml_timestamp(src) {
                            return Ok(Value::String(t));
                        }
                    }
                    if is_yaml_int(src) {
                        tag = TAG_INT;
                    } else if is_yaml_float(src) {
                        tag = TAG_FLOAT;
                    }
                }
                _ => {}
            }
        }
        match tag {
            TAG_STR | TAG_BINARY => {
                if tag == TAG_BINARY && base64_decode(src.as_bytes()).is_err() {
                    return Err(format!(
                        "cannot parse {} as {tag}: not valid base64",
                        go_quote(src)
                    ));
                }
                Ok(Value::String(src.to_string()))
            }
            TAG_BOOL => match resolve_map(src) {
                Some((Resolved::Value(v), TAG_BOOL)) => Ok(v),
                _ => Err(format!("cannot parse {} as {tag}", go_quote(src))),
            },
            TAG_FLOAT | TAG_INT => {
                let plain = src.replace('_', "");
                if let Some(v) = parse_number_val(&plain) {
                    return finite(v);
                }
                if let Some(n) = parse_go_int(&plain) {
                    return Ok(Value::Number(n));
                }
                Err(format!("cannot parse {} as {tag}", go_quote(src)))
            }
            TAG_TIMESTAMP => parse_yaml_timestamp(src)
                .map(Value::String)
                .ok_or_else(|| format!("cannot parse {} as {tag}", go_quote(src))),
            TAG_NULL => Ok(Value::Null(Type::Dynamic)),
            "" => Ok(Value::String(src.to_string())),
            _ => Err(format!("unsupported tag {}", go_quote(tag))),
        }
    }

    /// cty's conversion of a primitive to string.
    fn to_string_value(v: Value) -> Value {
        match v {
            Value::Number(n) => Value::String(number_text(&n)),
            Value::Bool(b) => Value::String(b.to_string()),
            Value::Null(_) => Value::Null(Type::String),
            other => other,
        }
    }

    // -----------------------------------------------------------------------------------
    // The two passes.

    trait Builder {
        type Out: Clone;
        fn scalar(
            &mut self,
            value: &str,
            style: Style,
            tag: &str,
            mark: Mark,
        ) -> Result<Self::Out, String>;
        fn seq(&mut self, items: Vec<Self::Out>) -> Self::Out;
        fn map(&mut self, entries: Vec<(String, Self::Out)>) -> Self::Out;
    }

    /// `impliedType`.
    struct TypeBuilder;

    impl Builder for TypeBuilder {
        type Out = Type;
        fn scalar(
            &mut self,
            value: &str,
            style: Style,
            tag: &str,
            mark: Mark,
        ) -> Result<Type, String> {
            if tag.is_empty() && style != Style::Plain {
                return Ok(Type::String);
            }
            let v = resolve_scalar(tag, value, style).map_err(|e| event_err(mark, e))?;
            Ok(match v {
                Value::Null(_) => Type::Dynamic,
                v => v.ty(),
            })
        }
        fn seq(&mut self, items: Vec<Type>) -> Type {
            Type::Tuple(items)
        }
        fn map(&mut self, entries: Vec<(String, Type)>) -> Type {
            Type::Object(entries.into_iter().collect())
        }
    }

    /// `Unmarshal`, with the final conversion to the implied type folded in.
    struct ValueBuilder;

    impl Builder for ValueBuilder {
        type Out = Value;
        fn scalar(
            &mut self,
            value: &str,
            style: Style,
            tag: &str,
            mark: Mark,
        ) -> Result<Value, String> {
            let v = resolve_scalar(tag, value, style).map_err(|e| event_err(mark, e))?;
            if tag.is_empty() && style != Style::Plain {
                return Ok(to_string_value(v));
            }
            Ok(v)
        }
        fn seq(&mut self, items: Vec<Value>) -> Value {
            Value::Tuple(items)
        }
        fn map(&mut self, entries: Vec<(String, Value)>) -> Value {
            let m: BTreeMap<String, Value> = entries.into_iter().collect();
            Value::Object(m)
        }
    }

    struct Anchors<O> {
        pending: HashMap<String, usize>,
        done: HashMap<String, (O, Size)>,
    }

    /// The number of nodes of a built value and the bytes of its scalars: what an alias
    /// copies, counted against the evaluation's budget (`crate::budget`), so that an alias
    /// bomb (each anchor repeating the one before several times) stops early.
    type Size = (u64, u64);

    impl<O: Clone> Anchors<O> {
        fn begin(&mut self, name: &Option<String>) {
            if let Some(n) = name {
                *self.pending.entry(n.clone()).or_insert(0) += 1;
            }
        }
        fn complete(&mut self, name: &Option<String>, v: &O, size: Size) {
            if let Some(n) = name {
                if let Some(c) = self.pending.get_mut(n) {
                    *c = c.saturating_sub(1);
                    if *c == 0 {
                        self.pending.remove(n);
                    }
                }
                self.done.insert(n.clone(), (v.clone(), size));
            }
        }
        fn get(&self, name: &str) -> Result<(O, Size), String> {
            if self.pending.contains_key(name) {
                return Err(format!(
                    "cannot refer to anchor {} from inside its own definition",
                    go_quote(name)
                ));
            }
            self.done
                .get(name)
                .cloned()
                .ok_or_else(|| format!("reference to undefined anchor {}", go_quote(name)))
        }
    }

    enum Frame<O> {
        Seq {
            anchor: Option<String>,
            items: Vec<O>,
        },
        Map {
            anchor: Option<String>,
            entries: Vec<(String, O)>,
            key: Option<String>,
        },
    }

    /// A mapping key: a scalar resolved and converted to a non-null string.
    fn mapping_key(value: &str, style: Style, tag: &str, mark: Mark) -> Result<String, String> {
        match resolve_scalar(tag, value, style)? {
            Value::String(s) => Ok(s),
            Value::Number(n) => Ok(number_text(&n)),
            Value::Bool(b) => Ok(b.to_string()),
            Value::Null(_) => Err(event_err(mark, "mapping key cannot be null")),
            _ => Err(event_err(mark, "only strings are allowed as mapping keys")),
        }
    }

    fn next<'a>(it: &mut std::slice::Iter<'a, Ev>) -> Result<&'a Ev, String> {
        match it.next() {
            Some(Ev::Error(e)) => Err(e.clone()),
            Some(ev) => Ok(ev),
            None => Err("invalid YAML syntax".to_string()),
        }
    }

    /// One node (the document's root value), iteratively.
    fn parse_node<B: Builder>(
        it: &mut std::slice::Iter<'_, Ev>,
        b: &mut B,
    ) -> Result<B::Out, String> {
        let mut stack: Vec<Frame<B::Out>> = Vec::new();
        // The size of each frame on `stack` so far.
        let mut sizes: Vec<Size> = Vec::new();
        let mut anchors: Anchors<B::Out> = Anchors {
            pending: HashMap::new(),
            done: HashMap::new(),
        };
        loop {
            let ev = next(it)?;
            let expecting_key = matches!(stack.last(), Some(Frame::Map { key: None, .. }));
            let mut done: Option<B::Out> = None;
            let mut done_size: Size = (1, 0);
            if expecting_key {
                match ev {
                    Ev::MapEnd => {
                        if let Some(Frame::Map {
                            anchor, entries, ..
                        }) = stack.pop()
                        {
                            done_size = sizes.pop().unwrap_or((1, 0));
                            let out = b.map(entries);
                            anchors.complete(&anchor, &out, done_size);
                            done = Some(out);
                        }
                    }
                    Ev::Scalar {
                        value,
                        style,
                        tag,
                        mark,
                        ..
                    } => {
                        let k = mapping_key(value, *style, tag, *mark)?;
                        if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                            *key = Some(k);
                        }
                    }
                    other => {
                        return Err(event_err(
                            ev_mark(other),
                            "only strings are allowed as mapping keys",
                        ))
                    }
                }
            } else {
                match ev {
                    Ev::Scalar {
                        value,
                        style,
                        anchor,
                        tag,
                        mark,
                    } => {
                        anchors.begin(anchor);
                        let out = b.scalar(value, *style, tag, *mark)?;
                        done_size = (1, value.len() as u64);
                        anchors.complete(anchor, &out, done_size);
                        done = Some(out);
                    }
                    Ev::Alias { name, mark } => {
                        let (out, size) = anchors.get(name).map_err(|e| event_err(*mark, e))?;
                        crate::budget::charge(size.0, size.1).map_err(|e| event_err(*mark, e))?;
                        done_size = size;
                        done = Some(out);
                    }
                    Ev::SeqStart { anchor, tag, mark } => {
                        if !tag.is_empty() && tag != TAG_SEQ {
                            return Err(event_err(
                                *mark,
                                format!("can't interpret sequence as {tag}"),
                            ));
                        }
                        anchors.begin(anchor);
                        sizes.push((1, 0));
                        stack.push(Frame::Seq {
                            anchor: anchor.clone(),
                            items: Vec::new(),
                        });
                    }
                    Ev::MapStart { anchor, tag, mark } => {
                        if !tag.is_empty() && tag != TAG_MAP {
                            return Err(event_err(
                                *mark,
                                format!("can't interpret mapping as {tag}"),
                            ));
                        }
                        anchors.begin(anchor);
                        sizes.push((1, 0));
                        stack.push(Frame::Map {
                            anchor: anchor.clone(),
                            entries: Vec::new(),
                            key: None,
                        });
                    }
                    Ev::SeqEnd => match stack.pop() {
                        Some(Frame::Seq { anchor, items }) => {
                            done_size = sizes.pop().unwrap_or((1, 0));
                            let out = b.seq(items);
                            anchors.complete(&anchor, &out, done_size);
                            done = Some(out);
                        }
                        _ => return Err("unexpected parser event".to_string()),
                    },
                    Ev::DocStart(m) => {
                        return Err(event_err(*m, "only a single document is allowed"))
                    }
                    Ev::StreamEnd(m) => {
                        return Err(event_err(*m, "expecting value but found end of stream"))
                    }
                    other => {
                        return Err(event_err(ev_mark(other), "unexpected parser event"));
                    }
                }
                if stack.len() > MAX_DEPTH {
                    return Err(event_err(
                        ev_mark(ev),
                        format!("exceeded max depth of {MAX_DEPTH}"),
                    ));
                }
            }
            if let Some(out) = done {
                if let Some(size) = sizes.last_mut() {
                    size.0 = size.0.saturating_add(done_size.0);
                    size.1 = size.1.saturating_add(done_size.1);
                }
                match stack.last_mut() {
                    None => return Ok(out),
                    Some(Frame::Seq { items, .. }) => items.push(out),
                    Some(Frame::Map { entries, key, .. }) => {
                        let k = key.take().unwrap_or_default();
                        entries.push((k, out));
                    }
                }
            }
        }
    }

    /// The stream around the single document.
    fn walk<B: Builder>(events: &[Ev], b: &mut B) -> Result<B::Out, String> {
        let mut it = events.iter();
        let ev = next(&mut it)?;
        if !matches!(ev, Ev::StreamStart) {
            return Err(event_err(ev_mark(ev), "missing stream start token"));
        }
        let ev = next(&mut it)?;
        if !matches!(ev, Ev::DocStart(_)) {
            return Err(event_err(ev_mark(ev), "missing start of document"));
        }
        let v = parse_node(&mut it, b)?;
        let ev = next(&mut it)?;
        if let Ev::DocStart(m) = ev {
            return Err(event_err(*m, "only a single document is allowed"));
        }
        if !matches!(ev, Ev::DocEnd) {
            return Err(event_err(
                ev_mark(ev),
                "unexpected extra content after value",
            ));
        }
        let ev = next(&mut it)?;
        if !matches!(ev, Ev::StreamEnd(_)) {
            return Err(event_err(
                ev_mark(ev),
                "unexpected extra content after value",
            ));
        }
        Ok(v)
    }

    pub(super) fn decode(src: &str) -> Result<Value, String> {
        let src = if src.is_empty() { "\n" } else { src };
        let events = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| collect_events(src)))
            .unwrap_or_else(|_| vec![Ev::Error("invalid YAML syntax".to_string())]);
        walk(&events, &mut TypeBuilder)?;
        walk(&events, &mut ValueBuilder)
    }

    // -----------------------------------------------------------------------------------
    // Encoding: the libyaml emitter.

    #[derive(Clone, Debug)]
    enum EEv {
        StreamStart,
        StreamEnd,
        DocStart,
        DocEnd,
        Scalar { value: String, style: Style },
        SeqStart,
        SeqEnd,
        MapStart,
        MapEnd,
    }

    fn string_event(s: &str) -> EEv {
        EEv::Scalar {
            value: s.to_string(),
            style: if s.contains('\n') {
                Style::Literal
            } else {
                Style::DoubleQuoted
            },
        }
    }

    /// go-cty-yaml's `marshalEmit`, iteratively.
    fn value_events(v: &Value, out: &mut Vec<EEv>) -> Result<(), String> {
        enum Work<'a> {
            Node(&'a Value),
            Key(&'a str),
            Ev(EEv),
        }
        let mut work = vec![Work::Node(v)];
        while let Some(w) = work.pop() {
            let v = match w {
                Work::Ev(e) => {
                    out.push(e);
                    continue;
                }
                Work::Key(k) => {
                    out.push(string_event(k));
                    continue;
                }
                Work::Node(v) => v,
            };
            match v {
                Value::Null(_) => out.push(EEv::Scalar {
                    value: "null".to_string(),
                    style: Style::Plain,
                }),
                Value::Unknown(_) => {
                    return Err("cannot serialize unknown value as YAML".to_string())
                }
                Value::Bool(b) => out.push(EEv::Scalar {
                    value: b.to_string(),
                    style: Style::Plain,
                }),
                Value::Number(n) => out.push(EEv::Scalar {
                    value: number_text(n),
                    style: Style::Plain,
                }),
                Value::String(s) => out.push(string_event(s)),
                Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                    out.push(EEv::SeqStart);
                    work.push(Work::Ev(EEv::SeqEnd));
                    for item in items.iter().rev() {
                        work.push(Work::Node(item));
                    }
                }
                Value::Map(_, m) | Value::Object(m) => {
                    out.push(EEv::MapStart);
                    work.push(Work::Ev(EEv::MapEnd));
                    for (k, item) in m.iter().rev() {
                        work.push(Work::Node(item));
                        work.push(Work::Key(k));
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn encode(v: &Value) -> Result<String, String> {
        let mut events = vec![EEv::StreamStart, EEv::DocStart];
        value_events(v, &mut events)?;
        events.push(EEv::DocEnd);
        events.push(EEv::StreamEnd);
        let mut e = Emitter::new(&events);
        e.run()?;
        String::from_utf8(e.out).map_err(|_| "failed to write YAML token".to_string())
    }

    const BEST_INDENT: i64 = 2;
    const BEST_WIDTH: i64 = 80;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum St {
        StreamStart,
        FirstDocumentStart,
        DocumentStart,
        DocumentContent,
        DocumentEnd,
        FlowSequenceFirstItem,
        FlowSequenceItem,
        FlowMappingFirstKey,
        FlowMappingKey,
        FlowMappingSimpleValue,
        FlowMappingValue,
        BlockSequenceFirstItem,
        BlockSequenceItem,
        BlockMappingFirstKey,
        BlockMappingKey,
        BlockMappingSimpleValue,
        BlockMappingValue,
        End,
    }

    #[derive(Default)]
    struct ScalarData {
        value: Vec<u8>,
        multiline: bool,
        flow_plain_allowed: bool,
        block_plain_allowed: bool,
        single_quoted_allowed: bool,
        block_allowed: bool,
    }

    struct Emitter<'a> {
        events: &'a [EEv],
        head: usize,
        out: Vec<u8>,
        state: St,
        states: Vec<St>,
        indent: i64,
        indents: Vec<i64>,
        flow_level: i64,
        root_context: bool,
        sequence_context: bool,
        mapping_context: bool,
        simple_key_context: bool,
        column: i64,
        whitespace: bool,
        indention: bool,
        open_ended: bool,
        scalar: ScalarData,
        style: Style,
    }

    fn width(b: u8) -> usize {
        if b & 0x80 == 0 {
            1
        } else if b & 0xe0 == 0xc0 {
            2
        } else if b & 0xf0 == 0xe0 {
            3
        } else if b & 0xf8 == 0xf0 {
            4
        } else {
            1
        }
    }

    fn at(b: &[u8], i: usize) -> u8 {
        b.get(i).copied().unwrap_or(0)
    }

    fn is_space(b: &[u8], i: usize) -> bool {
        at(b, i) == b' '
    }

    fn is_blank(b: &[u8], i: usize) -> bool {
        matches!(at(b, i), b' ' | b'\t')
    }

    fn is_break(b: &[u8], i: usize) -> bool {
        let c = at(b, i);
        c == b'\r'
            || c == b'\n'
            || (c == 0xc2 && at(b, i + 1) == 0x85)
            || (c == 0xe2 && at(b, i + 1) == 0x80 && matches!(at(b, i + 2), 0xa8 | 0xa9))
    }

    fn is_blankz(b: &[u8], i: usize) -> bool {
        is_blank(b, i) || is_break(b, i) || i >= b.len() || at(b, i) == 0
    }

    fn is_bom(b: &[u8], i: usize) -> bool {
        at(b, i) == 0xef && at(b, i + 1) == 0xbb && at(b, i + 2) == 0xbf
    }

    fn is_printable(b: &[u8], i: usize) -> bool {
        let c = at(b, i);
        let c1 = at(b, i + 1);
        let c2 = at(b, i + 2);
        c == 0x0a
            || (0x20..=0x7e).contains(&c)
            || (c == 0xc2 && c1 >= 0xa0)
            || (c > 0xc2 && c < 0xed)
            || (c == 0xed && c1 < 0xa0)
            || c == 0xee
            || (c == 0xef
                && !(c1 == 0xbb && c2 == 0xbf)
                && !(c1 == 0xbf && (c2 == 0xbe || c2 == 0xbf)))
    }

    impl<'a> Emitter<'a> {
        fn new(events: &'a [EEv]) -> Self {
            Emitter {
                events,
                head: 0,
                out: Vec::new(),
                state: St::StreamStart,
                states: Vec::new(),
                indent: -1,
                indents: Vec::new(),
                flow_level: 0,
                root_context: false,
                sequence_context: false,
                mapping_context: false,
                simple_key_context: false,
                column: 0,
                whitespace: true,
                indention: true,
                open_ended: false,
                scalar: ScalarData::default(),
                style: Style::Plain,
            }
        }

        fn run(&mut self) -> Result<(), String> {
            while self.head < self.events.len() {
                self.analyze_event();
                self.state_machine()?;
                self.head += 1;
            }
            Ok(())
        }

        fn event(&self) -> Option<&'a EEv> {
            self.events.get(self.head)
        }

        // --- output primitives -------------------------------------------------------

        fn put(&mut self, b: u8) {
            self.out.push(b);
            self.column += 1;
        }

        fn put_break(&mut self) {
            self.out.push(b'\n');
            self.column = 0;
        }

        fn write(&mut self, s: &[u8], i: &mut usize) {
            let w = width(at(s, *i));
            self.out
                .extend_from_slice(s.get(*i..(*i + w).min(s.len())).unwrap_or_default());
            self.column += 1;
            *i += w;
        }

        fn write_all(&mut self, s: &[u8]) {
            let mut i = 0;
            while i < s.len() {
                self.write(s, &mut i);
            }
        }

        fn write_break(&mut self, s: &[u8], i: &mut usize) {
            if at(s, *i) == b'\n' {
                self.put_break();
                *i += 1;
            } else {
                self.write(s, i);
                self.column = 0;
            }
        }

        fn increase_indent(&mut self, flow: bool, indentless: bool) {
            self.indents.push(self.indent);
            if self.indent < 0 {
                self.indent = if flow { BEST_INDENT } else { 0 };
            } else if !indentless {
                self.indent += BEST_INDENT;
            }
        }

        fn pop_indent(&mut self) {
            self.indent = self.indents.pop().unwrap_or(-1);
        }

        fn pop_state(&mut self) {
            self.state = self.states.pop().unwrap_or(St::End);
        }

        fn write_indent(&mut self) {
            let indent = self.indent.max(0);
            if !self.indention
                || self.column > indent
                || (self.column == indent && !self.whitespace)
            {
                self.put_break();
            }
            while self.column < indent {
                self.put(b' ');
            }
            self.whitespace = true;
            self.indention = true;
        }

        fn write_indicator(
            &mut self,
            indicator: &[u8],
            need_whitespace: bool,
            is_whitespace: bool,
            is_indention: bool,
        ) {
            if need_whitespace && !self.whitespace {
                self.put(b' ');
            }
            self.write_all(indicator);
            self.whitespace = is_whitespace;
            self.indention = self.indention && is_indention;
            self.open_ended = false;
        }

        // --- analysis ------------------------------------------------------------------

        fn analyze_event(&mut self) {
            self.scalar = ScalarData::default();
            if let Some(EEv::Scalar { value, .. }) = self.event() {
                self.analyze_scalar(value.as_bytes());
            }
        }

        fn analyze_scalar(&mut self, value: &[u8]) {
            let sd = &mut self.scalar;
            sd.value = value.to_vec();
            if value.is_empty() {
                sd.multiline = false;
                sd.flow_plain_allowed = false;
                sd.block_plain_allowed = true;
                sd.single_quoted_allowed = true;
                sd.block_allowed = false;
                return;
            }
            let mut block_indicators = false;
            let mut flow_indicators = false;
            let mut line_breaks = false;
            let mut special_characters = false;
            let mut leading_space = false;
            let mut leading_break = false;
            let mut trailing_space = false;
            let mut trailing_break = false;
            let mut break_space = false;
            let mut space_break = false;
            let mut previous_space = false;
            let mut previous_break = false;
            if value.starts_with(b"---") || value.starts_with(b"...") {
                block_indicators = true;
                flow_indicators = true;
            }
            let mut preceded_by_whitespace = true;
            let mut i = 0;
            while i < value.len() {
                let w = width(at(value, i));
                let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
                let c = at(value, i);
                if i == 0 {
                    match c {
                        b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|'
                        | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' => {
                            flow_indicators = true;
                            block_indicators = true;
                        }
                        b'?' | b':' => {
                            flow_indicators = true;
                            if followed_by_whitespace {
                                block_indicators = true;
                            }
                        }
                        b'-' if followed_by_whitespace => {
                            flow_indicators = true;
                            block_indicators = true;
                        }
                        _ => {}
                    }
                } else {
                    match c {
                        b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                        b':' => {
                            flow_indicators = true;
                            if followed_by_whitespace {
                                block_indicators = true;
                            }
                        }
                        b'#' if preceded_by_whitespace => {
                            flow_indicators = true;
                            block_indicators = true;
                        }
                        _ => {}
                    }
                }
                if !is_printable(value, i) {
                    special_characters = true;
                }
                if is_space(value, i) {
                    if i == 0 {
                        leading_space = true;
                    }
                    if i + w == value.len() {
                        trailing_space = true;
                    }
                    if previous_break {
                        break_space = true;
                    }
                    previous_space = true;
                    previous_break = false;
                } else if is_break(value, i) {
                    line_breaks = true;
                    if i == 0 {
                        leading_break = true;
                    }
                    if i + w == value.len() {
                        trailing_break = true;
                    }
                    if previous_space {
                        space_break = true;
                    }
                    previous_space = false;
                    previous_break = true;
                } else {
                    previous_space = false;
                    previous_break = false;
                }
                preceded_by_whitespace = is_blankz(value, i);
                i += w;
            }
            sd.multiline = line_breaks;
            sd.flow_plain_allowed = true;
            sd.block_plain_allowed = true;
            sd.single_quoted_allowed = true;
            sd.block_allowed = true;
            if leading_space || leading_break || trailing_space || trailing_break {
                sd.flow_plain_allowed = false;
                sd.block_plain_allowed = false;
            }
            if trailing_space {
                sd.block_allowed = false;
            }
            if break_space {
                sd.flow_plain_allowed = false;
                sd.block_plain_allowed = false;
                sd.single_quoted_allowed = false;
            }
            if space_break || special_characters {
                sd.flow_plain_allowed = false;
                sd.block_plain_allowed = false;
                sd.single_quoted_allowed = false;
                sd.block_allowed = false;
            }
            if line_breaks {
                sd.flow_plain_allowed = false;
                sd.block_plain_allowed = false;
            }
            if flow_indicators {
                sd.flow_plain_allowed = false;
            }
            if block_indicators {
                sd.block_plain_allowed = false;
            }
        }

        // --- state machine -------------------------------------------------------------

        fn state_machine(&mut self) -> Result<(), String> {
            match self.state {
                St::StreamStart => self.emit_stream_start(),
                St::FirstDocumentStart | St::DocumentStart => self.emit_document_start(),
                St::DocumentContent => {
                    self.states.push(St::DocumentEnd);
                    self.emit_node(true, false, false, false)
                }
                St::DocumentEnd => self.emit_document_end(),
                St::FlowSequenceFirstItem => self.emit_flow_sequence_item(true),
                St::FlowSequenceItem => self.emit_flow_sequence_item(false),
                St::FlowMappingFirstKey => self.emit_flow_mapping_key(true),
                St::FlowMappingKey => self.emit_flow_mapping_key(false),
                St::FlowMappingSimpleValue => self.emit_flow_mapping_value(true),
                St::FlowMappingValue => self.emit_flow_mapping_value(false),
                St::BlockSequenceFirstItem => self.emit_block_sequence_item(true),
                St::BlockSequenceItem => self.emit_block_sequence_item(false),
                St::BlockMappingFirstKey => self.emit_block_mapping_key(true),
                St::BlockMappingKey => self.emit_block_mapping_key(false),
                St::BlockMappingSimpleValue => self.emit_block_mapping_value(true),
                St::BlockMappingValue => self.emit_block_mapping_value(false),
                St::End => Err("expected nothing after STREAM-END".to_string()),
            }
        }

        fn emit_stream_start(&mut self) -> Result<(), String> {
            if !matches!(self.event(), Some(EEv::StreamStart)) {
                return Err("expected STREAM-START".to_string());
            }
            self.indent = -1;
            self.column = 0;
            self.whitespace = true;
            self.indention = true;
            self.state = St::FirstDocumentStart;
            Ok(())
        }

        fn emit_document_start(&mut self) -> Result<(), String> {
            match self.event() {
                Some(EEv::DocStart) => {
                    // An implicit first document: nothing is written.
                    if self.state != St::FirstDocumentStart {
                        self.write_indent();
                        self.write_indicator(b"---", true, false, false);
                    }
                    self.state = St::DocumentContent;
                    Ok(())
                }
                Some(EEv::StreamEnd) => {
                    if self.open_ended {
                        self.write_indicator(b"...", true, false, false);
                        self.write_indent();
                    }
                    self.state = St::End;
                    Ok(())
                }
                _ => Err("expected DOCUMENT-START or STREAM-END".to_string()),
            }
        }

        fn emit_document_end(&mut self) -> Result<(), String> {
            if !matches!(self.event(), Some(EEv::DocEnd)) {
                return Err("expected DOCUMENT-END".to_string());
            }
            self.write_indent();
            self.state = St::DocumentStart;
            Ok(())
        }

        fn emit_flow_sequence_item(&mut self, first: bool) -> Result<(), String> {
            if first {
                self.write_indicator(b"[", true, true, false);
                self.increase_indent(true, false);
                self.flow_level += 1;
            }
            if matches!(self.event(), Some(EEv::SeqEnd)) {
                self.flow_level -= 1;
                self.pop_indent();
                self.write_indicator(b"]", false, false, false);
                self.pop_state();
                return Ok(());
            }
            if !first {
                self.write_indicator(b",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.states.push(St::FlowSequenceItem);
            self.emit_node(false, true, false, false)
        }

        fn emit_flow_mapping_key(&mut self, first: bool) -> Result<(), String> {
            if first {
                self.write_indicator(b"{", true, true, false);
                self.increase_indent(true, false);
                self.flow_level += 1;
            }
            if matches!(self.event(), Some(EEv::MapEnd)) {
                self.flow_level -= 1;
                self.pop_indent();
                self.write_indicator(b"}", false, false, false);
                self.pop_state();
                return Ok(());
            }
            if !first {
                self.write_indicator(b",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            if self.check_simple_key() {
                self.states.push(St::FlowMappingSimpleValue);
                return self.emit_node(false, false, true, true);
            }
            self.write_indicator(b"?", true, false, false);
            self.states.push(St::FlowMappingValue);
            self.emit_node(false, false, true, false)
        }

        fn emit_flow_mapping_value(&mut self, simple: bool) -> Result<(), String> {
            if simple {
                self.write_indicator(b":", false, false, false);
            } else {
                if self.column > BEST_WIDTH {
                    self.write_indent();
                }
                self.write_indicator(b":", true, false, false);
            }
            self.states.push(St::FlowMappingKey);
            self.emit_node(false, false, true, false)
        }

        fn emit_block_sequence_item(&mut self, first: bool) -> Result<(), String> {
            if first {
                let indentless = self.mapping_context && !self.indention;
                self.increase_indent(false, indentless);
            }
            if matches!(self.event(), Some(EEv::SeqEnd)) {
                self.pop_indent();
                self.pop_state();
                return Ok(());
            }
            self.write_indent();
            self.write_indicator(b"-", true, false, true);
            self.states.push(St::BlockSequenceItem);
            self.emit_node(false, true, false, false)
        }

        fn emit_block_mapping_key(&mut self, first: bool) -> Result<(), String> {
            if first {
                self.increase_indent(false, false);
            }
            if matches!(self.event(), Some(EEv::MapEnd)) {
                self.pop_indent();
                self.pop_state();
                return Ok(());
            }
            self.write_indent();
            if self.check_simple_key() {
                self.states.push(St::BlockMappingSimpleValue);
                return self.emit_node(false, false, true, true);
            }
            self.write_indicator(b"?", true, false, true);
            self.states.push(St::BlockMappingValue);
            self.emit_node(false, false, true, false)
        }

        fn emit_block_mapping_value(&mut self, simple: bool) -> Result<(), String> {
            if simple {
                self.write_indicator(b":", false, false, false);
            } else {
                self.write_indent();
                self.write_indicator(b":", true, false, true);
            }
            self.states.push(St::BlockMappingKey);
            self.emit_node(false, false, true, false)
        }

        fn emit_node(
            &mut self,
            root: bool,
            sequence: bool,
            mapping: bool,
            simple_key: bool,
        ) -> Result<(), String> {
            self.root_context = root;
            self.sequence_context = sequence;
            self.mapping_context = mapping;
            self.simple_key_context = simple_key;
            match self.event() {
                Some(EEv::Scalar { style, .. }) => {
                    let style = *style;
                    self.emit_scalar(style);
                    Ok(())
                }
                Some(EEv::SeqStart) => {
                    self.state = if self.flow_level > 0 || self.check_empty_sequence() {
                        St::FlowSequenceFirstItem
                    } else {
                        St::BlockSequenceFirstItem
                    };
                    Ok(())
                }
                Some(EEv::MapStart) => {
                    self.state = if self.flow_level > 0 || self.check_empty_mapping() {
                        St::FlowMappingFirstKey
                    } else {
                        St::BlockMappingFirstKey
                    };
                    Ok(())
                }
                _ => Err("expected SCALAR, SEQUENCE-START, MAPPING-START, or ALIAS".to_string()),
            }
        }

        fn emit_scalar(&mut self, requested: Style) {
            self.select_scalar_style(requested);
            self.increase_indent(true, false);
            self.process_scalar();
            self.pop_indent();
            self.pop_state();
        }

        fn check_empty_sequence(&self) -> bool {
            matches!(self.events.get(self.head), Some(EEv::SeqStart))
                && matches!(self.events.get(self.head + 1), Some(EEv::SeqEnd))
        }

        fn check_empty_mapping(&self) -> bool {
            matches!(self.events.get(self.head), Some(EEv::MapStart))
                && matches!(self.events.get(self.head + 1), Some(EEv::MapEnd))
        }

        fn check_simple_key(&self) -> bool {
            let length = match self.event() {
                Some(EEv::Scalar { .. }) => {
                    if self.scalar.multiline {
                        return false;
                    }
                    self.scalar.value.len()
                }
                Some(EEv::SeqStart) => {
                    if !self.check_empty_sequence() {
                        return false;
                    }
                    0
                }
                Some(EEv::MapStart) => {
                    if !self.check_empty_mapping() {
                        return false;
                    }
                    0
                }
                _ => return false,
            };
            length <= 128
        }

        fn select_scalar_style(&mut self, requested: Style) {
            let mut style = requested;
            if self.simple_key_context && self.scalar.multiline {
                style = Style::DoubleQuoted;
            }
            if style == Style::Plain {
                if (self.flow_level > 0 && !self.scalar.flow_plain_allowed)
                    || (self.flow_level == 0 && !self.scalar.block_plain_allowed)
                {
                    style = Style::SingleQuoted;
                }
                if self.scalar.value.is_empty() && (self.flow_level > 0 || self.simple_key_context)
                {
                    style = Style::SingleQuoted;
                }
            }
            if style == Style::SingleQuoted && !self.scalar.single_quoted_allowed {
                style = Style::DoubleQuoted;
            }
            if matches!(style, Style::Literal | Style::Folded)
                && (!self.scalar.block_allowed || self.flow_level > 0 || self.simple_key_context)
            {
                style = Style::DoubleQuoted;
            }
            self.style = style;
        }

        fn process_scalar(&mut self) {
            let value = std::mem::take(&mut self.scalar.value);
            let allow_breaks = !self.simple_key_context;
            match self.style {
                Style::Plain => self.write_plain_scalar(&value, allow_breaks),
                Style::SingleQuoted => self.write_single_quoted_scalar(&value, allow_breaks),
                Style::DoubleQuoted => self.write_double_quoted_scalar(&value, allow_breaks),
                Style::Literal | Style::Folded => self.write_literal_scalar(&value),
            }
            self.scalar.value = value;
        }

        fn write_plain_scalar(&mut self, value: &[u8], allow_breaks: bool) {
            if !self.whitespace {
                self.put(b' ');
            }
            let mut spaces = false;
            let mut breaks = false;
            let mut i = 0;
            while i < value.len() {
                if is_space(value, i) {
                    if allow_breaks
                        && !spaces
                        && self.column > BEST_WIDTH
                        && !is_space(value, i + 1)
                    {
                        self.write_indent();
                        i += width(at(value, i));
                    } else {
                        self.write(value, &mut i);
                    }
                    spaces = true;
                } else if is_break(value, i) {
                    if !breaks && at(value, i) == b'\n' {
                        self.put_break();
                    }
                    self.write_break(value, &mut i);
                    self.indention = true;
                    breaks = true;
                } else {
                    if breaks {
                        self.write_indent();
                    }
                    self.write(value, &mut i);
                    self.indention = false;
                    spaces = false;
                    breaks = false;
                }
            }
            self.whitespace = false;
            self.indention = false;
            if self.root_context {
                self.open_ended = true;
            }
        }

        fn write_single_quoted_scalar(&mut self, value: &[u8], allow_breaks: bool) {
            self.write_indicator(b"'", true, false, false);
            let mut spaces = false;
            let mut breaks = false;
            let mut i = 0;
            while i < value.len() {
                if is_space(value, i) {
                    if allow_breaks
                        && !spaces
                        && self.column > BEST_WIDTH
                        && i > 0
                        && i < value.len() - 1
                        && !is_space(value, i + 1)
                    {
                        self.write_indent();
                        i += width(at(value, i));
                    } else {
                        self.write(value, &mut i);
                    }
                    spaces = true;
                } else if is_break(value, i) {
                    if !breaks && at(value, i) == b'\n' {
                        self.put_break();
                    }
                    self.write_break(value, &mut i);
                    self.indention = true;
                    breaks = true;
                } else {
                    if breaks {
                        self.write_indent();
                    }
                    if at(value, i) == b'\'' {
                        self.put(b'\'');
                    }
                    self.write(value, &mut i);
                    self.indention = false;
                    spaces = false;
                    breaks = false;
                }
            }
            self.write_indicator(b"'", false, false, false);
            self.whitespace = false;
            self.indention = false;
        }

        fn write_double_quoted_scalar(&mut self, value: &[u8], allow_breaks: bool) {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            let mut spaces = false;
            self.write_indicator(b"\"", true, false, false);
            let mut i = 0;
            while i < value.len() {
                let c = at(value, i);
                if !is_printable(value, i)
                    || is_bom(value, i)
                    || is_break(value, i)
                    || c == b'"'
                    || c == b'\\'
                {
                    let (w, mut v) = match c {
                        _ if c & 0x80 == 0 => (1, u32::from(c & 0x7f)),
                        _ if c & 0xe0 == 0xc0 => (2, u32::from(c & 0x1f)),
                        _ if c & 0xf0 == 0xe0 => (3, u32::from(c & 0x0f)),
                        _ => (4, u32::from(c & 0x07)),
                    };
                    for k in 1..w {
                        v = (v << 6) + u32::from(at(value, i + k) & 0x3f);
                    }
                    i += w;
                    self.put(b'\\');
                    match v {
                        0x00 => self.put(b'0'),
                        0x07 => self.put(b'a'),
                        0x08 => self.put(b'b'),
                        0x09 => self.put(b't'),
                        0x0a => self.put(b'n'),
                        0x0b => self.put(b'v'),
                        0x0c => self.put(b'f'),
                        0x0d => self.put(b'r'),
                        0x1b => self.put(b'e'),
                        0x22 => self.put(b'"'),
                        0x5c => self.put(b'\\'),
                        0x85 => self.put(b'N'),
                        0xa0 => self.put(b'_'),
                        0x2028 => self.put(b'L'),
                        0x2029 => self.put(b'P'),
                        _ => {
                            let digits = if v <= 0xff {
                                self.put(b'x');
                                2
                            } else if v <= 0xffff {
                                self.put(b'u');
                                4
                            } else {
                                self.put(b'U');
                                8
                            };
                            for k in (0..digits).rev() {
                                self.put(HEX[((v >> (k * 4)) & 0x0f) as usize]);
                            }
                        }
                    }
                    spaces = false;
                } else if is_space(value, i) {
                    if allow_breaks
                        && !spaces
                        && self.column > BEST_WIDTH
                        && i > 0
                        && i < value.len() - 1
                    {
                        self.write_indent();
                        if is_space(value, i + 1) {
                            self.put(b'\\');
                        }
                        i += width(c);
                    } else {
                        self.write(value, &mut i);
                    }
                    spaces = true;
                } else {
                    self.write(value, &mut i);
                    spaces = false;
                }
            }
            self.write_indicator(b"\"", false, false, false);
            self.whitespace = false;
            self.indention = false;
        }

        fn write_block_scalar_hints(&mut self, value: &[u8]) {
            if is_space(value, 0) || is_break(value, 0) {
                let hint = [b'0' + BEST_INDENT as u8];
                self.write_indicator(&hint, false, false, false);
            }
            self.open_ended = false;
            let mut chomp: Option<u8> = None;
            if value.is_empty() {
                chomp = Some(b'-');
            } else {
                let mut i = value.len() - 1;
                while i > 0 && at(value, i) & 0xc0 == 0x80 {
                    i -= 1;
                }
                if !is_break(value, i) {
                    chomp = Some(b'-');
                } else if i == 0 {
                    chomp = Some(b'+');
                    self.open_ended = true;
                } else {
                    i -= 1;
                    while i > 0 && at(value, i) & 0xc0 == 0x80 {
                        i -= 1;
                    }
                    if is_break(value, i) {
                        chomp = Some(b'+');
                        self.open_ended = true;
                    }
                }
            }
            if let Some(c) = chomp {
                // (go-cty-yaml's write_indicator clears open_ended again here.)
                self.write_indicator(&[c], false, false, false);
            }
        }

        fn write_literal_scalar(&mut self, value: &[u8]) {
            self.write_indicator(b"|", true, false, false);
            self.write_block_scalar_hints(value);
            self.put_break();
            self.indention = true;
            self.whitespace = true;
            let mut breaks = true;
            let mut i = 0;
            while i < value.len() {
                if is_break(value, i) {
                    self.write_break(value, &mut i);
                    self.indention = true;
                    breaks = true;
                } else {
                    if breaks {
                        self.write_indent();
                    }
                    self.write(value, &mut i);
                    self.indention = false;
                    breaks = false;
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn enc(v: &Value) -> String {
            encode(v).unwrap()
        }

        fn s(x: &str) -> Value {
            Value::String(x.to_string())
        }

        fn obj(pairs: &[(&str, Value)]) -> Value {
            Value::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
            )
        }

        #[test]
        fn encode_terraform_examples() {
            assert_eq!(
                enc(&Value::Tuple(vec![s("foo"), s("bar"), Value::Bool(true)])),
                "- \"foo\"\n- \"bar\"\n- true\n"
            );
            assert_eq!(
                enc(&obj(&[("a", s("b")), ("c", s("d"))])),
                "\"a\": \"b\"\n\"c\": \"d\"\n"
            );
            assert_eq!(enc(&Value::Bool(true)), "true\n...\n");
            assert_eq!(enc(&Value::Null(Type::Dynamic)), "null\n...\n");
            assert_eq!(enc(&s("true")), "\"true\"\n");
            assert_eq!(enc(&s("")), "\"\"\n");
        }

        #[test]
        fn encode_nesting() {
            let v = obj(&[(
                "a",
                obj(&[(
                    "b",
                    Value::Tuple(vec![
                        Value::Number(Number::from_i64(1)),
                        obj(&[("c", Value::Null(Type::Dynamic))]),
                    ]),
                )]),
            )]);
            assert_eq!(enc(&v), "\"a\":\n  \"b\":\n  - 1\n  - \"c\": null\n");
            assert_eq!(enc(&obj(&[])), "{}\n");
            assert_eq!(enc(&Value::Tuple(vec![])), "[]\n");
            assert_eq!(
                enc(&obj(&[("a", Value::Tuple(vec![])), ("b", obj(&[]))])),
                "\"a\": []\n\"b\": {}\n"
            );
            assert_eq!(
                enc(&Value::Tuple(vec![Value::Tuple(vec![s("x"), s("y")])])),
                "- - \"x\"\n  - \"y\"\n"
            );
        }

        #[test]
        fn encode_strings() {
            assert_eq!(enc(&s("a\nb")), "|-\n  a\n  b\n");
            assert_eq!(enc(&s("a\n")), "|\n  a\n");
            assert_eq!(enc(&s("a\n\n")), "|+\n  a\n\n");
            assert_eq!(enc(&obj(&[("k", s("x\ny"))])), "\"k\": |-\n  x\n  y\n");
            assert_eq!(enc(&s("tab\there")), "\"tab\\there\"\n");
            assert_eq!(enc(&s("q\"b\\")), "\"q\\\"b\\\\\"\n");
            assert_eq!(enc(&s("é ü")), "\"é ü\"\n");
            assert_eq!(enc(&s("\u{1F600}")), "\"\\U0001F600\"\n");
            assert_eq!(enc(&s("a\tb\nc")), "\"a\\tb\\nc\"\n");
            assert_eq!(enc(&s(" lead\nx")), "|2-\n   lead\n  x\n");
            let long = "word ".repeat(20);
            let long = long.trim_end();
            assert_eq!(
                enc(&s(long)),
                format!(
                    "\"{}\n  {}\"\n",
                    "word ".repeat(17).trim_end(),
                    "word ".repeat(3).trim_end()
                )
            );
        }

        fn dec(src: &str) -> Result<Value, String> {
            decode(src)
        }

        #[test]
        fn decode_scalars() {
            assert!(matches!(dec("true"), Ok(Value::Bool(true))));
            assert!(matches!(dec("yes"), Ok(Value::Bool(true))));
            assert!(matches!(dec("Off"), Ok(Value::Bool(false))));
            assert!(matches!(dec("~"), Ok(Value::Null(Type::Dynamic))));
            assert!(matches!(dec("---"), Ok(Value::Null(Type::Dynamic))));
            assert!(matches!(dec("hello"), Ok(Value::String(ref x)) if x == "hello"));
            assert!(matches!(dec("'true'"), Ok(Value::String(ref x)) if x == "true"));
            assert!(matches!(dec("\"1\""), Ok(Value::String(ref x)) if x == "1"));
            assert!(matches!(dec("!!str true"), Ok(Value::String(ref x)) if x == "true"));
            assert!(matches!(dec("12"), Ok(Value::Number(ref n)) if *n == Number::from_i64(12)));
            assert!(matches!(dec("0x1F"), Ok(Value::Number(ref n)) if *n == Number::from_i64(31)));
            assert!(matches!(dec("0o17"), Ok(Value::Number(ref n)) if *n == Number::from_i64(15)));
            assert!(
                matches!(dec("1_000"), Ok(Value::Number(ref n)) if *n == Number::from_i64(1000))
            );
            assert!(
                matches!(dec("-.5"), Ok(Value::Number(ref n)) if *n == Number::parse("-0.5").unwrap())
            );
            assert!(matches!(dec("1e3"), Ok(Value::Number(ref n)) if *n == Number::from_i64(1000)));
            assert!(
                matches!(dec("2006-1-2"), Ok(Value::String(ref x)) if x == "2006-01-02T00:00:00Z")
            );
            assert!(matches!(dec("12:30"), Ok(Value::String(ref x)) if x == "12:30"));
            assert!(matches!(dec("|-\n  1.50"), Ok(Value::String(ref x)) if x == "1.5"));
            assert!(
                matches!(dec("|\n  hello\n  world"), Ok(Value::String(ref x)) if x == "hello\nworld\n")
            );
            assert!(
                matches!(dec(">\n  hello\n  world"), Ok(Value::String(ref x)) if x == "hello world\n")
            );
            assert!(
                matches!(dec("!!binary aGVsbG8="), Ok(Value::String(ref x)) if x == "aGVsbG8=")
            );
        }

        #[test]
        fn decode_errors() {
            assert_eq!(
                dec(".NaN").unwrap_err(),
                "floating point NaN is not supported"
            );
            assert_eq!(
                dec("!!bool bananas").unwrap_err(),
                "cannot parse \"bananas\" as tag:yaml.org,2002:bool"
            );
            assert_eq!(
                dec("!!binary '>>>>>>>>>'").unwrap_err(),
                "cannot parse \">>>>>>>>>\" as tag:yaml.org,2002:binary: not valid base64"
            );
            assert_eq!(
                dec("!!nope foo").unwrap_err(),
                "unsupported tag \"tag:yaml.org,2002:nope\""
            );
            assert_eq!(
                dec("\nfoo: &bar\n  - x\n  - *bar\n").unwrap_err(),
                "on line 3, column 5: cannot refer to anchor \"bar\" from inside its own definition"
            );
            assert_eq!(
                dec("a: 1\n---\nb: 2\n").unwrap_err(),
                "on line 1, column 1: unexpected extra content after value"
            );
            assert_eq!(
                dec("").unwrap_err(),
                "on line 1, column 1: missing start of document"
            );
            assert_eq!(
                dec("# just a comment\n").unwrap_err(),
                "on line 1, column 1: missing start of document"
            );
            assert_eq!(
                dec("foo: bar\n  bad: indent").unwrap_err(),
                "on line 2, column 1: mapping values are not allowed in this context"
            );
            assert_eq!(
                dec("a:\n  - x\n  - *nope\n").unwrap_err(),
                "on line 2, column 5: reference to undefined anchor \"nope\""
            );
            assert_eq!(
                dec("a:\n  b: !!map [1]\n").unwrap_err(),
                "on line 1, column 6: can't interpret sequence as tag:yaml.org,2002:map"
            );
            assert_eq!(
                dec("a:\n  ? [x]\n  : y\n").unwrap_err(),
                "on line 1, column 5: only strings are allowed as mapping keys"
            );
            assert_eq!(
                dec("a:\n  ~: y\n").unwrap_err(),
                "on line 1, column 3: mapping key cannot be null"
            );
        }

        #[test]
        fn decode_collections() {
            let v = dec("a: 1\nb:\n  - foo\n  - true\nc: {x: null}\n").unwrap();
            let Value::Object(m) = v else {
                panic!("not an object")
            };
            assert!(matches!(m.get("a"), Some(Value::Number(_))));
            assert!(matches!(m.get("b"), Some(Value::Tuple(items)) if items.len() == 2));
            assert!(
                matches!(m.get("c"), Some(Value::Object(c)) if matches!(c.get("x"), Some(Value::Null(_))))
            );
            let v = dec("foo: &bar\n  - x\nbar: *bar\n").unwrap();
            let Value::Object(m) = v else {
                panic!("not an object")
            };
            assert!(matches!(m.get("bar"), Some(Value::Tuple(items)) if items.len() == 1));
            let v = dec("1: a\ntrue: b\n1.50: c\n").unwrap();
            let Value::Object(m) = v else {
                panic!("not an object")
            };
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            assert_eq!(keys, ["1", "1.5", "true"]);
            let v = dec("a: 1\na: 2\n").unwrap();
            let Value::Object(m) = v else {
                panic!("not an object")
            };
            assert!(matches!(m.get("a"), Some(Value::Number(n)) if *n == Number::from_i64(2)));
        }

        #[test]
        fn decode_depth_is_bounded() {
            let deep = "[".repeat(200) + &"]".repeat(200);
            assert!(dec(&deep).is_err() || dec(&deep).is_ok());
            let deep_block: String = (0..1500)
                .map(|i| format!("{}- \n", " ".repeat(i * 2)))
                .collect();
            assert!(dec(&deep_block).is_err());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip_b64(s: &str) -> String {
        base64_encode(&gzip_go(s.as_bytes()))
    }

    #[test]
    fn gzip_matches_go() {
        assert_eq!(
            gzip_b64("test"),
            "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"
        );
        assert_eq!(
            gzip_b64("hello world this is a test string"),
            "H4sIAAAAAAAA/8pIzcnJVyjPL8pJUSjJyCxWyCxWSFQoSS0uUSguKcrMSwcAAAD//wEAAP//d4eoGCEAAAA="
        );
    }

    #[test]
    fn gzip_round_trips() {
        let inputs = [
            String::new(),
            "a".repeat(1000),
            "The quick brown fox jumps over the lazy dog. ".repeat(50),
            (0..70_000u32)
                .map(|i| char::from(b'a' + (i * 7 % 26) as u8))
                .collect(),
            (0..200_000u32)
                .map(|i| char::from(b' ' + ((i.wrapping_mul(2_654_435_761) >> 7) % 90) as u8))
                .collect(),
        ];
        for input in inputs {
            let gz = gzip_go(input.as_bytes());
            let body = &gz[10..gz.len() - 8];
            let out = miniz_oxide::inflate::decompress_to_vec(body).expect("valid deflate");
            assert_eq!(out, input.as_bytes());
            let crc = u32::from_le_bytes(gz[gz.len() - 8..gz.len() - 4].try_into().unwrap());
            assert_eq!(crc, crc32(input.as_bytes()));
        }
    }

    #[test]
    fn base64_go_semantics() {
        assert_eq!(base64_decode(b"YWJj").unwrap(), b"abc");
        assert_eq!(base64_decode(b"YQ==").unwrap(), b"a");
        assert_eq!(base64_decode(b"YR==").unwrap(), b"a");
        assert_eq!(base64_decode(b"Y\r\nQ=\n=").unwrap(), b"a");
        assert_eq!(base64_decode(b"").unwrap(), b"");
        assert_eq!(base64_decode(b"YQ").unwrap_err(), 0);
        assert_eq!(base64_decode(b"YWJjZ").unwrap_err(), 4);
        assert_eq!(base64_decode(b"YQ==YQ==").unwrap_err(), 4);
        assert_eq!(base64_decode(b"Y!==").unwrap_err(), 1);
        assert_eq!(base64_decode(b"YQ=").unwrap_err(), 3);
        assert_eq!(base64_encode(b""), "");
        assert_eq!(base64_encode(b"ab"), "YWI=");
    }

    #[test]
    fn csv_reader_quirks() {
        let t = |s: &str| csvdecode(&[Value::String(s.to_string())]).map_err(|e| e.message);
        assert!(t("a,b\n1,2\r").is_ok());
        assert_eq!(
            t("a\n\"x\"y").unwrap_err(),
            "CSV parse error on line 2: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            t("\n\nh\n1\n2,3").unwrap_err(),
            "CSV parse error on line 5: wrong number of fields"
        );
    }
}
