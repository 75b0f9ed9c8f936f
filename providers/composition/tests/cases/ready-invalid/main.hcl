resource R {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready {
    value = "TRUE"
  }
}
