# Access logging's target_object_key_format as GetBucketLogging gives it: null when not
# set, an empty simple_prefix, or a partitioned_prefix with its date source. A dynamic
# block gives the same as a written one.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs-bucket"
}

resource "aws_s3_bucket" "plain" {
  bucket = "plain-bucket"
}

resource "aws_s3_bucket" "simple" {
  bucket = "simple-bucket"
}

resource "aws_s3_bucket" "partitioned" {
  bucket = "partitioned-bucket"
}

resource "aws_s3_bucket_logging" "plain" {
  bucket        = aws_s3_bucket.plain.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = "plain/"
}

resource "aws_s3_bucket_logging" "simple" {
  bucket        = aws_s3_bucket.simple.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = "simple/"
  target_object_key_format {
    simple_prefix {}
  }
}

resource "aws_s3_bucket_logging" "partitioned" {
  bucket        = aws_s3_bucket.partitioned.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = ""
  dynamic "target_object_key_format" {
    for_each = ["EventTime"]
    content {
      partitioned_prefix {
        partition_date_source = target_object_key_format.value
      }
    }
  }
}
