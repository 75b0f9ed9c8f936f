requirement chain {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = try(req.extra_resources.chain[0].data.next, "a")
  }
}
