locals {
  unused = req.composite.spec.nothing
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
