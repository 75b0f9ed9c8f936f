//! IP network functions, as Terraform 1.5 defines them (`internal/lang/funcs/cidr.go`):
//! `cidrhost`, `cidrnetmask`, `cidrsubnet` and `cidrsubnets`.
//!
//! Terraform computes these with Go's `net` types and `github.com/apparentlymart/go-cidr`
//! v1.1.0; those are reproduced step by step in `gocompat::net` (addresses, masks,
//! Terraform's pre-1.17 `ParseCIDR`) and `gocompat::cidr` (the subnet arithmetic), which
//! say why the `ipnet`/`ipnetwork` crates cannot stand in for them. This file holds the
//! functions' signatures, argument conversion and Terraform's own checks and messages.

use super::conversion::{num_arg, str_arg, to_go_bigint, to_go_int};
use super::{FuncError, Function, FunctionTable, Param};
use crate::gocompat::cidr::{host_big, next_subnet, previous_subnet, subnet_big};
use crate::gocompat::net::{contains, ip_string, ipnet_string, mask_size, parse_cidr, to4};
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
}
