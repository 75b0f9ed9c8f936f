context {
  key   = "example.com/k"
  value = { a = { b = 1 } }
}

context {
  key   = "example.com/k"
  value = { a = { b = 2 } }
}
