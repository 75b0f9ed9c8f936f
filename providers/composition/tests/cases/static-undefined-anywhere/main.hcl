group {
  condition = false

  resource r {
    condition = nope1
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data       = { x = nope2 }
    }

    composite status {
      body = { y = nope3 }
    }

    ready {
      value = nope4
    }
  }

  resources rs {
    for_each = nope5
    name     = "${each.key}-${nope6}"
    template {
      body = { z = nope7 }
    }
  }

  context {
    key   = nope8
    value = nope9
  }

  requirement cfg {
    select {
      apiVersion = "v1"
      kind       = "ConfigMap"
      matchName  = nope10
    }
  }

  composite connection {
    locals {
      l = nope11
    }
    body = { k = l }
  }
}
