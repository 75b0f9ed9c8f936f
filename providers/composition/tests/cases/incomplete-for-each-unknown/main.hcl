locals {
  items = req.composite.spec.items
}

resources B {
  for_each = items
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
