resources B {
  for_each = req.composite.spec.region
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
