variable "name" {}
variable "cidr" {
  default = "192.168.0.0/16"
}
resource "aws_vpc" "v" {
  cidr_block = var.cidr
  tags = {
    Name = var.name
  }
}
output "name_out" {
  value = var.name
}
output "vpc_id" {
  value = aws_vpc.v.id
}
