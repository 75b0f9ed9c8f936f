resource "aws_s3_bucket" "a" {
  bucket = "corp-a"
}

resource "aws_s3_bucket" "b" {
  bucket = "corp-b
}
