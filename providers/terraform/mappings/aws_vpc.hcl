# aws_vpc -> aws:ec2:vpc (DescribeVpcs).
type = "aws:ec2:vpc"

object {
  # A resource's own id member holds its address, as the raw id of every reference to it.
  literal "vpc_id" {
    value = self.address
  }
  attr "cidr_block" {
    type     = string
    computed = true
    not_null = true
    reason   = "cidr_block is not set: allocated from an IPAM pool"
  }
  transform "cidr_block_association_set" {
    attr {
      name = "cidr_block"
      type = string
    }
    result = [{
      association_id   = unknown("computed by AWS after apply", true)
      cidr_block       = nested != null ? nested : unknown("allocated from an IPAM pool", true)
      cidr_block_state = { state = "associated", status_message = null }
    }]
  }
  transform "ipv6_cidr_block_association_set" {
    object {
      attr "assign_generated_ipv6_cidr_block" {
        type    = bool
        default = false
      }
      attr "ipv6_cidr_block" {
        type = string
      }
      attr "ipv6_ipam_pool_id" {
        type = string
      }
      attr "ipv6_cidr_block_network_border_group" {
        type = string
      }
    }
    result = (nested.assign_generated_ipv6_cidr_block || nested.ipv6_cidr_block != null || nested.ipv6_ipam_pool_id != null) ? [{
      association_id        = unknown("computed by AWS after apply", true)
      ipv6_cidr_block       = nested.ipv6_cidr_block != null ? nested.ipv6_cidr_block : unknown("allocated by AWS", true)
      ipv6_cidr_block_state = { state = "associated", status_message = null }
      network_border_group  = nested.ipv6_cidr_block_network_border_group != null ? nested.ipv6_cidr_block_network_border_group : unknown("the region's border group", true)
      ipv6_pool             = nested.assign_generated_ipv6_cidr_block ? "Amazon" : unknown("computed by AWS after apply", true)
    }] : []
  }
  literal "state" {
    value = "available"
  }
  literal "is_default" {
    value = false
  }
  attr "instance_tenancy" {
    type    = string
    default = "default"
  }
  # DescribeVpcAttribute; the provider's defaults are AWS's for a new VPC.
  attr "enable_dns_support" {
    type    = bool
    default = true
  }
  attr "enable_dns_hostnames" {
    type    = bool
    default = false
  }
  unknown "dhcp_options_id" {
    reason   = "the region's default DHCP options, known after apply"
    not_null = true
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
  # Reverse links from types Terraform resources are not mapped to.
  unknown "route_tables" {
    reason   = "route tables are not mapped from Terraform (every VPC has a main one)"
    not_null = true
  }
  unknown "internet_gateways" {
    reason   = "internet gateways are not mapped from Terraform"
    not_null = true
  }
  unknown "instances" {
    reason   = "an instance's VPC is its subnet's, known after apply"
    not_null = true
  }
}

reverse "flow_logs" {
  from = "aws:ec2:flow_log"
  via  = "resource_id"
}

reverse "subnets" {
  from = "aws:ec2:subnet"
  via  = "vpc_id"
}

reverse "security_groups" {
  from = "aws:ec2:security_group"
  via  = "vpc_id"
}

reverse "network_acls" {
  from = "aws:ec2:network_acl"
  via  = "vpc_id"
}

# What AWS creates with every VPC: its default security group and default network ACL,
# with AWS's rules (the default group allows all traffic from its own members and all
# outbound traffic; the default ACL allows everything), IPv6 ones too when the VPC has an
# IPv6 block. An aws_default_security_group or aws_default_network_acl naming the VPC
# stands for them (it replaces them below: see their files).
derive "default_security_group" {
  type   = "aws:ec2:security_group"
  single = true
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
    literal "vpc_id" {
      value = id(parent.id)
    }
    literal "vpc" {
      value = ref("aws:ec2:vpc", parent.id)
    }
    literal "ip_permissions" {
      value = [{
        ip_protocol     = "-1"
        from_port       = null
        to_port         = null
        ip_ranges       = []
        ipv6_ranges     = []
        prefix_list_ids = []
        user_id_group_pairs = [{
          group_id                  = self.address
          group                     = ref("aws:ec2:security_group", self.id)
          group_name                = null
          user_id                   = unknown("the account id, known after apply", true)
          vpc_id                    = null
          vpc_peering_connection_id = null
          peering_status            = null
          description               = null
        }]
      }]
    }
    transform "ip_permissions_egress" {
      object {
        parent "assign_generated_ipv6_cidr_block" {
          attr {
            type = bool
          }
        }
        parent "ipv6_cidr_block" {
          attr {
            type = string
          }
        }
        parent "ipv6_ipam_pool_id" {
          attr {
            type = string
          }
        }
      }
      result = [{
        ip_protocol         = "-1"
        from_port           = null
        to_port             = null
        ip_ranges           = [{ cidr_ip = "0.0.0.0/0", description = null }]
        ipv6_ranges         = (nested.assign_generated_ipv6_cidr_block == true || nested.ipv6_cidr_block != null || nested.ipv6_ipam_pool_id != null) ? [{ cidr_ipv6 = "::/0", description = null }] : []
        prefix_list_ids     = []
        user_id_group_pairs = []
      }]
    }
    literal "tags" {
      value = {}
    }
    unknown "network_interfaces" {
      reason   = "network interfaces are not mapped from Terraform"
      not_null = true
    }
  }
}

derive "default_network_acl" {
  type   = "aws:ec2:network_acl"
  single = true
  object {
    literal "network_acl_id" {
      value = self.address
    }
    literal "vpc_id" {
      value = id(parent.id)
    }
    literal "vpc" {
      value = ref("aws:ec2:vpc", parent.id)
    }
    literal "is_default" {
      value = true
    }
    transform "entries" {
      object {
        parent "assign_generated_ipv6_cidr_block" {
          attr {
            type = bool
          }
        }
        parent "ipv6_cidr_block" {
          attr {
            type = string
          }
        }
        parent "ipv6_ipam_pool_id" {
          attr {
            type = string
          }
        }
      }
      result = flatten([for e in concat(
        [[100, "allow", "0.0.0.0/0", null], [32767, "deny", "0.0.0.0/0", null]],
        (nested.assign_generated_ipv6_cidr_block == true || nested.ipv6_cidr_block != null || nested.ipv6_ipam_pool_id != null) ? [[101, "allow", null, "::/0"], [32768, "deny", null, "::/0"]] : [],
        ) : [for egress in [false, true] : {
          rule_number     = e[0]
          protocol        = "-1"
          rule_action     = e[1]
          egress          = egress
          cidr_block      = e[2]
          ipv6_cidr_block = e[3]
          port_range      = null
          icmp_type_code  = null
      }]])
    }
    unknown "associations" {
      reason   = "every subnet of the VPC that no other network ACL is associated with, known after apply"
      not_null = true
    }
    unknown "owner_id" {
      reason   = "the account id, known after apply"
      not_null = true
    }
    literal "tags" {
      value = {}
    }
  }
}
