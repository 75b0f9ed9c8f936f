variable "azs" {
  default = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
}
resource "aws_subnet" "private" {
  count             = length(var.azs)
  availability_zone = var.azs[count.index]
  cidr_block        = cidrsubnet("10.0.0.0/16", 8, count.index)
}
resource "aws_route_table_association" "private" {
  count     = 2
  subnet_id = aws_subnet.private[count.index].id
}
resource "aws_s3_bucket" "none" {
  count  = 0
  bucket = "never"
}
resource "aws_s3_bucket" "summary" {
  bucket = "s-${length(aws_subnet.private)}"
  tags = {
    first = aws_subnet.private[0].cidr_block
    azs   = join(",", aws_subnet.private[*].availability_zone)
    ids   = join(",", aws_subnet.private[*].id)
  }
}
