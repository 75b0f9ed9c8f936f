resource t {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready {
    value = "READY_TRUE"
  }
}

resource f {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready {
    locals {
      v = "READY_FALSE"
    }
    value = v
  }
}

resource u {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready {
    value = "READY_UNSPECIFIED"
  }
}

resources m {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
    ready {
      value = "READY_TRUE"
    }
  }
}

resource none {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}
