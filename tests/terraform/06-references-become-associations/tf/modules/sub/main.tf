variable "vpc_id" {
  type = string
}

resource "aws_subnet" "this" {
  vpc_id                  = var.vpc_id
  cidr_block              = "10.0.100.0/24"
  map_public_ip_on_launch = true
}

output "subnet_id" {
  value = aws_subnet.this.id
}
