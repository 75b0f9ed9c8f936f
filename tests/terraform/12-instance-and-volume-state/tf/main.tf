resource "aws_instance" "running" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
}

resource "aws_instance" "stopped" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
}

resource "aws_ec2_instance_state" "stopped" {
  instance_id = aws_instance.stopped.id
  state       = "stopped"
}

resource "aws_ebs_volume" "attached" {
  availability_zone = "eu-west-1a"
  size              = 10
  encrypted         = true
}

resource "aws_volume_attachment" "attached" {
  device_name = "/dev/sdh"
  volume_id   = aws_ebs_volume.attached.id
  instance_id = aws_instance.running.id
}

resource "aws_ebs_volume" "spare" {
  availability_zone = "eu-west-1a"
  size              = 10
}
