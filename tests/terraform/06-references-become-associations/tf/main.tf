resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "private" {
  count      = 2
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.${count.index}.0/24"
}

module "public" {
  source = "./modules/sub"
  vpc_id = aws_vpc.main.id
}

resource "aws_flow_log" "main" {
  vpc_id          = aws_vpc.main.id
  traffic_type    = "REJECT"
  log_destination = "arn:aws:logs:eu-west-1:111122223333:log-group:flows"
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id
}

resource "aws_security_group" "ssh" {
  name   = "ssh"
  vpc_id = aws_vpc.main.id
  ingress {
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_instance" "app" {
  for_each               = { a = aws_subnet.private[0], b = aws_subnet.private[1] }
  ami                    = "ami-12345678"
  instance_type          = "t3.micro"
  subnet_id              = each.value.id
  vpc_security_group_ids = [aws_security_group.web.id]
}

resource "aws_instance" "bastion" {
  ami                    = "ami-12345678"
  instance_type          = "t3.micro"
  subnet_id              = module.public.subnet_id
  vpc_security_group_ids = [aws_security_group.web.id, aws_security_group.ssh.id]
}
