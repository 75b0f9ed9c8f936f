function factorial {
  arg n {}
  body = n < 1 ? 1 : n * invoke("factorial", { n = n - 1 })
}

function isEven {
  arg n {}
  body = n == 0 ? true : invoke("isOdd", { n = n - 1 })
}

function isOdd {
  arg n {}
  body = n == 0 ? false : invoke("isEven", { n = n - 1 })
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      fact5   = invoke("factorial", { n = 5 })
      fact0   = invoke("factorial", { n = 0 })
      even10  = invoke("isEven", { n = 10 })
      odd7    = invoke("isOdd", { n = 7 })
    }
  }
}
