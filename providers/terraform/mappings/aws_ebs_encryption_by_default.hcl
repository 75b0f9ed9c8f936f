# aws_ebs_encryption_by_default -> aws:ec2:region: the EBS default of its provider's
# region.
type = "aws:ec2:region"

object {
  literal "region_name" {
    value = self.region != null ? self.region : unknown("the provider's region is not known statically", true)
  }
  unknown "endpoint" {
    not_null = true
  }
  unknown "opt_in_status" {
    not_null = true
  }
  attr "ebs_encryption_by_default" {
    name    = "enabled"
    type    = bool
    default = true
  }
  unknown "ebs_default_kms_key_id" {
    reason   = "the region's default EBS key (aws_ebs_default_kms_key is not mapped)"
    not_null = true
  }
}
