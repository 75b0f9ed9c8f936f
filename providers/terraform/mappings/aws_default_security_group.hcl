# aws_default_security_group -> aws:ec2:security_group: a VPC's default group, adopted by
# Terraform, which removes every rule not declared here. Mapped as aws_security_group.hcl
# (inline and standalone rules, grouping of permissions), with AWS's name and description.
# No egress block means no egress: Terraform removes the rule AWS gives a default group.
extends = "aws_security_group"

object {
  literal "group_name" {
    value = "default"
  }
  literal "description" {
    value = "default VPC security group"
  }
}

# It is the default group its VPC's mapping derives (aws_vpc.hcl), which is left out.
replaces "default_security_group" {
  target = resource.vpc_id
}
