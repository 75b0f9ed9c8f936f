resources B {
  for_each = [{ id = "a" }]
  name     = "b-${each.value.missing}"
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
