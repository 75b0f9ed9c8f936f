resource "aws_instance" "bare" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
}

resource "aws_instance" "blocks" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
  ebs_block_device {
    device_name = "/dev/sdf"
    encrypted   = true
  }
}

resource "aws_instance" "attached" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
}

resource "aws_ebs_volume" "data" {
  availability_zone = "eu-west-1a"
  size              = 10
  encrypted         = false
}

resource "aws_volume_attachment" "data" {
  device_name = "/dev/sdh"
  volume_id   = aws_ebs_volume.data.id
  instance_id = aws_instance.attached.id
}
