resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_default_security_group" "main" {
  vpc_id = aws_vpc.main.id
}

resource "aws_default_vpc" "default" {}

resource "aws_default_security_group" "default_vpc" {
  vpc_id = aws_default_vpc.default.id
  ingress {
    protocol  = -1
    self      = true
    from_port = 0
    to_port   = 0
  }
  egress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_security_group" "no_egress" {
  name   = "no-egress"
  vpc_id = aws_vpc.main.id
}

resource "aws_security_group" "open_egress" {
  name   = "open-egress"
  vpc_id = aws_vpc.main.id
  egress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["0.0.0.0/0"]
  }
}
