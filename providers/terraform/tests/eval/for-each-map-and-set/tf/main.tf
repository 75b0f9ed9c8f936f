variable "buckets" {
  default = {
    logs   = { versioning = true }
    assets = { versioning = false }
  }
}
resource "aws_s3_bucket" "by_map" {
  for_each = var.buckets
  bucket   = "acme-${each.key}"
  tags = {
    Versioned = tostring(each.value.versioning)
  }
}
resource "aws_s3_bucket" "by_set" {
  for_each = toset(["b", "a", "a"])
  bucket   = each.key
  tags = {
    value = each.value
  }
}
resource "aws_s3_bucket_versioning" "v" {
  for_each = aws_s3_bucket.by_map
  bucket   = each.value.id
  name     = each.value.bucket
}
resource "aws_s3_bucket" "empty" {
  for_each = {}
}
output "keys" {
  value = keys(aws_s3_bucket.by_map)
}
