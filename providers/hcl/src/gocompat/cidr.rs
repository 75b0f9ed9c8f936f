//! `github.com/apparentlymart/go-cidr` v1.1.0, the arithmetic behind Terraform's
//! `cidrhost`, `cidrsubnet` and `cidrsubnets`: `HostBig`, `SubnetBig`, `AddressRange`,
//! `PreviousSubnet`, `NextSubnet`, on [`crate::gocompat::net`]'s Go-shaped networks.
//!
//! Why not `ipnet`/`ipnetwork`: they have no go-cidr arithmetic, and Terraform's answers
//! and errors come from its exact steps (negative host numbers counting from the end of
//! the network, `big.Int` two's-complement `Or`, `Uint64` truncation, the rollover checks).
//! Where Go would crash (an index out of range in `intToIP` for numbers far beyond the
//! address space) an error is returned instead.

use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};

use crate::gocompat::net::{cidr_mask, ip_equal, ip_mask, ipv4_16, mask_size, to4, IpNet};

/// `checkIPv4`: an IPv4 address in its 4-byte form, anything else as it is.
fn check_ipv4(ip: &[u8]) -> Vec<u8> {
    to4(ip).unwrap_or(ip).to_vec()
}

/// Whether `ip` equals `net.IPv4zero` or `net.IPv6zero` (the rollover test of
/// `PreviousSubnet` and `NextSubnet`).
fn is_zero_address(ip: &[u8]) -> bool {
    ip_equal(ip, &ipv4_16([0, 0, 0, 0])) || ip_equal(ip, &[0u8; 16])
}

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
pub(crate) fn host_big(base: &IpNet, num: BigInt) -> Result<Vec<u8>, String> {
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
pub(crate) fn subnet_big(base: &IpNet, new_bits: i64, num: BigInt) -> Result<IpNet, String> {
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
pub(crate) fn previous_subnet(n: &IpNet, prefix_len: i64) -> (IpNet, bool) {
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
pub(crate) fn next_subnet(n: &IpNet, prefix_len: i64) -> Result<(IpNet, bool), String> {
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
