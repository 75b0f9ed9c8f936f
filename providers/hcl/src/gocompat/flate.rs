//! Go's `compress/flate` compressor at the default level (6), ported so that `base64gzip`
//! produces Terraform's exact bytes: `Write(data)` then `Flush()` (the gzip framing,
//! including the empty final block that `Close()` writes, is in `gocompat::gzip`).
//!
//! Why not a crate: DEFLATE output is not unique. flate2/miniz_oxide (or zlib) at level 6
//! make valid streams that decompress to the same data but choose other matches, block
//! boundaries and Huffman tables, so the Base64 text differs from Terraform's. Only a
//! port of Go's `deflate.go`/`huffman_bit_writer.go` gives the same bytes. (The tests use
//! miniz_oxide to check that the output inflates back.)

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
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128,
    160, 192, 224, 255,
];
const OFFSET_EXTRA_BITS: [u32; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
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
                levels[level + 1].next_pair_freq = prev_freq.wrapping_add(levels[level].last_freq);
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
pub(crate) fn compress_flushed(data: &[u8]) -> Vec<u8> {
    let mut c = Compressor::new();
    c.write(data);
    c.sync_flush();
    c.w.out
}
