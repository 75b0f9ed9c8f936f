# aws_default_vpc -> aws:ec2:vpc: the region's default VPC, adopted (or created) by
# Terraform. AWS creates every default VPC with the CIDR block 172.31.0.0/16.
type = "aws:ec2:vpc"

object {
  literal "vpc_id" {
    value = self.address
  }
  literal "cidr_block" {
    value = "172.31.0.0/16"
  }
  literal "cidr_block_association_set" {
    value = [{
      association_id   = unknown("computed by AWS after apply", true)
      cidr_block       = "172.31.0.0/16"
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
    }
    result = (nested.assign_generated_ipv6_cidr_block || nested.ipv6_cidr_block != null || nested.ipv6_ipam_pool_id != null) ? [{
      association_id        = unknown("computed by AWS after apply", true)
      ipv6_cidr_block       = nested.ipv6_cidr_block != null ? nested.ipv6_cidr_block : unknown("allocated by AWS", true)
      ipv6_cidr_block_state = { state = "associated", status_message = null }
      network_border_group  = unknown("the region's border group", true)
      ipv6_pool             = nested.assign_generated_ipv6_cidr_block ? "Amazon" : unknown("computed by AWS after apply", true)
    }] : []
  }
  literal "state" {
    value = "available"
  }
  literal "is_default" {
    value = true
  }
  literal "instance_tenancy" {
    value = "default"
  }
  # DescribeVpcAttribute; AWS turns both on in a default VPC, and so do the provider's
  # defaults.
  attr "enable_dns_support" {
    type    = bool
    default = true
  }
  attr "enable_dns_hostnames" {
    type    = bool
    default = true
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
  unknown "route_tables" {
    reason   = "route tables are not mapped from Terraform (every VPC has a main one)"
    not_null = true
  }
  unknown "internet_gateways" {
    reason   = "internet gateways are not mapped from Terraform"
    not_null = true
  }
  # AWS gives every default VPC a default subnet in each zone; they are outside the
  # configuration (aws_default_subnet is not mapped), so the list is not known.
  unknown "subnets" {
    reason   = "the default subnets AWS creates in each zone are outside the configuration"
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


reverse "security_groups" {
  from = "aws:ec2:security_group"
  via  = "vpc_id"
}

reverse "network_acls" {
  from = "aws:ec2:network_acl"
  via  = "vpc_id"
}
