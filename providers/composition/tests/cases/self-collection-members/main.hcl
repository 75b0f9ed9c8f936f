resources items {
  for_each = ["a", "b"]

  locals {
    observedNames = [for r in self.resources : r.metadata.name]
  }

  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      metadata = {
        name = "${self.basename}-${each.value}"
      }
      data = {
        observedNames = join(",", observedNames)
        connections   = length(self.connections)
        mine          = self.resource.metadata.name
        reqNames      = join(",", [for r in req.resources.items : r.metadata.name])
        reqResource   = join(",", keys(req.resource))
      }
    }
  }
}
