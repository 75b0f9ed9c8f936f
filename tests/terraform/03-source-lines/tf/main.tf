# An instance with two derived volumes.
resource "aws_instance" "web" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"

  root_block_device {
    encrypted = true
  }

  ebs_block_device {
    device_name = "/dev/sdf"
    encrypted   = false
  }
}

module "store" {
  source = "./modules/store"
}
