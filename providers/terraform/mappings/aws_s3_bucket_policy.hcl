# aws_s3_bucket_policy: no resource of its own; its bucket's policy, the document parsed
# with its own keys (Statement, Effect). See aws_s3_bucket_versioning.hcl for how the
# bucket is found; it overrides the bucket's deprecated inline policy (with a warning).

object {
  attr "bucket" {
    type = string
  }
  transform "policy" {
    attr {
      type = string
    }
    result = document(nested)
  }
}

contribute {
  to     = "aws:s3:bucket"
  target = resource.bucket
  match  = "name"
  path   = "policy"
  set    = resource.policy
  inline = ["policy"]
}
