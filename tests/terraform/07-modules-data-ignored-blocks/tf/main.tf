module "logs" {
  source = "./modules/bucket"
  name   = "corp-logs"
}

module "data" {
  source  = "./modules/bucket"
  name    = "corp-data"
  sibling = module.logs.name
}

module "remote" {
  source  = "terraform-aws-modules/s3-bucket/aws"
  version = "4.1.0"
}

resource "aws_s3_bucket" "from_remote" {
  bucket = module.remote.s3_bucket_id
  tags = {
    sibling = module.data.name
  }

  lifecycle {
    prevent_destroy = true
  }
  depends_on = [module.logs]
  provisioner "local-exec" {
    command = "echo hi"
  }
}

data "aws_ami" "latest" {
  most_recent = true
  owners      = ["amazon"]
}

resource "aws_instance" "web" {
  ami           = data.aws_ami.latest.id
  instance_type = "t3.micro"
}

moved {
  from = aws_instance.old
  to   = aws_instance.web
}

import {
  to = aws_s3_bucket.from_remote
  id = "corp-imported"
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

output "ami" {
  value = data.aws_ami.latest.id
}
