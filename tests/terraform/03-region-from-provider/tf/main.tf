provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "us"
  region = "us-east-1"
}

resource "aws_s3_bucket" "default_provider" {
  bucket = "corp-eu"
}

resource "aws_s3_bucket" "aliased" {
  provider = aws.us
  bucket   = "corp-us"
}

module "replica" {
  source = "./replica"
  providers = {
    aws = aws.us
  }
}

resource "aws_s3_bucket" "resource_level" {
  region = "ap-southeast-2"
  bucket = "corp-sydney"
}
