locals {
  top = "t"
}

group {
  locals {
    inGroup = "${top}-g"
  }

  resource one {
    locals {
      mine = "${inGroup}-one"
    }
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data       = { value = mine }
    }
  }

  resources many {
    locals {
      inCollection = "${inGroup}-c"
    }
    for_each = ["x"]
    template {
      locals {
        mine = "${inCollection}-${each.value}"
      }
      body = {
        apiVersion = "v1"
        kind       = "ConfigMap"
        data       = { value = mine }
      }
    }
  }
}

resource two {
  locals {
    mine = "${top}-two"
  }
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { value = mine }
  }
}
