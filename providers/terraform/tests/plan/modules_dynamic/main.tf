# The plan reader's own case: modules (count, variables, outputs), a dynamic block, count
# over a module output. Read as .tf and as the plan of real Terraform by tests/plan_oracle.rs.
provider "aws" {
  region = "eu-west-1"
}
variable "ports" {
  default = [22, 443]
}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
module "net" {
  source = "./modules/net"
  vpc_id = aws_vpc.main.id
  count  = 2
  cidr   = cidrsubnet("10.0.0.0/16", 8, count.index)
}
resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id
  dynamic "ingress" {
    for_each = var.ports
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = ["10.0.0.0/8"]
    }
  }
}
resource "aws_instance" "web" {
  count                  = 2
  ami                    = "ami-123"
  instance_type          = "t3.micro"
  subnet_id              = module.net[count.index].subnet_id
  vpc_security_group_ids = [aws_security_group.web.id]
}
