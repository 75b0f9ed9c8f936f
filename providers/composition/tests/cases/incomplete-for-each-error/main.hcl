resources B {
  for_each = req.composite.spec.items
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
