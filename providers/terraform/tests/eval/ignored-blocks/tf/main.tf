terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
  backend "s3" {
    bucket = "state"
  }
}
moved {
  from = aws_s3_bucket.old
  to   = aws_s3_bucket.b
}
import {
  to = aws_s3_bucket.b
  id = "existing"
}
removed {
  from = aws_s3_bucket.gone
  lifecycle {
    destroy = false
  }
}
check "health" {
  assert {
    condition     = true
    error_message = "never"
  }
}
resource "aws_s3_bucket" "b" {
  bucket = "b"
  lifecycle {
    ignore_changes = [tags, some_attribute_that_does_not_exist]
    precondition {
      condition     = true
      error_message = "ok"
    }
  }
  provisioner "local-exec" {
    command = "echo ${self.id}"
  }
  connection {
    host = self.public_ip
  }
}
