variable "a" {
  default = "x"
}
resource "aws_s3_bucket" "b" {
  bucket = var.a
}
