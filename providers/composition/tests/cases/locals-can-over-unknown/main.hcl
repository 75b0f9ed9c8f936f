locals {
  foo = req.composite.spec.missing
}

resource r {
  condition = can(foo)
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resource s {
  condition = can(req.composite.spec.missing)
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
