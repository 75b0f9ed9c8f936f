resource "aws_ebs_volume" "unset" {
  availability_zone = "eu-west-1a"
  size              = 10
}

resource "aws_ebs_volume" "off" {
  availability_zone = "eu-west-1a"
  size              = 10
  encrypted         = false
}
