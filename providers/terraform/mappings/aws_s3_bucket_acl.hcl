# aws_s3_bucket_acl: no resource of its own; its bucket's acl (GetBucketAcl: the owner and
# the grants). See aws_s3_bucket_versioning.hcl for how the bucket is found; it overrides
# the bucket's deprecated inline acl and grant (with a warning).
#
# A canned acl gives the grants AWS documents for it on a bucket (S3 user guide, "Canned
# ACL"): the owner's FULL_CONTROL, plus READ (and WRITE) to AllUsers for public-read
# (public-read-write), READ to AuthenticatedUsers for authenticated-read, WRITE and
# READ_ACP to LogDelivery for log-delivery-write, READ to an Amazon EC2 account for
# aws-exec-read. access_control_policy gives its grants and owner as written.

locals {
  groups = "http://acs.amazonaws.com/groups/"
  owner = {
    display_name = unknown("the account's canonical user, known after apply")
    id           = unknown("the account's canonical user id, known after apply", true)
  }
  owner_full_control = {
    grantee = {
      type          = "CanonicalUser"
      id            = unknown("the account's canonical user id, known after apply", true)
      uri           = null
      display_name  = unknown("the account's canonical user, known after apply")
      email_address = null
    }
    permission = "FULL_CONTROL"
  }
  group_grants = {
    private                   = []
    bucket-owner-read         = []
    bucket-owner-full-control = []
    public-read               = [["global/AllUsers", "READ"]]
    public-read-write         = [["global/AllUsers", "READ"], ["global/AllUsers", "WRITE"]]
    authenticated-read        = [["global/AuthenticatedUsers", "READ"]]
    log-delivery-write        = [["s3/LogDelivery", "WRITE"], ["s3/LogDelivery", "READ_ACP"]]
  }
}

object {
  attr "bucket" {
    type = string
  }
  # access_control_policy: its owner and grants as written.
  transform "written" {
    block {
      block_type = "access_control_policy"
      object {
        block_list "grant" {
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
        block "owner" {
          object {
            attr "id" {
              type = string
            }
            attr "display_name" {
              type = string
            }
          }
        }
      }
    }
    result = nested == null ? null : {
      owner = {
        id           = nested.owner.id
        display_name = choose(nested.owner.display_name == null, unknown("the owner's display name, known after apply"), nested.owner.display_name)
      }
      grants = [for g in nested.grant : {
        grantee = {
          type          = g.grantee.type
          id            = g.grantee.id == "" ? null : g.grantee.id
          uri           = g.grantee.uri == "" ? null : g.grantee.uri
          display_name  = choose(g.grantee.type == "CanonicalUser", unknown("the grantee's display name, known after apply"), null)
          email_address = g.grantee.email_address == "" ? null : g.grantee.email_address
        }
        permission = g.permission
      }]
    }
  }
  attr "acl" {
    type = string
  }
}

# The grants as written, else those of the canned ACL (private when neither is written).
contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "acl"
  set = choose(
    resource.written != null,
    resource.written,
    choose(
      contains(keys(local.group_grants), known(resource.acl) ? coalesce(resource.acl, "private") : "not known"),
      {
        owner = local.owner
        grants = concat([local.owner_full_control], [for g in lookup(local.group_grants, known(resource.acl) ? coalesce(resource.acl, "private") : "private", []) : {
          grantee = {
            type          = "Group"
            id            = null
            uri           = "${local.groups}${g[0]}"
            display_name  = null
            email_address = null
          }
          permission = g[1]
        }])
      },
      unknown(known(resource.acl) ? "the grants of the canned ACL ${coalesce(resource.acl, "private")}, known after apply" : "the canned ACL is not known before apply", true),
    ),
  )
  inline = ["acl", "grant"]
}
