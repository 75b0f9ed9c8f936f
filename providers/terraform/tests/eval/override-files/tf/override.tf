variable "env" {
  default = "prod"
}
locals {
  name = "overridden-${var.env}"
}
resource "aws_security_group" "web" {
  description = "from override.tf"
  ingress {
    from_port = 443
    to_port   = 443
  }
}
