//! `golang.org/x/text/encoding/ianaindex` and the encodings it returns, as Terraform's
//! `textencodebase64` and `textdecodebase64` use them: [`lookup_encoding`] finds an
//! encoding by IANA name or alias and gives its canonical IANA name (which Terraform's
//! messages show); [`encode_text`] and [`decode_text`] behave as x/text's encoders and
//! decoders for UTF-8, UTF-16 (with and without a byte order mark), ISO-8859-1,
//! ISO-8859-9 and the WHATWG single- and multi-byte encodings.
//!
//! Why not `encoding_rs` alone (it implements the WHATWG encodings used here): its labels
//! are WHATWG's, not IANA's (`latin1` and `iso-8859-1` name windows-1252 there, `iso-8859-9`
//! names windows-1254), it has no ISO-8859-1 or ISO-8859-9 proper, and it does not encode
//! to UTF-16 (WHATWG encoders write UTF-8 for it).

/// An encoding `ianaindex` can return, as implemented here.
#[derive(Clone, Copy)]
pub(crate) enum TextEncoding {
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

/// `ianaindex.IANA.Encoding(name)` then `IANA.Name(enc)`: the canonical name and the
/// encoding for a name or alias (case-insensitive, surrounding space ignored).
pub(crate) fn lookup_encoding(name: &str) -> Option<(&'static str, TextEncoding)> {
    let key = name.trim().to_lowercase();
    iana_encodings()
        .into_iter()
        .find(|(_, aliases, _)| aliases.contains(&key.as_str()))
        .map(|(canonical, _, enc)| (canonical, enc))
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
pub(crate) fn encode_text(s: &str, enc: TextEncoding) -> Option<Vec<u8>> {
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
pub(crate) fn decode_text(b: &[u8], enc: TextEncoding) -> Option<String> {
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
