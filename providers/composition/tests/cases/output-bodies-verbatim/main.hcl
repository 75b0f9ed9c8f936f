resource r {
  body = {
    kind       = "ConfigMap"
    apiVersion = "v1"
    metadata = {
      name   = "explicit"
      labels = null
    }
    data = {
      nothing = null
      list    = [null, 1, "two", true, { nested = null }]
      number  = 1.5
      big     = 12345678901234567890
    }
  }
}
