resources many {
  for_each = range(1000000)
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
