locals {
  big = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]
}
resource "aws_s3_bucket" "b" {
  bucket = length(local.big)
}
