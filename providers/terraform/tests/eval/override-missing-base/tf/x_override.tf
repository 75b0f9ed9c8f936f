variable "nope" {
  default = 1
}
locals {
  nope = 1
}
output "nope" {
  value = 1
}
module "nope" {
  source = "./m"
}
resource "aws_s3_bucket" "nope" {}
data "aws_ami" "nope" {}
provider "aws" {
  alias = "nope"
}
provider "google" {
  region = "ok: a default configuration may be added"
}
