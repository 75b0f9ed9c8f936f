provider "aws" {
  region = "eu-west-1"
}

resource "aws_s3_bucket" "logs" {
  bucket = "acme-logs"
  tags = {
    Team = "platform"
  }
}

resource "aws_s3_bucket_policy" "logs" {
  bucket = aws_s3_bucket.logs.id
  policy = jsonencode({
    Statement = [{
      Effect   = "Deny"
      Resource = "${aws_s3_bucket.logs.arn}/*"
    }]
  })
}

resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0abc"
  root_block_device {
    volume_size = 20
    encrypted   = true
  }
  ebs_block_device {
    device_name = "/dev/sdf"
    volume_size = 100
  }
  ebs_block_device {
    device_name = "/dev/sdg"
    volume_size = 200
  }
  lifecycle {
    ignore_changes = [tags]
  }
  depends_on = [aws_s3_bucket.logs]
}

resource "aws_route53_record" "web" {
  name    = "web.${aws_s3_bucket.logs.bucket}.example.com"
  records = [aws_instance.web.private_ip]
  ttl     = aws_instance.web.root_block_device[0].volume_size
  zone_id = null
}
