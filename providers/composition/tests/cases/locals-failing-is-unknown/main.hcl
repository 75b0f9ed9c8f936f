locals {
  missing = req.composite.spec.nothing
  fine    = req.composite.spec.region
  guarded = try(missing, "fallback")
}

resource uses-missing {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { value = missing }
  }
}

resource uses-fine {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { value = fine }
  }
}

resource uses-try {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { value = guarded }
  }
}
