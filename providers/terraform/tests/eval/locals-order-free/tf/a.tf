resource "aws_s3_bucket" "b" {
  bucket = local.full
  tags   = local.tags
}
locals {
  prefix = "acme"
  env    = var.env
  tags   = merge(local.base_tags, { Env = local.env })
}
locals {
  base_tags = { Owner = "ops" }
}
variable "env" {
  default = "prod"
}
