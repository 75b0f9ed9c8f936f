locals {
  x = "outer"
}

resource r1 {
  locals {
    req = "mine"
  }
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resource r2 {
  locals {
    self = "mine"
  }
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resources rs {
  for_each = ["a"]
  template {
    locals {
      each = "mine"
    }
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}

group {
  resource r3 {
    locals {
      x = "inner"
    }
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data       = { x = x }
    }
  }
}
