resource "aws_s3_bucket" "e" {
  for_each = null
}
resource "aws_s3_bucket" "f" {
  for_each = ["a"]
}
resource "aws_s3_bucket" "g" {
  for_each = toset([1, 2])
}
resource "aws_s3_bucket" "h" {
  for_each = toset(["a", null])
}
resource "aws_s3_bucket" "i" {
  for_each = "x"
}
resource "aws_s3_bucket" "j" {
  for_each = { a = 1, b = null }
  bucket   = each.key
}
