function wrap {
  arg x {}
  body = invoke("wrap", { x = [[[[[[[[[[x]]]]]]]]]] })
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("wrap", { x = 1 }) }
  }
}
