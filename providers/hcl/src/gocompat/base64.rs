//! Go's `encoding/base64` `StdEncoding` (standard alphabet, `=` padding).
//!
//! Encoding is the `base64` crate: standard Base64 with padding has exactly one output for
//! each input, so the bytes are the same by construction.
//!
//! Decoding stays hand-written: `textdecodebase64` reports Go's `CorruptInputError` offset
//! (`invalid base64 symbol at offset N`), counted in the input with its `\r`/`\n`, at the
//! byte Go's quantum decoder stops on; the crate's `DecodeError` positions refer to other
//! bytes (and to the input after newlines are removed), and the crate does not skip
//! newlines anywhere (even between two `=`) as Go does.

use ::base64::engine::general_purpose::STANDARD;
use ::base64::Engine as _;

/// Standard Base64 with padding (Go's `StdEncoding.EncodeToString`).
pub(crate) fn encode(data: &[u8]) -> String {
    STANDARD.encode(data)
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
pub(crate) fn decode(src: &[u8]) -> Result<Vec<u8>, usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written encoder this crate used before the `base64` crate.
    fn encode_by_hand(data: &[u8]) -> String {
        const B64_ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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

    #[test]
    fn crate_encoder_matches_the_hand_written_one() {
        let all: Vec<u8> = (0..=255u8).collect();
        let inputs: [&[u8]; 8] = [
            b"",
            b"a",
            b"ab",
            b"abc",
            "é日本\u{1f600}".as_bytes(),
            &[0xff, 0xfe, 0xfd],
            &[0; 7],
            &all,
        ];
        for input in inputs {
            assert_eq!(encode(input), encode_by_hand(input), "{input:?}");
            assert_eq!(decode(encode(input).as_bytes()).as_deref(), Ok(input));
        }
    }

    #[test]
    fn base64_go_semantics() {
        assert_eq!(decode(b"YWJj").unwrap(), b"abc");
        assert_eq!(decode(b"YQ==").unwrap(), b"a");
        assert_eq!(decode(b"YR==").unwrap(), b"a");
        assert_eq!(decode(b"Y\r\nQ=\n=").unwrap(), b"a");
        assert_eq!(decode(b"").unwrap(), b"");
        assert_eq!(decode(b"YQ").unwrap_err(), 0);
        assert_eq!(decode(b"YWJjZ").unwrap_err(), 4);
        assert_eq!(decode(b"YQ==YQ==").unwrap_err(), 4);
        assert_eq!(decode(b"Y!==").unwrap_err(), 1);
        assert_eq!(decode(b"YQ=").unwrap_err(), 3);
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"ab"), "YWI=");
    }
}
