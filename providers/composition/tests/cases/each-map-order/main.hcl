resources dbs {
  for_each = {
    zeta  = "small"
    alpha = "large"
    mid   = "medium"
  }
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        key   = each.key
        value = each.value
      }
    }
  }
}

resources fromMap {
  for_each = tomap({ b = 1, a = 2 })
  name     = "map-${each.key}"
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        value = each.value
      }
    }
  }
}
