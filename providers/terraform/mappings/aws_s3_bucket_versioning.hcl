# aws_s3_bucket_versioning: no resource of its own; its bucket's versioning. "Disabled" is
# Terraform's word for never versioned (GetBucketVersioning: no status, so null). The
# bucket is found by reference (bucket = aws_s3_bucket.b.id) or by name; it overrides the
# bucket's deprecated inline versioning (with a warning). Without its bucket in the
# configuration it is dropped with a warning.

object {
  attr "bucket" {
    type = string
  }
  block "versioning_configuration" {
    object {
      attr "status" {
        type = string
      }
      attr "mfa_delete" {
        type = string
      }
    }
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "versioning"
  set    = resource.versioning_configuration.status == "Disabled" ? null : resource.versioning_configuration
  inline = ["versioning"]
}
