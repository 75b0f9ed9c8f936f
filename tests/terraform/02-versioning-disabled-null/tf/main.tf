resource "aws_s3_bucket" "enabled" {
  bucket = "corp-enabled"
}

resource "aws_s3_bucket_versioning" "enabled" {
  bucket = aws_s3_bucket.enabled.id
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket" "suspended" {
  bucket = "corp-suspended"
}

resource "aws_s3_bucket_versioning" "suspended" {
  bucket = aws_s3_bucket.suspended.id
  versioning_configuration {
    status = "Suspended"
  }
}

resource "aws_s3_bucket" "disabled" {
  bucket = "corp-disabled"
}

resource "aws_s3_bucket_versioning" "disabled" {
  bucket = aws_s3_bucket.disabled.id
  versioning_configuration {
    status = "Disabled"
  }
}

resource "aws_s3_bucket" "inline_off" {
  bucket = "corp-inline-off"
  versioning {
    enabled = false
  }
}

resource "aws_s3_bucket" "inline_on" {
  bucket = "corp-inline-on"
  versioning {
    enabled = true
  }
}

resource "aws_s3_bucket" "untouched" {
  bucket = "corp-untouched"
}
