group {
  condition = false
  requirement cfg {
    select {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
