variable "cidr" {
  type = string
}
variable "name" {
  type = string
}
variable "azs" {
  type    = list(string)
  default = ["a", "b"]
}
resource "aws_vpc" "this" {
  cidr_block = var.cidr
  tags = {
    Name = var.name
  }
}
resource "aws_subnet" "this" {
  count      = length(var.azs)
  vpc_id     = aws_vpc.this.id
  cidr_block = cidrsubnet(var.cidr, 8, count.index)
}
module "sub" {
  source = "../shared"
  parent = aws_vpc.this.id
}
