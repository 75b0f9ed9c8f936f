resources web {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

resources other {
  for_each = ["x"]
  name     = "web-${each.key}"
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
