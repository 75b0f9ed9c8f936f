provider "aws" {
  region = "us-west-2"
}

resource "aws_s3_bucket" "data" {
  bucket = "data-bucket"

  # Deprecated inline versioning: the separate resource below wins, with a warning.
  versioning {
    enabled = false
  }
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs-bucket"
}

# By reference.
resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration {
    status = "Enabled"
  }
}

# By name (a literal equal to the bucket's name).
resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = "data-bucket"
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "aws:kms"
    }
    bucket_key_enabled = true
  }
}

# By a configured argument of the bucket (known: its name).
resource "aws_s3_bucket_public_access_block" "data" {
  bucket              = aws_s3_bucket.data.bucket
  block_public_acls   = true
  block_public_policy = true
}

resource "aws_s3_bucket_logging" "data" {
  bucket        = aws_s3_bucket.data.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = "data/"
  target_grant {
    grantee {
      type = "Group"
      uri  = "http://acs.amazonaws.com/groups/s3/LogDelivery"
    }
    permission = "WRITE"
  }
}

# The document's own keys are kept; the bucket's ARN is known after apply.
resource "aws_s3_bucket_policy" "data" {
  bucket = aws_s3_bucket.data.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "TLSOnly"
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = ["${aws_s3_bucket.data.arn}/*", aws_s3_bucket.data.arn]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}

# "Disabled" is Terraform's word for never versioned: null.
resource "aws_s3_bucket_versioning" "logs" {
  bucket = aws_s3_bucket.logs.id
  versioning_configuration {
    status = "Disabled"
  }
}

# A bucket outside the configuration: dropped with a warning.
resource "aws_s3_bucket_public_access_block" "elsewhere" {
  bucket                  = "someone-elses-bucket"
  block_public_acls       = true
  ignore_public_acls      = true
  block_public_policy     = true
  restrict_public_buckets = true
}

# Two resources setting one setting of a bucket: the last one wins, with a warning.
resource "aws_s3_bucket_public_access_block" "data_again" {
  bucket                  = aws_s3_bucket.data.id
  block_public_acls       = true
  ignore_public_acls      = true
  block_public_policy     = true
  restrict_public_buckets = true
}
