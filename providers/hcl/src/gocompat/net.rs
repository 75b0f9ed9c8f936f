//! Go's `net` package as Terraform's CIDR functions use it: `net.IP`, `net.IPMask` and
//! `net.IPNet` modelled as byte vectors (an empty vector is Go's nil, an IPv4 address may
//! be 4 bytes or 16 in the IPv4-mapped form, as in Go), their `String` methods, `Contains`,
//! `Mask`, `CIDRMask`, and `ParseCIDR` with the parser of Terraform's `internal/ipaddr`
//! (Go's `net` parser before 1.17, where IPv4 parts with leading zeros are decimal).
//!
//! Why not `std::net`, `ipnet` or `ipnetwork`: they parse with Rust's std parser, which
//! rejects `010.0.0.1` (Go before 1.17 reads it as decimal 10), keep IPv4-mapped IPv6
//! prefixes as IPv6 where Go's 16-byte `net.IP` turns them into IPv4 answers, and print
//! addresses and networks their own way where Go's `String` methods have their own rules
//! (an IPv4-mapped address as plain dotted IPv4, a non-canonical mask in hex after the `/`).

// ---------------------------------------------------------------------------------------
// Go's net.IP / net.IPMask / net.IPNet, as byte vectors (an empty vector is Go's nil).

/// A network: `ip` (4 or 16 bytes when well-formed) and `mask` (empty when Go's is nil).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IpNet {
    pub(crate) ip: Vec<u8>,
    pub(crate) mask: Vec<u8>,
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// Go's `net.IPv4(a, b, c, d)`: the 16-byte form.
pub(crate) fn ipv4_16(p: [u8; 4]) -> Vec<u8> {
    let mut v = V4_IN_V6_PREFIX.to_vec();
    v.extend_from_slice(&p);
    v
}

/// `IP.To4`.
pub(crate) fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip.get(..12) == Some(&V4_IN_V6_PREFIX[..]) => ip.get(12..),
        _ => None,
    }
}

/// `net.CIDRMask(ones, bits)` (empty for invalid arguments).
pub(crate) fn cidr_mask(ones: i64, bits: i64) -> Vec<u8> {
    if bits != 32 && bits != 128 {
        return Vec::new();
    }
    if ones < 0 || ones > bits {
        return Vec::new();
    }
    let mut m = vec![0u8; (bits / 8) as usize];
    let mut n = ones;
    for b in m.iter_mut() {
        if n >= 8 {
            *b = 0xff;
            n -= 8;
            continue;
        }
        *b = !(0xffu8 >> n);
        n = 0;
    }
    m
}

/// `IP.Mask(mask)` (empty when the lengths do not match).
pub(crate) fn ip_mask(ip: &[u8], mask: &[u8]) -> Vec<u8> {
    let mut mask = mask;
    let mut ip = ip;
    if mask.len() == 16
        && ip.len() == 4
        && mask.get(..12).is_some_and(|m| m.iter().all(|&b| b == 0xff))
    {
        mask = mask.get(12..).unwrap_or_default();
    }
    if mask.len() == 4 && ip.len() == 16 && ip.get(..12) == Some(&V4_IN_V6_PREFIX[..]) {
        ip = ip.get(12..).unwrap_or_default();
    }
    if ip.len() != mask.len() {
        return Vec::new();
    }
    ip.iter().zip(mask).map(|(a, b)| a & b).collect()
}

/// `simpleMaskLength`: the number of leading ones, or None when the mask is not canonical.
fn simple_mask_length(mask: &[u8]) -> Option<u32> {
    let mut ones = 0;
    let mut iter = mask.iter();
    for &v in iter.by_ref() {
        if v == 0xff {
            ones += 8;
            continue;
        }
        // Found a non-ff byte: count its ones and check the rest are zero.
        let mut y = v;
        while y & 0x80 != 0 {
            ones += 1;
            y <<= 1;
        }
        if y != 0 {
            return None;
        }
        break;
    }
    if iter.any(|&v| v != 0) {
        return None;
    }
    Some(ones)
}

/// `IPMask.Size()`.
pub(crate) fn mask_size(mask: &[u8]) -> (u32, u32) {
    match simple_mask_length(mask) {
        Some(ones) => (ones, (mask.len() * 8) as u32),
        None => (0, 0),
    }
}

fn hex_string(b: &[u8]) -> String {
    hex::encode(b)
}

/// `IP.String()`.
pub(crate) fn ip_string(ip: &[u8]) -> String {
    if ip.is_empty() {
        return "<nil>".to_string();
    }
    if let Some(p) = to4(ip) {
        return p.iter().map(u8::to_string).collect::<Vec<_>>().join(".");
    }
    if ip.len() != 16 {
        return format!("?{}", hex_string(ip));
    }
    let groups: Vec<u16> = ip
        .chunks(2)
        .map(|c| {
            u16::from(c.first().copied().unwrap_or(0)) << 8
                | u16::from(c.get(1).copied().unwrap_or(0))
        })
        .collect();
    // The longest run of zero groups (the first when tied), if longer than one group.
    let (mut e0, mut e1) = (usize::MAX, usize::MAX);
    let mut best = 0;
    let mut i = 0;
    while i < 8 {
        let mut j = i;
        while j < 8 && groups.get(j) == Some(&0) {
            j += 1;
        }
        if j > i && j - i > best {
            best = j - i;
            e0 = i;
            e1 = j;
            i = j;
        }
        i += 1;
    }
    if best <= 1 {
        e0 = usize::MAX;
        e1 = usize::MAX;
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == e0 {
            out.push_str("::");
            i = e1;
            if i >= 8 {
                break;
            }
        } else if i > 0 {
            out.push(':');
        }
        out.push_str(&format!("{:x}", groups.get(i).copied().unwrap_or(0)));
        i += 1;
    }
    out
}

/// `networkNumberAndMask`.
fn network_number_and_mask(n: &IpNet) -> Option<(Vec<u8>, Vec<u8>)> {
    let ip = match to4(&n.ip) {
        Some(p) => p.to_vec(),
        None => {
            if n.ip.len() != 16 {
                return None;
            }
            n.ip.clone()
        }
    };
    let mask = match n.mask.len() {
        4 => {
            if ip.len() != 4 {
                return None;
            }
            n.mask.clone()
        }
        16 => {
            if ip.len() == 4 {
                n.mask.get(12..).unwrap_or_default().to_vec()
            } else {
                n.mask.clone()
            }
        }
        _ => return None,
    };
    Some((ip, mask))
}

/// `IPNet.String()`.
pub(crate) fn ipnet_string(n: &IpNet) -> String {
    let Some((ip, mask)) = network_number_and_mask(n) else {
        return "<nil>".to_string();
    };
    match simple_mask_length(&mask) {
        Some(l) => format!("{}/{l}", ip_string(&ip)),
        None => format!("{}/{}", ip_string(&ip), hex_string(&mask)),
    }
}

/// `IPNet.Contains(ip)`.
pub(crate) fn contains(n: &IpNet, ip: &[u8]) -> bool {
    let Some((nn, m)) = network_number_and_mask(n) else {
        return false;
    };
    let ip = to4(ip).unwrap_or(ip);
    if ip.len() != nn.len() {
        return false;
    }
    nn.iter()
        .zip(&m)
        .zip(ip)
        .all(|((a, mk), b)| a & mk == b & mk)
}

/// `IP.Equal(x)`.
pub(crate) fn ip_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() == b.len() {
        return a == b;
    }
    match (a.len(), b.len()) {
        (4, 16) => b.get(..12) == Some(&V4_IN_V6_PREFIX[..]) && b.get(12..) == Some(a),
        (16, 4) => a.get(..12) == Some(&V4_IN_V6_PREFIX[..]) && a.get(12..) == Some(b),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Parsing: Terraform's `internal/ipaddr` (Go's net parser before 1.17).

const BIG: i64 = 0xFF_FFFF;

/// Decimal to integer: (number, characters consumed, ok).
fn dtoi(s: &[u8]) -> (i64, usize, bool) {
    let mut n: i64 = 0;
    let mut i = 0;
    while let Some(c) = s.get(i).copied().filter(u8::is_ascii_digit) {
        n = n * 10 + i64::from(c - b'0');
        if n >= BIG {
            return (BIG, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, 0, false);
    }
    (n, i, true)
}

/// Hexadecimal to integer: (number, characters consumed, ok).
fn xtoi(s: &[u8]) -> (i64, usize, bool) {
    let mut n: i64 = 0;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + i64::from(d);
        if n >= BIG {
            return (0, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, i, false);
    }
    (n, i, true)
}

/// `parseIPv4`: dotted decimal, returning the 16-byte form.
fn parse_ipv4(s: &[u8]) -> Option<Vec<u8>> {
    let mut p = [0u8; 4];
    let mut s = s;
    for (i, part) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s.first() != Some(&b'.') {
                return None;
            }
            s = s.get(1..)?;
        }
        let (n, c, ok) = dtoi(s);
        if !ok || n > 0xff {
            return None;
        }
        s = s.get(c..)?;
        *part = n as u8;
    }
    if !s.is_empty() {
        return None;
    }
    Some(ipv4_16(p))
}

/// `parseIPv6` (RFC 4291 / 5952 text, with an optional trailing dotted IPv4 part).
fn parse_ipv6(s: &[u8]) -> Option<Vec<u8>> {
    let mut ip = vec![0u8; 16];
    let mut ellipsis: Option<usize> = None;
    let mut s = s;
    if s.len() >= 2 && s.first() == Some(&b':') && s.get(1) == Some(&b':') {
        ellipsis = Some(0);
        s = s.get(2..)?;
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c, ok) = xtoi(s);
        if !ok || n > 0xffff {
            return None;
        }
        if s.get(c) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let ip4 = parse_ipv4(s)?;
            ip.get_mut(i..i + 4)?.copy_from_slice(ip4.get(12..16)?);
            s = &[];
            i += 4;
            break;
        }
        *ip.get_mut(i)? = (n >> 8) as u8;
        *ip.get_mut(i + 1)? = n as u8;
        i += 2;
        s = s.get(c..)?;
        if s.is_empty() {
            break;
        }
        if s.first() != Some(&b':') || s.len() == 1 {
            return None;
        }
        s = s.get(1..)?;
        if s.first() == Some(&b':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = s.get(1..)?;
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            let v = *ip.get(j)?;
            *ip.get_mut(j + n)? = v;
        }
        for b in ip.get_mut(e..e + n)? {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// `ParseCIDR`: the network (address masked by the prefix).
pub(crate) fn parse_cidr(s: &str) -> Result<IpNet, String> {
    let err = || format!("invalid CIDR address: {s}");
    let b = s.as_bytes();
    let slash = b.iter().position(|&c| c == b'/').ok_or_else(err)?;
    let addr = b.get(..slash).unwrap_or_default();
    let mask = b.get(slash + 1..).unwrap_or_default();
    let (ip, iplen) = match parse_ipv4(addr) {
        Some(ip) => (ip, 4),
        None => (parse_ipv6(addr).ok_or_else(err)?, 16),
    };
    let (n, i, ok) = dtoi(mask);
    if !ok || i != mask.len() || n < 0 || n > 8 * iplen {
        return Err(err());
    }
    let m = cidr_mask(n, 8 * iplen);
    Ok(IpNet {
        ip: ip_mask(&ip, &m),
        mask: m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_text() {
        let ip = parse_ipv6(b"2001:db8::1").unwrap();
        assert_eq!(ip_string(&ip), "2001:db8::1");
        let ip = parse_ipv6(b"2001:0:0:1:0:0:0:1").unwrap();
        assert_eq!(ip_string(&ip), "2001:0:0:1::1");
        let ip = parse_ipv6(b"1:0:2:0:3:0:4:0").unwrap();
        assert_eq!(ip_string(&ip), "1:0:2:0:3:0:4:0");
        assert!(parse_ipv6(b"1::2::3").is_none());
        assert!(parse_ipv6(b"1:2:3:4:5:6:7:8:9").is_none());
        assert_eq!(ip_string(&parse_ipv6(b"::").unwrap()), "::");
    }
}
