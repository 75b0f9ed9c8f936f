provider "aws" {
  region = "eu-west-1"
  default_tags {
    tags = {
      owner = "platform"
      env   = "prod"
    }
  }
}

provider "aws" {
  alias  = "sandbox"
  region = "eu-west-1"
  default_tags {
    tags = {
      env = "sandbox"
    }
  }
}

resource "aws_s3_bucket" "defaults_only" {
  bucket = "corp-defaults"
}

resource "aws_s3_bucket" "own_wins" {
  bucket = "corp-own"
  tags = {
    owner = "data"
    env   = "dev"
  }
}

resource "aws_s3_bucket" "sandbox" {
  provider = aws.sandbox
  bucket   = "corp-sandbox"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags = {
    Name = "main"
  }
}
