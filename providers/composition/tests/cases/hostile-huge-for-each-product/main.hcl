locals {
  side = [for i in range(1000) : i]
}

resources many {
  for_each = flatten([for i in side : [for j in side : "${i}-${j}"]])
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
