resources rs {
  for_each = [each.key]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { k = each.key }
  }
}
