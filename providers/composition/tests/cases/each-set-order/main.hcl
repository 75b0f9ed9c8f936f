resources tags {
  for_each = toset(["b", "c", "a", "b"])
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        key   = each.key
        value = each.value
      }
    }
  }
}

resources nums {
  for_each = toset([10, 2, 33])
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        key = each.key
      }
    }
  }
}
