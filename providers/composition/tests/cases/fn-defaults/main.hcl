function addNumbers {
  description = "adds two numbers"
  arg a {
    description = "the first"
  }
  arg b {
    default = 1
  }
  locals {
    output = a + b
  }
  body = output
}

resource r {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data = {
      both    = invoke("addNumbers", { a = 2, b = 3 })
      default = invoke("addNumbers", { a = 2 })
    }
  }
}
