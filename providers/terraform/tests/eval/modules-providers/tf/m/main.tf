resource "aws_s3_bucket" "inside" {
  bucket = "in"
}
