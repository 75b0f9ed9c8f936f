locals {
  a = 1
}
provider "aws" {
  region = "eu-west-1"
}
