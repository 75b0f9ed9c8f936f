# A new instance is running (AWS's creation default); aws_ec2_instance_state sets the
# state it is left in after apply.
resource "aws_instance" "running" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}

resource "aws_instance" "stopped" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}

resource "aws_ec2_instance_state" "stopped" {
  instance_id = aws_instance.stopped.id
  state       = "stopped"
}

resource "aws_ec2_instance_state" "elsewhere" {
  instance_id = "i-0123456789abcdef0"
  state       = "stopped"
}
