resource "aws_s3_bucket" "b" {
  bucket = "acme"
}
data "aws_iam_policy_document" "deny_insecure" {
  statement {
    sid     = "DenyInsecure"
    effect  = "Deny"
    actions = ["s3:*"]
    resources = [
      "arn:aws:s3:::acme",
      "arn:aws:s3:::acme/*",
    ]
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
  statement {
    actions   = ["s3:GetObject", "s3:ListBucket", "s3:PutObject"]
    resources = ["arn:aws:s3:::acme/&{aws:username}/*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::111122223333:root", "arn:aws:iam::444455556666:root"]
    }
    condition {
      test     = "StringEquals"
      variable = "s3:x-amz-acl"
      values   = ["private", "bucket-owner-full-control"]
    }
  }
}
resource "aws_s3_bucket_policy" "b" {
  bucket = aws_s3_bucket.b.id
  policy = data.aws_iam_policy_document.deny_insecure.json
  tags = {
    minified = data.aws_iam_policy_document.deny_insecure.minified_json
    id       = data.aws_iam_policy_document.deny_insecure.id
  }
}
