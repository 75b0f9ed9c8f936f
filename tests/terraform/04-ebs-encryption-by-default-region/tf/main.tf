provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "frankfurt"
  region = "eu-central-1"
}

provider "aws" {
  alias  = "virginia"
  region = "us-east-1"
}

resource "aws_ebs_encryption_by_default" "ireland" {}

resource "aws_ebs_encryption_by_default" "frankfurt" {
  provider = aws.frankfurt
  enabled  = true
}

resource "aws_ebs_encryption_by_default" "virginia" {
  provider = aws.virginia
  enabled  = false
}
