resource "aws_s3_bucket" "deep" {}
