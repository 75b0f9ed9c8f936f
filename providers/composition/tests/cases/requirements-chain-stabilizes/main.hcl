requirement first {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = "a"
  }
}

requirement second {
  condition = req.extra_resources.first != null
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = req.extra_resources.first[0].data.next
  }
}

resource out {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { last = req.extra_resources.second[0].metadata.name }
  }
}
