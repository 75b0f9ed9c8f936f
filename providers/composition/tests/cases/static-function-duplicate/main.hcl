function f {
  body = 1
}

function f {
  body = 2
}
