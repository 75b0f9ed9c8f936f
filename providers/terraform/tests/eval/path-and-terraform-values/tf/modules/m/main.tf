resource "aws_s3_object" "inner" {
  module = path.module
  root   = path.root
}
