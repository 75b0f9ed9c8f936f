# aws_s3_bucket_ownership_controls: no resource of its own; its bucket's
# ownership_controls (GetBucketOwnershipControls: one rule, its object_ownership). See
# aws_s3_bucket_versioning.hcl for how the bucket is found.

object {
  attr "bucket" {
    type = string
  }
  block "rule" {
    object {
      attr "object_ownership" {
        type = string
      }
    }
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "ownership_controls"
  set    = { rules = [{ object_ownership = resource.rule.object_ownership }] }
}
