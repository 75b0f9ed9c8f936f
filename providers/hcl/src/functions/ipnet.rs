//! IP network functions, as Terraform 1.5 defines them (`internal/lang/funcs/cidr.go`):
//! `cidrhost`, `cidrnetmask`, `cidrsubnet` and `cidrsubnets`.
//!
//! Terraform computes these with Go's `net` types and `github.com/apparentlymart/go-cidr`
//! v1.1.0. To give the same answers in every case (IPv4-mapped IPv6 prefixes, negative and
//! out-of-range numbers, the odd corners of the arithmetic), this module models Go's
//! `net.IP` / `net.IPMask` / `net.IPNet` as byte vectors and follows those libraries step by
//! step. Addresses are parsed as Terraform's `ipaddr` package does (Go's parser before 1.17:
//! IPv4 parts with leading zeros are decimal). Where Go would crash (an index out of range
//! in go-cidr's `intToIP` for numbers far beyond the address space) an error is returned.
//!
//! Why not `ipnet`/`ipnetwork` (both in the tree): they parse with Rust's std parser, which
//! rejects `010.0.0.1` (Go before 1.17 reads it as decimal 10), keep IPv4-mapped IPv6
//! prefixes as IPv6 where Go's 16-byte `net.IP` turns them into IPv4 answers, and have no
//! go-cidr arithmetic (negative host numbers counting from the end, its overflow errors).

use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};

use super::conversion::{num_arg, str_arg, to_go_bigint, to_go_int};
use super::{FuncError, Function, FunctionTable, Param};
use crate::types::Type;
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(Function::new(
        "cidrhost",
        vec![
            Param::new("prefix", Type::String),
            Param::new("hostnum", Type::Number),
        ],
        Type::String,
        cidrhost,
    ));
    t.add(Function::new(
        "cidrnetmask",
        vec![Param::new("prefix", Type::String)],
        Type::String,
        cidrnetmask,
    ));
    t.add(Function::new(
        "cidrsubnet",
        vec![
            Param::new("prefix", Type::String),
            Param::new("newbits", Type::Number),
            Param::new("netnum", Type::Number),
        ],
        Type::String,
        cidrsubnet,
    ));
    t.add(
        Function::new(
            "cidrsubnets",
            vec![Param::new("prefix", Type::String)],
            Type::list(Type::String),
            cidrsubnets,
        )
        .variadic(Param::new("newbits", Type::Number)),
    );
}

fn cidrhost(args: &[Value]) -> Result<Value, FuncError> {
    let host_num = to_go_bigint(num_arg(args, 1)?).map_err(FuncError::new)?;
    let network = parse_cidr(str_arg(args, 0)?)
        .map_err(|e| FuncError::new(format!("invalid CIDR expression: {e}")))?;
    let ip = host_big(&network, host_num).map_err(FuncError::new)?;
    Ok(Value::String(ip_string(&ip)))
}

fn cidrnetmask(args: &[Value]) -> Result<Value, FuncError> {
    let prefix = str_arg(args, 0)?;
    let network =
        parse_cidr(prefix).map_err(|e| FuncError::new(format!("invalid CIDR expression: {e}")))?;
    if to4(&network.ip).is_none() {
        return Err(FuncError::new(format!(
            "IPv6 addresses cannot have a netmask: {prefix}"
        )));
    }
    Ok(Value::String(ip_string(&network.mask)))
}

fn cidrsubnet(args: &[Value]) -> Result<Value, FuncError> {
    let new_bits = to_go_int(num_arg(args, 1)?).map_err(FuncError::new)?;
    let net_num = to_go_bigint(num_arg(args, 2)?).map_err(FuncError::new)?;
    let network = parse_cidr(str_arg(args, 0)?)
        .map_err(|e| FuncError::new(format!("invalid CIDR expression: {e}")))?;
    let subnet = subnet_big(&network, new_bits, net_num).map_err(FuncError::new)?;
    Ok(Value::String(ipnet_string(&subnet)))
}

fn cidrsubnets(args: &[Value]) -> Result<Value, FuncError> {
    let network = parse_cidr(str_arg(args, 0)?)
        .map_err(|e| FuncError::arg(0, format!("invalid CIDR expression: {e}")))?;
    let (start_prefix_len, _) = mask_size(&network.mask);
    let start_prefix_len = i64::from(start_prefix_len);
    let lengths = args.get(1..).unwrap_or_default();
    if lengths.is_empty() {
        return Ok(Value::List(Type::String, Vec::new()));
    }
    let first_length = to_go_int(num_arg(args, 1)?)
        .map_err(|e| FuncError::arg(1, e))?
        .wrapping_add(start_prefix_len);
    let mut current = previous_subnet(&network, first_length).0;
    let mut out = Vec::with_capacity(lengths.len());
    for i in 0..lengths.len() {
        let mut length = to_go_int(num_arg(args, i + 1)?).map_err(|e| FuncError::arg(i + 1, e))?;
        if length < 1 {
            return Err(FuncError::arg(
                i + 1,
                "must extend prefix by at least one bit",
            ));
        }
        if length > 32 {
            return Err(FuncError::arg(
                i + 1,
                "may not extend prefix by more than 32 bits",
            ));
        }
        length += start_prefix_len;
        let addr_bits = (network.ip.len() * 8) as i64;
        if length > addr_bits {
            let protocol = match addr_bits {
                32 => "IPv4",
                128 => "IPv6",
                _ => "IP",
            };
            return Err(FuncError::arg(
                i + 1,
                format!(
                    "would extend prefix to {length} bits, which is too long for an {protocol} address"
                ),
            ));
        }
        let (next, rollover) = next_subnet(&current, length).map_err(FuncError::new)?;
        if rollover || !contains(&network, &next.ip) {
            return Err(FuncError::arg(
                i + 1,
                format!(
                    "not enough remaining address space for a subnet with a prefix of {length} bits after {}",
                    ipnet_string(&current)
                ),
            ));
        }
        current = next;
        out.push(Value::String(ipnet_string(&current)));
    }
    Ok(Value::List(Type::String, out))
}

// ---------------------------------------------------------------------------------------
// Go's net.IP / net.IPMask / net.IPNet, as byte vectors (an empty vector is Go's nil).

/// A network: `ip` (4 or 16 bytes when well-formed) and `mask` (empty when Go's is nil).
#[derive(Clone, Debug, PartialEq, Eq)]
struct IpNet {
    ip: Vec<u8>,
    mask: Vec<u8>,
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// Go's `net.IPv4(a, b, c, d)`: the 16-byte form.
fn ipv4_16(p: [u8; 4]) -> Vec<u8> {
    let mut v = V4_IN_V6_PREFIX.to_vec();
    v.extend_from_slice(&p);
    v
}

/// `IP.To4`.
fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip.get(..12) == Some(&V4_IN_V6_PREFIX[..]) => ip.get(12..),
        _ => None,
    }
}

/// go-cidr's `checkIPv4`.
fn check_ipv4(ip: &[u8]) -> Vec<u8> {
    to4(ip).unwrap_or(ip).to_vec()
}

/// `net.CIDRMask(ones, bits)` (empty for invalid arguments).
fn cidr_mask(ones: i64, bits: i64) -> Vec<u8> {
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
fn ip_mask(ip: &[u8], mask: &[u8]) -> Vec<u8> {
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
fn mask_size(mask: &[u8]) -> (u32, u32) {
    match simple_mask_length(mask) {
        Some(ones) => (ones, (mask.len() * 8) as u32),
        None => (0, 0),
    }
}

fn hex_string(b: &[u8]) -> String {
    hex::encode(b)
}

/// `IP.String()`.
fn ip_string(ip: &[u8]) -> String {
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
fn ipnet_string(n: &IpNet) -> String {
    let Some((ip, mask)) = network_number_and_mask(n) else {
        return "<nil>".to_string();
    };
    match simple_mask_length(&mask) {
        Some(l) => format!("{}/{l}", ip_string(&ip)),
        None => format!("{}/{}", ip_string(&ip), hex_string(&mask)),
    }
}

/// `IPNet.Contains(ip)`.
fn contains(n: &IpNet, ip: &[u8]) -> bool {
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
fn ip_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() == b.len() {
        return a == b;
    }
    match (a.len(), b.len()) {
        (4, 16) => b.get(..12) == Some(&V4_IN_V6_PREFIX[..]) && b.get(12..) == Some(a),
        (16, 4) => a.get(..12) == Some(&V4_IN_V6_PREFIX[..]) && a.get(12..) == Some(b),
        _ => false,
    }
}

fn is_zero_address(ip: &[u8]) -> bool {
    ip_equal(ip, &ipv4_16([0, 0, 0, 0])) || ip_equal(ip, &[0u8; 16])
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
fn parse_cidr(s: &str) -> Result<IpNet, String> {
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

// ---------------------------------------------------------------------------------------
// go-cidr v1.1.0.

/// Go's `big.Int.Uint64()`: the low 64 bits of the magnitude.
fn low64(n: &BigInt) -> u64 {
    n.magnitude().iter_u64_digits().next().unwrap_or(0)
}

/// `ipToInt`: the address as an integer and its bit length.
fn ip_to_int(ip: &[u8]) -> Result<(BigInt, u32), String> {
    let bits = match ip.len() {
        4 => 32,
        16 => 128,
        n => return Err(format!("Unsupported address length {n}")),
    };
    Ok((BigInt::from_bytes_be(Sign::Plus, ip), bits))
}

/// `intToIP`: the magnitude's bytes packed at the end of a `bits/8`-byte address. Go
/// panics when the number has more bytes than the address; that is an error here.
fn int_to_ip(n: &BigInt, bits: u32) -> Result<Vec<u8>, String> {
    let (_, bytes) = n.to_bytes_be();
    let bytes: &[u8] = if n.is_zero() { &[] } else { &bytes };
    let len = (bits / 8) as usize;
    if bytes.len() > len {
        return Err("the computed address does not fit in the address space".to_string());
    }
    let mut out = vec![0u8; len];
    if let Some(tail) = out.get_mut(len - bytes.len()..) {
        tail.copy_from_slice(bytes);
    }
    Ok(out)
}

/// A bound on shifts so that absurd prefix arithmetic cannot allocate without limit.
const MAX_SHIFT: i64 = 1 << 16;

/// `insertNumIntoIP`: `ip | num << (totalBits - prefixLen)` (Go's two's-complement `Or`).
fn insert_num_into_ip(ip: &[u8], num: &BigInt, prefix_len: i64) -> Result<Vec<u8>, String> {
    let (ip_int, total_bits) = ip_to_int(ip)?;
    let shift = i64::from(total_bits) - prefix_len;
    let shifted = if num.is_zero() {
        BigInt::zero()
    } else if !(0..=MAX_SHIFT).contains(&shift) {
        return Err("the computed address does not fit in the address space".to_string());
    } else {
        num << (shift as usize)
    };
    int_to_ip(&(ip_int | shifted), total_bits)
}

/// `HostBig`.
fn host_big(base: &IpNet, num: BigInt) -> Result<Vec<u8>, String> {
    let (parent_len, addr_len) = mask_size(&base.mask);
    let host_len = addr_len - parent_len;
    let max_host_num: BigInt = (BigInt::one() << host_len as usize) - 1;
    let mut num = num;
    // `big.NewInt(int64(num.Uint64()))`: the low 64 bits, reinterpreted as signed.
    let mut num_uint64 = BigInt::from(low64(&num) as i64);
    if num.is_negative() {
        num_uint64 = -&num - 1;
        num = &max_host_num - &num_uint64;
    }
    if num_uint64 > max_host_num {
        return Err(format!(
            "prefix of {parent_len} does not accommodate a host numbered {num}"
        ));
    }
    let bit_length = if to4(&base.ip).is_some() { 32 } else { 128 };
    insert_num_into_ip(&base.ip, &num, bit_length)
        .map_err(|_| format!("prefix of {parent_len} does not accommodate a host numbered {num}"))
}

/// `SubnetBig`.
fn subnet_big(base: &IpNet, new_bits: i64, num: BigInt) -> Result<IpNet, String> {
    let (parent_len, addr_len) = mask_size(&base.mask);
    let new_prefix_len = i64::from(parent_len) + new_bits;
    if new_prefix_len > i64::from(addr_len) {
        return Err(format!(
            "insufficient address space to extend prefix of {parent_len} by {new_bits}"
        ));
    }
    // `uint64(1<<uint64(newBits)) - 1`: shifts of 64 or more (and negative counts, which
    // become huge unsigned ones) give 0, so the maximum wraps to all ones.
    let max_net_num = if (0..64).contains(&new_bits) {
        (1u64 << new_bits) - 1
    } else {
        u64::MAX
    };
    if low64(&num) > max_net_num {
        return Err(format!(
            "prefix extension of {new_bits} does not accommodate a subnet numbered {num}"
        ));
    }
    let ip = insert_num_into_ip(&base.ip, &num, new_prefix_len).map_err(|_| {
        format!("prefix extension of {new_bits} does not accommodate a subnet numbered {num}")
    })?;
    Ok(IpNet {
        ip,
        mask: cidr_mask(new_prefix_len, i64::from(addr_len)),
    })
}

/// `AddressRange`: the first and last addresses of a network.
fn address_range(n: &IpNet) -> Result<(Vec<u8>, Vec<u8>), String> {
    let first = ip_mask(&n.ip, &n.mask);
    let (prefix_len, bits) = mask_size(&n.mask);
    if prefix_len == bits {
        let last = first.clone();
        return Ok((first, last));
    }
    let (first_int, bits) = ip_to_int(&first)?;
    let host_len = bits.saturating_sub(prefix_len);
    let last_int = ((BigInt::one() << host_len as usize) - 1) | &first_int;
    Ok((first, int_to_ip(&last_int, bits)?))
}

/// `Inc`.
fn inc(ip: &[u8]) -> Vec<u8> {
    let mut v = check_ipv4(ip);
    for b in v.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b > 0 {
            break;
        }
    }
    v
}

/// `Dec`.
fn dec(ip: &[u8]) -> Vec<u8> {
    let mut v = check_ipv4(ip);
    for b in v.iter_mut().rev() {
        *b = b.wrapping_sub(1);
        if *b < 255 {
            break;
        }
    }
    v
}

/// `PreviousSubnet`: the subnet of `prefix_len` just below the start of `n`, and whether
/// the address space rolled over.
fn previous_subnet(n: &IpNet, prefix_len: i64) -> (IpNet, bool) {
    let start = check_ipv4(&n.ip);
    let mask = cidr_mask(prefix_len, (start.len() * 8) as i64);
    let previous = dec(&start);
    let rollover = is_zero_address(&start);
    (
        IpNet {
            ip: ip_mask(&previous, &mask),
            mask,
        },
        rollover,
    )
}

/// `NextSubnet`: the subnet of `prefix_len` just after the end of `n`, and whether the
/// address space rolled over.
fn next_subnet(n: &IpNet, prefix_len: i64) -> Result<(IpNet, bool), String> {
    let (_, current_last) = address_range(n)?;
    let mask = cidr_mask(prefix_len, (current_last.len() * 8) as i64);
    let current = IpNet {
        ip: ip_mask(&current_last, &mask),
        mask: mask.clone(),
    };
    let (_, last) = address_range(&current)?;
    let last = inc(&last);
    let rollover = is_zero_address(&last);
    Ok((
        IpNet {
            ip: ip_mask(&last, &mask),
            mask,
        },
        rollover,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    fn table() -> FunctionTable {
        let mut t = FunctionTable::empty();
        register(&mut t);
        t
    }

    fn s(v: &str) -> Value {
        Value::String(v.to_string())
    }

    fn n(v: &str) -> Value {
        Value::Number(Number::parse(v).unwrap())
    }

    fn call(name: &str, args: &[Value]) -> Result<String, String> {
        match table().call(name, args) {
            Ok(Value::String(s)) => Ok(s),
            Ok(Value::List(_, vs)) => Ok(vs
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    _ => "?".into(),
                })
                .collect::<Vec<_>>()
                .join(" ")),
            Ok(v) => Err(format!("unexpected {v:?}")),
            Err(e) => Err(e.message),
        }
    }

    #[test]
    fn cidrhost_cases() {
        assert_eq!(
            call("cidrhost", &[s("192.168.1.0/24"), n("5")]).unwrap(),
            "192.168.1.5"
        );
        assert_eq!(
            call("cidrhost", &[s("192.168.1.0/24"), n("-5")]).unwrap(),
            "192.168.1.251"
        );
        assert_eq!(
            call("cidrhost", &[s("192.168.1.0/24"), n("-256")]).unwrap(),
            "192.168.1.0"
        );
        assert_eq!(
            call("cidrhost", &[s("010.001.0.0/24"), n("6")]).unwrap(),
            "10.1.0.6"
        );
        assert_eq!(
            call("cidrhost", &[s("fd00:fd12:3456:7890::/56"), n("16")]).unwrap(),
            "fd00:fd12:3456:7800::10"
        );
        assert_eq!(
            call("cidrhost", &[s("192.168.1.0/30"), n("255")]).unwrap_err(),
            "prefix of 30 does not accommodate a host numbered 255"
        );
        assert_eq!(
            call("cidrhost", &[s("192.168.1.0/30"), n("-255")]).unwrap_err(),
            "prefix of 30 does not accommodate a host numbered -251"
        );
        assert_eq!(
            call("cidrhost", &[s("not-a-cidr"), n("6")]).unwrap_err(),
            "invalid CIDR expression: invalid CIDR address: not-a-cidr"
        );
        assert_eq!(
            call("cidrhost", &[s("10.256.0.0/8"), n("6")]).unwrap_err(),
            "invalid CIDR expression: invalid CIDR address: 10.256.0.0/8"
        );
        assert_eq!(
            call("cidrhost", &[s("10.0.0.0/8"), n("0.75")]).unwrap_err(),
            "value must be a whole number"
        );
    }

    #[test]
    fn cidrnetmask_cases() {
        assert_eq!(
            call("cidrnetmask", &[s("192.168.1.0/24")]).unwrap(),
            "255.255.255.0"
        );
        assert_eq!(
            call("cidrnetmask", &[s("192.168.1.0/32")]).unwrap(),
            "255.255.255.255"
        );
        assert_eq!(call("cidrnetmask", &[s("0.0.0.0/0")]).unwrap(), "0.0.0.0");
        assert_eq!(
            call("cidrnetmask", &[s("10.0.0.0/9")]).unwrap(),
            "255.128.0.0"
        );
        assert_eq!(
            call("cidrnetmask", &[s("1::/64")]).unwrap_err(),
            "IPv6 addresses cannot have a netmask: 1::/64"
        );
    }

    #[test]
    fn cidrsubnet_cases() {
        assert_eq!(
            call("cidrsubnet", &[s("192.168.2.0/20"), n("4"), n("6")]).unwrap(),
            "192.168.6.0/24"
        );
        assert_eq!(
            call("cidrsubnet", &[s("fe80::/48"), n("16"), n("6")]).unwrap(),
            "fe80:0:0:6::/64"
        );
        assert_eq!(
            call("cidrsubnet", &[s("::ffff:192.168.0.0/112"), n("8"), n("6")]).unwrap(),
            "192.168.6.0/24"
        );
        assert_eq!(
            call("cidrsubnet", &[s("fe80::/48"), n("33"), n("6")]).unwrap(),
            "fe80::3:0:0:0/81"
        );
        assert_eq!(
            call("cidrsubnet", &[s("010.001.0.0/24"), n("4"), n("1")]).unwrap(),
            "10.1.0.16/28"
        );
        assert_eq!(
            call("cidrsubnet", &[s("192.168.0.0/30"), n("4"), n("6")]).unwrap_err(),
            "insufficient address space to extend prefix of 30 by 4"
        );
        assert_eq!(
            call("cidrsubnet", &[s("10.0.0.0/24"), n("9"), n("0")]).unwrap_err(),
            "insufficient address space to extend prefix of 24 by 9"
        );
        assert_eq!(
            call("cidrsubnet", &[s("192.168.0.0/16"), n("2"), n("16")]).unwrap_err(),
            "prefix extension of 2 does not accommodate a subnet numbered 16"
        );
        assert_eq!(
            call("cidrsubnet", &[s("10.0.0.0/8"), n("0.5"), n("1")]).unwrap_err(),
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
        );
    }

    #[test]
    fn cidrsubnets_cases() {
        assert_eq!(
            call(
                "cidrsubnets",
                &[s("10.0.0.0/21"), n("3"), n("3"), n("3"), n("4"), n("4"), n("4"), n("7"), n("7"), n("7")]
            )
            .unwrap(),
            "10.0.0.0/24 10.0.1.0/24 10.0.2.0/24 10.0.3.0/25 10.0.3.128/25 10.0.4.0/25 10.0.4.128/28 10.0.4.144/28 10.0.4.160/28"
        );
        assert_eq!(
            call("cidrsubnets", &[s("010.0.0.0/21"), n("3")]).unwrap(),
            "10.0.0.0/24"
        );
        assert_eq!(call("cidrsubnets", &[s("10.0.0.0/21")]).unwrap(), "");
        assert_eq!(
            call("cidrsubnets", &[s("fd00:fd12:3456:7890::/56"), n("16"), n("16"), n("16"), n("32")]).unwrap(),
            "fd00:fd12:3456:7800::/72 fd00:fd12:3456:7800:100::/72 fd00:fd12:3456:7800:200::/72 fd00:fd12:3456:7800:300::/88"
        );
        assert_eq!(
            call("cidrsubnets", &[s("10.0.0.0/30"), n("1"), n("3")]).unwrap_err(),
            "would extend prefix to 33 bits, which is too long for an IPv4 address"
        );
        assert_eq!(
            call("cidrsubnets", &[s("10.0.0.0/8"), n("1"), n("1"), n("1")]).unwrap_err(),
            "not enough remaining address space for a subnet with a prefix of 9 bits after 10.128.0.0/9"
        );
        assert_eq!(
            call("cidrsubnets", &[s("10.0.0.0/8"), n("1"), n("0")]).unwrap_err(),
            "must extend prefix by at least one bit"
        );
        assert_eq!(
            call("cidrsubnets", &[s("10.0.0.0/8"), n("1"), n("-1")]).unwrap_err(),
            "must extend prefix by at least one bit"
        );
        assert_eq!(
            call("cidrsubnets", &[s("fe80::/48"), n("1"), n("33")]).unwrap_err(),
            "may not extend prefix by more than 32 bits"
        );
        let e = table()
            .call("cidrsubnets", &[s("10.0.0.0/8"), n("1"), n("33")])
            .unwrap_err();
        assert_eq!(e.arg, Some(2));
    }

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
