variable "cidr" {
  type = string
}

resource "aws_vpc" "this" {
  cidr_block = var.cidr
}

resource "aws_subnet" "zone" {
  for_each   = toset(["x", "y"])
  vpc_id     = aws_vpc.this.id
  cidr_block = cidrsubnet(var.cidr, 8, each.key == "x" ? 0 : 1)
}
