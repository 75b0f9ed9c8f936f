# Fixture of storage.test.yaml: buckets before apply, with their settings as separate
# resources (aws_s3_bucket_*) and as the deprecated inline blocks.

provider "aws" {
  region = "eu-west-1"
}

# Every setting declared: HTTPS-only policy, MFA delete, public access blocked.
resource "aws_s3_bucket" "locked" {
  bucket = "example-locked"
}

resource "aws_s3_bucket_versioning" "locked" {
  bucket = aws_s3_bucket.locked.id
  versioning_configuration {
    status     = "Enabled"
    mfa_delete = "Enabled"
  }
}

resource "aws_s3_bucket_public_access_block" "locked" {
  bucket                  = aws_s3_bucket.locked.id
  block_public_acls       = true
  ignore_public_acls      = true
  block_public_policy     = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_policy" "locked" {
  bucket = aws_s3_bucket.locked.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "DenyPlainHttp"
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = ["arn:aws:s3:::example-locked", "arn:aws:s3:::example-locked/*"]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}

# Nothing declared: AWS blocks public access on a new bucket (pass); no policy and no
# versioning (fail).
resource "aws_s3_bucket" "bare" {
  bucket = "example-bare"
}

# A public access block that leaves settings out (the provider's default is false), a
# policy without the HTTPS condition, versioning without MFA delete; the block and the
# versioning name the bucket by its name.
resource "aws_s3_bucket" "open" {
  bucket = "example-open"
}

resource "aws_s3_bucket_public_access_block" "open" {
  bucket            = "example-open"
  block_public_acls = true
}

resource "aws_s3_bucket_versioning" "open" {
  bucket = "example-open"
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_policy" "open" {
  bucket = aws_s3_bucket.open.id
  policy = <<-JSON
    {
      "Version": "2012-10-17",
      "Statement": [
        {
          "Effect": "Allow",
          "Principal": "*",
          "Action": "s3:GetObject",
          "Resource": "arn:aws:s3:::example-open/*"
        }
      ]
    }
  JSON
}

# The deprecated inline versioning block with MFA delete: pass.
resource "aws_s3_bucket" "inline" {
  bucket = "example-inline"

  versioning {
    enabled    = true
    mfa_delete = true
  }
}
