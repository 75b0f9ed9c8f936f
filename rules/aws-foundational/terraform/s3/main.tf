# Fixture of s3.test.yaml: buckets before apply.

provider "aws" {
  region = "eu-west-1"
}

# Versioned, logged, encrypted with KMS.
resource "aws_s3_bucket" "data" {
  bucket = "example-data"
}

resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_logging" "data" {
  bucket        = aws_s3_bucket.data.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = "data/"
}

resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = aws_s3_bucket.data.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = "alias/data"
    }
    bucket_key_enabled = true
  }
}

# Nothing declared: AWS encrypts a new bucket with SSE-S3 and disables its ACLs;
# versioning and logging stay off.
resource "aws_s3_bucket" "logs" {
  bucket = "example-logs"
}

# "Disabled" means never versioned; a public policy, whose status AWS computes.
resource "aws_s3_bucket" "website" {
  bucket = "example-website"
}

resource "aws_s3_bucket_versioning" "website" {
  bucket = aws_s3_bucket.website.id
  versioning_configuration {
    status = "Disabled"
  }
}

resource "aws_s3_bucket_policy" "website" {
  bucket = aws_s3_bucket.website.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = "s3:GetObject"
      Resource  = "arn:aws:s3:::example-website/*"
    }]
  })
}
