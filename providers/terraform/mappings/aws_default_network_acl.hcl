# aws_default_network_acl -> aws:ec2:network_acl: a VPC's default network ACL, adopted by
# Terraform, which removes every rule not declared here. Mapped as aws_network_acl.hcl
# (entries, AWS's deny rules last), except: its VPC is the one whose default_network_acl_id
# it names, and its associations are unknown unless subnet_ids says.
extends = "aws_network_acl"

object {
  transform "vpc_id" {
    attr {
      name = "default_network_acl_id"
    }
    result = id(owner(nested))
  }
  transform "vpc" {
    attr {
      name = "default_network_acl_id"
    }
    result = ref("aws:ec2:vpc", owner(nested))
  }
  literal "is_default" {
    value = true
  }
  # subnet_ids unset: Terraform leaves the associations as they are, and AWS associates
  # every subnet of the VPC that no other network ACL claims, which the configuration
  # cannot tell. Set (even to []): exactly those subnets.
  transform "associations" {
    attr {
      name = "subnet_ids"
      type = set(string)
    }
    result = choose(
      nested == null,
      unknown("every subnet of the VPC that no other network ACL is associated with, known after apply", true),
      [for s in (nested == null ? [] : nested) : {
        network_acl_association_id = unknown("computed by AWS after apply", true)
        network_acl_id             = self.address
        subnet_id                  = id(s)
        subnet                     = ref("aws:ec2:subnet", s)
      }],
    )
  }
}

# It is the default ACL its VPC's mapping derives (aws_vpc.hcl), which is left out.
replaces "default_network_acl" {
  target = resource.vpc_id
}
