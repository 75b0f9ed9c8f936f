# aws_vpc_security_group_ingress_rule: no resource of its own; one permission appended to its
# group's ip_permissions, grouped there with the group's other permissions of the
# same protocol and ports (see aws_security_group.hcl). A rule whose group is not in the
# configuration is dropped with a warning.

locals {
  protocol_names = { "6" = "tcp", "17" = "udp", "1" = "icmp", "58" = "icmpv6", "all" = "-1" }
  with_ports     = ["tcp", "udp", "icmp", "icmpv6"]
}

object {
  attr "security_group_id" {
    type = string
  }
  transform "ip_protocol" {
    attr {
      type = string
    }
    result = lookup(local.protocol_names, lower(nested), lower(nested))
  }
  attr "from_port" {
    type = number
  }
  attr "to_port" {
    type = number
  }
  attr "cidr_ipv4" {
    type = string
  }
  attr "cidr_ipv6" {
    type = string
  }
  attr "prefix_list_id" {
    type = string
  }
  attr "referenced_security_group_id" {
    type = string
  }
  attr "description" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:security_group"
  target = resource.security_group_id
  path   = "ip_permissions"
  append = [{
    ip_protocol     = resource.ip_protocol
    from_port       = contains(local.with_ports, resource.ip_protocol) ? resource.from_port : null
    to_port         = contains(local.with_ports, resource.ip_protocol) ? resource.to_port : null
    ip_ranges       = resource.cidr_ipv4 != null ? [{ cidr_ip = resource.cidr_ipv4, description = resource.description }] : []
    ipv6_ranges     = resource.cidr_ipv6 != null ? [{ cidr_ipv6 = resource.cidr_ipv6, description = resource.description }] : []
    prefix_list_ids = resource.prefix_list_id != null ? [{ prefix_list_id = resource.prefix_list_id, description = resource.description }] : []
    user_id_group_pairs = resource.referenced_security_group_id != null ? [{
      group_id                  = id(resource.referenced_security_group_id)
      group                     = ref("aws:ec2:security_group", resource.referenced_security_group_id)
      group_name                = null
      user_id                   = unknown("the account id, known after apply", true)
      vpc_id                    = null
      vpc_peering_connection_id = null
      peering_status            = null
      description               = resource.description
    }] : []
  }]
}
