# Fixture of compute.test.yaml: instances and the EBS default of two regions, before apply.

provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "cape_town"
  region = "af-south-1"
}

# IMDSv2 required: pass.
resource "aws_instance" "required" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"

  metadata_options {
    http_tokens = "required"
  }
}

# Tokens optional: fail.
resource "aws_instance" "optional" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"

  metadata_options {
    http_tokens = "optional"
  }
}

# No metadata_options: the AMI's or the account's default decides (unknown).
resource "aws_instance" "unset" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}

# enabled defaults to true: pass.
resource "aws_ebs_encryption_by_default" "ireland" {}

# Switched off in an opt-in region (which a successful apply shows is enabled): fail.
resource "aws_ebs_encryption_by_default" "cape_town" {
  provider = aws.cape_town
  enabled  = false
}
