//! Writes a synthetic Terraform configuration for the Terraform benchmark (issue #18):
//! a root module calling N local modules, each declaring M groups of resources with
//! variables, `count`, `for_each`, `dynamic` blocks and S3 settings split into their own
//! resources, the shapes real modules use (terraform-aws-modules). Deterministic.
//!
//! `gen-terraform --modules N --groups M --out DIR` (prints the number of lines written).
//! One group is about 120 lines: a VPC with two subnets, a flow log, a network ACL with
//! dynamic rules, a security group with inline and standalone rules, an instance with a
//! volume and its attachment, and a bucket with versioning, encryption, public access block
//! and logging as separate resources.

use std::fmt::Write as _;
use std::path::PathBuf;

use cloudspec_bench::{arg_parsed, arg_value};

fn group(g: usize) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"
resource "aws_vpc" "g{g}" {{
  cidr_block           = "10.{o}.0.0/16"
  enable_dns_support   = true
  enable_dns_hostnames = var.dns_hostnames
  tags = merge(local.tags, {{ Name = "${{var.name}}-g{g}" }})
}}

resource "aws_subnet" "g{g}" {{
  count                   = length(var.zones)
  vpc_id                  = aws_vpc.g{g}.id
  cidr_block              = cidrsubnet(aws_vpc.g{g}.cidr_block, 8, count.index)
  availability_zone       = var.zones[count.index]
  map_public_ip_on_launch = count.index == 0 && var.public
}}

resource "aws_flow_log" "g{g}" {{
  count           = var.flow_logs ? 1 : 0
  vpc_id          = aws_vpc.g{g}.id
  traffic_type    = "ALL"
  log_destination = "arn:aws:s3:::${{var.name}}-flow-logs"
  log_destination_type = "s3"
}}

resource "aws_network_acl" "g{g}" {{
  vpc_id     = aws_vpc.g{g}.id
  subnet_ids = aws_subnet.g{g}[*].id

  dynamic "ingress" {{
    for_each = var.nacl_rules
    content {{
      rule_no    = ingress.value.number
      action     = ingress.value.action
      protocol   = ingress.value.protocol
      cidr_block = ingress.value.cidr
      from_port  = ingress.value.from
      to_port    = ingress.value.to
    }}
  }}
}}

resource "aws_security_group" "g{g}" {{
  name        = "${{var.name}}-g{g}"
  description = "group {g}"
  vpc_id      = aws_vpc.g{g}.id

  ingress {{
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = [var.office_cidr]
  }}
}}

resource "aws_security_group_rule" "g{g}_ssh" {{
  for_each          = toset(var.ssh_cidrs)
  type              = "ingress"
  security_group_id = aws_security_group.g{g}.id
  from_port         = 22
  to_port           = 22
  protocol          = "tcp"
  cidr_blocks       = [each.value]
}}

resource "aws_instance" "g{g}" {{
  ami                    = var.ami
  instance_type          = var.instance_type
  subnet_id              = aws_subnet.g{g}[0].id
  vpc_security_group_ids = [aws_security_group.g{g}.id]
  monitoring             = var.monitoring

  metadata_options {{
    http_tokens   = var.imdsv2 ? "required" : "optional"
    http_endpoint = "enabled"
  }}

  root_block_device {{
    volume_size = 20
    encrypted   = true
  }}
}}

resource "aws_ebs_volume" "g{g}" {{
  availability_zone = var.zones[0]
  size              = 50
  encrypted         = var.encrypt_volumes
}}

resource "aws_volume_attachment" "g{g}" {{
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.g{g}.id
  instance_id = aws_instance.g{g}.id
}}

resource "aws_s3_bucket" "g{g}" {{
  bucket = "${{var.name}}-g{g}-data"
}}

resource "aws_s3_bucket_versioning" "g{g}" {{
  bucket = aws_s3_bucket.g{g}.id
  versioning_configuration {{
    status = var.versioning ? "Enabled" : "Suspended"
  }}
}}

resource "aws_s3_bucket_server_side_encryption_configuration" "g{g}" {{
  bucket = aws_s3_bucket.g{g}.id
  rule {{
    apply_server_side_encryption_by_default {{
      sse_algorithm = "aws:kms"
    }}
  }}
}}

resource "aws_s3_bucket_public_access_block" "g{g}" {{
  bucket                  = aws_s3_bucket.g{g}.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = var.restrict_public
}}

resource "aws_s3_bucket_logging" "g{g}" {{
  bucket        = aws_s3_bucket.g{g}.id
  target_bucket = "${{var.name}}-logs"
  target_prefix = "g{g}/"
}}
"#,
        o = g % 250
    );
    s
}

const VARIABLES: &str = r#"variable "name" { type = string }
variable "zones" {
  type    = list(string)
  default = ["eu-west-1a", "eu-west-1b"]
}
variable "public" {
  type    = bool
  default = false
}
variable "dns_hostnames" {
  type    = bool
  default = true
}
variable "flow_logs" {
  type    = bool
  default = true
}
variable "office_cidr" {
  type    = string
  default = "203.0.113.0/24"
}
variable "ssh_cidrs" {
  type    = list(string)
  default = ["10.0.0.0/8"]
}
variable "ami" {
  type    = string
  default = "ami-0123456789abcdef0"
}
variable "instance_type" {
  type    = string
  default = "t3.micro"
}
variable "monitoring" {
  type    = bool
  default = true
}
variable "imdsv2" {
  type    = bool
  default = true
}
variable "encrypt_volumes" {
  type    = bool
  default = true
}
variable "versioning" {
  type    = bool
  default = true
}
variable "restrict_public" {
  type    = bool
  default = true
}
variable "nacl_rules" {
  type = list(object({
    number   = number
    action   = string
    protocol = string
    cidr     = string
    from     = number
    to       = number
  }))
  default = [
    { number = 100, action = "allow", protocol = "tcp", cidr = "10.0.0.0/8", from = 443, to = 443 },
    { number = 200, action = "deny", protocol = "tcp", cidr = "0.0.0.0/0", from = 22, to = 22 },
  ]
}
variable "tags" {
  type    = map(string)
  default = {}
}

locals {
  tags = merge({ ManagedBy = "terraform" }, var.tags)
}
"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let modules: usize = arg_parsed(&args, "--modules", 10);
    let groups: usize = arg_parsed(&args, "--groups", 5);
    let Some(out) = arg_value(&args, "--out").map(PathBuf::from) else {
        eprintln!("usage: gen-terraform --modules N --groups M --out DIR");
        std::process::exit(2);
    };
    let mut lines = 0;
    let mut write = |path: PathBuf, text: String| {
        lines += text.lines().count();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create directory");
        }
        std::fs::write(&path, text).expect("write file");
    };
    let mut root = String::from(
        "provider \"aws\" {\n  region = \"eu-west-1\"\n  default_tags {\n    tags = { Project = \"bench\" }\n  }\n}\n",
    );
    for m in 0..modules {
        let _ = write!(
            root,
            "\nmodule \"m{m}\" {{\n  source          = \"./modules/m{m}\"\n  name            = \"bench-m{m}\"\n  versioning      = {}\n  encrypt_volumes = {}\n  restrict_public = {}\n}}\n",
            m % 3 != 0,
            m % 4 != 0,
            m % 5 != 0
        );
        let body: String = (0..groups).map(group).collect();
        write(
            out.join(format!("modules/m{m}/variables.tf")),
            VARIABLES.to_string(),
        );
        write(out.join(format!("modules/m{m}/main.tf")), body);
    }
    write(out.join("main.tf"), root);
    println!("{lines}");
}
