function f {
  arg a {}
  arg b { default = 1 }
  body = a + b
}

function g {
  arg n {}
  locals {
    viaLocal = invoke("h", {})
  }
  body = invoke("f", { b = n })
}
