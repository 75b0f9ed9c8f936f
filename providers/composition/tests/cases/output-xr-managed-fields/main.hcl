resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      hasManagedFields = contains(keys(req.composite.metadata), "managedFields")
      name             = req.composite.metadata.name
      compositeConnectionNull = req.composite_connection == null
      context          = length(req.context)
    }
  }
}
