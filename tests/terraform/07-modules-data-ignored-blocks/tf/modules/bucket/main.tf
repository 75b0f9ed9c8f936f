variable "name" {
  type = string
}

variable "sibling" {
  type    = string
  default = "corp-none"
}

resource "aws_s3_bucket" "this" {
  bucket = var.name
  tags = {
    sibling = var.sibling
  }
}

output "name" {
  value = aws_s3_bucket.this.bucket
}
