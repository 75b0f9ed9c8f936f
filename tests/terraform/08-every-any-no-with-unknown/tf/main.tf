# unknown_root: the root volume's encryption is the AMI's (unknown).
resource "aws_instance" "unknown_root" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
}

# unknown_and_false: unknown root, one unencrypted extra volume.
resource "aws_instance" "unknown_and_false" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  ebs_block_device {
    device_name = "/dev/sdf"
    encrypted   = false
  }
}

# unknown_and_true: unknown root, one encrypted extra volume.
resource "aws_instance" "unknown_and_true" {
  ami           = "ami-12345678"
  instance_type = "m5.large"
  ebs_block_device {
    device_name = "/dev/sdf"
    encrypted   = true
  }
}

# all_true: everything encrypted.
resource "aws_instance" "all_true" {
  ami           = "ami-12345678"
  instance_type = "t3.micro"
  root_block_device {
    encrypted = true
  }
}
