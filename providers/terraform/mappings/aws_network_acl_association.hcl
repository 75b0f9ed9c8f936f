# aws_network_acl_association: no resource of its own; one association appended to its
# network ACL's associations. One whose network ACL is not in the configuration is
# dropped with a warning.

object {
  attr "network_acl_id" {
    type = string
  }
  attr "subnet_id" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:network_acl"
  target = resource.network_acl_id
  path   = "associations"
  append = [{
    network_acl_association_id = unknown("computed by AWS after apply", true)
    network_acl_id             = id(resource.network_acl_id)
    subnet_id                  = id(resource.subnet_id)
    subnet                     = ref("aws:ec2:subnet", resource.subnet_id)
  }]
}
