resource "aws_s3_object" "m" {
  content = file("${path.module}/data.txt")
}
