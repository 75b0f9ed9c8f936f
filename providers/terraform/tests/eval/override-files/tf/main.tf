variable "env" {
  type    = string
  default = "dev"
}
locals {
  name  = "app-${var.env}"
  other = "kept"
}
resource "aws_security_group" "web" {
  name        = local.name
  description = "base"
  ingress {
    from_port = 22
    to_port   = 22
  }
  dynamic "egress" {
    for_each = [1, 2]
    content {
      from_port = egress.value
    }
  }
  tags = {
    other = local.other
  }
}
resource "aws_s3_bucket" "b" {
  count  = 1
  bucket = "base"
}
output "o" {
  value = "base"
}
