provider "aws" {
  region = "us-west-2"
}

# ACLs enabled again, and the bucket made readable by everyone with a canned ACL.
resource "aws_s3_bucket" "public" {
  bucket = "public-bucket"
}

resource "aws_s3_bucket_policy" "public" {
  bucket = aws_s3_bucket.public.id
  policy = jsonencode({ Version = "2012-10-17", Statement = [] })
}

# Through the policy, as the terraform-aws-modules do to order their calls: the policy's
# id is its bucket's name.
resource "aws_s3_bucket_ownership_controls" "public" {
  bucket = aws_s3_bucket_policy.public.id
  rule {
    object_ownership = "BucketOwnerPreferred"
  }
}

resource "aws_s3_bucket_acl" "public" {
  bucket = aws_s3_bucket.public.id
  acl    = "public-read"
}

# Grants as written, the bucket found by name.
resource "aws_s3_bucket" "granted" {
  bucket = "granted-bucket"
}

resource "aws_s3_bucket_ownership_controls" "granted" {
  bucket = "granted-bucket"
  rule {
    object_ownership = "ObjectWriter"
  }
}

resource "aws_s3_bucket_acl" "granted" {
  bucket = "granted-bucket"
  access_control_policy {
    grant {
      grantee {
        type = "Group"
        uri  = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers"
      }
      permission = "READ"
    }
    grant {
      grantee {
        type = "CanonicalUser"
        id   = "abc123"
      }
      permission = "FULL_CONTROL"
    }
    owner {
      id = "abc123"
    }
  }
}

# The deprecated inline acl, overridden by the separate resource (with a warning).
resource "aws_s3_bucket" "logs" {
  bucket = "logs-bucket"
  acl    = "authenticated-read"
}

resource "aws_s3_bucket_acl" "logs" {
  bucket = aws_s3_bucket.logs.id
  acl    = "log-delivery-write"
}

# A canned ACL whose grantee (an Amazon EC2 account) the configuration cannot tell.
resource "aws_s3_bucket" "exec" {
  bucket = "exec-bucket"
}

resource "aws_s3_bucket_acl" "exec" {
  bucket = aws_s3_bucket.exec.id
  acl    = "aws-exec-read"
}
