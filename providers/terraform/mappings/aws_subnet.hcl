# aws_subnet -> aws:ec2:subnet (DescribeSubnets).
type = "aws:ec2:subnet"

object {
  literal "subnet_id" {
    value = self.address
  }
  unknown "subnet_arn" {
    not_null = true
  }
  transform "vpc_id" {
    attr {}
    result = id(nested)
  }
  ref "vpc" {
    attr = "vpc_id"
    type = "aws:ec2:vpc"
  }
  attr "cidr_block" {
    type     = string
    computed = true
    not_null = true
    reason   = "cidr_block is not set: allocated from an IPAM pool"
  }
  transform "ipv6_cidr_block_association_set" {
    attr {
      name = "ipv6_cidr_block"
      type = string
    }
    result = nested != null ? [{
      association_id        = unknown("computed by AWS after apply", true)
      ipv6_cidr_block       = nested
      ipv6_cidr_block_state = { state = "associated", status_message = null }
      network_border_group  = null
      ipv6_pool             = null
    }] : []
  }
  attr "availability_zone" {
    type     = string
    computed = true
    not_null = true
    reason   = "availability_zone is not set: AWS picks one"
  }
  attr "availability_zone_id" {
    type     = string
    computed = true
    not_null = true
    reason   = "availability_zone_id is not set: the zone AWS picks"
  }
  unknown "available_ip_address_count" {
    not_null = true
  }
  literal "default_for_az" {
    value = false
  }
  attr "map_public_ip_on_launch" {
    type    = bool
    default = false
  }
  attr "assign_ipv6_address_on_creation" {
    type    = bool
    default = false
  }
  attr "map_customer_owned_ip_on_launch" {
    type    = bool
    default = false
  }
  attr "customer_owned_ipv4_pool" {
    type = string
  }
  attr "enable_dns64" {
    type    = bool
    default = false
  }
  attr "ipv6_native" {
    type    = bool
    default = false
  }
  object "private_dns_name_options_on_launch" {
    attr "hostname_type" {
      name     = "private_dns_hostname_type_on_launch"
      type     = string
      computed = true
      not_null = true
      reason   = "private_dns_hostname_type_on_launch is not set: AWS decides"
    }
    attr "enable_resource_name_dns_a_record" {
      name    = "enable_resource_name_dns_a_record_on_launch"
      type    = bool
      default = false
    }
    attr "enable_resource_name_dns_aaaa_record" {
      name    = "enable_resource_name_dns_aaaa_record_on_launch"
      type    = bool
      default = false
    }
  }
  literal "state" {
    value = "available"
  }
  attr "outpost_arn" {
    type = string
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
  unknown "network_interfaces" {
    reason   = "network interfaces are not mapped from Terraform"
    not_null = true
  }
  unknown "route_tables" {
    reason   = "route tables are not mapped from Terraform"
    not_null = true
  }
}

reverse "instances" {
  from = "aws:ec2:instance"
  via  = "subnet_id"
}

reverse "flow_logs" {
  from = "aws:ec2:flow_log"
  via  = "resource_id"
}
