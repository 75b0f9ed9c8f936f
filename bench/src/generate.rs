//! A deterministic synthetic AWS inventory: EC2 instances with their volumes, security
//! groups, subnets and VPCs, property names per `shared/design/aws.md`.
//!
//! Each instance has 1-3 volumes; there is a security group per 10 instances, a subnet per
//! 50 and a VPC per 500. About 3.4 KB of JSON per instance, shares included. The output
//! is what [`cloudspec_model::Inventory::to_json_string`] would write for the same
//! inventory (resources sorted by type then id), so `save(load(file)) == file`.

use std::io::{self, Write};

use cloudspec_model::{Interner, InventoryWriter, Object, Reference, Resource, Value};

const REGION: &str = "eu-west-1";
const ACCOUNT: &str = "123456789012";

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenConfig {
    pub instances: usize,
    /// Same seed, same file.
    pub seed: u64,
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GenStats {
    pub resources: usize,
    pub bytes: u64,
}

/// A tiny xorshift generator: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items
            .get(self.below(items.len() as u64) as usize)
            .copied()
            .unwrap_or("")
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Counts the bytes written through it.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// How many resources of each kind, and who points to whom.
#[derive(Debug, Clone, Copy)]
struct Shape {
    instances: usize,
    groups: usize,
    subnets: usize,
    vpcs: usize,
}

impl Shape {
    fn of(instances: usize) -> Shape {
        Shape {
            instances,
            groups: instances.div_ceil(10).max(1),
            subnets: instances.div_ceil(50).max(1),
            vpcs: instances.div_ceil(500).max(1),
        }
    }
}

/// Writes the inventory for `config` to `out`.
pub fn generate<W: Write>(config: &GenConfig, out: W) -> io::Result<GenStats> {
    let shape = Shape::of(config.instances);
    let mut g = Gen {
        interner: Interner::new(),
        seed: config.seed | 1,
    };
    let counting = Counting {
        inner: out,
        bytes: 0,
    };
    let mut writer = InventoryWriter::new(counting, Some("aws"), Some("2026-11-22T07:00:00Z"))?;
    let mut resources = 0;
    // Types in sorted order: instance < security_group < subnet < volume < vpc.
    for i in 0..shape.instances {
        writer.resource(&g.instance(i, &shape), &g.interner)?;
        resources += 1;
    }
    for i in 0..shape.groups {
        writer.resource(&g.security_group(i, &shape), &g.interner)?;
        resources += 1;
    }
    for i in 0..shape.subnets {
        writer.resource(&g.subnet(i, &shape), &g.interner)?;
        resources += 1;
    }
    for i in 0..shape.instances {
        for v in 0..g.volume_count(i) {
            writer.resource(&g.volume(i, v, &shape), &g.interner)?;
            resources += 1;
        }
    }
    for i in 0..shape.vpcs {
        writer.resource(&g.vpc(i), &g.interner)?;
        resources += 1;
    }
    let counting = writer.finish(&[])?;
    Ok(GenStats {
        resources,
        bytes: counting.bytes,
    })
}

fn s(text: impl AsRef<str>) -> Value {
    Value::Str(text.as_ref().into())
}

fn r(type_name: &str, id: &str) -> Value {
    Value::Ref(Box::new(Reference::new(format!("{type_name}/{id}"))))
}

fn list(items: Vec<Value>) -> Value {
    Value::List(items.into_boxed_slice())
}

fn instance_id(i: usize) -> String {
    format!("i-0{i:016x}")
}
fn volume_id(i: usize, v: usize) -> String {
    format!("vol-0{:016x}", i * 4 + v)
}
fn group_id(i: usize) -> String {
    format!("sg-0{i:016x}")
}
fn subnet_id(i: usize) -> String {
    format!("subnet-0{i:016x}")
}
fn vpc_id(i: usize) -> String {
    format!("vpc-0{i:016x}")
}
fn ip(n: usize) -> String {
    format!(
        "10.{}.{}.{}",
        (n >> 16) & 255,
        (n >> 8) & 255,
        (n & 255).max(4)
    )
}
fn az(n: usize) -> String {
    format!(
        "{REGION}{}",
        ["a", "b", "c"].get(n % 3).copied().unwrap_or("a")
    )
}
fn time(n: u64) -> String {
    format!(
        "2026-{:02}-{:02}T{:02}:{:02}:{:02}.000Z",
        1 + n % 12,
        1 + n % 28,
        n % 24,
        n % 60,
        (n / 7) % 60
    )
}

/// Builds resources with keys interned in one interner.
struct Gen {
    interner: Interner,
    seed: u64,
}

impl Gen {
    /// A generator for everything about resource `n` of a kind (same n, same values).
    fn rng(&self, kind: u64, n: usize) -> Rng {
        let mut rng =
            Rng(self.seed ^ (kind << 56) ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next();
        rng
    }

    fn obj(&mut self, entries: Vec<(&str, Value)>) -> Value {
        Value::Object(self.props(entries))
    }

    fn props(&mut self, entries: Vec<(&str, Value)>) -> Object {
        Object::new(
            entries
                .into_iter()
                .map(|(k, v)| (self.interner.intern(k), v))
                .collect(),
        )
    }

    fn resource(&mut self, type_name: &str, id: String, props: Vec<(&str, Value)>) -> Resource {
        Resource {
            type_name: type_name.into(),
            id: id.into(),
            region: Some(REGION.into()),
            account: Some(ACCOUNT.into()),
            source: None,
            properties: self.props(props),
        }
    }

    /// 1 volume for half the instances, 2 for a third, 3 for the rest.
    fn volume_count(&self, i: usize) -> usize {
        match self.rng(1, i).below(6) {
            0..=2 => 1,
            3..=4 => 2,
            _ => 3,
        }
    }

    fn tags(&mut self, rng: &mut Rng, name: String) -> Value {
        let env = rng.pick(&["production", "staging", "development"]);
        let team = rng.pick(&["payments", "search", "platform", "data", "identity"]);
        let cost = format!("cc-{}", 1000 + rng.below(50));
        self.obj(vec![
            ("Name", s(name)),
            ("environment", s(env)),
            ("team", s(team)),
            ("cost_center", s(cost)),
        ])
    }

    fn instance(&mut self, i: usize, shape: &Shape) -> Resource {
        let mut rng = self.rng(0, i);
        let id = instance_id(i);
        let subnet = i % shape.subnets;
        let vpc = subnet % shape.vpcs;
        let private_ip = ip(i);
        let groups: Vec<usize> = (0..1 + rng.below(2) as usize)
            .map(|k| (i + k * 7) % shape.groups)
            .collect();
        let mut props = vec![
            ("architecture", s("x86_64")),
            ("block_device_mappings", self.block_devices(i)),
            ("ebs_optimized", Value::Bool(rng.chance(70))),
            ("image_id", s(format!("ami-0{:016x}", rng.below(40)))),
            ("instance_id", s(id.clone())),
            (
                "instance_type",
                s(rng.pick(&[
                    "t3.micro",
                    "t3.large",
                    "m5.xlarge",
                    "c6i.2xlarge",
                    "r6g.large",
                ])),
            ),
            ("key_name", s("deploy-key")),
            ("launch_time", s(time(rng.next()))),
            ("metadata_options", self.metadata_options(&mut rng)),
            (
                "monitoring",
                self.obj(vec![(
                    "state",
                    s(if rng.chance(20) {
                        "enabled"
                    } else {
                        "disabled"
                    }),
                )]),
            ),
            (
                "network_interfaces",
                self.network_interfaces(i, &private_ip, subnet, vpc),
            ),
            (
                "placement",
                self.obj(vec![
                    ("availability_zone", s(az(subnet))),
                    ("group_name", s("")),
                    ("tenancy", s("default")),
                ]),
            ),
            ("private_ip_address", s(private_ip)),
            (
                "security_groups",
                list(
                    groups
                        .iter()
                        .map(|g| r("aws:ec2:security_group", &group_id(*g)))
                        .collect(),
                ),
            ),
            (
                "state",
                self.obj(vec![("code", Value::Int(16)), ("name", s("running"))]),
            ),
            ("subnet", r("aws:ec2:subnet", &subnet_id(subnet))),
            ("subnet_id", s(subnet_id(subnet))),
            ("tags", self.tags(&mut rng, format!("web-{i}"))),
            ("vpc", r("aws:ec2:vpc", &vpc_id(vpc))),
            ("vpc_id", s(vpc_id(vpc))),
        ];
        if rng.chance(30) {
            let n = rng.next() % 256;
            props.push((
                "public_ip_address",
                s(format!("54.{}.{}.{}", n, (n * 7) % 256, (n * 13) % 256)),
            ));
        }
        if rng.chance(60) {
            let profile = self.obj(vec![(
                "arn",
                s(format!(
                    "arn:aws:iam::{ACCOUNT}:instance-profile/app-{}",
                    rng.below(20)
                )),
            )]);
            props.push(("iam_instance_profile", profile));
        }
        self.resource("aws:ec2:instance", id, props)
    }

    fn metadata_options(&mut self, rng: &mut Rng) -> Value {
        self.obj(vec![
            ("http_endpoint", s("enabled")),
            ("http_protocol_ipv6", s("disabled")),
            (
                "http_put_response_hop_limit",
                Value::Int(1 + rng.below(2) as i64),
            ),
            (
                "http_tokens",
                s(if rng.chance(70) {
                    "required"
                } else {
                    "optional"
                }),
            ),
            ("instance_metadata_tags", s("disabled")),
            ("state", s("applied")),
        ])
    }

    fn block_devices(&mut self, i: usize) -> Value {
        let devices = (0..self.volume_count(i))
            .map(|v| {
                let ebs = self.obj(vec![
                    ("volume", r("aws:ec2:volume", &volume_id(i, v))),
                    ("volume_id", s(volume_id(i, v))),
                ]);
                let device = if v == 0 {
                    "/dev/xvda".to_string()
                } else {
                    format!("/dev/sd{}", (b'f' + v as u8) as char)
                };
                self.obj(vec![("device_name", s(device)), ("ebs", ebs)])
            })
            .collect();
        list(devices)
    }

    fn network_interfaces(
        &mut self,
        i: usize,
        private_ip: &str,
        subnet: usize,
        vpc: usize,
    ) -> Value {
        let address = self.obj(vec![
            ("primary", Value::Bool(true)),
            ("private_ip_address", s(private_ip)),
        ]);
        let interface = self.obj(vec![
            ("network_interface_id", s(format!("eni-0{i:016x}"))),
            ("private_ip_address", s(private_ip)),
            ("private_ip_addresses", list(vec![address])),
            ("status", s("in-use")),
            ("subnet_id", s(subnet_id(subnet))),
            ("vpc_id", s(vpc_id(vpc))),
        ]);
        list(vec![interface])
    }

    fn volume(&mut self, i: usize, v: usize, shape: &Shape) -> Resource {
        let mut rng = self.rng(4, i * 4 + v);
        let id = volume_id(i, v);
        let subnet = i % shape.subnets;
        let encrypted = rng.chance(80);
        let volume_type = rng.pick(&["gp3", "gp2", "io2", "st1"]);
        let attachment = self.obj(vec![
            (
                "device",
                s(if v == 0 {
                    "/dev/xvda".to_string()
                } else {
                    format!("/dev/sd{}", (b'f' + v as u8) as char)
                }),
            ),
            ("instance", r("aws:ec2:instance", &instance_id(i))),
            ("state", s("attached")),
        ]);
        let mut props = vec![
            ("attachments", list(vec![attachment])),
            ("availability_zone", s(az(subnet))),
            ("encrypted", Value::Bool(encrypted)),
            (
                "size",
                Value::Int(
                    [8, 20, 30, 100, 500]
                        .get(rng.below(5) as usize)
                        .copied()
                        .unwrap_or(8),
                ),
            ),
            ("state", s("in-use")),
            ("volume_id", s(id.clone())),
            ("volume_type", s(volume_type)),
        ];
        if encrypted {
            props.push((
                "kms_key_id",
                s(format!(
                    "arn:aws:kms:{REGION}:{ACCOUNT}:key/{:08x}-0000-4000-8000-{:012x}",
                    rng.below(5),
                    rng.below(5)
                )),
            ));
        }
        if volume_type == "gp3" {
            props.push(("throughput", Value::Int(125)));
        }
        self.resource("aws:ec2:volume", id, props)
    }

    fn security_group(&mut self, i: usize, shape: &Shape) -> Resource {
        let mut rng = self.rng(5, i);
        let vpc = (i % shape.subnets) % shape.vpcs;
        let rules = (0..1 + rng.below(3))
            .map(|_| {
                let port = [22, 80, 443, 3389, 5432]
                    .get(rng.below(5) as usize)
                    .copied()
                    .unwrap_or(443);
                let cidr = if rng.chance(15) {
                    "0.0.0.0/0".to_string()
                } else {
                    format!("10.{}.0.0/16", rng.below(256))
                };
                let range = self.obj(vec![
                    ("cidr_ip", s(cidr)),
                    ("description", s("managed by terraform")),
                ]);
                self.obj(vec![
                    ("from_port", Value::Int(port)),
                    ("ip_protocol", s("tcp")),
                    ("ip_ranges", list(vec![range])),
                    ("ipv6_ranges", list(vec![])),
                    ("prefix_list_ids", list(vec![])),
                    ("to_port", Value::Int(port)),
                    ("user_id_group_pairs", list(vec![])),
                ])
            })
            .collect();
        let all = self.obj(vec![("cidr_ip", s("0.0.0.0/0"))]);
        let egress = self.obj(vec![
            ("ip_protocol", s("-1")),
            ("ip_ranges", list(vec![all])),
            ("ipv6_ranges", list(vec![])),
            ("prefix_list_ids", list(vec![])),
            ("user_id_group_pairs", list(vec![])),
        ]);
        let props = vec![
            ("description", s(format!("app security group {i}"))),
            ("group_id", s(group_id(i))),
            ("group_name", s(format!("app-sg-{i}"))),
            ("ip_permissions", list(rules)),
            ("ip_permissions_egress", list(vec![egress])),
            ("owner_id", s(ACCOUNT)),
            ("tags", self.tags(&mut rng, format!("app-sg-{i}"))),
            ("vpc", r("aws:ec2:vpc", &vpc_id(vpc))),
            ("vpc_id", s(vpc_id(vpc))),
        ];
        self.resource("aws:ec2:security_group", group_id(i), props)
    }

    fn subnet(&mut self, i: usize, shape: &Shape) -> Resource {
        let mut rng = self.rng(6, i);
        let vpc = i % shape.vpcs;
        let props = vec![
            ("assign_ipv6_address_on_creation", Value::Bool(false)),
            ("availability_zone", s(az(i))),
            (
                "available_ip_address_count",
                Value::Int(200 + rng.below(50) as i64),
            ),
            (
                "cidr_block",
                s(format!("10.{}.{}.0/24", (i >> 8) & 255, i & 255)),
            ),
            ("default_for_az", Value::Bool(false)),
            ("map_public_ip_on_launch", Value::Bool(rng.chance(25))),
            ("owner_id", s(ACCOUNT)),
            ("state", s("available")),
            (
                "subnet_arn",
                s(format!(
                    "arn:aws:ec2:{REGION}:{ACCOUNT}:subnet/{}",
                    subnet_id(i)
                )),
            ),
            ("subnet_id", s(subnet_id(i))),
            ("tags", self.tags(&mut rng, format!("subnet-{i}"))),
            ("vpc", r("aws:ec2:vpc", &vpc_id(vpc))),
            ("vpc_id", s(vpc_id(vpc))),
        ];
        self.resource("aws:ec2:subnet", subnet_id(i), props)
    }

    fn vpc(&mut self, i: usize) -> Resource {
        let mut rng = self.rng(7, i);
        let cidr = format!("10.{}.0.0/16", i & 255);
        let state = self.obj(vec![("state", s("associated"))]);
        let association = self.obj(vec![
            ("association_id", s(format!("vpc-cidr-assoc-0{i:016x}"))),
            ("cidr_block", s(cidr.clone())),
            ("cidr_block_state", state),
        ]);
        let props = vec![
            ("cidr_block", s(cidr)),
            ("cidr_block_association_set", list(vec![association])),
            ("dhcp_options_id", s("dopt-0123456789abcdef0")),
            ("instance_tenancy", s("default")),
            ("is_default", Value::Bool(false)),
            ("owner_id", s(ACCOUNT)),
            ("state", s("available")),
            ("tags", self.tags(&mut rng, format!("vpc-{i}"))),
            ("vpc_id", s(vpc_id(i))),
        ];
        self.resource("aws:ec2:vpc", vpc_id(i), props)
    }
}
