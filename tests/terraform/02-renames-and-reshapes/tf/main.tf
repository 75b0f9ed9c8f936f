resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_instance" "good" {
  ami               = "ami-0golden"
  instance_type     = "t3.micro"
  private_ip        = "10.0.1.10"
  monitoring        = true
  tenancy           = "dedicated"
  availability_zone = "eu-west-1a"
  root_block_device {
    volume_type = "gp3"
    volume_size = 20
  }
}

resource "aws_instance" "bad" {
  ami               = "ami-0other"
  instance_type     = "t3.micro"
  private_ip        = "192.168.1.10"
  monitoring        = false
  availability_zone = "eu-west-1b"
  root_block_device {
    volume_type = "gp2"
    volume_size = 8
  }
}

resource "aws_ebs_volume" "data" {
  availability_zone = "eu-west-1a"
  type              = "gp3"
  size              = 100
}

resource "aws_security_group" "app" {
  name   = "app-web"
  vpc_id = aws_vpc.main.id
}

resource "aws_security_group" "legacy" {
  name        = "legacy"
  description = "old"
  vpc_id      = aws_vpc.main.id
}

resource "aws_flow_log" "main" {
  vpc_id          = aws_vpc.main.id
  traffic_type    = "ALL"
  log_destination = "arn:aws:logs:eu-west-1:111122223333:log-group:flows"
  iam_role_arn    = "arn:aws:iam::111122223333:role/flow-logs"
}
