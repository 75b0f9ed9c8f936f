variable "a" {
  default = "default"
}
variable "b" {
  default = "default"
}
variable "c" {
  default = "default"
}
variable "d" {
  default = "default"
}
resource "aws_s3_bucket" "b" {
  tags = {
    a = var.a
    b = var.b
    c = var.c
    d = var.d
  }
}
