requirement cfg {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}

resource seen {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      isNull = req.extra_resources.cfg == null
    }
  }
}
