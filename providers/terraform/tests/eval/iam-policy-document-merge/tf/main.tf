data "aws_iam_policy_document" "source" {
  statement {
    sid       = "A"
    actions   = ["s3:GetObject"]
    resources = ["*"]
  }
  statement {
    sid       = "B"
    actions   = ["s3:PutObject"]
    resources = ["*"]
  }
}
data "aws_iam_policy_document" "merged" {
  source_policy_documents = [data.aws_iam_policy_document.source.json]
  override_policy_documents = [jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "B"
      Effect    = "Deny"
      Action    = "s3:PutObject"
      Resource  = "*"
      Principal = "*"
    }]
  })]
  statement {
    sid       = "C"
    actions   = ["s3:DeleteObject"]
    resources = ["*"]
  }
}
resource "aws_s3_bucket_policy" "b" {
  bucket = "acme"
  policy = data.aws_iam_policy_document.merged.json
}
