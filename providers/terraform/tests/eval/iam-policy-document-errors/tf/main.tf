data "aws_iam_policy_document" "p" {
  statement {
    sid     = "Same"
    actions = ["s3:GetObject"]
  }
  statement {
    sid     = "Same"
    actions = ["s3:PutObject"]
  }
}
