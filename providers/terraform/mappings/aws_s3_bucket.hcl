# aws_s3_bucket -> aws:s3:bucket (ListBuckets and one Get* call per setting).
#
# Decision 3 of design/terraform.md: a setting nobody declares has the value AWS gives a
# new bucket: SSE-S3 encryption (AES256, bucket key off), a public access block with all
# four settings on, ownership BucketOwnerEnforced (ACLs disabled: the owner's full
# control); versioning, logging and a policy are null until declared. The deprecated
# inline settings (versioning, server_side_encryption_configuration, logging, policy)
# are read here; the separate resources (aws_s3_bucket_versioning, ...) override them.
type = "aws:s3:bucket"

locals {
  default_encryption = {
    rules = [{
      apply_server_side_encryption_by_default = { sse_algorithm = "AES256", kms_master_key_id = null }
      bucket_key_enabled                      = false
    }]
  }
  default_public_access_block = {
    block_public_acls       = true
    ignore_public_acls      = true
    block_public_policy     = true
    restrict_public_buckets = true
  }
  owner_full_control = {
    owner = {
      display_name = unknown("the account's canonical user, known after apply")
      id           = unknown("the account's canonical user id, known after apply", true)
    }
    grants = [{
      grantee = {
        type          = "CanonicalUser"
        id            = unknown("the account's canonical user id, known after apply", true)
        uri           = null
        display_name  = unknown("the account's canonical user, known after apply")
        email_address = null
      }
      permission = "FULL_CONTROL"
    }]
  }
}

object {
  attr "name" {
    name     = "bucket"
    type     = string
    computed = true
    not_null = true
    reason   = "bucket is not set: Terraform generates a name"
  }
  unknown "creation_date" {
    not_null = true
  }
  literal "location" {
    value = self.region != null ? self.region : unknown("the provider's region is not known statically", true)
  }
  transform "versioning" {
    block {
      block_type = "versioning"
      object {
        attr "enabled" {
          type    = bool
          default = false
        }
        attr "mfa_delete" {
          type    = bool
          default = false
        }
      }
    }
    # The provider calls PutBucketVersioning for a new bucket only for what is enabled.
    result = nested == null ? null : ((nested.enabled || nested.mfa_delete) ? {
      status     = nested.enabled ? "Enabled" : null
      mfa_delete = nested.mfa_delete ? "Enabled" : null
    } : null)
  }
  default "encryption" {
    block {
      block_type = "server_side_encryption_configuration"
      object {
        block_list "rules" {
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
    }
    literal {
      value = local.default_encryption
    }
  }
  block "logging" {
    object {
      attr "target_bucket" {
        type = string
      }
      attr "target_prefix" {
        type    = string
        default = ""
      }
      literal "target_grants" {
        value = []
      }
      # The deprecated inline block sets no key format: GetBucketLogging leaves it out.
      literal "target_object_key_format" {
        value = null
      }
    }
  }
  literal "public_access_block" {
    value = local.default_public_access_block
  }
  transform "policy" {
    attr {
      type = string
    }
    result = nested == null || nested == "" ? null : document(nested)
  }
  default "acl" {
    transform {
      attr {
        name = "acl"
        type = string
      }
      result = nested == null || nested == "private" ? null : unknown("the grants of the canned ACL ${nested}", true)
    }
    literal {
      value = local.owner_full_control
    }
  }
  literal "ownership_controls" {
    value = { rules = [{ object_ownership = "BucketOwnerEnforced" }] }
  }
  transform "tags" {
    attr {
      type = map(string)
    }
    result = merge(self.default_tags, nested)
  }
}

# AWS computes whether a policy makes the bucket public.
after_merge "policy_status" {
  value = resource.policy == null ? null : { is_public = unknown("computed by AWS from the policy", true) }
}
