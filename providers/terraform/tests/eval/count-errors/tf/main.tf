resource "aws_s3_bucket" "a" {
  count = 1.5
}
resource "aws_s3_bucket" "b" {
  count = -1
}
resource "aws_s3_bucket" "c" {
  count = "x"
}
resource "aws_s3_bucket" "d" {
  count = null
}
resource "aws_s3_bucket" "e" {
  count    = 1
  for_each = toset(["a"])
}
