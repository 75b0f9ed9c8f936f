resource "aws_s3_bucket" "tls" {
  bucket = "corp-tls"
}

data "aws_iam_policy_document" "tls" {
  statement {
    sid     = "TLS"
    effect  = "Deny"
    actions = ["s3:*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    resources = ["arn:aws:s3:::corp-tls/*"]
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "tls" {
  bucket = aws_s3_bucket.tls.id
  policy = data.aws_iam_policy_document.tls.json
}

resource "aws_s3_bucket" "public" {
  bucket = "corp-public"
}

data "aws_iam_policy_document" "public" {
  statement {
    effect    = "Allow"
    actions   = ["s3:GetObject"]
    resources = ["arn:aws:s3:::corp-public/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
  }
}

resource "aws_s3_bucket_policy" "public" {
  bucket = aws_s3_bucket.public.id
  policy = data.aws_iam_policy_document.public.json
}

resource "aws_s3_bucket" "computed" {
  bucket = "corp-computed"
}

data "aws_iam_policy_document" "computed" {
  statement {
    effect    = "Deny"
    actions   = ["s3:*"]
    resources = ["${aws_s3_bucket.computed.arn}/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "computed" {
  bucket = aws_s3_bucket.computed.id
  policy = data.aws_iam_policy_document.computed.json
}
