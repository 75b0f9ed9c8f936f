resources apps {
  for_each = ["frontend", "backend"]
  name     = "${each.value}-svc"
  template {
    body = {
      apiVersion = "v1"
      kind       = "Service"
      metadata   = { name = self.name }
    }
  }
}
