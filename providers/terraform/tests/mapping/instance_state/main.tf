# aws_ec2_instance_state sets its instance's state after apply; without one an instance is
# running; one whose instance is not in the configuration is dropped with a warning.
resource "aws_instance" "stopped" {
  ami           = "ami-1"
  instance_type = "t3.micro"
}

resource "aws_instance" "running" {
  ami           = "ami-1"
  instance_type = "t3.micro"
}

resource "aws_instance" "plain" {
  ami           = "ami-1"
  instance_type = "t3.micro"
}

resource "aws_ec2_instance_state" "stopped" {
  instance_id = aws_instance.stopped.id
  state       = "stopped"
}

resource "aws_ec2_instance_state" "running" {
  instance_id = aws_instance.running.id
  state       = "running"
}

resource "aws_ec2_instance_state" "elsewhere" {
  instance_id = "i-0abc"
  state       = "stopped"
}
