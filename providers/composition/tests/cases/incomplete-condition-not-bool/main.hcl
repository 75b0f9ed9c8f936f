resource X {
  condition = "yes"
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
