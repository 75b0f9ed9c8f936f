function f {
  arg a {}
  arg b { default = "B" }
  body = "${a}-${b}"
}

locals {
  args = { a = "A" }
  bad  = { c = "C" }
  none = {}
}

resource good {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", args) }
  }
}

resource invalid {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", bad) }
  }
}

resource missing {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", none) }
  }
}
