resource "aws_s3_bucket" "a" {
  bucket = "corp-${1 + "x"}"
}

resource "aws_s3_bucket" "b" {
  bucket = upper(["corp-b"])
}

resource "aws_s3_bucket" "c" {
  bucket = cidrsubnet("10.0.0.0/16", 20, 1)
}
