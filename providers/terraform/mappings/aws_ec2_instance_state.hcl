# aws_ec2_instance_state: no resource of its own; the state its instance is in after apply
# ("running" or "stopped", as DescribeInstances' State reports it: code 16 or 80). Without
# it a new instance is "running" (decision 3 of design/terraform.md). Without its instance
# in the configuration it is dropped with a warning.

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
