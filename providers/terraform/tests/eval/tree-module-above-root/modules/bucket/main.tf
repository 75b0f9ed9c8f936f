variable "name" {
  type = string
}

resource "aws_s3_bucket" "this" {
  bucket = var.name
  policy = file("${path.module}/policy.json")
  module = path.module
  files  = fileset(path.module, "*.json")
}

output "id" {
  value = aws_s3_bucket.this.bucket
}
