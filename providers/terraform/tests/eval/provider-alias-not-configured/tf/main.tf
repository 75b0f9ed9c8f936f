provider "aws" {
  region = var.region
}
variable "region" {
  type = string
}
resource "aws_s3_bucket" "a" {
  provider = aws.nope
  bucket   = "a"
}
resource "aws_s3_bucket" "b" {
  bucket = "b"
}
