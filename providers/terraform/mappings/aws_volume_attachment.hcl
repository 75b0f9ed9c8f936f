# aws_volume_attachment: no resource of its own; an attachment appended to its volume's
# attachments and a block device appended to its instance's block_device_mappings. Each
# side whose resource is not in the configuration is dropped with a warning.

object {
  attr "device_name" {
    type = string
  }
  attr "instance_id" {
    type = string
  }
  attr "volume_id" {
    type = string
  }
}

contribute {
  to     = "aws:ec2:volume"
  target = resource.volume_id
  path   = "attachments"
  append = [{
    instance_id             = id(resource.instance_id)
    instance                = ref("aws:ec2:instance", resource.instance_id)
    device                  = resource.device_name
    state                   = "attached"
    attach_time             = unknown("computed by AWS after apply", true)
    delete_on_termination   = false
    associated_resource     = null
    instance_owning_service = null
  }]
}

contribute {
  to     = "aws:ec2:instance"
  target = resource.instance_id
  path   = "block_device_mappings"
  append = [{
    device_name = resource.device_name
    ebs = {
      volume_id             = id(resource.volume_id)
      volume                = ref("aws:ec2:volume", resource.volume_id)
      status                = "attached"
      attach_time           = unknown("computed by AWS after apply", true)
      delete_on_termination = false
      volume_owner_id       = unknown("the account id, known after apply", true)
    }
  }]
}
