function f {
  arg a {}
  arg b { default = 1 }
  body = a + b
}

locals {
  which    = "f"
  count    = invoke("f")
  dynamic  = invoke(which, { a = 1 })
  unknown  = invoke("nope", {})
  computed = invoke("f", { (which) = 1 })
}

resource r {
  condition = false
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", { a = 1, k = 2 }) }
  }
}
