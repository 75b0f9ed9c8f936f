variable "bucket_name" {
  type = string
}
variable "settings" {}
resource "aws_s3_bucket" "b" {
  bucket = var.bucket_name
  acl    = var.settings.acl
  tags = {
    Name = "${var.bucket_name}-logs"
    Team = "platform"
  }
}
