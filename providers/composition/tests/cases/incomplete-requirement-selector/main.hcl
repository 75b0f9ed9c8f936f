locals {
  wanted = req.composite.spec.configName
}

requirement byLocal {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = wanted
  }
}

requirement byError {
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchLabels = { app = req.composite.spec.app }
  }
}

requirement fine {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}
