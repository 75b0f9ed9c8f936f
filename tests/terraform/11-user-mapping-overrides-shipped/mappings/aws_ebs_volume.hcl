# The shipped aws_ebs_volume mapping, with this team's reading of an unset `encrypted`.
# aws_ebs_volume -> aws:ec2:volume (DescribeVolumes). aws_volume_attachment resources
# append its attachments; its state is then "in-use" when attached, else "available".
type = "aws:ec2:volume"

object {
  literal "volume_id" {
    value = self.address
  }
  attr "volume_type" {
    name     = "type"
    type     = string
    computed = true
    not_null = true
    reason   = "type is not set: AWS decides"
  }
  attr "size" {
    type     = number
    computed = true
    not_null = true
    reason   = "size is not set: the snapshot's size"
  }
  attr "iops" {
    type     = number
    computed = true
  }
  attr "throughput" {
    type     = number
    computed = true
  }
  # Our accounts enforce EBS default encryption: unset means encrypted.
  attr "encrypted" {
    type    = bool
    default = true
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
  attr "availability_zone" {
    type = string
  }
  unknown "availability_zone_id" {
    not_null = true
  }
  unknown "create_time" {
    not_null = true
  }
  attr "multi_attach_enabled" {
    type    = bool
    default = false
  }
  # A volume from a snapshot is fast-restored when the snapshot has fast snapshot restore.
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
  attr "outpost_arn" {
    type = string
  }
  literal "attachments" {
    value = []
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}

after_merge "state" {
  value = length(resource.attachments) > 0 ? "in-use" : "available"
}
