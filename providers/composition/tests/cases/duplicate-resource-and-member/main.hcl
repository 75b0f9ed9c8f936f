resource web-0 {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resources web {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
