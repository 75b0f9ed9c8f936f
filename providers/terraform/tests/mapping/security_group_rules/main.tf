provider "aws" {
  region = "eu-west-1"
}

variable "rule_count" {
  type = number
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "app" {
  name   = "app"
  vpc_id = aws_vpc.main.id

  ingress {
    protocol    = "tcp"
    from_port   = 8080
    to_port     = 8080
    cidr_blocks = ["10.0.0.0/16"]
  }
}

# Standalone rules append to the group's permissions, grouped with equal ones.
resource "aws_security_group_rule" "app_8080" {
  type              = "ingress"
  security_group_id = aws_security_group.app.id
  protocol          = "tcp"
  from_port         = 8080
  to_port           = 8080
  cidr_blocks       = ["192.168.0.0/16"]
  description       = "office"
}

resource "aws_security_group_rule" "app_self" {
  type              = "egress"
  security_group_id = aws_security_group.app.id
  protocol          = "all"
  from_port         = 0
  to_port           = 65535
  self              = true
}

resource "aws_vpc_security_group_ingress_rule" "https" {
  security_group_id = aws_security_group.app.id
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_vpc_security_group_ingress_rule" "from_default" {
  security_group_id            = aws_security_group.app.id
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_default_security_group.default.id
}

resource "aws_vpc_security_group_egress_rule" "all" {
  security_group_id = aws_security_group.app.id
  ip_protocol       = "-1"
  cidr_ipv6         = "::/0"
}

# The default group: Terraform removes its rules; this configuration declares none.
resource "aws_default_security_group" "default" {
  vpc_id = aws_vpc.main.id
}

# Rules whose group is not in the configuration: dropped with a warning.
resource "aws_security_group_rule" "elsewhere" {
  type              = "ingress"
  security_group_id = "sg-0123456789"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = ["0.0.0.0/0"]
}

data "aws_security_group" "shared" {
  name = "shared"
}

resource "aws_vpc_security_group_ingress_rule" "shared" {
  security_group_id = data.aws_security_group.shared.id
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = "0.0.0.0/0"
}

# An unknown number of rules: the group's egress permissions are unknown.
resource "aws_vpc_security_group_egress_rule" "many" {
  count             = var.rule_count
  security_group_id = aws_default_security_group.default.id
  ip_protocol       = "tcp"
  from_port         = 5432
  to_port           = 5432
  cidr_ipv4         = "10.0.0.0/16"
}
