group {
  condition = req.composite.spec.groupOn

  resource inGroup {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

resources coll {
  condition = req.composite.spec.collOn
  for_each  = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

requirement cfg {
  condition = req.composite.spec.reqOn
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}
