requirement cfg {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}

resource before {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { value = req.extra_resources.cfg[0].data.value }
  }
}
