# aws_s3_bucket_server_side_encryption_configuration: no resource of its own; its bucket's
# encryption (see aws_s3_bucket_versioning.hcl for how the bucket is found). It overrides
# the bucket's deprecated inline server_side_encryption_configuration (with a warning).

object {
  attr "bucket" {
    type = string
  }
  block_set "rules" {
    block_type = "rule"
    object {
      block "apply_server_side_encryption_by_default" {
        object {
          attr "sse_algorithm" {
            type = string
          }
          attr "kms_master_key_id" {
            type = string
          }
        }
      }
      attr "bucket_key_enabled" {
        type    = bool
        default = false
      }
    }
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "encryption"
  set    = { rules = resource.rules }
  inline = ["server_side_encryption_configuration"]
}
