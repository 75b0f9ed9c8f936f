resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "counted" {
  count      = 2
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.${count.index}.0/24"
}

resource "aws_subnet" "keyed" {
  for_each   = { a = "10.0.10.0/24", b = "10.0.11.0/25" }
  vpc_id     = aws_vpc.main.id
  cidr_block = each.value
}

module "net" {
  source = "./modules/net"
  count  = 2
  cidr   = "10.${count.index + 1}.0.0/16"
}
