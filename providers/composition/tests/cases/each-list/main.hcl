resources workers {
  for_each = ["alpha", "beta"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        key      = each.key
        keyIsNum = each.key + 1
        value    = each.value
      }
    }
  }
}
