# aws_security_group_rule: no resource of its own; one permission appended to its group's
# ip_permissions (type "ingress") or ip_permissions_egress (type "egress"), grouped there
# with the group's other permissions of the same protocol and ports (see
# aws_security_group.hcl). A rule whose group is not in the configuration is dropped with
# a warning.

locals {
  protocol_names = { "6" = "tcp", "17" = "udp", "1" = "icmp", "58" = "icmpv6", "all" = "-1" }
  with_ports     = ["tcp", "udp", "icmp", "icmpv6"]
}

object {
  attr "type" {
    type = string
  }
  attr "security_group_id" {
    type = string
  }
  transform "ip_protocol" {
    attr {
      name = "protocol"
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
  attr "cidr_blocks" {
    type    = list(string)
    default = []
  }
  attr "ipv6_cidr_blocks" {
    type    = list(string)
    default = []
  }
  attr "prefix_list_ids" {
    type    = list(string)
    default = []
  }
  attr "source_security_group_id" {
    type = string
  }
  attr "self" {
    type    = bool
    default = false
  }
  attr "description" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:security_group"
  target = resource.security_group_id
  path   = resource.type == "egress" ? "ip_permissions_egress" : "ip_permissions"
  append = [{
    ip_protocol     = resource.ip_protocol
    from_port       = contains(local.with_ports, resource.ip_protocol) ? resource.from_port : null
    to_port         = contains(local.with_ports, resource.ip_protocol) ? resource.to_port : null
    ip_ranges       = [for c in resource.cidr_blocks : { cidr_ip = c, description = resource.description }]
    ipv6_ranges     = [for c in resource.ipv6_cidr_blocks : { cidr_ipv6 = c, description = resource.description }]
    prefix_list_ids = [for p in resource.prefix_list_ids : { prefix_list_id = p, description = resource.description }]
    user_id_group_pairs = [for g in concat(resource.source_security_group_id != null ? [resource.source_security_group_id] : [], resource.self ? [resource.security_group_id] : []) : {
      group_id                  = id(g)
      group                     = ref("aws:ec2:security_group", g)
      group_name                = null
      user_id                   = unknown("the account id, known after apply", true)
      vpc_id                    = null
      vpc_peering_connection_id = null
      peering_status            = null
      description               = resource.description
    }]
  }]
}
