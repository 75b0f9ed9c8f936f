resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { fromA = fromA, missing = req.composite.spec.nothing }
  }
}
