requirement envs {
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchLabels = { tier = "env", team = "a" }
  }
}

resource names {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      names = join(",", [for o in req.extra_resources.envs : o.metadata.name])
    }
  }
}
