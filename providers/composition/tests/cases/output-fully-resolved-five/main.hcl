resource a {
  body = { apiVersion = "v1", kind = "ConfigMap", data = { x = req.composite.spec.a } }
}

resource b {
  body = { apiVersion = "v1", kind = "ConfigMap", data = { x = req.composite.spec.b } }
}

resource c {
  body = { apiVersion = "v1", kind = "ConfigMap", data = { x = req.composite.spec.c } }
}

composite status {
  body = { d = req.composite.spec.d }
}

context {
  key   = "example.com/e"
  value = req.composite.spec.e
}
