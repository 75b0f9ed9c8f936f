# aws_instance -> aws:ec2:instance (DescribeInstances), and one aws:ec2:volume per block
# device: ADDR.root_block_device[0] (every instance has a root volume; without a
# root_block_device block its settings are the AMI's, unknown) and
# ADDR.ebs_block_device["DEVICE"] per ebs_block_device block. Each volume appends itself
# to the instance's block_device_mappings, as aws_volume_attachment resources do.
# Settings the AMI decides (architecture, root device, virtualization...) are unknown; a
# new instance is "running" (decision 3 of design/terraform.md).
type = "aws:ec2:instance"

object {
  literal "instance_id" {
    value = self.address
  }
  attr "instance_type" {
    type     = string
    computed = true
    not_null = true
    reason   = "instance_type is not set: the launch template's"
  }
  default "image_id" {
    transform {
      attr {
        name = "ami"
      }
      result = id(nested)
    }
    unknown {
      reason   = "ami is not set: the launch template's"
      not_null = true
    }
  }
  ref "image" {
    attr     = "ami"
    type     = "aws:ec2:image"
    computed = true
    not_null = true
    reason   = "ami is not set: the launch template's"
  }
  literal "state" {
    value = { code = 16, name = "running" }
  }
  unknown "state_transition_reason" {}
  unknown "state_reason" {}
  attr "private_ip_address" {
    name     = "private_ip"
    type     = string
    computed = true
    not_null = true
    reason   = "private_ip is not set: AWS assigns one"
  }
  transform "public_ip_address" {
    attr {
      name = "associate_public_ip_address"
      type = bool
    }
    result = nested == false ? null : unknown("assigned by AWS when the instance or its subnet asks for one")
  }
  default "ipv6_address" {
    transform {
      attr {
        name    = "ipv6_addresses"
        type    = list(string)
        default = []
      }
      result = concat(nested, [null])[0]
    }
    unknown {
      reason = "assigned by AWS when the instance or its subnet asks for one"
    }
  }
  unknown "private_dns_name" {
    not_null = true
  }
  unknown "public_dns_name" {}
  block "private_dns_name_options" {
    empty_if_absent = true
    object {
      attr "hostname_type" {
        type     = string
        computed = true
        not_null = true
        reason   = "hostname_type is not set: the subnet's setting"
      }
      attr "enable_resource_name_dns_a_record" {
        type     = bool
        computed = true
        not_null = true
        reason   = "enable_resource_name_dns_a_record is not set: the subnet's setting"
      }
      attr "enable_resource_name_dns_aaaa_record" {
        type     = bool
        computed = true
        not_null = true
        reason   = "enable_resource_name_dns_aaaa_record is not set: the subnet's setting"
      }
    }
  }
  default "subnet_id" {
    transform {
      attr {}
      result = id(nested)
    }
    unknown {
      reason   = "subnet_id is not set: a default subnet of the default VPC"
      not_null = true
    }
  }
  ref "subnet" {
    attr     = "subnet_id"
    type     = "aws:ec2:subnet"
    computed = true
    not_null = true
    reason   = "subnet_id is not set: a default subnet of the default VPC"
  }
  unknown "vpc_id" {
    reason   = "the VPC of the instance's subnet, known after apply"
    not_null = true
  }
  unknown "vpc" {
    reason   = "the VPC of the instance's subnet, known after apply"
    not_null = true
  }
  # Unset: no key pair, unless a launch template gives one.
  default "key_name" {
    attr {
      type = string
    }
    transform {
      block {
        block_type = "launch_template"
        literal {
          value = true
        }
      }
      result = nested == true ? unknown("key_name is not set: the launch template's") : null
    }
  }
  unknown "launch_time" {
    not_null = true
  }
  literal "ami_launch_index" {
    value = 0
  }
  unknown "architecture" {
    reason   = "the AMI's"
    not_null = true
  }
  unknown "platform" {
    reason = "the AMI's (null for Linux)"
  }
  unknown "platform_details" {
    reason   = "the AMI's"
    not_null = true
  }
  transform "instance_lifecycle" {
    block {
      block_type = "instance_market_options"
      object {
        attr "market_type" {
          type    = string
          default = "spot"
        }
      }
    }
    result = nested == null ? null : nested.market_type
  }
  transform "spot_instance_request_id" {
    block {
      block_type = "instance_market_options"
      object {
        attr "market_type" {
          type    = string
          default = "spot"
        }
      }
    }
    result = nested == null ? null : (nested.market_type == "spot" ? unknown("computed by AWS after apply", true) : null)
  }
  unknown "capacity_reservation_id" {
    reason = "an open capacity reservation AWS may use"
  }
  transform "iam_instance_profile" {
    attr {
      type = string
    }
    result = nested == null ? null : {
      arn = unknown("the instance profile's ARN, known after apply", true)
      id  = unknown("the instance profile's id, known after apply", true)
    }
  }
  transform "monitoring" {
    attr {
      type    = bool
      default = false
    }
    result = { state = nested ? "enabled" : "disabled" }
  }
  object "placement" {
    attr "availability_zone" {
      type     = string
      computed = true
      not_null = true
      reason   = "availability_zone is not set: the subnet's, or AWS picks one"
    }
    unknown "availability_zone_id" {
      not_null = true
    }
    attr "tenancy" {
      type     = string
      computed = true
      not_null = true
      reason   = "tenancy is not set: the VPC's"
    }
    attr "group_name" {
      name     = "placement_group"
      type     = string
      computed = true
    }
    unknown "group_id" {}
    attr "partition_number" {
      name     = "placement_partition_number"
      type     = number
      computed = true
    }
    attr "host_id" {
      type     = string
      computed = true
    }
    unknown "affinity" {}
  }
  block "metadata_options" {
    empty_if_absent = true
    object {
      unknown "state" {
        not_null = true
      }
      attr "http_tokens" {
        type     = string
        computed = true
        not_null = true
        reason   = "http_tokens is not set: the AMI's or the account's default"
      }
      attr "http_put_response_hop_limit" {
        type     = number
        computed = true
        not_null = true
        reason   = "http_put_response_hop_limit is not set: the AMI's or the account's default"
      }
      attr "http_endpoint" {
        type     = string
        computed = true
        not_null = true
        reason   = "http_endpoint is not set: the account's default"
      }
      attr "http_protocol_ipv6" {
        type     = string
        computed = true
        not_null = true
        reason   = "http_protocol_ipv6 is not set: the account's default"
      }
      attr "instance_metadata_tags" {
        type     = string
        computed = true
        not_null = true
        reason   = "instance_metadata_tags is not set: the account's default"
      }
    }
  }
  # The block devices: the derived volumes below and aws_volume_attachment resources
  # append theirs.
  literal "block_device_mappings" {
    value = []
  }
  unknown "security_group_names" {
    reason   = "the names of its security groups, known after apply"
    not_null = true
  }
  default "security_group_ids" {
    transform {
      attr {
        name = "vpc_security_group_ids"
        type = set(string)
      }
      result = nested == null ? null : id(nested)
    }
    unknown {
      reason   = "vpc_security_group_ids is not set: the VPC's default group, or the groups security_groups names"
      not_null = true
    }
  }
  default "security_groups" {
    transform {
      attr {
        name = "vpc_security_group_ids"
        type = set(string)
      }
      result = nested == null ? null : ref("aws:ec2:security_group", nested)
    }
    transform {
      attr {
        name = "security_groups"
        type = set(string)
      }
      result = nested == null ? null : ref("aws:ec2:security_group", nested)
    }
    unknown {
      reason   = "no security group is set: the VPC's default group"
      not_null = true
    }
  }
  unknown "network_interfaces" {
    reason   = "the primary network interface, created by AWS"
    not_null = true
  }
  attr "ebs_optimized" {
    type     = bool
    computed = true
    not_null = true
    reason   = "ebs_optimized is not set: the instance type's default"
  }
  unknown "ena_support" {
    reason   = "the AMI's"
    not_null = true
  }
  unknown "sriov_net_support" {
    reason = "the AMI's"
  }
  attr "source_dest_check" {
    type    = bool
    default = true
  }
  unknown "root_device_name" {
    reason   = "the AMI's"
    not_null = true
  }
  unknown "root_device_type" {
    reason   = "the AMI's"
    not_null = true
  }
  unknown "virtualization_type" {
    reason   = "the AMI's"
    not_null = true
  }
  unknown "hypervisor" {
    not_null = true
  }
  unknown "boot_mode" {
    reason = "the AMI's"
  }
  unknown "current_instance_boot_mode" {
    reason   = "the AMI's and the instance type's"
    not_null = true
  }
  unknown "tpm_support" {
    reason = "the AMI's"
  }
  block "cpu_options" {
    empty_if_absent = true
    object {
      attr "core_count" {
        type     = number
        computed = true
        not_null = true
        reason   = "core_count is not set: the instance type's"
      }
      attr "threads_per_core" {
        type     = number
        computed = true
        not_null = true
        reason   = "threads_per_core is not set: the instance type's"
      }
      attr "amd_sev_snp" {
        type     = string
        computed = true
      }
    }
  }
  transform "hibernation_options" {
    attr {
      name    = "hibernation"
      type    = bool
      default = false
    }
    result = { configured = nested }
  }
  block "enclave_options" {
    empty_if_absent = true
    object {
      attr "enabled" {
        type    = bool
        default = false
      }
    }
  }
  block "maintenance_options" {
    empty_if_absent = true
    object {
      attr "auto_recovery" {
        type     = string
        computed = true
        not_null = true
        reason   = "auto_recovery is not set: AWS's default"
      }
    }
  }
  unknown "product_codes" {
    reason   = "the AMI's"
    not_null = true
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}

derive "root_block_device" {
  type   = "aws:ec2:volume"
  always = true
  object {
    literal "volume_id" {
      value = self.address
    }
    attr "volume_type" {
      type     = string
      computed = true
      not_null = true
      reason   = "volume_type is not set: AWS decides"
    }
    attr "size" {
      name     = "volume_size"
      type     = number
      computed = true
      not_null = true
      reason   = "volume_size is not set: the size of the AMI's root snapshot"
    }
    attr "iops" {
      type     = number
      computed = true
    }
    attr "throughput" {
      type     = number
      computed = true
    }
    attr "encrypted" {
      type     = bool
      computed = true
      not_null = true
      reason   = "encrypted is not set: the AMI's root snapshot or the region's EBS default decides"
    }
    attr "kms_key_id" {
      type     = string
      computed = true
    }
    unknown "sse_type" {}
    unknown "snapshot_id" {
      reason   = "the AMI's root snapshot"
      not_null = true
    }
    unknown "snapshot" {
      reason   = "the AMI's root snapshot"
      not_null = true
    }
    unknown "fast_restored" {
      reason   = "whether the AMI's snapshot has fast snapshot restore"
      not_null = true
    }
    parent "availability_zone" {
      attr {
        type     = string
        computed = true
        not_null = true
        reason   = "the instance's availability zone, picked by AWS"
      }
    }
    unknown "availability_zone_id" {
      not_null = true
    }
    literal "state" {
      value = "in-use"
    }
    unknown "create_time" {
      not_null = true
    }
    literal "multi_attach_enabled" {
      value = false
    }
    literal "outpost_arn" {
      value = null
    }
    array "attachments" {
      object {
        literal "instance_id" {
          value = parent.address
        }
        literal "instance" {
          value = ref("aws:ec2:instance", parent.id)
        }
        unknown "device" {
          reason   = "the AMI's root device name"
          not_null = true
        }
        literal "state" {
          value = "attached"
        }
        unknown "attach_time" {
          not_null = true
        }
        # The provider's default applies when the block is written; without it the AMI's
        # block device mapping decides.
        attr "delete_on_termination" {
          type     = bool
          default  = self.declared ? true : null
          computed = true
          not_null = true
          reason   = "no root_block_device block: the AMI decides"
        }
        literal "associated_resource" {
          value = null
        }
        literal "instance_owning_service" {
          value = null
        }
      }
    }
    transform "tags" {
      object {
        parent "volume_tags" {
          attr {
            type = map(string)
          }
        }
        attr "tags" {
          type = map(string)
        }
      }
      result = merge(parent.default_tags, nested.volume_tags, nested.tags)
    }
  }

  # The volume as one of the instance's block devices.
  contribute {
    to     = "aws:ec2:instance"
    target = parent.id
    path   = "block_device_mappings"
    append = [{
      device_name = unknown("the AMI's root device name", true)
      ebs = {
        volume_id             = self.address
        volume                = ref("aws:ec2:volume", self.address)
        status                = "attached"
        attach_time           = unknown("computed by AWS after apply", true)
        delete_on_termination = choose(self.declared, resource.attachments[0].delete_on_termination, unknown("no root_block_device block: the AMI decides", true))
        volume_owner_id       = unknown("the account id, known after apply", true)
      }
    }]
  }
}

derive "ebs_block_device" {
  type = "aws:ec2:volume"
  key  = "device_name"
  object {
    literal "volume_id" {
      value = self.address
    }
    attr "volume_type" {
      type     = string
      computed = true
      not_null = true
      reason   = "volume_type is not set: AWS decides"
    }
    attr "size" {
      name     = "volume_size"
      type     = number
      computed = true
      not_null = true
      reason   = "volume_size is not set: the size of the snapshot"
    }
    attr "iops" {
      type     = number
      computed = true
    }
    attr "throughput" {
      type     = number
      computed = true
    }
    attr "encrypted" {
      type     = bool
      computed = true
      not_null = true
      reason   = "encrypted is not set: the snapshot or the region's EBS default decides"
    }
    attr "kms_key_id" {
      type     = string
      computed = true
    }
    unknown "sse_type" {}
    # No snapshot is "" in DescribeVolumes.
    transform "snapshot_id" {
      attr {
        type    = string
        default = ""
      }
      result = id(nested)
    }
    ref "snapshot" {
      attr = "snapshot_id"
      type = "aws:ec2:snapshot"
    }
    default "fast_restored" {
      transform {
        attr {
          name = "snapshot_id"
          type = string
        }
        result = nested == null || nested == "" ? null : unknown("whether the snapshot has fast snapshot restore", true)
      }
      literal {
        value = false
      }
    }
    parent "availability_zone" {
      attr {
        type     = string
        computed = true
        not_null = true
        reason   = "the instance's availability zone, picked by AWS"
      }
    }
    unknown "availability_zone_id" {
      not_null = true
    }
    literal "state" {
      value = "in-use"
    }
    unknown "create_time" {
      not_null = true
    }
    literal "multi_attach_enabled" {
      value = false
    }
    literal "outpost_arn" {
      value = null
    }
    array "attachments" {
      object {
        literal "instance_id" {
          value = parent.address
        }
        literal "instance" {
          value = ref("aws:ec2:instance", parent.id)
        }
        attr "device" {
          name = "device_name"
          type = string
        }
        literal "state" {
          value = "attached"
        }
        unknown "attach_time" {
          not_null = true
        }
        attr "delete_on_termination" {
          type    = bool
          default = true
        }
        literal "associated_resource" {
          value = null
        }
        literal "instance_owning_service" {
          value = null
        }
      }
    }
    transform "tags" {
      object {
        parent "volume_tags" {
          attr {
            type = map(string)
          }
        }
        attr "tags" {
          type = map(string)
        }
      }
      result = merge(parent.default_tags, nested.volume_tags, nested.tags)
    }
  }

  # The volume as one of the instance's block devices.
  contribute {
    to     = "aws:ec2:instance"
    target = parent.id
    path   = "block_device_mappings"
    append = [{
      device_name = resource.attachments[0].device
      ebs = {
        volume_id             = self.address
        volume                = ref("aws:ec2:volume", self.address)
        status                = "attached"
        attach_time           = unknown("computed by AWS after apply", true)
        delete_on_termination = resource.attachments[0].delete_on_termination
        volume_owner_id       = unknown("the account id, known after apply", true)
      }
    }]
  }
}
