locals {
  s = local.s
}
resource "aws_s3_bucket" "b" {
  bucket = aws_s3_bucket.b.id
}
