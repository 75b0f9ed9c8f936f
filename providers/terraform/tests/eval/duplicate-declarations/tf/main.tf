variable "a" {
  default = 1
}
variable "a" {
  default = 2
}
locals {
  x = 1
}
locals {
  x = 2
}
output "o" {
  value = 1
}
output "o" {
  value = 1
}
resource "aws_s3_bucket" "r" {}
resource "aws_s3_bucket" "r" {}
data "aws_ami" "d" {}
data "aws_ami" "d" {}
provider "aws" {}
provider "aws" {}
