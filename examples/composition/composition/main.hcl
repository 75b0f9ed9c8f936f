// A team's S3 buckets: one Bucket (here) and one BucketVersioning (versioning.hcl) for
// each entry of the XR's spec.buckets, for crossplane's upbound provider-aws.
// `cloudspec render` shows what the function produces; `cloudspec run` judges it with
// ../buckets.cloudspec.

locals {
  team   = req.composite.metadata.name
  region = try(req.composite.spec.region, "eu-west-1")
  // By name, so that a bucket keeps its crossplane name when the list is reordered.
  buckets = { for b in req.composite.spec.buckets : b.name => b }
}

resources bucket {
  for_each = buckets
  name     = "bucket-${each.key}"

  template {
    body = {
      apiVersion = "s3.aws.upbound.io/v1beta1"
      kind       = "Bucket"
      metadata = {
        name = "${team}-${each.key}"
        labels = {
          "example.org/team"   = team
          "example.org/bucket" = each.key
        }
      }
      spec = {
        forProvider = {
          region = try(each.value.region, region)
          tags = {
            team = team
          }
        }
      }
    }
  }
}

composite status {
  body = {
    buckets = [for name, b in buckets : "${team}-${name}"]
  }
}
