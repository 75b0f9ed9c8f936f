variable "name" {
  type = string
}

resource "aws_s3_bucket" "a" {
  bucket = var.name
}
