resources B {
  for_each = null
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
