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
