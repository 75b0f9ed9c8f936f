requirement byName {
  condition = false
  select {
    apiVersion = 1
    kind       = true
    matchName  = ["x"]
  }
}

requirement byLabels {
  condition = false
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchLabels = { k = 1 }
  }
}

requirement notObject {
  condition = false
  select {
    apiVersion  = "v1"
    kind        = "ConfigMap"
    matchLabels = "k=v"
  }
}
