# An opt-in region (launched after March 2019): the apply succeeds only once the account
# has opted in, so its opt-in status is "opted-in" (ap-southeast-2 of region_and_unknowns
# is one every account has: "opt-in-not-required").
provider "aws" {
  region = "af-south-1"
}

resource "aws_ebs_encryption_by_default" "cape_town" {
  enabled = false
}
