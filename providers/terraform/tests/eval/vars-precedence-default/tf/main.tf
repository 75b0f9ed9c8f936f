variable "name" {
  default = "from-default"
}
variable "size" {
  type    = number
  default = 8
}
resource "aws_s3_bucket" "b" {
  bucket = var.name
  size   = var.size
}
