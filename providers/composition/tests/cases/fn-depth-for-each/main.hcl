function depth {
  arg n {}
  body = n == 0 ? [0] : concat([n], invoke("depth", { n = n - 1 }))
}

resources deep {
  for_each = invoke("depth", { n = 99 })
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
