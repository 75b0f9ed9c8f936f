# aws_ebs_snapshot -> aws:ec2:snapshot (DescribeSnapshots).
type = "aws:ec2:snapshot"

object {
  # The resource's own id: its address.
  literal "snapshot_id" {
    value = self.address
  }
  # The raw id of the volume (its address when it is in the configuration)...
  transform "volume_id" {
    attr {}
    result = id(nested)
  }
  # ...and the association to it.
  ref "volume" {
    attr = "volume_id"
    type = "aws:ec2:volume"
  }
  # Computed by AWS from the volume.
  unknown "volume_size" {
    reason   = "the volume's size"
    not_null = true
  }
  unknown "encrypted" {
    reason   = "the volume's encryption"
    not_null = true
  }
  unknown "kms_key_id" {
    reason = "the volume's key"
  }
  unknown "data_encryption_key_id" {}
  # A new snapshot, once Terraform has waited for it.
  literal "state" {
    value = "completed"
  }
  literal "state_message" {
    value = null
  }
  literal "progress" {
    value = "100%"
  }
  unknown "start_time" {
    not_null = true
  }
  unknown "completion_time" {
    not_null = true
  }
  unknown "owner_id" {
    reason   = "the account id, known after apply"
    not_null = true
  }
  literal "owner_alias" {
    value = null
  }
  attr "description" {
    type = string
  }
  # Optional and computed: unset, AWS decides.
  attr "storage_tier" {
    type     = string
    computed = true
    not_null = true
  }
  literal "restore_expiry_time" {
    value = null
  }
  unknown "sse_type" {}
  attr "outpost_arn" {
    type = string
  }
  # Not shared; aws_snapshot_create_volume_permission resources append to it.
  literal "create_volume_permissions" {
    value = []
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}
