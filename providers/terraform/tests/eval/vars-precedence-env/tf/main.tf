variable "name" {
  type    = string
  default = "from-default"
}
variable "untyped" {
  default = "d"
}
variable "list" {
  type    = list(string)
  default = []
}
variable "count_of" {
  type    = number
  default = 1
}
resource "aws_s3_bucket" "b" {
  bucket  = var.name
  untyped = var.untyped
  list    = var.list
  n       = var.count_of
}
