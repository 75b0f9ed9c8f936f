provider "aws" {
  region = "eu-central-1"
  default_tags {
    tags = {
      env = "test"
    }
  }
}

# Nothing declared: what AWS gives a new bucket. SSE-S3 encryption, a public access block
# with all four settings on, ownership BucketOwnerEnforced; no versioning, logging or
# policy.
resource "aws_s3_bucket" "plain" {
  bucket = "plain-bucket"
  tags = {
    env = "prod"
  }
}

# A generated name: unknown, but not null.
resource "aws_s3_bucket" "generated" {
  bucket_prefix = "logs-"
}

# The deprecated inline settings, with nothing overriding them.
resource "aws_s3_bucket" "inline" {
  bucket = "inline-bucket"
  acl    = "private"

  versioning {
    enabled = true
  }

  server_side_encryption_configuration {
    rule {
      apply_server_side_encryption_by_default {
        sse_algorithm     = "aws:kms"
        kms_master_key_id = "arn:aws:kms:eu-central-1:123456789012:key/abc"
      }
      bucket_key_enabled = true
    }
  }

  logging {
    target_bucket = "plain-bucket"
    target_prefix = "inline/"
  }

  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = "arn:aws:s3:::inline-bucket/*"
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}

# A canned ACL other than private: its grants are AWS's.
resource "aws_s3_bucket" "public_read" {
  bucket = "public-read-bucket"
  acl    = "public-read"
}
