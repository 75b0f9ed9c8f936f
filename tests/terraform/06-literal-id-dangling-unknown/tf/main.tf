data "aws_vpc" "shared" {
  default = true
}

resource "aws_subnet" "mine" {
  vpc_id                  = data.aws_vpc.shared.id
  cidr_block              = "172.31.200.0/24"
  map_public_ip_on_launch = false
}

resource "aws_instance" "outside" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0abc"
}

resource "aws_instance" "inside" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.mine.id
}
