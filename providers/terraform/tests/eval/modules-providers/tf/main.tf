provider "aws" {
  region = "eu-west-1"
  default_tags {
    tags = {
      Owner = "platform"
    }
  }
}
provider "aws" {
  alias  = "us"
  region = "us-east-1"
}
module "inherit" {
  source = "./m"
}
module "passed" {
  source = "./m"
  providers = {
    aws = aws.us
  }
}
resource "aws_s3_bucket" "west" {
  bucket = "w"
}
resource "aws_s3_bucket" "us" {
  provider = aws.us
  bucket   = "u"
}
resource "aws_s3_bucket" "v6" {
  provider = aws.us
  region   = "ap-south-1"
  bucket   = "r"
}
resource "google_storage_bucket" "g" {
  name = "g"
}
