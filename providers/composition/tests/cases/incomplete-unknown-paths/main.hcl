locals {
  bad = req.composite.spec.nothing
  obj = {
    a    = 1
    list = [{ x = bad }, { y = 2 }]
    m    = { k = bad }
  }
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = obj
  }
}
