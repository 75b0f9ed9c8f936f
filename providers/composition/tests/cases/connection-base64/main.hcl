composite connection {
  body = {
    url = base64encode("http")
  }
}

resource db {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
  composite connection {
    body = {
      user = "YWRtaW4="
      url  = "aHR0cA=="
    }
  }
}
