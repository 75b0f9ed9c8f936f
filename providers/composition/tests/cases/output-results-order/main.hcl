resource first {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = req.composite.spec.missingOne }
  }
}

composite status {
  body = { y = req.composite.spec.missingTwo }
}

resource kept {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
