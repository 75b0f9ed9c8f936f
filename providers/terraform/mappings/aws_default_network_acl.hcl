# aws_default_network_acl -> aws:ec2:network_acl: a VPC's default network ACL, adopted by
# Terraform, which removes every rule not declared here. Its VPC is the one whose
# default_network_acl_id it names. Mapped as aws_network_acl.hcl (see there).
type = "aws:ec2:network_acl"

locals {
  protocol_numbers = { tcp = "6", udp = "17", icmp = "1", icmpv6 = "58", all = "-1" }
  # The rules AWS puts last in every network ACL.
  default_deny = [for egress in [false, true] : {
    rule_number     = 32767
    protocol        = "-1"
    rule_action     = "deny"
    egress          = egress
    cidr_block      = "0.0.0.0/0"
    ipv6_cidr_block = null
    port_range      = null
    icmp_type_code  = null
  }]
}

object {
  literal "network_acl_id" {
    value = self.address
  }
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
  # Inline rules (blocks, dynamic blocks, or the attribute form of .tf.json), ingress then
  # egress; aws_network_acl_rule resources append theirs, and AWS's default deny rules
  # (rule 32767) come last (after_merge below).
  transform "entries" {
    object {
      block_list "ingress" {
        attributes_as_blocks = true
        object {
          attr "rule_no" {
            type = number
          }
          transform "protocol" {
            attr {
              name = "protocol"
              type = string
            }
            result = lookup(local.protocol_numbers, lower(nested), nested)
          }
          attr "action" {
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
      }
      block_list "egress" {
        attributes_as_blocks = true
        object {
          attr "rule_no" {
            type = number
          }
          transform "protocol" {
            attr {
              name = "protocol"
              type = string
            }
            result = lookup(local.protocol_numbers, lower(nested), nested)
          }
          attr "action" {
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
      }
    }
    result = [for e in concat(
      [for r in nested.ingress : merge(r, { egress = false })],
      [for r in nested.egress : merge(r, { egress = true })],
      ) : {
      rule_number     = e.rule_no
      protocol        = e.protocol
      rule_action     = lower(e.action)
      egress          = e.egress
      cidr_block      = e.cidr_block == "" ? null : e.cidr_block
      ipv6_cidr_block = e.ipv6_cidr_block == "" ? null : e.ipv6_cidr_block
      port_range      = contains(["6", "17"], e.protocol) ? { from = e.from_port, to = e.to_port } : null
      icmp_type_code  = contains(["1", "58"], e.protocol) ? { code = e.icmp_code, type = e.icmp_type } : null
    }]
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
  unknown "owner_id" {
    reason   = "the account id, known after apply"
    not_null = true
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}

after_merge "entries" {
  value = concat(resource.entries, local.default_deny)
}

# It is the default ACL its VPC's mapping derives (aws_vpc.hcl), which is left out.
replaces "default_network_acl" {
  target = resource.vpc_id
}
