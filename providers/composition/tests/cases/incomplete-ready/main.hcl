resource web {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  ready {
    value = self.resource.status.ready ? "READY_TRUE" : "READY_FALSE"
  }
}
