resource "aws_instance" "web" {
  count         = 2
  ami           = "ami-123"
  instance_type = "t3.micro"
  root_block_device {
    volume_size = 10
  }
}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_route53_record" "r" {
  records = [for i in aws_instance.web : i.private_ip]
  name    = aws_instance.web[0].root_block_device[0].volume_id
  ttl     = aws_instance.web[1].root_block_device[0].volume_size
  zone_id = aws_instance.web[*].public_dns
  set     = aws_vpc.main.main_route_table_id
}
module "m" {
  source = "./m"
  vpc    = aws_vpc.main
}
output "ips" {
  value = aws_instance.web[*].public_ip
}
