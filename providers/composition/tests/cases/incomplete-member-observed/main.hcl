resources nets {
  for_each = ["a", "b"]
  template {
    body = {
      apiVersion = "ec2.aws.upbound.io/v1beta1"
      kind       = "Subnet"
      spec = {
        forProvider = {
          cidr = each.value == "b" ? req.composite.spec.cidr : "10.0.0.0/24"
        }
      }
    }
  }
}
