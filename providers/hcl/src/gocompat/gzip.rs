//! Go's `compress/gzip` writer as Terraform's `base64gzip` drives it: `Write(data)`,
//! `Flush()`, `Close()`. The header is Go's (no name, zero mtime, no extra flags, OS byte 255
//! "unknown"), the body is `gocompat::flate` followed by the empty final stored block that
//! `Close()` adds after a flush, then CRC-32 and length.
//!
//! Why not a crate: flate2's `GzEncoder` writes another OS byte and its own DEFLATE stream,
//! and no crate writes Go's flush-then-close block sequence. The checksum is plain IEEE
//! CRC-32, so that part is `crc32fast`.

use super::flate::compress_flushed;

/// The gzip stream Go writes for `data`.
pub(crate) fn gzip_go(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend_from_slice(&compress_flushed(data));
    // Close: an empty final stored block.
    out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
    out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    // ISIZE is the length modulo 2^32 (RFC 1952).
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gocompat::base64::encode as base64_encode;

    /// The bitwise CRC-32 this crate used before `crc32fast` (kept to show equal results).
    fn crc32_bitwise(data: &[u8]) -> u32 {
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

    fn crc32(data: &[u8]) -> u32 {
        crc32fast::hash(data)
    }

    fn gzip_b64(s: &str) -> String {
        base64_encode(&gzip_go(s.as_bytes()))
    }

    #[test]
    fn crc32fast_matches_the_bitwise_crc() {
        let long: Vec<u8> = (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let inputs: [&[u8]; 6] = [
            b"",
            b"a",
            b"test",
            "é\u{0}\u{fffd}日本".as_bytes(),
            &[0xff, 0xfe, 0x80],
            &long,
        ];
        for input in inputs {
            assert_eq!(crc32(input), crc32_bitwise(input), "{input:?}");
        }
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
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
}
