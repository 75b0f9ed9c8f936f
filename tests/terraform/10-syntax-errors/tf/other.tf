resource "aws_s3_bucket" "c" {
  bucket = = "corp-c"
}
