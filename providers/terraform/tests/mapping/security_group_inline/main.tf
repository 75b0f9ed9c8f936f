provider "aws" {
  region = "eu-west-1"
}

locals {
  web_ports = [80, 443]
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "bastion" {
  name   = "bastion"
  vpc_id = aws_vpc.main.id
}

# Inline rules as blocks and dynamic blocks; the .tf.json twin writes them as the list
# attribute (Terraform's attributes-as-blocks mode).
resource "aws_security_group" "web" {
  name        = "web"
  description = "web servers"
  vpc_id      = aws_vpc.main.id

  ingress {
    description = "ssh from the bastion"
    protocol    = "6"
    from_port   = 22
    to_port     = 22
    security_groups = [aws_security_group.bastion.id]
  }

  # Same protocol and ports as the block above: EC2 reports one permission.
  ingress {
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = ["10.0.0.0/8"]
  }

  dynamic "ingress" {
    for_each = local.web_ports
    content {
      protocol         = "tcp"
      from_port        = ingress.value
      to_port          = ingress.value
      cidr_blocks      = ["0.0.0.0/0"]
      ipv6_cidr_blocks = ["::/0"]
    }
  }

  ingress {
    protocol  = "icmp"
    from_port = 8
    to_port   = 0
    self      = true
  }

  egress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }
}

# No name (generated), no VPC (the default one), no rules: no egress either.
resource "aws_security_group" "empty" {}
