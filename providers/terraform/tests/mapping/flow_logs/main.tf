provider "aws" {
  region = "us-east-1"
}

resource "aws_default_vpc" "default" {}

resource "aws_vpc" "main" {
  cidr_block                       = "10.0.0.0/16"
  assign_generated_ipv6_cidr_block = true
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

# Defaults: CloudWatch Logs, AWS's record format, 600 s aggregation.
resource "aws_flow_log" "vpc" {
  vpc_id          = aws_vpc.main.id
  traffic_type    = "ALL"
  iam_role_arn    = aws_iam_role.flow.arn
  log_destination = aws_cloudwatch_log_group.flow.arn
}

# S3 without destination_options: AWS's defaults, unknown here.
resource "aws_flow_log" "subnet" {
  subnet_id                = aws_subnet.a.id
  traffic_type             = "REJECT"
  log_destination_type     = "s3"
  log_destination          = "arn:aws:s3:::flow-logs"
  max_aggregation_interval = 60
}

resource "aws_flow_log" "default_vpc" {
  vpc_id               = aws_default_vpc.default.id
  traffic_type         = "ACCEPT"
  log_destination_type = "s3"
  log_destination      = "arn:aws:s3:::flow-logs"
  log_format           = "$${srcaddr} $${dstaddr}"
  destination_options {
    file_format        = "parquet"
    per_hour_partition = true
  }
}

resource "aws_iam_role" "flow" {
  name               = "flow-logs"
  assume_role_policy = "{}"
}

resource "aws_cloudwatch_log_group" "flow" {
  name = "flow-logs"
}
