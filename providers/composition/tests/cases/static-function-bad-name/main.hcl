function "1x" {
  body = 1
}

function g {
  arg "2b" {}
  body = 1
}
