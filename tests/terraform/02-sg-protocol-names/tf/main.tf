resource "aws_security_group" "numbers" {
  name = "numbers"
  ingress {
    protocol    = "6"
    from_port   = 443
    to_port     = 443
    cidr_blocks = ["10.0.0.0/16"]
  }
  ingress {
    protocol    = "17"
    from_port   = 53
    to_port     = 53
    cidr_blocks = ["10.0.0.0/16"]
  }
}

resource "aws_security_group" "all_word" {
  name = "all-word"
  ingress {
    protocol    = "all"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["10.0.0.0/8"]
  }
}

resource "aws_security_group" "minus_one" {
  name = "minus-one"
  ingress {
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    cidr_blocks = ["10.1.0.0/16"]
  }
}

resource "aws_security_group" "grouped" {
  name = "grouped"
  ingress {
    protocol    = "udp"
    from_port   = 53
    to_port     = 53
    cidr_blocks = ["10.0.0.0/16"]
  }
  ingress {
    protocol    = "17"
    from_port   = 53
    to_port     = 53
    cidr_blocks = ["0.0.0.0/0"]
  }
}
