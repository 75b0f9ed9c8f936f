function depth {
  arg n {}
  body = n == 0 ? 0 : 1 + invoke("depth", { n = n - 1 })
}

resource deep98 {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { depth = invoke("depth", { n = 98 }) }
  }
}

resource deep99 {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { depth = invoke("depth", { n = 99 }) }
  }
}

resource after {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { depth = invoke("depth", { n = 98 }) }
  }
}
