resources B {
  for_each = ["a"]
  name     = each.key
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
