provider "aws" {
  region = "ap-southeast-2"
}

variable "encrypted" {
  type = bool
}

variable "subnet_count" {
  type = number
}

# Enabled by default.
resource "aws_ebs_encryption_by_default" "this" {}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

# An unknown number of subnets: one instance ADDR[*] whose members are unknown, and the
# VPC's subnets are unknown too.
resource "aws_subnet" "private" {
  count      = var.subnet_count
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet("10.0.0.0/16", 8, count.index)
}

# A variable without a value: unknown (the evaluator warns).
resource "aws_ebs_volume" "data" {
  availability_zone = "ap-southeast-2a"
  size              = 8
  encrypted         = var.encrypted
  snapshot_id       = "snap-0123"
}

# Known values from a variable file.
resource "aws_ebs_volume" "scratch" {
  availability_zone = "ap-southeast-2b"
  size              = var.scratch_size
  type              = "st1"
}

variable "scratch_size" {
  type = number
}

variable "disks" {
  type = map(number)
}

variable "open_ports" {
  type = list(number)
}

# Dynamic blocks over an unknown collection: one derived volume ADDR.ebs_block_device[*]
# whose members are unknown, and unknown ingress permissions.
resource "aws_instance" "worker" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "m5.large"

  root_block_device {
    encrypted = true
  }

  dynamic "ebs_block_device" {
    for_each = var.disks
    content {
      device_name = ebs_block_device.key
      volume_size = ebs_block_device.value
    }
  }
}

resource "aws_security_group" "worker" {
  name   = "worker"
  vpc_id = aws_vpc.main.id

  dynamic "ingress" {
    for_each = var.open_ports
    content {
      protocol    = "tcp"
      from_port   = ingress.value
      to_port     = ingress.value
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}
