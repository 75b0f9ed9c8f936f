provider "aws" {
  region = "eu-west-1"
  default_tags {
    tags = {
      owner = "platform"
    }
  }
}

locals {
  data_disks = {
    "/dev/sdg" = 200
    "/dev/sdh" = 300
  }
}

resource "aws_subnet" "app" {
  vpc_id     = "vpc-0abc"
  cidr_block = "10.0.1.0/24"
}

resource "aws_security_group" "app" {
  name   = "app"
  vpc_id = "vpc-0abc"
}

# Block devices become volumes of their own: the root one and one per ebs_block_device
# (static and dynamic), each listed in the instance's block_device_mappings.
resource "aws_instance" "web" {
  ami                    = "ami-0123456789abcdef0"
  instance_type          = "t3.micro"
  subnet_id              = aws_subnet.app.id
  vpc_security_group_ids = [aws_security_group.app.id]
  monitoring             = true
  availability_zone      = "eu-west-1a"
  volume_tags = {
    backup = "daily"
  }
  tags = {
    Name = "web"
  }

  metadata_options {
    http_tokens = "required"
  }

  root_block_device {
    volume_size = 20
    volume_type = "gp3"
    encrypted   = true
  }

  ebs_block_device {
    device_name           = "/dev/sdf"
    volume_size           = 100
    delete_on_termination = false
    tags = {
      role = "data"
    }
  }

  dynamic "ebs_block_device" {
    for_each = local.data_disks
    content {
      device_name = ebs_block_device.key
      volume_size = ebs_block_device.value
      snapshot_id = "snap-0abc"
    }
  }
}

# No root_block_device block: the AMI decides its root volume. No subnet: the default
# VPC's. No security group: the VPC's default one.
resource "aws_instance" "bare" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}

# A volume attached by aws_volume_attachment: "in-use", listed by the instance too.
resource "aws_ebs_volume" "logs" {
  availability_zone = "eu-west-1a"
  size              = 50
  type              = "gp3"
  encrypted         = true
  kms_key_id        = "arn:aws:kms:eu-west-1:123456789012:key/abc"
}

resource "aws_volume_attachment" "logs" {
  device_name = "/dev/sdk"
  volume_id   = aws_ebs_volume.logs.id
  instance_id = aws_instance.web.id
}

# An unattached volume: "available"; type and encryption are AWS's to decide.
resource "aws_ebs_volume" "cold" {
  availability_zone = "eu-west-1b"
  size              = 10
}

resource "aws_ebs_volume" "spare" {
  availability_zone = "eu-west-1b"
  size              = 10
}

# Attached to an instance outside the configuration: the volume's attachment (a dangling
# association) stays, the instance side is dropped with a warning.
resource "aws_volume_attachment" "spare" {
  device_name = "/dev/sdz"
  volume_id   = aws_ebs_volume.spare.id
  instance_id = "i-0123456789"
}
