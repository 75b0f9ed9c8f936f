resource "aws_vpc" "public" {
  cidr_block = "10.0.0.0/16"
  tags = {
    internet = "allowed"
  }
}

resource "aws_vpc" "private" {
  cidr_block = "10.1.0.0/16"
}

resource "aws_internet_gateway" "public" {
  vpc_id = aws_vpc.public.id
}

resource "aws_internet_gateway" "private" {
  vpc_id = aws_vpc.private.id
}
