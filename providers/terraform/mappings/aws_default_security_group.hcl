# aws_default_security_group -> aws:ec2:security_group: a VPC's default group, adopted by
# Terraform, which removes every rule not declared here. Mapped as aws_security_group.hcl
# (see there) with AWS's name and description.
#
# Inline ingress/egress rules (blocks, dynamic blocks, or the attribute form of
# .tf.json) become ip_permissions/ip_permissions_egress as EC2 reports them: protocol
# names for 6, 17, 1 and 58, "-1" for all, ports only for tcp, udp, icmp and icmpv6, one
# range per CIDR with the rule's description, security groups (and self) as pairs.
# Standalone rules (aws_security_group_rule, aws_vpc_security_group_*_rule) append
# theirs; permissions with equal protocol and ports are then grouped. No egress block
# means no egress: Terraform removes the rule AWS gives a default group.
type = "aws:ec2:security_group"

locals {
  protocol_names = { "6" = "tcp", "17" = "udp", "1" = "icmp", "58" = "icmpv6", "all" = "-1" }
  with_ports     = ["tcp", "udp", "icmp", "icmpv6"]
}

object {
  literal "group_id" {
    value = self.address
  }
  literal "group_name" {
    value = "default"
  }
  unknown "security_group_arn" {
    not_null = true
  }
  literal "description" {
    value = "default VPC security group"
  }
  unknown "owner_id" {
    reason   = "the account id, known after apply"
    not_null = true
  }
  default "vpc_id" {
    transform {
      attr {}
      result = id(nested)
    }
    unknown {
      reason   = "vpc_id is not set: the region's default VPC"
      not_null = true
    }
  }
  ref "vpc" {
    attr     = "vpc_id"
    type     = "aws:ec2:vpc"
    computed = true
    not_null = true
    reason   = "vpc_id is not set: the region's default VPC"
  }
  block_list "ip_permissions" {
    block_type           = "ingress"
    attributes_as_blocks = true
    transform {
      object {
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
        attr "security_groups" {
          type    = set(string)
          default = []
        }
        attr "self" {
          type    = bool
          default = false
        }
        attr "description" {
          type = string
        }
      }
      result = {
        ip_protocol         = nested.ip_protocol
        from_port           = contains(local.with_ports, nested.ip_protocol) ? nested.from_port : null
        to_port             = contains(local.with_ports, nested.ip_protocol) ? nested.to_port : null
        ip_ranges           = [for c in nested.cidr_blocks : { cidr_ip = c, description = nested.description == "" ? null : nested.description }]
        ipv6_ranges         = [for c in nested.ipv6_cidr_blocks : { cidr_ipv6 = c, description = nested.description == "" ? null : nested.description }]
        prefix_list_ids     = [for p in nested.prefix_list_ids : { prefix_list_id = p, description = nested.description == "" ? null : nested.description }]
        user_id_group_pairs = [for g in concat(tolist(nested.security_groups), nested.self ? [self.id] : []) : {
          group_id                  = id(g)
          group                     = ref("aws:ec2:security_group", g)
          group_name                = null
          user_id                   = unknown("the account id, known after apply", true)
          vpc_id                    = null
          vpc_peering_connection_id = null
          peering_status            = null
          description               = nested.description == "" ? null : nested.description
        }]
      }
    }
  }
  block_list "ip_permissions_egress" {
    block_type           = "egress"
    attributes_as_blocks = true
    transform {
      object {
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
        attr "security_groups" {
          type    = set(string)
          default = []
        }
        attr "self" {
          type    = bool
          default = false
        }
        attr "description" {
          type = string
        }
      }
      result = {
        ip_protocol         = nested.ip_protocol
        from_port           = contains(local.with_ports, nested.ip_protocol) ? nested.from_port : null
        to_port             = contains(local.with_ports, nested.ip_protocol) ? nested.to_port : null
        ip_ranges           = [for c in nested.cidr_blocks : { cidr_ip = c, description = nested.description == "" ? null : nested.description }]
        ipv6_ranges         = [for c in nested.ipv6_cidr_blocks : { cidr_ipv6 = c, description = nested.description == "" ? null : nested.description }]
        prefix_list_ids     = [for p in nested.prefix_list_ids : { prefix_list_id = p, description = nested.description == "" ? null : nested.description }]
        user_id_group_pairs = [for g in concat(tolist(nested.security_groups), nested.self ? [self.id] : []) : {
          group_id                  = id(g)
          group                     = ref("aws:ec2:security_group", g)
          group_name                = null
          user_id                   = unknown("the account id, known after apply", true)
          vpc_id                    = null
          vpc_peering_connection_id = null
          peering_status            = null
          description               = nested.description == "" ? null : nested.description
        }]
      }
    }
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
  unknown "network_interfaces" {
    reason   = "network interfaces are not mapped from Terraform"
    not_null = true
  }
}

# EC2 reports one permission per protocol and port range.
group "ip_permissions" {
  by     = ["ip_protocol", "from_port", "to_port"]
  concat = ["ip_ranges", "ipv6_ranges", "prefix_list_ids", "user_id_group_pairs"]
}

group "ip_permissions_egress" {
  by     = ["ip_protocol", "from_port", "to_port"]
  concat = ["ip_ranges", "ipv6_ranges", "prefix_list_ids", "user_id_group_pairs"]
}

# It is the default group its VPC's mapping derives (aws_vpc.hcl), which is left out.
replaces "default_security_group" {
  target = resource.vpc_id
}
