# Fixture of networking.test.yaml: a VPC's network ACLs, security groups and flow logs,
# before apply.

provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "logged" {
  cidr_block = "10.0.0.0/16"
}

# Whether the flow log is ACTIVE is known only after apply: the VPC is unknown.
resource "aws_flow_log" "logged" {
  vpc_id               = aws_vpc.logged.id
  traffic_type         = "ALL"
  log_destination_type = "s3"
  log_destination      = "arn:aws:s3:::flow-logs-bucket"
}

# No flow log: fails.
resource "aws_vpc" "unlogged" {
  cidr_block = "10.1.0.0/16"
}

resource "aws_subnet" "app" {
  vpc_id     = aws_vpc.logged.id
  cidr_block = "10.0.1.0/24"
}

# SSH from the internet (an inline block); the default deny entries never allow.
resource "aws_network_acl" "open_ssh" {
  vpc_id     = aws_vpc.logged.id
  subnet_ids = [aws_subnet.app.id]

  ingress {
    rule_no    = 100
    protocol   = "tcp"
    action     = "allow"
    cidr_block = "0.0.0.0/0"
    from_port  = 0
    to_port    = 1024
  }
}

# HTTPS from the internet, SSH from the VPC only, RDP denied.
resource "aws_network_acl" "web" {
  vpc_id = aws_vpc.logged.id

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
    protocol   = "tcp"
    action     = "allow"
    cidr_block = "10.0.0.0/16"
    from_port  = 22
    to_port    = 22
  }
  ingress {
    rule_no    = 120
    protocol   = "tcp"
    action     = "deny"
    cidr_block = "0.0.0.0/0"
    from_port  = 3389
    to_port    = 3389
  }
}

# All traffic from the internet, as a standalone rule: fails.
resource "aws_network_acl" "all_traffic" {
  vpc_id = aws_vpc.unlogged.id
}

resource "aws_network_acl_rule" "all_traffic" {
  network_acl_id = aws_network_acl.all_traffic.id
  rule_number    = 100
  egress         = false
  protocol       = "-1"
  rule_action    = "allow"
  cidr_block     = "0.0.0.0/0"
}

# HTTPS only, from anywhere (IPv4 and IPv6).
resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.logged.id

  ingress {
    protocol         = "tcp"
    from_port        = 443
    to_port          = 443
    cidr_blocks      = ["0.0.0.0/0"]
    ipv6_cidr_blocks = ["::/0"]
  }
  egress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }
}

# SSH from the internet, as a standalone rule.
resource "aws_security_group" "ssh" {
  name   = "ssh"
  vpc_id = aws_vpc.logged.id
}

resource "aws_security_group_rule" "ssh" {
  type              = "ingress"
  security_group_id = aws_security_group.ssh.id
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = ["0.0.0.0/0"]
}

# RDP from any IPv6 address (protocol number 6 is tcp).
resource "aws_security_group" "rdp6" {
  name   = "rdp6"
  vpc_id = aws_vpc.logged.id
}

resource "aws_vpc_security_group_ingress_rule" "rdp6" {
  security_group_id = aws_security_group.rdp6.id
  ip_protocol       = "6"
  from_port         = 3389
  to_port           = 3389
  cidr_ipv6         = "::/0"
}

# All traffic from the internet ("-1" has no ports): every port, 22, 3389 and 445 included.
resource "aws_security_group" "everything" {
  name   = "everything"
  vpc_id = aws_vpc.unlogged.id

  ingress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }
}

# CIFS from the internet, through a dynamic block.
resource "aws_security_group" "smb" {
  name   = "smb"
  vpc_id = aws_vpc.unlogged.id

  dynamic "ingress" {
    for_each = [139, 445]
    content {
      protocol    = "tcp"
      from_port   = ingress.value
      to_port     = ingress.value
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}

# A default security group with no rules: Terraform removes AWS's. Passes.
resource "aws_default_security_group" "logged" {
  vpc_id = aws_vpc.logged.id
}

# A default security group that lets its members talk: fails.
resource "aws_default_security_group" "unlogged" {
  vpc_id = aws_vpc.unlogged.id

  ingress {
    protocol  = "-1"
    self      = true
    from_port = 0
    to_port   = 0
  }
}
