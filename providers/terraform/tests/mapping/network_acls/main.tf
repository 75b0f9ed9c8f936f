provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "other" {
  cidr_block = "10.1.0.0/16"
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_subnet" "b" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.2.0/24"
}

resource "aws_subnet" "c" {
  vpc_id     = aws_vpc.other.id
  cidr_block = "10.1.1.0/24"
}

resource "aws_network_acl" "public" {
  vpc_id     = aws_vpc.main.id
  subnet_ids = [aws_subnet.a.id]

  ingress {
    rule_no    = 100
    protocol   = "tcp"
    action     = "allow"
    cidr_block = "0.0.0.0/0"
    from_port  = 443
    to_port    = 443
  }

  ingress {
    rule_no    = 110
    protocol   = "icmp"
    action     = "allow"
    cidr_block = "10.0.0.0/8"
    from_port  = 0
    to_port    = 0
    icmp_type  = 8
    icmp_code  = 0
  }

  egress {
    rule_no    = 100
    protocol   = "-1"
    action     = "allow"
    cidr_block = "0.0.0.0/0"
    from_port  = 0
    to_port    = 0
  }
}

# Standalone rules and associations merge into their ACL.
resource "aws_network_acl_rule" "ssh" {
  network_acl_id = aws_network_acl.public.id
  rule_number    = 200
  egress         = false
  protocol       = "6"
  rule_action    = "deny"
  cidr_block     = "0.0.0.0/0"
  from_port      = 22
  to_port        = 22
}

resource "aws_network_acl_association" "b" {
  network_acl_id = aws_network_acl.public.id
  subnet_id      = aws_subnet.b.id
}

# The VPC's default ACL, found through the VPC's default_network_acl_id.
resource "aws_default_network_acl" "default" {
  default_network_acl_id = aws_vpc.main.default_network_acl_id

  ingress {
    rule_no    = 100
    protocol   = "all"
    action     = "allow"
    cidr_block = "10.0.0.0/16"
    from_port  = 0
    to_port    = 0
  }
}

# A default network ACL that lists its subnets: exactly those (without subnet_ids, as
# "default" above, AWS associates every subnet no other ACL claims: unknown).
resource "aws_default_network_acl" "listed" {
  default_network_acl_id = aws_vpc.other.default_network_acl_id
  subnet_ids             = [aws_subnet.c.id]
}

# A rule of an ACL outside the configuration: dropped with a warning.
resource "aws_network_acl_rule" "elsewhere" {
  network_acl_id = "acl-0123"
  rule_number    = 100
  protocol       = "udp"
  rule_action    = "allow"
  cidr_block     = "0.0.0.0/0"
  from_port      = 53
  to_port        = 53
}

