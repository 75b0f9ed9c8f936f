variable "rules" {
  default = [
    { port = 443, cidrs = ["0.0.0.0/0"], descs = ["https"] },
    { port = 22, cidrs = ["10.0.0.0/8", "192.168.0.0/16"], descs = [] },
  ]
}
resource "aws_security_group" "web" {
  name = "web"
  dynamic "ingress" {
    for_each = var.rules
    iterator = rule
    content {
      from_port   = rule.value.port
      to_port     = rule.value.port
      protocol    = "tcp"
      cidr_blocks = rule.value.cidrs
      dynamic "tag" {
        for_each = rule.value.descs
        content {
          text  = "${tag.value} on ${rule.value.port}"
          index = tag.key
        }
      }
    }
  }
  ingress {
    from_port = 80
    to_port   = 80
    protocol  = "tcp"
  }
  dynamic "egress" {
    for_each = toset(["a"])
    content {
      key   = egress.key
      value = egress.value
    }
  }
  dynamic "none" {
    for_each = {}
    content {
      x = 1
    }
  }
}
output "ports" {
  value = aws_security_group.web.ingress[*].from_port
}
resource "aws_s3_bucket" "b" {
  bucket = join("-", [for i in aws_security_group.web.ingress : i.from_port])
}
