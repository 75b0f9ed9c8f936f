resource "aws_s3_bucket" "b" {
  bucket = "acme"
}
data "aws_iam_policy_document" "p" {
  statement {
    actions   = ["s3:GetObject"]
    resources = ["${aws_s3_bucket.b.arn}/*"]
  }
}
data "aws_iam_policy_document" "unknown" {
  statement {
    actions   = ["s3:GetObject"]
    resources = [var.arn]
  }
}
variable "arn" {
  type = string
}
resource "aws_s3_bucket_policy" "b" {
  bucket = aws_s3_bucket.b.id
  policy = data.aws_iam_policy_document.p.json
  other  = data.aws_iam_policy_document.unknown.json
  doc    = jsondecode(data.aws_iam_policy_document.p.json).Statement[0].Action
}
