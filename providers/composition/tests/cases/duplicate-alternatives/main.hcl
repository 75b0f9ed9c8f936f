resource web {
  condition = req.composite.spec.size > 1
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { flavour = "large" }
  }
}

resource web {
  condition = req.composite.spec.size <= 1
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { flavour = "small" }
  }
}
