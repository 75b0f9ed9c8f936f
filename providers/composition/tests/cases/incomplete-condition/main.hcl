resource skipped {
  condition = req.composite.spec.createIt
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resource off {
  condition = req.composite.spec.size > 5
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resource on {
  condition = req.composite.spec.size > 1
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
