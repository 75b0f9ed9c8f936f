resource "aws_s3_bucket" "b" {
  count  = 1e9
  bucket = "b-${count.index}"
}
