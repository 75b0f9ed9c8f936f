function f {
  arg a {}
  body = "${a}-${req.composite.metadata.name}"
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("f", { a = "x" }) }
  }
}
