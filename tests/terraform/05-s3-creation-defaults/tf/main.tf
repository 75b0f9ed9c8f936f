resource "aws_s3_bucket" "bare" {
  bucket = "corp-bare"
}
