requirement base {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}

resource copy {
  condition = req.extra_resources.base != null
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      count = length(req.extra_resources.base)
      value = req.extra_resources.base[0].data.value
    }
  }
}
