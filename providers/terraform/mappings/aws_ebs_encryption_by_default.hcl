# aws_ebs_encryption_by_default -> aws:ec2:region: the EBS default of its provider's
# region. The region is enabled once the apply succeeds, so its opt-in status follows
# from its name (decision 3 of design/terraform.md).
type = "aws:ec2:region"

locals {
  # The regions every account has enabled (those launched before 20 March 2019, and the
  # China and GovCloud ones). Every later region is opt-in: a successful apply there means
  # the account has opted in. The isolated partitions are left unknown.
  enabled_by_default = [
    "us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "sa-east-1",
    "eu-central-1", "eu-west-1", "eu-west-2", "eu-west-3", "eu-north-1",
    "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-southeast-1",
    "ap-southeast-2", "ap-south-1",
    "cn-north-1", "cn-northwest-1", "us-gov-west-1", "us-gov-east-1",
  ]
}

object {
  literal "region_name" {
    value = self.region != null ? self.region : unknown("the provider's region is not known statically", true)
  }
  unknown "endpoint" {
    not_null = true
  }
  literal "opt_in_status" {
    value = (self.region == null ? unknown("the provider's region is not known statically", true)
      : contains(local.enabled_by_default, self.region) ? "opt-in-not-required"
      : strcontains(self.region, "-iso") ? unknown("the opt-in status of an isolated region", true)
    : "opted-in")
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
  # The region's links to other services' settings: what the account holds besides this
  # configuration is not in the plan.
  unknown "trails" {
    reason   = "the trails that log the region (the account's, not only this configuration's)"
    not_null = true
  }
  unknown "configuration_recorders" {
    reason   = "the region's AWS Config recorders (the account's, not only this configuration's)"
    not_null = true
  }
  unknown "delivery_channels" {
    reason   = "the region's AWS Config delivery channels (the account's, not only this configuration's)"
    not_null = true
  }
  unknown "hubs" {
    reason   = "whether Security Hub is enabled in the region (the account's setting)"
    not_null = true
  }
  unknown "analyzers" {
    reason   = "the region's IAM Access Analyzer analyzers (the account's, not only this configuration's)"
    not_null = true
  }
}
