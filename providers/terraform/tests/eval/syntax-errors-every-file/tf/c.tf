resource "aws_s3_bucket" {
}
unknown_block {}
foo = 1
