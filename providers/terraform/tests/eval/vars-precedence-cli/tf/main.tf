variable "a" {
  default = "default"
}
variable "b" {
  default = "default"
}
variable "c" {
  type    = map(string)
  default = {}
}
resource "aws_s3_bucket" "b" {
  tags = {
    a = var.a
    b = var.b
  }
  more = var.c
}
