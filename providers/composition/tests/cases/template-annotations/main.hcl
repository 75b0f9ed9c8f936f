resources withAnnotations {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      metadata = {
        name        = "keep"
        annotations = { "example.com/mine" = "yes" }
      }
    }
  }
}

resources bare {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

resource single {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
