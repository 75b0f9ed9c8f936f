requirement cfg {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "absent"
  }
}

resource seen {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      answered = contains(keys(req.extra_resources), "cfg")
      isNull   = req.extra_resources.cfg == null
    }
  }
}
