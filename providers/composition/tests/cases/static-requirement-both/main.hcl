requirement cfg {
  condition = false
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchName   = "base"
    matchLabels = { k = "v" }
  }
}
