locals {
  # Used before it is defined: locals are order-free.
  all_ports = concat(local.web_ports, local.admin_ports)
  web_ports = [80, 443]
  admin_ports = var.admin ? [22] : []
  disks = {
    "/dev/sdf" = true
    "/dev/sdg" = false
  }
}

variable "admin" {
  type    = bool
  default = false
}

resource "aws_security_group" "web" {
  count = 2
  name  = "web-${count.index}"
  dynamic "ingress" {
    for_each = local.all_ports
    iterator = port
    content {
      protocol    = "tcp"
      from_port   = port.value
      to_port     = port.value
      cidr_blocks = ["10.0.0.0/8"]
    }
  }
}

resource "aws_security_group" "never" {
  count = var.admin ? 1 : 0
  name  = "admin"
}

resource "aws_instance" "disks" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
  dynamic "ebs_block_device" {
    for_each = local.disks
    content {
      device_name = ebs_block_device.key
      encrypted   = ebs_block_device.value
    }
  }
}
