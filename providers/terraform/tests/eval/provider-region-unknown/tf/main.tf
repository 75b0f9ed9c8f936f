provider "aws" {
  region = var.region
  default_tags {
    tags = var.tags
  }
}
variable "region" {
  type = string
}
variable "tags" {
  type    = map(string)
  default = { Team = "a" }
}
resource "aws_s3_bucket" "b" {
  bucket = "b"
}
