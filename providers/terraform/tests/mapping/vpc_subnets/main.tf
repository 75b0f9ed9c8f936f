provider "aws" {
  region = "eu-west-1"
  default_tags {
    tags = {
      team = "platform"
      env  = "default"
    }
  }
}

resource "aws_vpc" "main" {
  cidr_block           = "10.0.0.0/16"
  enable_dns_hostnames = true
  tags = {
    env = "prod"
  }
}

resource "aws_subnet" "public" {
  vpc_id                  = aws_vpc.main.id
  cidr_block              = "10.0.1.0/24"
  availability_zone       = "eu-west-1a"
  map_public_ip_on_launch = true
}

# A literal id: an association to a VPC outside the configuration (dangling).
resource "aws_subnet" "outside" {
  vpc_id     = "vpc-0abc"
  cidr_block = "172.16.0.0/24"
}
