function f {
  arg a { default = 1 }
  body = a
}

locals {
  args = "not an object"
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", args) }
  }
}
