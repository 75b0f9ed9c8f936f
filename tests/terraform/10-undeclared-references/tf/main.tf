variable "region" {
  default = "eu-west-1"
}

resource "aws_s3_bucket" "a" {
  bucket = "corp-${var.regoin}"
}

resource "aws_s3_bucket" "b" {
  bucket = local.name
}

resource "aws_s3_bucket" "c" {
  bucket = aws_s3_bucket.missing.bucket
}

resource "aws_s3_bucket" "d" {
  bucket = module.nowhere.name
}
