resource web {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      name          = self.name
      observedNull  = self.resource == null
      connectionNull = self.connection == null
    }
  }
}
