# aws_s3_bucket_logging: no resource of its own; its bucket's logging (see
# aws_s3_bucket_versioning.hcl for how the bucket is found). It overrides the bucket's
# deprecated inline logging (with a warning).

object {
  attr "bucket" {
    type = string
  }
  object "logging" {
    attr "target_bucket" {
      type = string
    }
    attr "target_prefix" {
      type    = string
      default = ""
    }
    block_list "target_grants" {
      block_type = "target_grant"
      object {
        block "grantee" {
          object {
            attr "type" {
              type = string
            }
            attr "id" {
              type = string
            }
            attr "uri" {
              type = string
            }
            attr "email_address" {
              type = string
            }
          }
        }
        attr "permission" {
          type = string
        }
      }
    }
    # As GetBucketLogging gives it: null when not set (keys then have the simple prefix
    # form); else exactly one of an empty simple_prefix and a partitioned_prefix.
    block "target_object_key_format" {
      object {
        block "simple_prefix" {
          object {}
        }
        block "partitioned_prefix" {
          object {
            attr "partition_date_source" {
              type = string
            }
          }
        }
      }
    }
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "logging"
  set = {
    target_bucket = resource.logging.target_bucket
    target_prefix = resource.logging.target_prefix
    target_grants = [for g in resource.logging.target_grants : {
      grantee = {
        type          = g.grantee.type
        id            = g.grantee.id
        uri           = g.grantee.uri
        display_name  = unknown("computed by AWS after apply")
        email_address = g.grantee.email_address
      }
      permission = g.permission
    }]
    target_object_key_format = resource.logging.target_object_key_format
  }
  inline = ["logging"]
}
