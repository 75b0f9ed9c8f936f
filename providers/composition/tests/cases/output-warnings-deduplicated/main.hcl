resources items {
  for_each = ["a", "b"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data       = { x = req.composite.spec.missing }
    }
  }
}
