# aws_s3_bucket_public_access_block: no resource of its own; its bucket's
# public_access_block (see aws_s3_bucket_versioning.hcl for how the bucket is found).
# Each setting it leaves unset is false (the provider's default).

object {
  attr "bucket" {
    type = string
  }
  object "settings" {
    attr "block_public_acls" {
      type    = bool
      default = false
    }
    attr "ignore_public_acls" {
      type    = bool
      default = false
    }
    attr "block_public_policy" {
      type    = bool
      default = false
    }
    attr "restrict_public_buckets" {
      type    = bool
      default = false
    }
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "public_access_block"
  set    = resource.settings
}
