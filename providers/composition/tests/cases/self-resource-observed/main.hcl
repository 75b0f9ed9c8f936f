resource web {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      name           = self.name
      arn            = self.resource.status.arn
      connectionNull = self.connection == null
      viaReq         = req.resource.web.status.arn
      reqConnection  = req.connection.web
      managedFields  = contains(keys(self.resource.metadata), "managedFields")
    }
  }

  composite status {
    body = {
      webArn = self.resource.status.arn
    }
  }
}
