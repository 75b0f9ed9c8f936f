composite status {
  body = {
    foo   = { bar = { baz = { x = 10 } } }
    same  = "s"
    empty = null
  }
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  composite status {
    body = {
      foo  = { bar = { baz = { y = 12 } } }
      same = "s"
      list = [1, 2]
    }
  }
}

composite status {
  body = {
    list = [1, 2]
  }
}
