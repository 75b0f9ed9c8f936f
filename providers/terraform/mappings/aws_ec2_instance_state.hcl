# aws_ec2_instance_state: no resource of its own; its instance's state. AWS starts a new
# instance running; this resource stops it (or keeps it running) after creation, so right
# after a successful apply the instance is in the state it names (DescribeInstances:
# State{Code, Name}, code 16 running, 80 stopped). The instance is found by reference
# (instance_id = aws_instance.web.id); without it in the configuration it is dropped with a
# warning.

object {
  attr "instance_id" {
    type = string
  }
  attr "state" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:instance"
  target = resource.instance_id
  path   = "state"
  set = {
    code = resource.state == "stopped" ? 80 : 16
    name = resource.state
  }
}
