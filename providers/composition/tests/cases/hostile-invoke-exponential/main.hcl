function fib {
  arg n {}
  body = n < 2 ? n : invoke("fib", { n = n - 1 }) + invoke("fib", { n = n - 2 })
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { x = invoke("fib", { n = 40 }) }
  }
}
