# aws_network_acl_rule: no resource of its own; one entry appended to its network ACL's
# entries (see aws_network_acl.hcl for the value forms). A rule whose network ACL is not
# in the configuration is dropped with a warning.

locals {
  protocol_numbers = { tcp = "6", udp = "17", icmp = "1", icmpv6 = "58", all = "-1" }
}

object {
  attr "network_acl_id" {
    type = string
  }
  transform "entry" {
    object {
      attr "rule_number" {
        type = number
      }
      attr "egress" {
        type    = bool
        default = false
      }
      transform "protocol" {
        attr {
          name = "protocol"
          type = string
        }
        result = lookup(local.protocol_numbers, lower(nested), nested)
      }
      attr "rule_action" {
        type = string
      }
      attr "cidr_block" {
        type = string
      }
      attr "ipv6_cidr_block" {
        type = string
      }
      attr "from_port" {
        type = number
      }
      attr "to_port" {
        type = number
      }
      attr "icmp_type" {
        type = number
      }
      attr "icmp_code" {
        type = number
      }
    }
    result = {
      rule_number     = nested.rule_number
      protocol        = nested.protocol
      rule_action     = lower(nested.rule_action)
      egress          = nested.egress
      cidr_block      = nested.cidr_block
      ipv6_cidr_block = nested.ipv6_cidr_block
      port_range      = contains(["6", "17"], nested.protocol) ? { from = nested.from_port, to = nested.to_port } : null
      icmp_type_code  = contains(["1", "58"], nested.protocol) ? { code = nested.icmp_code, type = nested.icmp_type } : null
    }
  }
}

contribute {
  to     = "aws:ec2:network_acl"
  target = resource.network_acl_id
  path   = "entries"
  append = [resource.entry]
}
