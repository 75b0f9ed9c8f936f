resource early {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = req.composite.spec.first }
  }
}

locals {
  late = req.composite.spec.second
}
