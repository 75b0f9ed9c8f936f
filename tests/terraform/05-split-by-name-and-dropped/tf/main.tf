variable "name" {
  type    = string
  default = "corp-by-variable"
}

resource "aws_s3_bucket" "by_reference" {
  bucket = "corp-by-reference"
}

resource "aws_s3_bucket" "by_literal" {
  bucket = "corp-by-literal"
}

resource "aws_s3_bucket" "by_variable" {
  bucket = var.name
}

resource "aws_s3_bucket" "by_bucket_attribute" {
  bucket = "corp-by-bucket-attribute"
}

resource "aws_s3_bucket_versioning" "by_reference" {
  bucket = aws_s3_bucket.by_reference.id
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_versioning" "by_literal" {
  bucket = "corp-by-literal"
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_versioning" "by_variable" {
  bucket = var.name
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_versioning" "by_bucket_attribute" {
  bucket = aws_s3_bucket.by_bucket_attribute.bucket
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_versioning" "elsewhere" {
  bucket = "someone-elses-bucket"
  versioning_configuration {
    status = "Enabled"
  }
}
