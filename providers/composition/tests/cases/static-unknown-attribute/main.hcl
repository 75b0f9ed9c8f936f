resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready = true
}
