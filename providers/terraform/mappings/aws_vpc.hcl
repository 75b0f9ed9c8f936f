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
