variable "a_default" {
  default = "a-default-win"
}
variable "b_env" {
  default = "b-default"
}
variable "c_tfvars" {
  default = "c-default"
}
variable "d_auto" {
  default = "d-default"
}
variable "e_var_last" {
  default = "e-default"
}
variable "f_file_last" {
  default = "f-default"
}
variable "ports" {
  type    = list(number)
  default = []
}

locals {
  names = [var.a_default, var.b_env, var.c_tfvars, var.d_auto, var.e_var_last, var.f_file_last]
}

resource "aws_s3_bucket" "b" {
  for_each = toset(local.names)
  bucket   = each.key
  tags = {
    count = tostring(length(var.ports))
  }
}
