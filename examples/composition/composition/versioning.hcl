// Versioning for every bucket of main.hcl: Enabled unless the XR turns it off.

resources versioning {
  for_each = buckets
  name     = "versioning-${each.key}"

  template {
    body = {
      apiVersion = "s3.aws.upbound.io/v1beta1"
      kind       = "BucketVersioning"
      metadata = {
        name = "${team}-${each.key}"
      }
      spec = {
        forProvider = {
          region = try(each.value.region, region)
          bucketRef = {
            name = "${team}-${each.key}"
          }
          versioningConfiguration = [
            { status = try(each.value.versioning, true) ? "Enabled" : "Suspended" }
          ]
        }
      }
    }
  }
}
