variable "known" {
  default = 1
}
locals {
  a = aws_instance.x.id
  b = var.nope
  c = local.zz
  d = module.m.x
  e = data.aws_ami.y.id
  f = foo
  g = var.knwn
  h = aws_ami.u.id
}
data "aws_ami" "u" {
}
resource "aws_s3_bucket" "b" {
  bucket = count.index
  tags   = each.value
}
output "o" {
  value = path.nope
}
