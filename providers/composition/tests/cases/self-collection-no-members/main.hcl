resources items {
  for_each = ["a"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        basename        = self.basename
        name            = self.name
        resourcesNull   = self.resources == null
        connectionsNull = self.connections == null
        resourceNull    = self.resource == null
        connectionNull  = self.connection == null
      }
    }
  }
}
