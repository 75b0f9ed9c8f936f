resource "aws_s3_bucket" "a" {
  count = 5000
}
