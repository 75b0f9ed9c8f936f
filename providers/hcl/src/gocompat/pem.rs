//! Go's `encoding/pem` decoder (`pem.Decode`), which finds the private key in Terraform's
//! `rsadecrypt`.
//!
//! Why not `pem-rfc7468` (in the tree through the `rsa` crate's encodings): it implements
//! RFC 7468, which has no headers, while Go's decoder is the legacy-PEM one Terraform
//! accepts keys through: it skips text before the block and malformed `-----BEGIN`
//! lines, drops trailing spaces, tabs and `\r` from lines, keeps `Key: value` headers
//! (`Proc-Type: 4,ENCRYPTED` marks a passphrase-protected key), ignores spaces and tabs in
//! the Base64 body, and passes over a block whose body or `-----END` line is malformed to
//! look for the next one.

use crate::gocompat::base64::decode as base64_decode;

/// A PEM block as Go's `encoding/pem` returns it.
pub(crate) struct PemBlock {
    pub(crate) kind: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) bytes: Vec<u8>,
}

/// Go's `pem.getLine`: the line up to `\n` with trailing spaces, tabs and `\r` removed, and the
/// rest after the `\n`.
fn pem_line(data: &[u8]) -> (&[u8], &[u8]) {
    let (line, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (
            data.get(..i).unwrap_or_default(),
            data.get(i + 1..).unwrap_or_default(),
        ),
        None => (data, &[][..]),
    };
    let end = line
        .iter()
        .rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r'))
        .map_or(0, |i| i + 1);
    (line.get(..end).unwrap_or_default(), rest)
}

fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Go's `pem.Decode`: the first well-formed block, skipping anything before it and any
/// malformed `-----BEGIN` line.
pub(crate) fn pem_decode(data: &[u8]) -> Option<PemBlock> {
    const BEGIN: &[u8] = b"\n-----BEGIN ";
    const END: &[u8] = b"\n-----END ";
    const DASHES: &[u8] = b"-----";
    let mut rest = data;
    loop {
        if let Some(after) = rest.strip_prefix(&BEGIN[1..]) {
            rest = after;
        } else {
            let i = find_bytes(rest, BEGIN)?;
            rest = rest.get(i + BEGIN.len()..)?;
        }
        let (type_line, after_type) = pem_line(rest);
        rest = after_type;
        let Some(kind) = type_line.strip_suffix(DASHES) else {
            continue;
        };
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next) = pem_line(rest);
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                break;
            };
            let key = String::from_utf8_lossy(line.get(..colon).unwrap_or_default());
            let val = String::from_utf8_lossy(line.get(colon + 1..).unwrap_or_default());
            headers.push((key.trim().to_string(), val.trim().to_string()));
            rest = next;
        }
        let (end_index, trailer_index) = if headers.is_empty() && rest.starts_with(&END[1..]) {
            (0, END.len() - 1)
        } else {
            match find_bytes(rest, END) {
                Some(i) => (i, i + END.len()),
                None => continue,
            }
        };
        let trailer = rest.get(trailer_index..).unwrap_or_default();
        let trailer_len = kind.len() + DASHES.len();
        let (Some(end_trailer), Some(rest_of_end)) =
            (trailer.get(..trailer_len), trailer.get(trailer_len..))
        else {
            continue;
        };
        if !end_trailer.starts_with(kind) || !end_trailer.ends_with(DASHES) {
            continue;
        }
        if !pem_line(rest_of_end).0.is_empty() {
            continue;
        }
        let body: Vec<u8> = rest
            .get(..end_index)
            .unwrap_or_default()
            .iter()
            .copied()
            .filter(|&b| b != b' ' && b != b'\t')
            .collect();
        let Ok(bytes) = base64_decode(&body) else {
            continue;
        };
        return Some(PemBlock {
            kind: String::from_utf8_lossy(kind).into_owned(),
            headers,
            bytes,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_decode_like_go() {
        let b = pem_decode(b"-----BEGIN X-----\nYWJj\n-----END X-----").unwrap();
        assert_eq!((b.kind.as_str(), b.bytes.as_slice()), ("X", &b"abc"[..]));
        // A mismatched END line: Go moves on and finds no further block.
        assert!(pem_decode(b"-----BEGIN X-----\nYWJj\n-----END Y-----\n").is_none());
        // A malformed first block is skipped for the next one.
        let two =
            b"-----BEGIN X-----\n!!!!\n-----END X-----\n-----BEGIN Y-----\nYQ==\n-----END Y-----\n";
        let b = pem_decode(two).unwrap();
        assert_eq!((b.kind.as_str(), b.bytes.as_slice()), ("Y", &b"a"[..]));
        let h = pem_decode(b"-----BEGIN X-----\nA: b \n\nYQ==\n-----END X-----\n").unwrap();
        assert_eq!(h.headers, vec![("A".to_string(), "b".to_string())]);
        assert!(pem_decode(b"no pem here").is_none());
    }
}
