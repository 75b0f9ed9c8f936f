resource "aws_s3_bucket" "replica" {
  bucket = "corp-replica"
}
