requirement cfg {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "base"
  }
}

context {
  key   = "example.com/calls"
  value = try(req.context["example.com/calls"], 0) + 1
}
