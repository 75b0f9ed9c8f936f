# Fixture of ebs.test.yaml: volumes before apply, standalone and an instance's.

provider "aws" {
  region = "eu-west-1"
}

# Encrypted gp3, attached: passes every rule.
resource "aws_ebs_volume" "data" {
  availability_zone = "eu-west-1a"
  size              = 50
  type              = "gp3"
  encrypted         = true
}

resource "aws_volume_attachment" "data" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data.id
  instance_id = aws_instance.app.id
}

# Unencrypted gp2, attached to nothing: fails every rule.
resource "aws_ebs_volume" "legacy" {
  availability_zone = "eu-west-1a"
  size              = 100
  type              = "gp2"
  encrypted         = false
}

# Neither type nor encryption set: AWS decides (the region's EBS default), unknown.
resource "aws_ebs_volume" "defaults" {
  availability_zone = "eu-west-1b"
  size              = 20
}

# The root volume's settings are written; the extra device leaves encryption unset.
resource "aws_instance" "app" {
  ami               = "ami-0123456789abcdef0"
  instance_type     = "t3.micro"
  availability_zone = "eu-west-1a"

  root_block_device {
    volume_type = "gp3"
    encrypted   = true
  }

  ebs_block_device {
    device_name = "/dev/sdg"
    volume_type = "gp2"
    volume_size = 10
  }
}

# No root_block_device block: the AMI's root snapshot decides.
resource "aws_instance" "ami_defaults" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}
