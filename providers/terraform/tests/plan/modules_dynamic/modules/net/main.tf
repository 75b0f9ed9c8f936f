variable "vpc_id" {}
variable "cidr" {}
resource "aws_subnet" "this" {
  vpc_id     = var.vpc_id
  cidr_block = var.cidr
}
output "subnet_id" {
  value = aws_subnet.this.id
}
